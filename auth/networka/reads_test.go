package networka

import (
	"context"
	"encoding/json"
	"fmt"
	"net/url"
	"reflect"
	"strings"
	"testing"
	"time"

	"adboost/auth/networkafake"
)

// TestConversionAction: the action type that counts a campaign's
// conversions, from its promoted object: a custom conversion by its id
// (text or number, digits kept beyond 2^53), else the pixel's event in
// lower case, else the pixel's purchase; anything that is not an object
// with those is the purchase.
func TestConversionAction(t *testing.T) {
	t.Parallel()
	for in, want := range map[string]string{
		``:                                 "offsite_conversion.fb_pixel_purchase",
		`null`:                             "offsite_conversion.fb_pixel_purchase",
		`{}`:                               "offsite_conversion.fb_pixel_purchase",
		`{"pixel_id":"1"}`:                 "offsite_conversion.fb_pixel_purchase",
		`{"custom_event_type":""}`:         "offsite_conversion.fb_pixel_purchase",
		`{"custom_event_type":"PURCHASE"}`: "offsite_conversion.fb_pixel_purchase",
		`{"custom_event_type":"Lead"}`:     "offsite_conversion.fb_pixel_lead",
		`{"pixel_id":"1","custom_event_type":"COMPLETE_REGISTRATION"}`:          "offsite_conversion.fb_pixel_complete_registration",
		`{"custom_conversion_id":"998877"}`:                                     "offsite_conversion.custom.998877",
		`{"custom_conversion_id":998877}`:                                       "offsite_conversion.custom.998877",
		`{"custom_conversion_id":12345678901234567890}`:                         "offsite_conversion.custom.12345678901234567890",
		`{"custom_conversion_id":"42","custom_event_type":"PURCHASE"}`:          "offsite_conversion.custom.42",
		`{"custom_conversion_id":"","custom_event_type":"ADD_TO_CART"}`:         "offsite_conversion.fb_pixel_add_to_cart",
		`{"custom_conversion_id":null,"custom_event_type":"ADD_TO_CART"}`:       "offsite_conversion.fb_pixel_add_to_cart",
		`{"custom_conversion_id":{"id":"1"},"custom_event_type":"ADD_TO_CART"}`: "offsite_conversion.fb_pixel_add_to_cart",
		`"PURCHASE"`: "offsite_conversion.fb_pixel_purchase",
		`[1,2]`:      "offsite_conversion.fb_pixel_purchase",
		`{not json`:  "offsite_conversion.fb_pixel_purchase",
	} {
		var raw json.RawMessage
		if in != "" {
			raw = json.RawMessage(in)
		}
		if got := ConversionAction(raw); got != want {
			t.Errorf("ConversionAction(%s) = %q, want %q", in, got, want)
		}
	}
}

// TestConversionsCountedOnce: network_a reports each conversion under its
// pixel's (or custom conversion's) type and again under grouped types
// (offsite_conversion, omni_<event>); AdInsights with the campaign's
// ConversionAction counts it once, and another campaign's action type
// counts none.
func TestConversionsCountedOnce(t *testing.T) {
	t.Parallel()
	fake, base := startWorld(t)
	fake.AddPost("11", networkafake.Post{ID: "11_1"})
	c := newClient(t, base, Options{})
	ctx := context.Background()
	s := Scope{User: "1", AdAccount: "act_1"}
	for i, promoted := range []string{
		`{"pixel_id":"1"}`,
		`{"pixel_id":"1","custom_event_type":"ADD_TO_CART"}`,
		`{"pixel_id":"1","custom_event_type":"OTHER"}`,
		`{"pixel_id":"1","custom_conversion_id":"555"}`,
	} {
		campaign := campaignBody(fmt.Sprintf("adboost-%d", i))
		campaign["objective"] = "OUTCOME_SALES"
		campaignID, err := c.Create(ctx, tokenA, "campaign", campaign, s)
		if err != nil {
			t.Fatal(err)
		}
		adset := adSetBody(fmt.Sprintf("adboost-%d", i), campaignID)
		adset["optimization_goal"] = "OFFSITE_CONVERSIONS"
		adset["promoted_object"] = json.RawMessage(promoted)
		delete(adset, "destination_type")
		adsetID, err := c.Create(ctx, tokenA, "adset", adset, s)
		if err != nil {
			t.Fatal(err)
		}
		adID, err := c.Create(ctx, tokenA, "ad", map[string]any{"name": fmt.Sprintf("adboost-%d-1", i), "adset_id": adsetID, "status": "ACTIVE",
			"creative": map[string]any{"object_story_id": "11_1", "instagram_user_id": "711"}}, s)
		if err != nil {
			t.Fatal(err)
		}
		fake.SetAdInsights(adID, networkafake.Insights{Impressions: 100, Engagement: 9, Conversions: 4, Spend: "2.00"})
		action := ConversionAction(json.RawMessage(promoted))
		rows, bad, err := c.AdInsights(ctx, tokenA, campaignID, action, s)
		want := map[string]Insights{adID: {Impressions: 100, Engagement: 9, Conversions: 4, Spend: "2.00"}}
		if err != nil || len(bad) != 0 || !reflect.DeepEqual(rows, want) {
			t.Fatalf("%s: AdInsights(%s) = %+v, bad %v, %v; want %+v", promoted, action, rows, bad, err, want)
		}
		for _, other := range []string{"offsite_conversion.fb_pixel_lead", "offsite_conversion.custom.1"} {
			rows, _, err := c.AdInsights(ctx, tokenA, campaignID, other, s)
			if err != nil || rows[adID].Conversions != 0 {
				t.Fatalf("%s: AdInsights(%s) = %+v, %v; want no conversions", promoted, other, rows, err)
			}
		}
	}
}

// TestAdReview: an ad's review from its effective status and feedback:
// pending, approved, disapproved with the global texts in the order of
// their keys joined by "; ", with_issues with the issues' summaries in
// their order (the message when a summary is missing).
func TestAdReview(t *testing.T) {
	t.Parallel()
	disapproved := Ad{Status: "DISAPPROVED"}
	disapproved.Feedback.Global = map[string]string{"Tobacco": "Ads can't promote tobacco.", "Circumventing Systems": "Ads can't\n circumvent review.",
		"Adult Content": "Ads can't show adult content."}
	issues := Ad{Status: "WITH_ISSUES"}
	json.Unmarshal([]byte(`{"issues_info":[{"error_summary":"Payment failed"},{"error_message":"Page unpublished"},{"error_summary":"Image has too much text","error_message":"long"}]}`), &issues)
	for _, c := range []struct {
		ad             Ad
		status, reason string
	}{
		{Ad{Status: "PENDING_REVIEW"}, ReviewPending, ""},
		{Ad{Status: "IN_PROCESS"}, ReviewPending, ""},
		{Ad{Status: "ACTIVE"}, ReviewApproved, ""},
		{Ad{Status: "PAUSED"}, ReviewApproved, ""},
		{Ad{Status: "CAMPAIGN_PAUSED"}, ReviewApproved, ""},
		{Ad{Status: "PREAPPROVED"}, ReviewApproved, ""},
		{Ad{Status: "PENDING_BILLING_INFO"}, ReviewApproved, ""},
		{Ad{Status: "DISAPPROVED"}, ReviewDisapproved, ""},
		{disapproved, ReviewDisapproved, "Ads can't show adult content.; Ads can't circumvent review.; Ads can't promote tobacco."},
		{issues, ReviewWithIssues, "Payment failed; Page unpublished; Image has too much text"},
	} {
		if status, reason := c.ad.Review(); status != c.status || reason != c.reason {
			t.Errorf("Review of %s = %s %q, want %s %q", c.ad.Status, status, reason, c.status, c.reason)
		}
	}
}

// TestAdsReviewFeedback: Ads reads each ad's review feedback and issues
// from network_a, and Review answers them.
func TestAdsReviewFeedback(t *testing.T) {
	t.Parallel()
	fake, base := startWorld(t)
	for i := 1; i <= 5; i++ {
		fake.AddPost("11", networkafake.Post{ID: fmt.Sprintf("11_%d", i)})
	}
	c := newClient(t, base, Options{})
	campaign, ads := campaignWithAds(t, c, "11_1", "11_2", "11_3", "11_4", "11_5")
	fake.SetAdReviewFeedback(ads[0], networkafake.ReviewDisapproved,
		map[string]string{"b": "Second reason.", "a": "First reason.", "c": "Third reason."}, nil)
	fake.SetAdReviewFeedback(ads[1], networkafake.ReviewWithIssues, nil, []networkafake.Issue{
		{ErrorCode: 1, ErrorMessage: "The page was unpublished.", ErrorSummary: "Page unpublished", Level: "AD"},
		{ErrorCode: 2, ErrorMessage: "The card was declined.", ErrorSummary: "Payment failed", Level: "CAMPAIGN"}})
	fake.SetAdReview(ads[2], networkafake.ReviewPending)
	fake.SetAdReview(ads[3], networkafake.ReviewInProcess)
	got, err := c.Ads(context.Background(), tokenA, campaign, Scope{User: "1", AdAccount: "act_1"})
	if err != nil {
		t.Fatal(err)
	}
	var reviews []string
	for _, a := range got {
		status, reason := a.Review()
		reviews = append(reviews, fmt.Sprintf("%s %s %s %s", a.ID, a.Status, status, reason))
	}
	want := []string{
		ads[0] + " DISAPPROVED disapproved First reason.; Second reason.; Third reason.",
		ads[1] + " WITH_ISSUES with_issues Page unpublished; Payment failed",
		ads[2] + " PENDING_REVIEW pending ",
		ads[3] + " IN_PROCESS pending ",
		ads[4] + " ACTIVE approved ",
	}
	if !reflect.DeepEqual(reviews, want) {
		t.Fatalf("reviews\n%s\nwant\n%s", strings.Join(reviews, "\n"), strings.Join(want, "\n"))
	}
}

// TestCities: each city is looked up by its name in its country, and its
// key is network_a's entry of the same name and country, of the same
// region when several are; a city network_a does not know, or cannot tell
// apart, has no key. The look-ups go out at once, in one batch when the
// client batches.
func TestCities(t *testing.T) {
	t.Parallel()
	for _, batch := range []bool{false, true} {
		t.Run(fmt.Sprintf("batch=%v", batch), func(t *testing.T) {
			t.Parallel()
			fake, base := startWorld(t)
			for _, city := range []networkafake.City{
				{Key: "2420001", Name: "Brno-venkov", CountryCode: "CZ", Region: "South Moravian Region"},
				{Key: "2420605", Name: "Brno", CountryCode: "CZ", Region: "South Moravian Region"},
				{Key: "10", Name: "Springfield", CountryCode: "US", Region: "Illinois"},
				{Key: "11", Name: "Springfield", CountryCode: "US", Region: "Missouri"},
				{Key: "30", Name: "Paris", CountryCode: "FR", Region: "Île-de-France"},
				{Key: "31", Name: "Paris", CountryCode: "US", Region: "Texas"},
				{Key: "40", Name: "Praha", CountryCode: "CZ", Region: "Prague"},
			} {
				fake.AddCity(city)
			}
			c := newClient(t, base, Options{Batch: batch, Linger: 200 * time.Millisecond})
			queries := []CityQuery{
				{Name: "Brno", CountryCode: "CZ"},
				{Name: "brno", CountryCode: "cz", Region: "Elsewhere"},
				{Name: "Springfield", CountryCode: "US", Region: "Missouri"},
				{Name: "Springfield", CountryCode: "US", Region: "missouri"},
				{Name: "Springfield", CountryCode: "US"},
				{Name: "Springfield", CountryCode: "US", Region: "Ohio"},
				{Name: "Paris", CountryCode: "US"},
				{Name: "Paris", CountryCode: "FR"},
				{Name: "Brno", CountryCode: "SK"},
				{Name: "Atlantis", CountryCode: "GR"},
				{Name: "Prah", CountryCode: "CZ"},
			}
			keys, errs := c.Cities(context.Background(), tokenA, queries, Scope{User: "1"})
			want := []string{"2420605", "2420605", "11", "11", "", "", "31", "30", "", "", ""}
			if !reflect.DeepEqual(keys, want) {
				t.Fatalf("keys %q, want %q", keys, want)
			}
			for i, err := range errs {
				if err != nil {
					t.Fatalf("look-up %d = %v", i, err)
				}
			}
			calls := fake.Calls()
			if len(calls) != len(queries) {
				t.Fatalf("%d calls, want %d", len(calls), len(queries))
			}
			for i, cl := range calls {
				q := query(t, cl.Path)
				want := url.Values{"type": {"adgeolocation"}, "location_types": {`["city"]`}, "q": {queries[i].Name},
					"country_code": {queries[i].CountryCode}, "limit": {"25"}}
				if cl.Method != "GET" || !strings.HasPrefix(cl.Path, "/search?") || !reflect.DeepEqual(q, want) || cl.Token != tokenA || cl.Batched != batch {
					t.Errorf("look-up %d asked as %+v", i, cl)
				}
			}
			if reqs := fake.Requests(); batch && len(reqs) != 1 {
				t.Fatalf("%d requests, want one batch", len(reqs))
			}
		})
	}
}

// TestCitiesRefused: a look-up network_a refuses is an error of its own
// and has no key.
func TestCitiesRefused(t *testing.T) {
	t.Parallel()
	fake, base := startWorld(t)
	fake.AddCity(networkafake.City{Key: "2420605", Name: "Brno", CountryCode: "CZ"})
	fake.ExpireToken(tokenB)
	c := newClient(t, base, Options{})
	keys, errs := c.Cities(context.Background(), tokenB, []CityQuery{{Name: "Brno", CountryCode: "CZ"}}, Scope{})
	if keys[0] != "" || !TokenRefused(errs[0]) {
		t.Fatalf("a look-up with an expired token = %q, %v", keys[0], errs[0])
	}
	keys, errs = c.Cities(context.Background(), tokenA, []CityQuery{{Name: "", CountryCode: "CZ"}}, Scope{})
	if keys[0] != "" || !Refused(errs[0]) {
		t.Fatalf("a look-up without a name = %q, %v", keys[0], errs[0])
	}
}

// TestAdAccountsFields: AdAccounts asks each account's name, status,
// currency, time zone, disable reason and DSA defaults; Usable is true for
// an active account (1) and one in its grace period (9) only.
func TestAdAccountsFields(t *testing.T) {
	t.Parallel()
	fake, base := startWorld(t)
	fake.AddUser(networkafake.User{Token: "EAAuserD4", ID: "4", AdAccounts: []networkafake.AdAccount{
		{ID: "act_5", Status: 9, Currency: "EUR", Name: "Shop", TimezoneName: "Europe/Prague",
			DefaultDSABeneficiary: "Shop s.r.o.", DefaultDSAPayor: "Agency a.s."},
		{ID: "act_6", Status: 2, Currency: "CZK", Name: "Old", DisableReason: 3},
		{ID: "act_7", Status: 1, Currency: "USD"},
	}})
	c := newClient(t, base, Options{})
	got, err := c.AdAccounts(context.Background(), "EAAuserD4", Scope{User: "4"})
	want := []AdAccount{
		{ID: "act_5", Name: "Shop", Status: 9, Currency: "EUR", TimezoneName: "Europe/Prague",
			DefaultDSABeneficiary: "Shop s.r.o.", DefaultDSAPayor: "Agency a.s."},
		{ID: "act_6", Name: "Old", Status: 2, Currency: "CZK", TimezoneName: "UTC", DisableReason: 3},
		{ID: "act_7", Name: "act_7", Status: 1, Currency: "USD", TimezoneName: "UTC"},
	}
	if err != nil || !reflect.DeepEqual(got, want) {
		t.Fatalf("AdAccounts = %+v, %v\nwant %+v", got, err, want)
	}
	calls := fake.Calls()
	if len(calls) != 1 || calls[0].Path != "/me/adaccounts?fields="+url.QueryEscape("id,name,account_status,currency,timezone_name,disable_reason,default_dsa_beneficiary,default_dsa_payor") {
		t.Fatalf("ad accounts asked as %+v", calls)
	}
	for status, usable := range map[int]bool{1: true, 9: true, 0: false, 2: false, 3: false, 7: false, 8: false, 100: false, 101: false, 201: false, 202: false} {
		if (AdAccount{Status: status}).Usable() != usable {
			t.Errorf("Usable of status %d = %v, want %v", status, !usable, usable)
		}
	}
}

// TestPostReachMetric: a post's organic reach is read as
// post_total_media_view_unique over the post's whole life; a media's as
// reach.
func TestPostReachMetric(t *testing.T) {
	t.Parallel()
	fake, base := startWorld(t)
	fake.AddPost("11", networkafake.Post{ID: "11_1", OrganicReach: 321})
	c := newClient(t, base, Options{})
	reach, err := c.PostReach(context.Background(), page11, "11_1", Scope{Page: "11"})
	if err != nil || reach != 321 {
		t.Fatalf("PostReach = %d, %v; want 321", reach, err)
	}
	calls := fake.Calls()
	if len(calls) != 1 || calls[0].Path != "/11_1/insights?date_preset=maximum&metric=post_total_media_view_unique" || calls[0].Token != page11 {
		t.Fatalf("reach asked as %+v", calls)
	}
}

// TestCityMatch: what makes an entry of network_a's answer the city: a
// city (not a region or a country) with a key, of the same name and
// country, case aside; of the same region when several are.
func TestCityMatch(t *testing.T) {
	t.Parallel()
	data := []City{
		{Key: "1", Name: "Paris", Type: "city", CountryCode: "FR", Region: "Île-de-France"},
		{Key: "2", Name: "Paris", Type: "city", CountryCode: "US", Region: "Texas"},
		{Key: "3", Name: "Paris", Type: "city", CountryCode: "US", Region: "Tennessee"},
		{Key: "4", Name: "Paris", Type: "region", CountryCode: "CA", Region: "Ontario"},
		{Key: "", Name: "Lyon", Type: "city", CountryCode: "FR"},
		{Key: "6", Name: "Nice", CountryCode: "FR"},
	}
	for q, want := range map[CityQuery]string{
		{Name: "Paris", CountryCode: "FR"}:                      "1",
		{Name: "PARIS", CountryCode: "fr", Region: "Texas"}:     "1",
		{Name: "Paris", CountryCode: "US"}:                      "",
		{Name: "Paris", CountryCode: "US", Region: "Tennessee"}: "3",
		{Name: "Paris", CountryCode: "US", Region: "texas"}:     "2",
		{Name: "Paris", CountryCode: "US", Region: "Kentucky"}:  "",
		{Name: "Paris", CountryCode: "CA"}:                      "",
		{Name: "Paris", CountryCode: "DE"}:                      "",
		{Name: "Lyon", CountryCode: "FR"}:                       "",
		{Name: "Nice", CountryCode: "FR"}:                       "6",
		{Name: "Pari", CountryCode: "FR"}:                       "",
	} {
		if got := q.match(data); got != want {
			t.Errorf("match %+v = %q, want %q", q, got, want)
		}
	}
}
