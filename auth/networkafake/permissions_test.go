package networkafake_test

import (
	"net/http"
	"reflect"
	"testing"

	"adboost/auth/networkafake"
)

// grants is a /me/permissions answer: public_profile, then the pairs of
// names and statuses.
func grants(pairs ...string) map[string]any {
	data := []any{map[string]any{"permission": "public_profile", "status": "granted"}}
	for i := 0; i < len(pairs); i += 2 {
		data = append(data, map[string]any{"permission": pairs[i], "status": pairs[i+1]})
	}
	return map[string]any{"data": data}
}

// TestPermissions: /me/permissions answers the user's permissions, every
// default one granted unless the user's Permissions say otherwise.
func TestPermissions(t *testing.T) {
	f, base := world(t)
	got := mustOK(t, "GET", base+"/me/permissions", userToken, nil)
	want := grants("ads_management", "granted", "pages_show_list", "granted", "pages_read_engagement", "granted",
		"pages_manage_ads", "granted", "instagram_basic", "granted", "instagram_manage_insights", "granted")
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("default permissions = %v", got)
	}
	f.UpdateUser(userToken, func(u *networkafake.User) {
		u.Permissions = map[string]string{"pages_manage_ads": networkafake.Declined,
			"instagram_manage_insights": networkafake.Expired, "email": networkafake.Granted, "business_management": networkafake.Declined}
	})
	got = mustOK(t, "GET", base+"/me/permissions?access_token="+userToken, "", nil)
	want = grants("ads_management", "granted", "pages_show_list", "granted", "pages_read_engagement", "granted",
		"pages_manage_ads", "declined", "instagram_basic", "granted", "instagram_manage_insights", "expired",
		"business_management", "declined", "email", "granted")
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("permissions = %v\nwant %v", got, want)
	}
	// A page's token has no user's permissions to read.
	if got := graphErr(t, "GET", base+"/me/permissions", pageToken, nil); got != "400 OAuthException 2500" {
		t.Fatalf("/me/permissions with a page token: %s", got)
	}
	defer func() {
		if recover() == nil {
			t.Error("a permission status \"denied\" did not panic")
		}
	}()
	f.UpdateUser(userToken, func(u *networkafake.User) { u.Permissions = map[string]string{"ads_management": "denied"} })
}

// noAdsManagement is network_a's refusal of an ad-account call without
// ads_management.
var noAdsManagement = refusal(200, 0, "(#200) Ad account owner has NOT grant ads_management or ads_read permission")

// TestWithoutAdsManagement: a user who has not granted ads_management is
// refused every call about ad accounts (403, code 200), alone or in a
// batch; the sign-in reads go on.
func TestWithoutAdsManagement(t *testing.T) {
	for _, status := range []string{networkafake.Declined, networkafake.Expired} {
		t.Run(status, func(t *testing.T) {
			f, base := world(t)
			f.AddPost("456", networkafake.Post{ID: "456_1"})
			camp, adset, ads := campaignWithAds(t, base, "adboost-7", "456_1")
			f.UpdateUser(userToken, func(u *networkafake.User) {
				u.Permissions = map[string]string{"ads_management": status}
			})
			for _, c := range []struct{ method, path string }{
				{"GET", "/me/adaccounts?fields=id,name"},
				{"GET", "/act_1/campaigns?fields=id"},
				{"POST", "/act_1/campaigns"},
				{"GET", "/" + camp + "?fields=id,status"},
				{"POST", "/" + adset},
				{"GET", "/" + ads[0] + "/insights?date_preset=maximum"},
				{"GET", "/" + camp + "/ads?fields=id"},
			} {
				var body any
				if c.method == "POST" {
					body = map[string]any{"status": "PAUSED"}
				}
				status, got := sendJSON(t, c.method, base+c.path, userToken, body)
				if status != http.StatusForbidden || got != noAdsManagement {
					t.Errorf("%s %s: %d %s\nwant 403 %s", c.method, c.path, status, got, noAdsManagement)
				}
			}
			entries := batch(t, base, userToken, get("act_1/adsets?fields=id"), get("me?fields=id"))
			if entries[0].Code != 403 || entries[0].Body != noAdsManagement || entries[1].Code != 200 {
				t.Errorf("batch = %d %s, %d %s", entries[0].Code, entries[0].Body, entries[1].Code, entries[1].Body)
			}
			mustOK(t, "GET", base+"/me/accounts?fields=id,access_token", userToken, nil)
			for _, o := range f.Objects("") {
				if len(o.Updates) != 0 {
					t.Errorf("%s %s was updated: %v", o.Kind, o.ID, o.Updates)
				}
			}
		})
	}
}

// TestWithoutReadEngagement: the posts of a page whose user has not
// granted pages_read_engagement are refused (403, code 10); the page's
// other reads, and other users' pages, go on.
func TestWithoutReadEngagement(t *testing.T) {
	f, base := world(t)
	f.AddPost("456", networkafake.Post{ID: "456_1"})
	f.AddUser(networkafake.User{Token: "EAAbob0token", ID: "5550002", FirstName: "Bob",
		Pages: []networkafake.Page{{ID: "470", Name: "Bob's", Token: "EAAbob0page"}}})
	f.UpdateUser(userToken, func(u *networkafake.User) {
		u.Permissions = map[string]string{"pages_read_engagement": networkafake.Declined}
	})
	want := refusal(10, 0, "(#10) This endpoint requires the 'pages_read_engagement' permission or the 'Page Public Content Access' feature. "+
		"Refer to https://developers.facebook.com/docs/apps/review/login-permissions#manage-pages and "+
		"https://developers.facebook.com/docs/apps/review/feature#reference-PAGES_ACCESS for details.")
	status, got := sendJSON(t, "GET", base+"/456/posts?fields=id", pageToken, nil)
	if status != http.StatusForbidden || got != want {
		t.Errorf("posts: %d %s\nwant 403 %s", status, got, want)
	}
	mustOK(t, "GET", base+"/456?fields=name", pageToken, nil)
	mustOK(t, "GET", base+"/470/posts?fields=id", "EAAbob0page", nil)
}

// TestAdAccountsPaged: /me/adaccounts answers every field the engine reads,
// each status and disable reason as set, paged by limit and after.
func TestAdAccountsPaged(t *testing.T) {
	f, base := world(t)
	f.UpdateUser(userToken, func(u *networkafake.User) {
		u.AdAccounts = []networkafake.AdAccount{
			{ID: "act_1", Status: networkafake.AccountActive, Currency: "USD", Name: "Ana US", TimezoneName: "America/New_York"},
			{ID: "act_2", Status: networkafake.AccountDisabled, Currency: "EUR", DisableReason: networkafake.ReasonAdsIntegrityPolicy},
			{ID: "act_3", Status: networkafake.AccountClosed, Currency: "CZK", Name: "Old", DisableReason: networkafake.ReasonPermanentClose,
				DefaultDSABeneficiary: "Ana", DefaultDSAPayor: "Ana s.r.o."},
		}
	})
	const fields = "id,name,account_status,currency,timezone_name,disable_reason,default_dsa_beneficiary,default_dsa_payor"
	first := mustOK(t, "GET", base+"/me/adaccounts?fields="+fields+"&limit=2", userToken, nil)
	next := base + "/me/adaccounts?access_token=" + userToken + "&after=2&fields=" + "id%2Cname%2Caccount_status%2Ccurrency%2Ctimezone_name%2Cdisable_reason%2Cdefault_dsa_beneficiary%2Cdefault_dsa_payor" + "&limit=2"
	want := map[string]any{"data": []any{
		map[string]any{"id": "act_1", "name": "Ana US", "account_status": float64(1), "currency": "USD", "timezone_name": "America/New_York", "disable_reason": float64(0)},
		map[string]any{"id": "act_2", "name": "act_2", "account_status": float64(2), "currency": "EUR", "timezone_name": "UTC", "disable_reason": float64(1)},
	}, "paging": map[string]any{"next": next, "cursors": map[string]any{"after": "2"}}}
	if !reflect.DeepEqual(first, want) {
		t.Fatalf("first page = %v\nwant %v", first, want)
	}
	last := mustOK(t, "GET", next, "", nil)
	want = map[string]any{"data": []any{
		map[string]any{"id": "act_3", "name": "Old", "account_status": float64(101), "currency": "CZK", "timezone_name": "UTC", "disable_reason": float64(7),
			"default_dsa_beneficiary": "Ana", "default_dsa_payor": "Ana s.r.o."},
	}}
	if !reflect.DeepEqual(last, want) {
		t.Fatalf("last page = %v\nwant %v", last, want)
	}
	for _, bad := range []string{"limit=0", "limit=x", "after=-1"} {
		if got := graphErr(t, "GET", base+"/me/adaccounts?fields=id&"+bad, userToken, nil); got != "400 OAuthException 100" {
			t.Errorf("%s: %s", bad, got)
		}
	}
}
