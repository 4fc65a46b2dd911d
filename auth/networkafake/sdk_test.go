package networkafake_test

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"time"

	"adboost/auth/networkafake"
)

// sdkVersion is the version of Meta's Node SDK (npm
// facebook-nodejs-business-sdk) that TestNodeSDK drives.
const sdkVersion = "24.0.1"

// sdkModule answers the directory of the SDK's package, installed with npm
// into the repository's .cache/sdk-npm (once; reused while its version is
// sdkVersion). It skips the test where node is missing, unless
// ADBOOST_REQUIRE_NODE is set (as CI sets it): then it fails.
func sdkModule(t *testing.T) string {
	t.Helper()
	if _, err := exec.LookPath("node"); err != nil {
		if os.Getenv("ADBOOST_REQUIRE_NODE") != "" {
			t.Fatal("node is missing and ADBOOST_REQUIRE_NODE is set")
		}
		t.Skip("node is missing: Meta's Node SDK is not driven")
	}
	root, err := filepath.Abs("../..")
	if err != nil {
		t.Fatal(err)
	}
	prefix := filepath.Join(root, ".cache", "sdk-npm")
	module := filepath.Join(prefix, "node_modules", "facebook-nodejs-business-sdk")
	if installedVersion(module) == sdkVersion {
		return module
	}
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, "npm", "install", "--prefix", prefix, "--no-save", "--no-audit", "--no-fund",
		"--ignore-scripts", "facebook-nodejs-business-sdk@"+sdkVersion)
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("npm install facebook-nodejs-business-sdk@%s: %v\n%s", sdkVersion, err, out)
	}
	if v := installedVersion(module); v != sdkVersion {
		t.Fatalf("npm installed facebook-nodejs-business-sdk %q, want %s", v, sdkVersion)
	}
	return module
}

// installedVersion is the version of the npm package in dir; "" without one.
func installedVersion(dir string) string {
	b, err := os.ReadFile(filepath.Join(dir, "package.json"))
	if err != nil {
		return ""
	}
	var p struct{ Version string }
	json.Unmarshal(b, &p)
	return p.Version
}

// runSDK runs testdata/sdk/sdk.js's phase with the environment given and
// decodes the JSON it prints into out.
func runSDK(t *testing.T, phase string, env map[string]string, out any) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, "node", filepath.Join("testdata", "sdk", "sdk.js"), phase)
	cmd.Env = os.Environ()
	for k, v := range env {
		cmd.Env = append(cmd.Env, k+"="+v)
	}
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	if err := cmd.Run(); err != nil {
		t.Fatalf("node sdk.js %s: %v\n%s%s", phase, err, stdout.String(), stderr.String())
	}
	lines := strings.Split(strings.TrimSpace(stdout.String()), "\n")
	if err := json.Unmarshal([]byte(lines[len(lines)-1]), out); err != nil {
		t.Fatalf("node sdk.js %s printed %s: %v", phase, stdout.String(), err)
	}
}

// sdkWorld is the world TestNodeSDK meets: world's user, with a name, time
// zone, minimum and DSA defaults on its active ad account, three posts on
// page 456, one page of /me/accounts an answer, and every ad created
// delivering.
func sdkWorld(t *testing.T) (*networkafake.Fake, string) {
	f, base := world(t)
	f.UpdateUser(userToken, func(u *networkafake.User) {
		u.AdAccounts[1] = networkafake.AdAccount{ID: "act_1", Status: 1, Currency: "USD", Name: "Ana's ads",
			TimezoneName: "America/New_York", MinDailyBudget: 100, DefaultDSAPayor: "Ana Nováková"}
	})
	for i, msg := range []string{"Monday #gym", "Tuesday", "Wednesday #gym"} {
		f.AddPost("456", networkafake.Post{ID: fmt.Sprintf("456_900%d", i+1), Message: msg,
			Created: time.Date(2026, 11, 23+i, 10, 0, 0, 0, time.UTC)})
	}
	f.SetAccountsPageSize(1)
	f.AfterCreate(func(o networkafake.Object) {
		if o.Kind == "ad" {
			f.SetAdInsights(o.ID, networkafake.Insights{Impressions: 1200, Reach: 1000, Clicks: 40, Engagement: 80, Spend: "12.34"})
		}
	})
	return f, strings.TrimSuffix(base, "/v25.0")
}

// sdkCalls is what sdk.js prints for its calls phase.
type sdkCalls struct {
	Me         map[string]any   `json:"me"`
	AdAccounts []map[string]any `json:"adAccounts"`
	Pages      []map[string]any `json:"pages"`
	Posts      []map[string]any `json:"posts"`
	Created    struct{ Campaign, AdSet, Ad string }
	Campaigns  []map[string]any `json:"campaigns"`
	AdSets     []map[string]any `json:"adSets"`
	Ads        []map[string]any `json:"ads"`
	Insights   []map[string]any `json:"insights"`
}

// sdkBatch is what sdk.js prints for its batch phase: the entries of a
// batch as the SDK sent them, and the answers by entry index.
type sdkBatch struct {
	Sent    []map[string]any     `json:"sent"`
	Answers map[string]sdkAnswer `json:"answers"`
	Again   bool                 `json:"again"`
}

// sdkAnswer is the answer to an entry as the SDK read it.
type sdkAnswer struct {
	Status int             `json:"status"`
	Body   json.RawMessage `json:"body"`
}

func (a sdkAnswer) String() string { return fmt.Sprintf("%d %s", a.Status, a.Body) }

// TestNodeSDK drives Meta's own Node SDK against the fake, its token sent
// as the SDK sends it (the access_token parameter): the user's ad
// accounts, pages with their tokens, a page's posts (paged), a campaign,
// an ad set and an ad created, the lists of them, an ad's insights, and a
// batch the SDK builds, with an ad set create answered null that the SDK
// sends again.
func TestNodeSDK(t *testing.T) {
	module := sdkModule(t)
	f, root := sdkWorld(t)
	env := map[string]string{"SDK_MODULE": module, "GRAPH": root, "GRAPH_VERSION": "v25.0",
		"USER_TOKEN": userToken, "PAGE_ID": "456", "AD_ACCOUNT": "act_1", "POST_ID": "456_9003"}
	f.ClearRequests()
	var got sdkCalls
	runSDK(t, "calls", env, &got)
	sdkCallsWanted(t, got)
	for _, r := range f.Requests() {
		if !strings.HasPrefix(r.Path, "/v25.0/") || r.Authorization != "" || !strings.Contains(r.Path, "access_token=EAA") {
			t.Errorf("the SDK sent %s %s with Authorization %q", r.Method, r.Path, r.Authorization)
		}
	}
	camp := f.Objects("campaign")[0]
	if camp.Fields["objective"] != "OUTCOME_ENGAGEMENT" || camp.Fields["is_adset_budget_sharing_enabled"] != false ||
		!reflect.DeepEqual(camp.Fields["special_ad_categories"], []any{}) || camp.Fields["access_token"] != nil {
		t.Errorf("the SDK's campaign = %+v", camp.Fields)
	}

	// The batch: every entry answered as the same call alone on a twin in
	// the same state, the second ad set create of the campaign answered
	// null and sent again by the SDK in a batch of its own.
	twin := networkafake.New()
	twin.SetState(f.State())
	srv := httptest.NewServer(twin)
	t.Cleanup(srv.Close)
	env["CAMPAIGN_ID"], env["ADSET_ID"] = got.Created.Campaign, got.Created.AdSet
	f.ClearRequests()
	var batches struct{ First, Retry sdkBatch }
	runSDK(t, "batch", env, &batches)
	sdkBatchWanted(t, batches.First, batches.Retry, srv.URL+"/v25.0")
	if reqs := f.Requests(); len(reqs) != 2 || reqs[0].Path != "/v25.0?access_token="+userToken || reqs[0].Authorization != "" {
		t.Fatalf("batch requests = %+v", reqs)
	}
	if objectNames(f) != objectNames(twin) {
		t.Fatalf("objects after the batches = %s\nwant %s", objectNames(f), objectNames(twin))
	}
}

// sdkCallsWanted checks what the SDK read and created, value by value.
func sdkCallsWanted(t *testing.T, got sdkCalls) {
	t.Helper()
	const camp, adset, ad = "120200000000000001", "120200000000000002", "120200000000000003"
	for _, c := range []struct {
		what      string
		got, want any
	}{
		{"me", got.Me, map[string]any{"id": "5550001", "name": "Ana Nováková"}},
		{"ad accounts", got.AdAccounts, []map[string]any{
			{"id": "act_2", "name": "act_2", "account_status": 2.0, "currency": "EUR", "timezone_name": "UTC", "disable_reason": 0.0, "min_daily_budget": 100.0},
			{"id": "act_1", "name": "Ana's ads", "account_status": 1.0, "currency": "USD", "timezone_name": "America/New_York",
				"disable_reason": 0.0, "min_daily_budget": 100.0, "default_dsa_payor": "Ana Nováková"}}},
		{"pages", got.Pages, []map[string]any{
			{"id": "456", "name": "Gym", "access_token": pageToken}, {"id": "457", "name": "Cafe", "access_token": otherPage}}},
		{"posts", got.Posts, []map[string]any{
			{"id": "456_9003", "message": "Wednesday #gym", "created_time": "2026-11-25T10:00:00+0000"},
			{"id": "456_9002", "message": "Tuesday", "created_time": "2026-11-24T10:00:00+0000"},
			{"id": "456_9001", "message": "Monday #gym", "created_time": "2026-11-23T10:00:00+0000"}}},
		{"created", []string{got.Created.Campaign, got.Created.AdSet, got.Created.Ad}, []string{camp, adset, ad}},
		{"campaigns", got.Campaigns, []map[string]any{{"id": camp, "name": "sdk-campaign", "objective": "OUTCOME_ENGAGEMENT"}}},
		{"ad sets", got.AdSets, []map[string]any{{"id": adset, "name": "sdk-adset", "campaign_id": camp}}},
		{"ads", got.Ads, []map[string]any{{"id": ad, "name": "sdk-ad", "adset_id": adset}}},
		{"insights", withoutDates(anys(got.Insights)), []any{map[string]any{"impressions": "1200", "reach": "1000", "clicks": "40",
			"spend": "12.34", "actions": []any{map[string]any{"action_type": "post_engagement", "value": "80"}}}}},
	} {
		if !reflect.DeepEqual(normal(c.got), normal(c.want)) {
			t.Errorf("%s = %v\nwant %v", c.what, c.got, c.want)
		}
	}
}

// sdkBatchWanted checks the SDK's batch and its batch of the entries
// answered null: what it sent, and each answer against the same call
// alone on the twin at twinBase.
func sdkBatchWanted(t *testing.T, first, retry sdkBatch, twinBase string) {
	t.Helper()
	if len(first.Sent) != 5 || len(first.Answers) != 4 || first.Answers["3"].Status != 0 {
		t.Fatalf("the first batch: %d entries sent, answers %+v; want 5 and 4, none for entry 3", len(first.Sent), first.Answers)
	}
	if len(retry.Sent) != 1 || !reflect.DeepEqual(retry.Sent[0], first.Sent[3]) || len(retry.Answers) != 1 || retry.Again {
		t.Fatalf("the batch sent again = %+v", retry)
	}
	if b, _ := first.Sent[1]["body"].(string); b != "status=PAUSED" {
		t.Errorf("the SDK's update body = %q", b)
	}
	entries := []map[string]any{first.Sent[0], first.Sent[1], first.Sent[2], first.Sent[4], retry.Sent[0]}
	want := alone(t, twinBase, userToken, entries...)
	answers := []sdkAnswer{first.Answers["0"], first.Answers["1"], first.Answers["2"], first.Answers["4"], retry.Answers["3"]}
	for i, a := range answers {
		var body bytes.Buffer
		json.Compact(&body, a.Body)
		var w bytes.Buffer
		json.Compact(&w, []byte(want[i].Body))
		if a.Status != want[i].Code || normalJSON(body.Bytes()) != normalJSON(w.Bytes()) {
			t.Errorf("answer to %v = %d %s\nwant %d %s", entries[i]["relative_url"], a.Status, a.Body, want[i].Code, want[i].Body)
		}
	}
	if !strings.Contains(string(first.Answers["0"].Body), `"name":"sdk-campaign"`) {
		t.Errorf("the campaign read in the batch = %s", first.Answers["0"].Body)
	}
}

// anys is a list of maps as a list of values.
func anys(ms []map[string]any) []any {
	out := make([]any, len(ms))
	for i, m := range ms {
		out[i] = m
	}
	return out
}

// normal is v through JSON: numbers as float64, maps and lists as any.
func normal(v any) any {
	b, _ := json.Marshal(v)
	var out any
	json.Unmarshal(b, &out)
	return out
}

// normalJSON is a JSON text with its object keys in order.
func normalJSON(b []byte) string {
	var v any
	if json.Unmarshal(b, &v) != nil {
		return string(b)
	}
	out, _ := json.Marshal(v)
	return string(out)
}
