package networkafake_test

import (
	"net/http"
	"strings"
	"testing"
	"time"

	"adboost/auth/networkafake"
)

// campaignBody is a campaign create network_a takes, changed by the pairs of
// change (a nil value removes the field).
func campaignBody(name, objective string, change map[string]any) map[string]any {
	m := map[string]any{"name": name, "objective": objective, "status": "ACTIVE", "special_ad_categories": []any{},
		"is_adset_budget_sharing_enabled": false}
	return merge(m, change)
}

// without is a change that removes the fields.
func without(fields ...string) map[string]any {
	m := map[string]any{}
	for _, k := range fields {
		m[k] = nil
	}
	return m
}

// TestCampaignRefusals: a campaign names is_adset_budget_sharing_enabled and
// its special_ad_categories, with their countries when it has one.
func TestCampaignRefusals(t *testing.T) {
	f, base := world(t)
	url := base + "/act_1/campaigns"
	categories := "HOUSING, EMPLOYMENT, FINANCIAL_PRODUCTS_SERVICES, ISSUES_ELECTIONS_POLITICS, ONLINE_GAMBLING_AND_GAMING, NONE"
	for name, tc := range map[string]struct {
		change map[string]any
		want   string
	}{
		"without is_adset_budget_sharing_enabled": {without("is_adset_budget_sharing_enabled"),
			userRefusal(4834011, "Budget Sharing Setting Required", "Must specify True or False in is_adset_budget_sharing_enabled field",
				"is_adset_budget_sharing_enabled")},
		"is_adset_budget_sharing_enabled not a boolean": {map[string]any{"is_adset_budget_sharing_enabled": "no"},
			invalid("Param is_adset_budget_sharing_enabled must be a boolean")},
		"without special_ad_categories": {without("special_ad_categories"),
			userRefusal(1885833, "Special ad categories required",
				"Say which special ad categories your campaign belongs to with special_ad_categories; send an empty list when none applies.",
				"special_ad_categories")},
		"special_ad_categories not a list": {map[string]any{"special_ad_categories": "HOUSING"},
			userRefusal(1885833, "Special ad categories required",
				"Say which special ad categories your campaign belongs to with special_ad_categories; send an empty list when none applies.",
				"special_ad_categories")},
		"an unknown category": {map[string]any{"special_ad_categories": []any{"CREDIT"}},
			invalid("Param special_ad_categories[0] must be one of {" + categories + "}")},
		"a category without countries": {map[string]any{"special_ad_categories": []any{"HOUSING"}},
			userRefusal(2446173, "Special Ad Category Country Required",
				"A campaign with a special ad category must name the countries where its ads run in special_ad_category_country.",
				"special_ad_category_country")},
		"a category with an empty country list": {map[string]any{"special_ad_categories": []any{"EMPLOYMENT"}, "special_ad_category_country": []any{}},
			userRefusal(2446173, "Special Ad Category Country Required",
				"A campaign with a special ad category must name the countries where its ads run in special_ad_category_country.",
				"special_ad_category_country")},
	} {
		refused(t, name, "POST", url, userToken, campaignBody("c", "OUTCOME_ENGAGEMENT", tc.change), tc.want)
	}
	if n := len(f.Objects("")); n != 0 {
		t.Fatalf("%d objects made by refused creates", n)
	}
	mustOK(t, "POST", url, userToken, campaignBody("c", "OUTCOME_ENGAGEMENT", nil))
	mustOK(t, "POST", url, userToken, campaignBody("c", "OUTCOME_ENGAGEMENT", map[string]any{"is_adset_budget_sharing_enabled": true}))
	mustOK(t, "POST", url, userToken, campaignBody("c", "OUTCOME_ENGAGEMENT", map[string]any{"special_ad_categories": []any{"NONE"}}))
	mustOK(t, "POST", url, userToken, campaignBody("c", "OUTCOME_ENGAGEMENT", map[string]any{
		"special_ad_categories": []any{"HOUSING", "EMPLOYMENT"}, "special_ad_category_country": []any{"CZ"}}))
	if n := len(f.Objects("campaign")); n != 4 {
		t.Fatalf("%d campaigns, want 4", n)
	}
}

// categoryTargeting is the refusal of a special category's ad set that
// narrows the field.
func categoryTargeting(field string) string {
	return userRefusal(1870189, "Targeting Not Available for Special Ad Category",
		"Ads in a special ad category can't target by age or gender, and a city's radius must be at least 15 miles (25 km). Change "+field+".", field)
}

// brno and praha are cities network_a knows, by its own keys.
var (
	brno  = networkafake.City{Key: "2420605", Name: "Brno", CountryCode: "CZ", CountryName: "Czech Republic", Region: "South Moravian Region", RegionID: "1166"}
	praha = networkafake.City{Key: "2420659", Name: "Praha", CountryCode: "CZ", CountryName: "Czech Republic", Region: "Prague", RegionID: "1165"}
	paris = networkafake.City{Key: "2430536", Name: "Paris", CountryCode: "US", CountryName: "United States", Region: "Texas", RegionID: "3886"}
)

// targeting is a targeting with Advantage audience off and the pairs of
// change.
func targeting(change map[string]any) map[string]any {
	return merge(map[string]any{"targeting_automation": map[string]any{"advantage_audience": 0}}, change)
}

// inCity is a geo_locations of one city with its radius and unit.
func inCity(key string, radius any, unit string) map[string]any {
	return map[string]any{"cities": []any{map[string]any{"key": key, "radius": radius, "distance_unit": unit}}}
}

// TestAdSetTargetingRefusals: Advantage audience said, THRUPLAY on video,
// a special category's limits, cities network_a knows with a radius it
// takes; at creation and after an update.
func TestAdSetTargetingRefusals(t *testing.T) {
	f, base := world(t)
	f.AddCity(brno)
	f.AddCity(paris)
	camp := mustOK(t, "POST", base+"/act_1/campaigns", userToken, campaignBody("c", "OUTCOME_AWARENESS", nil))["id"].(string)
	housing := mustOK(t, "POST", base+"/act_1/campaigns", userToken, campaignBody("h", "OUTCOME_AWARENESS", map[string]any{
		"special_ad_categories": []any{"HOUSING"}, "special_ad_category_country": []any{"US"}}))["id"].(string)
	noFlag := userRefusal(1870227, "Advantage Audience Flag Required",
		"To create your ad set, you need to enable or disable the Advantage audience feature. This feature is controlled by the advantage_audience flag within the targeting_automation field.",
		"targeting.targeting_automation.advantage_audience")
	ageWithAdvantage := userRefusal(1870188, "Maximum Age Too Low for Advantage Audience",
		"With Advantage audience on, the maximum age can't be set below 65. Remove age_max or turn Advantage audience off.", "targeting.age_max")
	thruPlay := userRefusal(2490408, "Performance goal isn't available",
		"The performance goal ThruPlay is available only when people watch your video on it: set destination_type to ON_VIDEO, or choose another performance goal.",
		"destination_type")
	radius := func(city int, r, unit string) string {
		return userRefusal(1815946, "Invalid Radius",
			"The radius around a city must be between 10 and 50 miles (17 and 80 kilometers); city "+string(rune('0'+city))+" has "+r+" "+unit+".",
			"targeting.geo_locations.cities")
	}
	unknownCity := userRefusal(1815947, "Invalid Location",
		`The city with key "2420999" is not a location you can target. Look cities up with /search?type=adgeolocation.`, "targeting.geo_locations.cities")
	for name, tc := range map[string]struct {
		campaign string
		change   map[string]any
		want     string
	}{
		"no targeting_automation":      {camp, map[string]any{"targeting": map[string]any{}}, noFlag},
		"no advantage_audience":        {camp, map[string]any{"targeting": map[string]any{"targeting_automation": map[string]any{}}}, noFlag},
		"advantage_audience null":      {camp, map[string]any{"targeting": map[string]any{"targeting_automation": map[string]any{"advantage_audience": nil}}}, noFlag},
		"advantage_audience 2":         {camp, map[string]any{"targeting": map[string]any{"targeting_automation": map[string]any{"advantage_audience": 2}}}, invalid("Param targeting.targeting_automation.advantage_audience must be 0 or 1")},
		"advantage with age_max 64":    {camp, map[string]any{"targeting": map[string]any{"age_max": 64, "targeting_automation": map[string]any{"advantage_audience": 1}}}, ageWithAdvantage},
		"THRUPLAY without destination": {camp, map[string]any{"optimization_goal": "THRUPLAY"}, thruPlay},
		"THRUPLAY on the post":         {camp, map[string]any{"optimization_goal": "THRUPLAY", "destination_type": "ON_POST"}, thruPlay},
		"category: age_min 19":         {housing, map[string]any{"targeting": targeting(map[string]any{"age_min": 19})}, categoryTargeting("targeting.age_min")},
		"category: age_max 64":         {housing, map[string]any{"targeting": targeting(map[string]any{"age_max": 64})}, categoryTargeting("targeting.age_max")},
		"category: genders":            {housing, map[string]any{"targeting": targeting(map[string]any{"genders": []any{1}})}, categoryTargeting("targeting.genders")},
		"category: a 14 mile city":     {housing, map[string]any{"targeting": targeting(map[string]any{"geo_locations": inCity(paris.Key, 14, "mile")})}, categoryTargeting("targeting.geo_locations.cities")},
		"category: a 24 km city":       {housing, map[string]any{"targeting": targeting(map[string]any{"geo_locations": inCity(paris.Key, 24, "kilometer")})}, categoryTargeting("targeting.geo_locations.cities")},
		"an unknown city":              {camp, map[string]any{"targeting": targeting(map[string]any{"geo_locations": inCity("2420999", 20, "mile")})}, unknownCity},
		"a 9 mile radius":              {camp, map[string]any{"targeting": targeting(map[string]any{"geo_locations": inCity(paris.Key, 9, "mile")})}, radius(0, "9", "miles")},
		"a 51 mile radius":             {camp, map[string]any{"targeting": targeting(map[string]any{"geo_locations": inCity(paris.Key, 51, "mile")})}, radius(0, "51", "miles")},
		"a 16 km radius":               {camp, map[string]any{"targeting": targeting(map[string]any{"geo_locations": inCity(paris.Key, 16, "kilometer")})}, radius(0, "16", "kilometers")},
		"an 81 km radius":              {camp, map[string]any{"targeting": targeting(map[string]any{"geo_locations": inCity(paris.Key, 81, "kilometer")})}, radius(0, "81", "kilometers")},
	} {
		refused(t, name, "POST", base+"/act_1/adsets", userToken, adSetBody(tc.campaign, tc.change), tc.want)
	}
	if n := len(f.Objects("adset")); n != 0 {
		t.Fatalf("%d ad sets made by refused creates", n)
	}

	// What the rules ask for is enough; the bounds are taken.
	for _, tc := range []struct {
		campaign string
		change   map[string]any
	}{
		{camp, map[string]any{"targeting": map[string]any{"age_max": 65, "targeting_automation": map[string]any{"advantage_audience": 1}}}},
		{camp, map[string]any{"targeting": targeting(map[string]any{"age_min": 30, "age_max": 40, "genders": []any{2}})}},
		{camp, map[string]any{"optimization_goal": "THRUPLAY", "destination_type": "ON_VIDEO"}},
		{camp, map[string]any{"targeting": targeting(map[string]any{"geo_locations": inCity(paris.Key, 10, "mile")})}},
		{camp, map[string]any{"targeting": targeting(map[string]any{"geo_locations": inCity(paris.Key, 80, "kilometer")})}},
		{housing, map[string]any{"targeting": targeting(map[string]any{"age_min": 18, "age_max": 65, "geo_locations": inCity(paris.Key, 15, "mile")})}},
		{housing, map[string]any{"targeting": targeting(map[string]any{"geo_locations": inCity(paris.Key, 25, "kilometer")})}},
	} {
		mustOK(t, "POST", base+"/act_1/adsets", userToken, adSetBody(tc.campaign, tc.change))
	}

	// Updates that would break a rule are refused; one that keeps them passes.
	sets := f.Objects("adset")
	refused(t, "update without the flag", "POST", base+"/"+sets[1].ID, userToken, map[string]any{"targeting": map[string]any{"age_min": 20}}, noFlag)
	refused(t, "update to a narrow age", "POST", base+"/"+sets[5].ID, userToken,
		map[string]any{"targeting": targeting(map[string]any{"age_max": 50})}, categoryTargeting("targeting.age_max"))
	refused(t, "update off video", "POST", base+"/"+sets[2].ID, userToken, map[string]any{"destination_type": "ON_POST"}, thruPlay)
	mustOK(t, "POST", base+"/"+sets[1].ID, userToken, map[string]any{"targeting": targeting(map[string]any{"age_min": 20})})
}

// TestDSARefusals: an ad set whose countries or cities reach the EU names
// its beneficiary and payor (each at most 512 characters), unless the ad
// account has a default for it.
func TestDSARefusals(t *testing.T) {
	f, base := world(t)
	f.AddCity(brno)
	f.AddCity(paris)
	f.UpdateUser(userToken, func(u *networkafake.User) {
		u.AdAccounts = append(u.AdAccounts, networkafake.AdAccount{ID: "act_3", Status: 1, Currency: "EUR",
			DefaultDSABeneficiary: "Gym", DefaultDSAPayor: "Gym s.r.o."},
			networkafake.AdAccount{ID: "act_4", Status: 1, Currency: "EUR", DefaultDSAPayor: "Gym s.r.o."})
	})
	noBeneficiary := userRefusal(3858081, "No beneficiary indicated",
		"Ads that reach people in the European Union must say who benefits from them. Enter the beneficiary in dsa_beneficiary.", "dsa_beneficiary")
	noPayor := userRefusal(3858079, "No payer indicated",
		"Ads that reach people in the European Union must say who pays for them. Enter the payer in dsa_payor.", "dsa_payor")
	camps := map[string]string{}
	for _, act := range []string{"act_1", "act_3", "act_4"} {
		camps[act] = mustOK(t, "POST", base+"/"+act+"/campaigns", userToken, campaignBody("c", "OUTCOME_AWARENESS", nil))["id"].(string)
	}
	countries := func(cc ...any) map[string]any {
		return map[string]any{"targeting": targeting(map[string]any{"geo_locations": map[string]any{"countries": cc}})}
	}
	czCity := map[string]any{"targeting": targeting(map[string]any{"geo_locations": inCity(brno.Key, 20, "kilometer")})}
	long := strings.Repeat("é", 513)
	for name, tc := range map[string]struct {
		act    string
		change map[string]any
		want   string
	}{
		"CZ without both":            {"act_1", countries("CZ"), noBeneficiary},
		"CZ without a payor":         {"act_1", merge(countries("CZ"), map[string]any{"dsa_beneficiary": "Gym"}), noPayor},
		"CZ without a beneficiary":   {"act_1", merge(countries("CZ"), map[string]any{"dsa_payor": "Gym s.r.o."}), noBeneficiary},
		"an EU country among others": {"act_1", countries("US", "DE"), noBeneficiary},
		"a Czech city":               {"act_1", czCity, noBeneficiary},
		"empty beneficiary":          {"act_1", merge(countries("CZ"), map[string]any{"dsa_beneficiary": "", "dsa_payor": "Gym s.r.o."}), noBeneficiary},
		"payor default only":         {"act_4", countries("CZ"), noBeneficiary},
		"beneficiary too long": {"act_1", merge(countries("CZ"), map[string]any{"dsa_beneficiary": long, "dsa_payor": "p"}),
			invalid("Param dsa_beneficiary must be a string of at most 512 characters")},
		"payor too long": {"act_1", merge(countries("US"), map[string]any{"dsa_payor": long}),
			invalid("Param dsa_payor must be a string of at most 512 characters")},
	} {
		refused(t, name, "POST", base+"/"+tc.act+"/adsets", userToken, adSetBody(camps[tc.act], tc.change), tc.want)
	}
	if n := len(f.Objects("adset")); n != 0 {
		t.Fatalf("%d ad sets made by refused creates", n)
	}
	for _, tc := range []struct {
		act    string
		change map[string]any
	}{
		{"act_1", merge(countries("CZ"), map[string]any{"dsa_beneficiary": strings.Repeat("é", 512), "dsa_payor": "Gym s.r.o."})},
		{"act_1", countries("US", "NO", "CH")},
		{"act_1", map[string]any{"targeting": targeting(map[string]any{"geo_locations": inCity(paris.Key, 20, "mile")})}},
		{"act_3", czCity},
		{"act_4", merge(countries("CZ"), map[string]any{"dsa_beneficiary": "Gym"})},
	} {
		mustOK(t, "POST", base+"/"+tc.act+"/adsets", userToken, adSetBody(camps[tc.act], tc.change))
	}
	// An update that moves an ad set into the EU needs them too.
	us := f.Objects("adset")[1].ID
	refused(t, "update into the EU", "POST", base+"/"+us, userToken, countries("FR"), noBeneficiary)
	mustOK(t, "POST", base+"/"+us, userToken, merge(countries("FR"), map[string]any{"dsa_beneficiary": "Gym", "dsa_payor": "Gym s.r.o."}))
}

// TestBudgetMinimum: a daily budget below the ad account's minimum (100 of
// the offset unit by default), or a lifetime budget below it for every
// started day of its flight, is "Budget is too low" with the minimum in the
// account's currency.
func TestBudgetMinimum(t *testing.T) {
	f, base := world(t)
	now := time.Date(2026, 11, 27, 10, 0, 0, 0, time.UTC)
	f.SetNow(func() time.Time { return now })
	f.UpdateUser(userToken, func(u *networkafake.User) {
		u.AdAccounts = append(u.AdAccounts, networkafake.AdAccount{ID: "act_3", Status: 1, Currency: "EUR", MinDailyBudget: 2500},
			networkafake.AdAccount{ID: "act_4", Status: 1, Currency: "JPY"},
			networkafake.AdAccount{ID: "act_5", Status: 1, Currency: "CZK", MinDailyBudget: 4000})
	})
	tooLow := func(what, least, field string) string {
		return userRefusal(1885272, "Budget is too low", "The "+what+" of this ad set must be at least "+least+".", field)
	}
	camps := map[string]string{}
	for _, act := range []string{"act_1", "act_3", "act_4", "act_5"} {
		camps[act] = mustOK(t, "POST", base+"/"+act+"/campaigns", userToken, campaignBody("c", "OUTCOME_AWARENESS", nil))["id"].(string)
	}
	lifetime := func(budget int, end string) map[string]any {
		return map[string]any{"daily_budget": nil, "lifetime_budget": budget, "end_time": end}
	}
	for name, tc := range map[string]struct {
		act    string
		change map[string]any
		want   string
	}{
		"USD daily below the default": {"act_1", map[string]any{"daily_budget": 99}, tooLow("daily budget", "$1.00", "daily_budget")},
		"EUR daily below 25.00":       {"act_3", map[string]any{"daily_budget": 2499}, tooLow("daily budget", "€25.00", "daily_budget")},
		"JPY daily below ¥100":        {"act_4", map[string]any{"daily_budget": 99}, tooLow("daily budget", "¥100", "daily_budget")},
		"CZK daily below 40.00":       {"act_5", map[string]any{"daily_budget": 3000}, tooLow("daily budget", "40.00 CZK", "daily_budget")},
		// 7 days and 1 hour from now: 8 days.
		"lifetime below 8 days": {"act_3", lifetime(19999, "2026-12-04T11:00:00Z"), tooLow("lifetime budget", "€200.00", "lifetime_budget")},
		// From its own start_time: 2 days.
		"lifetime from its start": {"act_3", merge(lifetime(4999, "2026-12-12T10:00:00Z"), map[string]any{"start_time": "2026-12-10T10:00:00Z"}),
			tooLow("lifetime budget", "€50.00", "lifetime_budget")},
	} {
		refused(t, name, "POST", base+"/"+tc.act+"/adsets", userToken, adSetBody(camps[tc.act], tc.change), tc.want)
	}
	if n := len(f.Objects("adset")); n != 0 {
		t.Fatalf("%d ad sets made by refused creates", n)
	}
	for _, tc := range []struct {
		act    string
		change map[string]any
	}{
		{"act_1", map[string]any{"daily_budget": 100}},
		{"act_3", map[string]any{"daily_budget": 2500}},
		{"act_4", map[string]any{"daily_budget": 100}},
		{"act_3", lifetime(20000, "2026-12-04T11:00:00Z")},
		{"act_3", lifetime(2500, "2026-11-27T12:00:00Z")},
	} {
		mustOK(t, "POST", base+"/"+tc.act+"/adsets", userToken, adSetBody(camps[tc.act], tc.change))
	}
	// An update below the minimum is refused; one that touches no budget passes.
	set := f.Objects("adset")[1].ID
	refused(t, "update below", "POST", base+"/"+set, userToken, map[string]any{"daily_budget": 2000}, tooLow("daily budget", "€25.00", "daily_budget"))
	mustOK(t, "POST", base+"/"+set, userToken, map[string]any{"status": "PAUSED"})
	// The minimum counts from the fake's clock.
	now = now.Add(6 * 24 * time.Hour)
	mustOK(t, "POST", base+"/act_3/adsets", userToken, adSetBody(camps["act_3"], lifetime(5000, "2026-12-04T11:00:00Z")))
}

// TestAdRefusals: an ad in an engagement ad set needs the ad set's page;
// instagram_actor_id is refused wherever it is; a post that is deleted,
// unknown, or not of a page the account's users manage, or of another page
// than the ad set's, is refused with the post's own subcodes.
func TestAdRefusals(t *testing.T) {
	f, base := world(t)
	f.AddPost("456", networkafake.Post{ID: "456_1"})
	f.AddPost("456", networkafake.Post{ID: "456_2"})
	f.AddPost("457", networkafake.Post{ID: "457_1"})
	f.AddUser(networkafake.User{Token: "EAAstranger", ID: "9", Pages: []networkafake.Page{{ID: "999", Name: "Elsewhere", Token: "EAAp999"}}})
	f.AddPost("999", networkafake.Post{ID: "999_1"})
	f.DeletePost("456_2")
	engagement := mustOK(t, "POST", base+"/act_1/campaigns", userToken, campaignBody("e", "OUTCOME_ENGAGEMENT", nil))["id"].(string)
	onA := map[string]any{"targeting": targeting(map[string]any{"publisher_platforms": []any{"network_a"}})}
	withPage := mustOK(t, "POST", base+"/act_1/adsets", userToken, adSetBody(engagement, merge(onA, pageOf("456"))))["id"].(string)
	noPage := mustOK(t, "POST", base+"/act_1/adsets", userToken, adSetBody(engagement, onA))["id"].(string)
	adOf := func(set, post string) map[string]any {
		return map[string]any{"name": "a", "adset_id": set, "creative": map[string]any{"object_story_id": post}, "status": "ACTIVE"}
	}
	mismatch := userRefusal(1885029, "Page Mismatch",
		"The post you chose belongs to another page than the one this ad set promotes (promoted_object.page_id).", "creative.object_story_id")
	actor := invalid("Param instagram_actor_id must be a valid Instagram account id")
	for name, tc := range map[string]struct {
		body map[string]any
		want string
	}{
		"engagement ad set without page_id": {adOf(noPage, "456_1"), userRefusal(1885154, "Page Required",
			"Ads in an ad set with the engagement objective need the page they promote: set promoted_object.page_id on the ad set.",
			"promoted_object.page_id")},
		"an unknown post":     {adOf(withPage, "456_404"), postUnavailable},
		"a deleted post":      {adOf(withPage, "456_2"), postUnavailable},
		"a stranger's post":   {adOf(withPage, "999_1"), postUnavailable},
		"another page's post": {adOf(withPage, "457_1"), mismatch},
		"instagram_actor_id in the creative": {merge(adOf(withPage, "456_1"), map[string]any{"creative": map[string]any{
			"object_story_id": "456_1", "instagram_actor_id": "789"}}), actor},
		"instagram_actor_id deep": {merge(adOf(withPage, "456_1"), map[string]any{"creative": map[string]any{
			"object_story_spec": map[string]any{"page_id": "456", "instagram_actor_id": "789"}}}), actor},
	} {
		refused(t, name, "POST", base+"/act_1/ads", userToken, tc.body, tc.want)
	}
	refused(t, "instagram_actor_id on an ad set", "POST", base+"/act_1/adsets", userToken,
		adSetBody(engagement, map[string]any{"instagram_actor_id": "789"}), actor)
	refused(t, "instagram_actor_id in an update", "POST", base+"/"+withPage, userToken, map[string]any{"instagram_actor_id": "789"}, actor)
	if n := len(f.Objects("ad")); n != 0 {
		t.Fatalf("%d ads made by refused creates", n)
	}
	mustOK(t, "POST", base+"/act_1/ads", userToken, adOf(withPage, "456_1"))
	// The page named by an update is the one ads need.
	mustOK(t, "POST", base+"/"+noPage, userToken, pageOf("457"))
	mustOK(t, "POST", base+"/act_1/ads", userToken, adOf(noPage, "457_1"))
}

// TestScriptedErrorObject: FailCalls answers every field of network_a's
// error object it is given.
func TestScriptedErrorObject(t *testing.T) {
	f, base := world(t)
	f.FailCalls("POST", "act_1/adsets", 1, networkafake.Error{Code: 100, Subcode: 1885272, Message: "Invalid parameter",
		UserTitle: "Budget is too low", UserMsg: "The daily budget of this ad set must be at least €1.00.",
		Data: `{"blame_field_specs":[["daily_budget"]]}`})
	status, got := sendJSON(t, "POST", base+"/act_1/adsets", userToken, map[string]any{})
	want := `{"error":{"code":100,"error_data":"{\"blame_field_specs\":[[\"daily_budget\"]]}","error_subcode":1885272,` +
		`"error_user_msg":"The daily budget of this ad set must be at least €1.00.","error_user_title":"Budget is too low",` +
		`"fbtrace_id":"AbCdEf0fake","message":"Invalid parameter","type":"OAuthException"}}`
	if status != http.StatusBadRequest || got != want {
		t.Fatalf("scripted = %d %s\nwant %s", status, got, want)
	}
}
