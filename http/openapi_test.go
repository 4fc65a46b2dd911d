package httpapi_test

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"reflect"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/getkin/kin-openapi/openapi3"
	"github.com/getkin/kin-openapi/openapi3filter"
	"github.com/getkin/kin-openapi/routers"
	"github.com/getkin/kin-openapi/routers/gorillamux"
	"go.yaml.in/yaml/v3"

	"adboost/auth"
	httpapi "adboost/http"
)

// The conformance check: (*env).do hands every exchange of the integration
// tests to conform, which validates the request and the response against
// http/openapi.yaml with kin-openapi's openapi3filter.

// apiDoc is the embedded document, loaded and validated once.
var apiDoc = sync.OnceValues(func() (*openapi3.T, error) {
	return loadDoc(httpapi.OpenAPIYAML)
})

func loadDoc(src []byte) (*openapi3.T, error) {
	loader := openapi3.NewLoader()
	doc, err := loader.LoadFromData(src)
	if err != nil {
		return nil, fmt.Errorf("load: %w", err)
	}
	if err := doc.Validate(loader.Context); err != nil {
		return nil, fmt.Errorf("validate: %w", err)
	}
	return doc, nil
}

// apiRouter finds the operation of a request. It routes on paths alone: the
// document's servers are the deployments, the tests' server is on a random
// port.
var apiRouter = sync.OnceValues(func() (routers.Router, error) {
	doc, err := apiDoc()
	if err != nil {
		return nil, err
	}
	anyHost := *doc
	anyHost.Servers = nil
	return gorillamux.NewRouter(&anyHost)
})

// exchange is one request and its response, as the test client saw them.
type exchange struct {
	method, target string // target: path and query
	header         http.Header
	body           []byte
	status         int
	respHeader     http.Header
	respBody       []byte
}

// bearerPresent is the AuthenticationFunc of the check: a route with the
// bearerAuth requirement must be called with a Bearer token. Whether the
// token is valid is the server's business (it answers 401, which the
// document describes).
func bearerPresent(_ context.Context, in *openapi3filter.AuthenticationInput) error {
	s := in.SecurityScheme
	if s == nil || s.Type != "http" || !strings.EqualFold(s.Scheme, "bearer") {
		return fmt.Errorf("security scheme %s is not HTTP bearer", in.SecuritySchemeName)
	}
	scheme, token, ok := strings.Cut(in.RequestValidationInput.Request.Header.Get("Authorization"), " ")
	if !ok || !strings.EqualFold(scheme, "Bearer") || strings.TrimSpace(token) == "" {
		return errors.New("no Authorization: Bearer header")
	}
	return nil
}

// conform answers nil when the exchange is what the document describes:
//   - a request the document allows gets a response the document describes
//     for its operation and status (body schema, content type, headers);
//   - a request the document does not allow (tests send many on purpose:
//     malformed JSON, wrong types, form posts, no token) must be refused: 401
//     when the Bearer token is missing, a 4xx otherwise; its response is then
//     checked just the same;
//   - an unknown path or a method a path lacks must answer the NotFound or
//     MethodNotAllowed response of the document's components.
func conform(x exchange) error {
	doc, err := apiDoc()
	if err != nil {
		return fmt.Errorf("http/openapi.yaml: %w", err)
	}
	router, err := apiRouter()
	if err != nil {
		return fmt.Errorf("http/openapi.yaml: router: %w", err)
	}
	ctx := context.Background()
	req, err := http.NewRequest(x.method, "http://adboost.test"+x.target, bytes.NewReader(x.body))
	if err != nil {
		return err
	}
	req.Header = x.header.Clone()

	// The mux answers HEAD wherever it answers GET; the document lists GET.
	routed := req
	if req.Method == http.MethodHead {
		routed = req.Clone(ctx)
		routed.Method = http.MethodGet
	}
	route, params, err := router.FindRoute(routed)
	switch {
	case errors.Is(err, routers.ErrPathNotFound):
		return conformBare(doc, req, x, "NotFound", http.StatusNotFound)
	case errors.Is(err, routers.ErrMethodNotAllowed):
		return conformBare(doc, req, x, "MethodNotAllowed", http.StatusMethodNotAllowed)
	case err != nil:
		return err
	}

	in := &openapi3filter.RequestValidationInput{
		Request: req, PathParams: params, Route: route,
		Options: &openapi3filter.Options{
			AuthenticationFunc:                bearerPresent,
			RejectWhenRequestBodyNotSpecified: true,
			SkipSettingDefaults:               true,
			MultiError:                        true,
		},
	}
	in.Options.WithCustomSchemaErrorFunc(schemaErrorText)
	if reqErr := openapi3filter.ValidateRequest(ctx, in); reqErr != nil {
		var noToken *openapi3filter.SecurityRequirementsError
		switch {
		case errors.As(reqErr, &noToken) && x.status != http.StatusUnauthorized:
			return fmt.Errorf("the request has no Bearer token, which %s %s requires, yet the server answered %d, not 401:\n%v",
				x.method, route.Path, x.status, reqErr)
		case x.status < 400 || x.status > 499:
			return fmt.Errorf("the document does not allow this request, yet the server answered %d, not a 4xx refusal:\n%v",
				x.status, reqErr)
		}
	}

	out := &openapi3filter.ResponseValidationInput{
		RequestValidationInput: in,
		Status:                 x.status,
		Header:                 x.respHeader,
		Options:                responseOptions(),
	}
	out.SetBodyBytes(x.respBody)
	if err := openapi3filter.ValidateResponse(ctx, out); err != nil {
		return fmt.Errorf("the response is not what %s %s describes:\n%v", x.method, route.Path, err)
	}
	return nil
}

// responseOptions make ValidateResponse refuse a status the operation does
// not list, and report every mismatch, each as "at /pointer: reason".
func responseOptions() *openapi3filter.Options {
	opts := &openapi3filter.Options{IncludeResponseStatus: true, MultiError: true}
	opts.WithCustomSchemaErrorFunc(schemaErrorText)
	return opts
}

func schemaErrorText(err *openapi3.SchemaError) string {
	if ptr := err.JSONPointer(); len(ptr) > 0 {
		return "at /" + strings.Join(ptr, "/") + ": " + tidyReason(err.Reason)
	}
	return tidyReason(err.Reason)
}

// tidyReason shortens the JSON Schema 2020-12 validator's report. A field
// that unevaluatedProperties refuses is reported as "false schema"; when a
// subschema of allOf fails, every field it described is refused so too, which
// buries the real mismatch: those lines are dropped when there is another.
func tidyReason(reason string) string {
	var kept, refused []string
	for _, line := range strings.Split(reason, "\n") {
		switch {
		case strings.HasPrefix(line, "jsonschema validation failed with "):
		case strings.HasSuffix(line, "': false schema"):
			refused = append(refused, strings.TrimSuffix(line, "false schema")+"not described (unevaluatedProperties: false)")
		default:
			kept = append(kept, line)
		}
	}
	if len(kept) == 0 || len(kept) == 1 && strings.Contains(kept[0], "'allOf' failed") {
		kept = append(kept, refused...)
	}
	return "\n" + strings.Join(kept, "\n")
}

// conformBare checks the answer to a request no operation takes against the
// response component name, which must be its status.
func conformBare(doc *openapi3.T, req *http.Request, x exchange, name string, status int) error {
	resp := doc.Components.Responses[name]
	if resp == nil {
		return fmt.Errorf("http/openapi.yaml: no components.responses.%s", name)
	}
	if x.status != status {
		return fmt.Errorf("%s %s has no operation in the document, so the answer must be %d (%s), not %d",
			x.method, req.URL.Path, status, name, x.status)
	}
	op := openapi3.NewOperation()
	op.Responses = openapi3.NewResponses(openapi3.WithStatus(status, resp))
	out := &openapi3filter.ResponseValidationInput{
		RequestValidationInput: &openapi3filter.RequestValidationInput{
			Request: req, Route: &routers.Route{Spec: doc, Method: x.method, Path: req.URL.Path, Operation: op},
		},
		Status:  x.status,
		Header:  x.respHeader,
		Options: responseOptions(),
	}
	out.SetBodyBytes(x.respBody)
	if err := openapi3filter.ValidateResponse(context.Background(), out); err != nil {
		return fmt.Errorf("the answer is not components.responses.%s:\n%v", name, err)
	}
	return nil
}

func TestOpenAPIDocumentIsValid31(t *testing.T) {
	t.Parallel()
	doc, err := apiDoc()
	if err != nil {
		t.Fatalf("http/openapi.yaml: %v", err)
	}
	if !doc.IsOpenAPI31OrLater() || doc.IsOpenAPI32OrLater() || !strings.HasPrefix(doc.OpenAPI, "3.1.") {
		t.Fatalf("openapi: %q, want 3.1.x", doc.OpenAPI)
	}
	if doc.Info.Version != "1.0" {
		t.Fatalf("info.version %q, want the spec's 1.0", doc.Info.Version)
	}
	// The three base addresses of the spec: development, local, production.
	var servers []string
	for _, s := range doc.Servers {
		servers = append(servers, strings.Fields(s.Description)[0])
	}
	if !reflect.DeepEqual(servers, []string{"Development", "Local", "Production"}) {
		t.Fatalf("servers are %v, want the development, local and production servers", servers)
	}
	bearer := doc.Components.SecuritySchemes["bearerAuth"]
	if bearer == nil || bearer.Value.Type != "http" || bearer.Value.Scheme != "bearer" || bearer.Value.BearerFormat != "JWT" {
		t.Fatalf("components.securitySchemes.bearerAuth must be HTTP bearer with JWT tokens")
	}
	if doc.Security != nil && len(doc.Security) > 0 {
		t.Fatalf("a document-wide security requirement would put Bearer on public routes; set it per operation")
	}

	// A document that breaks the rules of 3.1 is refused: the validation
	// this test relies on is not a no-op.
	broken := bytes.Replace(httpapi.OpenAPIYAML, []byte("openapi: 3.1.0"), []byte("openapi: 3.1.0\nwebhooks: 7"), 1)
	if _, err := loadDoc(broken); err == nil {
		t.Fatal("a document with webhooks: 7 loads and validates")
	}
	broken = bytes.Replace(httpapi.OpenAPIYAML, []byte(`$ref: "#/components/schemas/UserWithToken"`),
		[]byte(`$ref: "#/components/schemas/NoSuchSchema"`), 1)
	if _, err := loadDoc(broken); err == nil {
		t.Fatal("a document with a dangling $ref loads and validates")
	}
}

// TestOpenAPIDescribesEveryRoute: the routes registered on the mux and the
// operations of the document are the same set, with Bearer on the same ones,
// and every operation lists the failures its kind of route can have.
func TestOpenAPIDescribesEveryRoute(t *testing.T) {
	t.Parallel()
	doc, err := apiDoc()
	if err != nil {
		t.Fatal(err)
	}
	registered := registeredRoutes(t)
	described := describedOperations(t, doc)

	var missing, extra, auth []string
	for key, bearer := range registered {
		d, ok := described[key]
		switch {
		case !ok:
			missing = append(missing, key)
		case d != bearer:
			auth = append(auth, fmt.Sprintf("%s (registered with Bearer %v, described with Bearer %v)", key, bearer, d))
		}
	}
	for key := range described {
		if _, ok := registered[key]; !ok {
			extra = append(extra, key)
		}
	}
	slices.Sort(missing)
	slices.Sort(extra)
	slices.Sort(auth)
	if len(missing) > 0 {
		t.Errorf("registered but not described in http/openapi.yaml:\n  %s", strings.Join(missing, "\n  "))
	}
	if len(extra) > 0 {
		t.Errorf("described in http/openapi.yaml but not registered:\n  %s", strings.Join(extra, "\n  "))
	}
	if len(auth) > 0 {
		t.Errorf("Bearer differs between register() and http/openapi.yaml:\n  %s", strings.Join(auth, "\n  "))
	}
	if len(registered) < 8 {
		t.Fatalf("only %d routes registered: the comparison sees nothing", len(registered))
	}
	checkSpecRoutesRegistered(t, registered)
}

// registeredRoutes answers the routes registered on the mux, "METHOD /path"
// → Bearer, and checks none is registered twice.
func registeredRoutes(t *testing.T) map[string]bool {
	t.Helper()
	tokens, err := auth.NewTokens([]byte(testSecret), time.Hour)
	if err != nil {
		t.Fatal(err)
	}
	api := httpapi.New(httpapi.Config{}, nil, tokens, slog.New(slog.NewTextHandler(io.Discard, nil)))
	api.Handler()

	registered := map[string]bool{} // "METHOD /path" → Bearer
	for _, r := range api.Routes() {
		if _, dup := registered[r.Pattern]; dup {
			t.Errorf("route %s is registered twice", r.Pattern)
		}
		registered[r.Pattern] = r.Bearer
	}
	return registered
}

// describedOperations answers the operations of the document, "METHOD /path"
// → Bearer, linting each and checking their operationIds are unique.
func describedOperations(t *testing.T, doc *openapi3.T) map[string]bool {
	t.Helper()
	described := map[string]bool{}
	operationIDs := map[string]string{}
	for path, item := range doc.Paths.Map() {
		for method, op := range item.Operations() {
			key := method + " " + path
			described[key] = op.Security != nil && len(*op.Security) > 0
			lintOperation(t, key, op, described[key])
			if other, dup := operationIDs[op.OperationID]; dup {
				t.Errorf("%s and %s share operationId %q", key, other, op.OperationID)
			}
			operationIDs[op.OperationID] = key
		}
	}
	return described
}

// checkSpecRoutesRegistered checks every route of the spec and of the
// contract's additions is registered, Bearer exactly where the spec marks it.
func checkSpecRoutesRegistered(t *testing.T, registered map[string]bool) {
	t.Helper()
	// Every route of the spec and of the contract's additions is registered,
	// Bearer exactly where the spec marks it.
	var unregistered, specAuth []string
	for key, want := range specRoutes {
		bearer, ok := registered[key]
		switch {
		case !ok:
			unregistered = append(unregistered, key)
		case bearer != want:
			specAuth = append(specAuth, fmt.Sprintf("%s (registered with Bearer %v, the spec says %v)", key, bearer, want))
		}
	}
	slices.Sort(unregistered)
	slices.Sort(specAuth)
	if len(unregistered) > 0 {
		t.Errorf("routes of the spec that are not registered:\n  %s", strings.Join(unregistered, "\n  "))
	}
	if len(specAuth) > 0 {
		t.Errorf("Bearer differs from the spec:\n  %s", strings.Join(specAuth, "\n  "))
	}
}

// lintOperation checks what every operation of this service must say.
func lintOperation(t *testing.T, key string, op *openapi3.Operation, bearer bool) {
	t.Helper()
	if op.OperationID == "" || len(op.Tags) != 1 || op.Summary == "" {
		t.Errorf("%s: needs an operationId, one tag and a summary", key)
	}
	want := []string{"200", "500"}
	if bearer {
		want = append(want, "401")
	}
	if op.RequestBody != nil {
		want = append(want, "400", "413", "415", "429")
		if op.RequestBody.Value.Content.Get("application/json") == nil {
			t.Errorf("%s: the request body must be application/json", key)
		}
	}
	for _, status := range want {
		if op.Responses.Value(status) == nil {
			t.Errorf("%s: no %s response", key, status)
		}
	}
	for status, resp := range op.Responses.Map() {
		if status[0] != '2' && !strings.HasPrefix(resp.Ref, "#/components/responses/") {
			t.Errorf("%s: response %s must be one of components.responses (the error envelope)", key, status)
		}
	}
}

// TestOpenAPIServed: the two served forms are the embedded document.
func TestOpenAPIServed(t *testing.T) {
	e := newEnv(t)
	r := e.get("/v1/openapi.yaml", "")
	if r.status != http.StatusOK || r.header.Get("Content-Type") != "application/yaml" || !bytes.Equal(r.body, httpapi.OpenAPIYAML) {
		t.Fatalf("GET /v1/openapi.yaml: %d %q, %d bytes; want 200 application/yaml and the embedded file",
			r.status, r.header.Get("Content-Type"), len(r.body))
	}

	var fromYAML any
	if err := yaml.Unmarshal(httpapi.OpenAPIYAML, &fromYAML); err != nil {
		t.Fatal(err)
	}
	viaJSON, err := json.Marshal(fromYAML)
	if err != nil {
		t.Fatal(err)
	}
	var want, got map[string]any
	if err := json.Unmarshal(viaJSON, &want); err != nil {
		t.Fatal(err)
	}
	e.get("/v1/openapi.json", "").ok(&got)
	if !reflect.DeepEqual(got, want) {
		t.Fatal("GET /v1/openapi.json is not the YAML document")
	}
	if info := got["info"].(map[string]any); info["version"] != "1.0" {
		t.Fatalf("info.version = %#v, want the string 1.0", info["version"])
	}
	// The JSON keeps the YAML's order (a Go map would sort the paths).
	var paths []string
	dec := json.NewDecoder(bytes.NewReader(httpapi.OpenAPIJSON))
	for depth := 0; ; {
		tok, err := dec.Token()
		if err != nil {
			t.Fatal(err)
		}
		switch tok {
		case json.Delim('{'), json.Delim('['):
			depth++
		case json.Delim('}'), json.Delim(']'):
			depth--
		}
		if s, ok := tok.(string); ok && depth == 2 && strings.HasPrefix(s, "/") && !slices.Contains(paths, s) {
			paths = append(paths, s)
		}
		if tok == "components" && depth == 1 {
			break
		}
	}
	if len(paths) < 2 || paths[0] != "/healthz" || paths[1] != "/readyz" {
		t.Fatalf("paths in the JSON begin %v; want the YAML's order, /healthz first", paths)
	}
}

// TestConformanceCatchesDrift feeds the check of (*env).do exchanges that
// break the document, so that it is known to refuse them.
func TestConformanceCatchesDrift(t *testing.T) {
	t.Parallel()
	for _, tc := range append(driftCasesOfUser(), driftCasesOfShapes()...) {
		t.Run(tc.name, func(t *testing.T) {
			err := conform(tc.x)
			switch {
			case tc.want == "" && err != nil:
				t.Fatalf("refused: %v", err)
			case tc.want != "" && err == nil:
				t.Fatalf("accepted; want a complaint about %q", tc.want)
			case tc.want != "" && !strings.Contains(err.Error(), tc.want):
				t.Fatalf("complaint %v\ndoes not mention %q", err, tc.want)
			}
		})
	}
}

// driftDocs are the headers and bodies the drift cases are made of.
type driftDocs struct {
	jsonHeader, authed, unauth, tagged                    http.Header
	user, withToken, login, agency, preset, withPurchases string
	campaign, noPage, history, boosted, insights, city    string
}

// driftBodies answers the headers and the conforming bodies that the drift
// cases send or break.
func driftBodies() driftDocs {
	jsonHeader := http.Header{"Content-Type": {"application/json"}}
	authed := http.Header{"Authorization": {"Bearer x.y.z"}}
	unauth := http.Header{"Content-Type": {"application/json"}, "Www-Authenticate": {"Bearer"}}
	tagged := http.Header{"Content-Type": {"application/json"}, "Etag": {`W/"q0uVc3NzdrYxMTIzNDU2Nzg5MGFi"`}, "Cache-Control": {"no-cache"}}
	user := `{"snid": 1, "email": "a@b.cd", "first_name": "A", "last_name": "B", "phone_number": "",
		"agency_id": 10, "agency_name": "n", "credit_balance": "1.50",
		"connection": {"network_a": {"status": "expiring", "expires_at": "2026-12-01 10:00:00", "missing_permissions": []}}, "weekly_report": true}`
	withToken := strings.TrimSuffix(user, "}") + `, "access_token": "t"}`
	login := `{"email": "a@b.cd", "password": "secret-pass"}`
	agency := `{"id": 10, "username": "northwind", "description": "d", "about": "a", "image": "", "website": "",
		"locations": "Prague", "services": [["Branding"]], "industries": [], "gps": "50.08,14.43", "employess": "5-20",
		"coordinates": "50.08,14.43"}`
	preset := `{"id": 1, "title": "Gym", "image": null, "campaign_objective": "Traffic", "vertical": ["Fitness", null],
		"price": "49.00", "original_price": "59.00", "version": 1, "private": false, "platform": "all",
		"audience_targeting": "Adults", "location_json": "{\"countries\": [\"CZ\"]}", "description": "",
		"hashtags": ["gym"], "reach": 20, "allowed_options": ["advanced_settings"], "rating": 4, "agency": ` + agency + `}`
	withPurchases := strings.TrimSuffix(preset, "}") + `, "number_of_purchases": 3}`
	campaign := `{"id": 1, "active": true, "page_id": 456, "network_b_id": 0, "preset_id": 1,
		"campaign_budget_type": "daily", "campaign_budget_value": 20.00, "adset_budget_sharing_enabled": false,
		"campaign_bid_strategy_enabled": false, "campaign_bid_strategy": "COST_CAP", "campaign_bid_amount": 0.45,
		"goal": "LINK_CLICKS", "audience_targeting": {"age_min": 18, "geo_locations": {"countries": ["CZ"]}},
		"hashtag": "#gym", "end_date": "2030-12-31", "page": {"id": 456, "name": "Gym", "picture": ""},
		"network_b": null, "preset": {"id": 1, "title": "Gym"},
		"promoted_object": null, "special_ad_categories": [], "dsa_beneficiary": null, "dsa_payor": null, "ad_account": null,
		"engine": {"state": "running", "message": "", "since": "2026-01-02 10:00:00", "checked_at": null},
		"rules": {"min_reactions": 25, "min_comments": null, "min_shares": null, "min_engagement_rate": 2.5,
			"post_age_min_hours": null, "post_age_max_hours": 48, "content_types": ["photo"], "exclude_keywords": null,
			"hours": {"days": ["mon"], "from": "09:00", "to": "17:00", "timezone": "Europe/Prague"},
			"post_budget": "15.00", "post_days": 7, "max_posts_per_day": null, "spend_cap": null}}`
	noPage := strings.NewReplacer(`"page_id": 456`, `"page_id": 0`, `"network_b_id": 0`, `"network_b_id": 789`,
		`"page": {"id": 456, "name": "Gym", "picture": ""}`, `"page": null`,
		`"network_b": null`, `"network_b": {"id": 789, "name": "gym", "picture": ""}`).Replace(campaign)
	history := `{"data": [{"id": 3, "action": "activated", "details": {"active": {"old": false, "new": true}}, "created_at": "2026-01-02 10:00:00"},
		{"id": 2, "action": "updated", "details": {"hashtag": {"old": "#a", "new": "#b"}, "end_date": {"old": null, "new": "2030-12-31"}}, "created_at": "2026-01-02 09:00:00"},
		{"id": 1, "action": "deleted", "details": {"source_id": 456, "page_id": 456, "network_b_id": 0, "preset_id": 1}, "created_at": "2026-01-01 09:00:00"}]}`
	boosted := `{"data": [{"id": 4, "action": "boosted", "details": {"post_id": 9001, "ad_id": "120200000000000001"}, "created_at": "2026-01-02 11:00:00"}]}`
	insights := `{"posts": "2", "reach": "1000", "engagement": "80", "clicks": "40", "spend": "12.00", "cpm": "10.00",
		"ctr": "3.33", "cpc": "0.30", "cpa": "3.00", "conversions": "4", "conversion_rate": "10.00"}`
	city := `{"value": "3067696", "label": "Prague", "type": "city", "region": "Praha", "country_name": "Czechia"}`
	return driftDocs{jsonHeader, authed, unauth, tagged, user, withToken, login, agency, preset, withPurchases,
		campaign, noPage, history, boosted, insights, city}
}

// driftCase is an exchange and the complaint the check must make of it
// ("" when it conforms).
type driftCase struct {
	name string
	x    exchange
	want string // "" = conforms, else a part of the complaint
}

// driftPost is a JSON POST exchange without a token.
func driftPost(target, body string, status int, respHeader http.Header, resp string) exchange {
	return exchange{method: "POST", target: target, header: http.Header{"Content-Type": {"application/json"}}, body: []byte(body),
		status: status, respHeader: respHeader, respBody: []byte(resp)}
}

// driftBearerPost is a JSON POST exchange with a Bearer token.
func driftBearerPost(target, body string, status int, respHeader http.Header, resp string) exchange {
	x := driftPost(target, body, status, respHeader, resp)
	x.header = http.Header{"Content-Type": {"application/json"}, "Authorization": {"Bearer x.y.z"}}
	return x
}

// driftGet is a GET exchange with the request headers given.
func driftGet(target string, header http.Header, status int, respHeader http.Header, resp string) exchange {
	return exchange{method: "GET", target: target, header: header, status: status, respHeader: respHeader, respBody: []byte(resp)}
}

// driftCasesOfUser are the drift cases of the user routes, the error
// envelope, statuses, tokens and methods.
func driftCasesOfUser() []driftCase {
	d := driftBodies()
	jsonHeader, authed, unauth := d.jsonHeader, d.authed, d.unauth
	user, withToken, login := d.user, d.withToken, d.login
	post, get := driftPost, driftGet
	return []driftCase{
		{"a described answer", get("/v1/user/detail", authed, 200, jsonHeader, user), ""},
		{"a sign-in with its token", post("/v1/user/login-password", login, 200, jsonHeader, withToken), ""},
		{"snid as a string", get("/v1/user/detail", authed, 200, jsonHeader, strings.Replace(user, `"snid": 1`, `"snid": "1"`, 1)), "snid"},
		{"credit_balance as a number", get("/v1/user/detail", authed, 200, jsonHeader, strings.Replace(user, `"1.50"`, `1.5`, 1)), "credit_balance"},
		{"credit_balance with one decimal", get("/v1/user/detail", authed, 200, jsonHeader, strings.Replace(user, `"1.50"`, `"1.5"`, 1)), "credit_balance"},
		{"a field missing", get("/v1/user/detail", authed, 200, jsonHeader, strings.Replace(user, `"agency_name": "n", `, ``, 1)), "agency_name"},
		{"a field not described", get("/v1/user/detail", authed, 200, jsonHeader, withToken), "access_token"},
		{"the token missing from a sign-in", post("/v1/user/login-password", login, 200, jsonHeader, user), "access_token"},
		{"null for a string", get("/v1/user/detail", authed, 200, jsonHeader, strings.Replace(user, `"A"`, `null`, 1)), "first_name"},
		{"a connection not connected", get("/v1/user/detail", authed, 200, jsonHeader, strings.Replace(strings.Replace(user, `"expiring"`, `"not_connected"`, 1), `"2026-12-01 10:00:00"`, `null`, 1)), ""},
		{"a connection status not described", get("/v1/user/detail", authed, 200, jsonHeader, strings.Replace(user, `"expiring"`, `"lost"`, 1)), "status"},
		{"a connection's end in RFC 3339", get("/v1/user/detail", authed, 200, jsonHeader, strings.Replace(user, `2026-12-01 10:00:00`, `2026-12-01T10:00:00Z`, 1)), "expires_at"},
		{"the connection missing", get("/v1/user/detail", authed, 200, jsonHeader, strings.Replace(user, `, "missing_permissions": []`, ``, 1)), "missing_permissions"},
		{"a status not described", get("/v1/user/detail", authed, 409, jsonHeader, `{"error": "conflict", "message": "m"}`), "status is not supported"},
		{"the wrong code for the status", get("/v1/user/detail", authed, 404, jsonHeader, `{"error": "bad_request", "message": "m"}`), "not_found"},
		{"an envelope with another field", get("/v1/user/detail", authed, 404, jsonHeader, `{"error": "not_found", "message": "m", "id": 3}`), "id"},
		{"401 without WWW-Authenticate", get("/v1/user/detail", authed, 401, jsonHeader, `{"error": "unauthorized", "message": "m"}`), "WWW-Authenticate"},
		{"429 without Retry-After", post("/v1/user/login-password", login, 429, jsonHeader, `{"error": "rate_limited", "message": "m"}`), "Retry-After"},
		{"a 429 as described", post("/v1/user/login-password", login, 429, http.Header{"Content-Type": {"application/json"}, "Retry-After": {"60"}},
			`{"error": "rate_limited", "message": "m"}`), ""},
		{"not JSON", get("/v1/user/detail", authed, 200, http.Header{"Content-Type": {"text/plain"}}, user), "text/plain"},
		{"no token, yet 200", get("/v1/user/detail", nil, 200, jsonHeader, user), "no Bearer token"},
		{"no token, 401", get("/v1/user/detail", nil, 401, unauth, `{"error": "unauthorized", "message": "m"}`), ""},
		{"a body the document refuses, yet 200", post("/v1/user/login-password", `{"email": 5}`, 200, jsonHeader, withToken), "not a 4xx refusal"},
		{"a body the document refuses, 400", post("/v1/user/login-password", `{"email": 5}`, 400, jsonHeader, `{"error": "bad_request", "message": "m"}`), ""},
		{"a 400 without the envelope", post("/v1/user/login-password", `{"email": 5}`, 400, jsonHeader, `{"message": "m"}`), "error"},
		{"an unknown route", get("/v1/nothing", nil, 404, jsonHeader, `{"error": "not_found", "message": "m"}`), ""},
		{"an unknown route, 200", get("/v1/nothing", nil, 200, jsonHeader, `{}`), "must be 404"},
		{"HEAD of a GET route", exchange{method: "HEAD", target: "/healthz", status: 200, respHeader: jsonHeader}, ""},
		{"a wrong method", exchange{method: "DELETE", target: "/v1/user/detail", status: 405,
			respHeader: http.Header{"Content-Type": {"application/json"}, "Allow": {"GET, HEAD"}},
			respBody:   []byte(`{"error": "method_not_allowed", "message": "m"}`)}, ""},
		{"a wrong method without Allow", exchange{method: "DELETE", target: "/v1/user/detail", status: 405,
			respHeader: jsonHeader, respBody: []byte(`{"error": "method_not_allowed", "message": "m"}`)}, "Allow"},
	}
}

// driftCasesOfShapes are the drift cases of the catalogue, campaign, insights
// and geo shapes.
func driftCasesOfShapes() []driftCase {
	d := driftBodies()
	jsonHeader, authed, tagged := d.jsonHeader, d.authed, d.tagged
	agency, preset, withPurchases, campaign, noPage := d.agency, d.preset, d.withPurchases, d.campaign, d.noPage
	history, boosted, insights, city := d.history, d.boosted, d.insights, d.city
	post, bearerPost, get := driftPost, driftBearerPost, driftGet
	return []driftCase{
		{"an agency", get("/v1/agencies/detail/10", nil, 200, tagged, agency), ""},
		{"an agency without its tag", get("/v1/agencies/detail/10", nil, 200, http.Header{"Content-Type": {"application/json"}, "Cache-Control": {"no-cache"}}, agency), `"ETag" missing`},
		{"an agency without its id", get("/v1/agencies/detail/10", nil, 200, tagged, strings.Replace(agency, `"id": 10, `, ``, 1)), "id"},
		{"services not nested", get("/v1/agencies/detail/10", nil, 200, tagged, strings.Replace(agency, `[["Branding"]]`, `["Branding"]`, 1)), "services"},
		{"a revalidated agency", get("/v1/agencies/detail/10", http.Header{"If-None-Match": {`W/"abc"`}}, 304, http.Header{"Etag": {`W/"abc"`}}, ""), ""},
		{"a preset", post("/v1/presets/browse", `{}`, 200, jsonHeader, "["+preset+"]"), ""},
		{"a preset's rating as a string", post("/v1/presets/browse", `{}`, 200, jsonHeader, "["+strings.Replace(preset, `"rating": 4`, `"rating": "4"`, 1)+"]"), "rating"},
		{"a preset's price as a number", post("/v1/presets/browse", `{}`, 200, jsonHeader, "["+strings.Replace(preset, `"49.00"`, `49`, 1)+"]"), "price"},
		{"number_of_purchases in browse", post("/v1/presets/browse", `{}`, 200, jsonHeader, "["+withPurchases+"]"), "number_of_purchases"},
		{"number_of_purchases in available", get("/v1/presets/available", authed, 200, jsonHeader, "["+withPurchases+"]"), ""},
		{"available without number_of_purchases", get("/v1/presets/available", authed, 200, jsonHeader, "["+preset+"]"), "number_of_purchases"},
		{"a campaign", get("/v1/boosted-pages/detail/1", authed, 200, jsonHeader, campaign), ""},
		{"a campaign without a page", get("/v1/boosted-pages/detail/1", authed, 200, jsonHeader, noPage), ""},
		{"a page without its id", get("/v1/boosted-pages/detail/1", authed, 200, jsonHeader, strings.Replace(campaign, `"page": {"id": 456, "name": "Gym", "picture": ""}`, `"page": null`, 1)), "page"},
		{"page_id 0 with a page", get("/v1/boosted-pages/detail/1", authed, 200, jsonHeader, strings.Replace(noPage, `"page": null`, `"page": {"id": 456, "name": "Gym", "picture": ""}`, 1)), "page"},
		{"a campaign without end_date", get("/v1/boosted-pages/detail/1", authed, 200, jsonHeader, strings.Replace(campaign, `"end_date": "2030-12-31", `, ``, 1)), "end_date"},
		{"a budget as a string", get("/v1/boosted-pages/detail/1", authed, 200, jsonHeader, strings.Replace(campaign, `20.00`, `"20.00"`, 1)), "campaign_budget_value"},
		{"rules without a rule", get("/v1/boosted-pages/detail/1", authed, 200, jsonHeader, strings.Replace(campaign, `"min_comments": null, `, ``, 1)), "min_comments"},
		{"a rule not described", get("/v1/boosted-pages/detail/1", authed, 200, jsonHeader, strings.Replace(campaign, `"min_comments": null`, `"min_likes": null`, 1)), "min_likes"},
		{"a post budget as a number", get("/v1/boosted-pages/detail/1", authed, 200, jsonHeader, strings.Replace(campaign, `"15.00"`, `15`, 1)), "post_budget"},
		{"post_budget without post_days", get("/v1/boosted-pages/detail/1", authed, 200, jsonHeader, strings.Replace(campaign, `"post_days": 7`, `"post_days": null`, 1)), "post_days"},
		{"hours at 24:00", get("/v1/boosted-pages/detail/1", authed, 200, jsonHeader, strings.Replace(campaign, `"17:00"`, `"24:00"`, 1)), "to"},
		{"an age as a string in the targeting", get("/v1/boosted-pages/detail/1", authed, 200, jsonHeader, strings.Replace(campaign, `"age_min": 18`, `"age_min": "18"`, 1)), "age_min"},
		{"a history", get("/v1/boosted-pages/history/1", authed, 200, jsonHeader, history), ""},
		{"details of another action", get("/v1/boosted-pages/history/1", authed, 200, jsonHeader, strings.Replace(history, `"action": "activated"`, `"action": "updated"`, 1)), "details"},
		{"activated from true", get("/v1/boosted-pages/history/1", authed, 200, jsonHeader, strings.Replace(history, `"old": false`, `"old": true`, 1)), "old"},
		{"created_at in RFC 3339", get("/v1/boosted-pages/history/1", authed, 200, jsonHeader, strings.Replace(history, `2026-01-02 10:00:00`, `2026-01-02T10:00:00Z`, 1)), "created_at"},
		{"a boosted entry", get("/v1/boosted-pages/history/1", authed, 200, jsonHeader, boosted), ""},
		{"a boosted entry's ad id as a number", get("/v1/boosted-pages/history/1", authed, 200, jsonHeader, strings.Replace(boosted, `"120200000000000001"`, `120200000000000001`, 1)), "ad_id"},
		{"a boosted entry without its post", get("/v1/boosted-pages/history/1", authed, 200, jsonHeader, strings.Replace(boosted, `"post_id": 9001, `, ``, 1)), "post_id"},
		{"insights", bearerPost("/v1/boosted-posts/batch-insights", `{"ids": "900, 901"}`, 200, jsonHeader, insights), ""},
		{"spend with one decimal", bearerPost("/v1/boosted-posts/batch-insights", `{"ids": "900"}`, 200, jsonHeader, strings.Replace(insights, `"12.00"`, `"12.0"`, 1)), "spend"},
		{"a count as a number", bearerPost("/v1/boosted-posts/batch-insights", `{"ids": "900"}`, 200, jsonHeader, strings.Replace(insights, `"posts": "2"`, `"posts": 2`, 1)), "posts"},
		{"a city", post("/v1/boosted-pages/geo-locations", `{"query": "Pra"}`, 200, jsonHeader, `[`+city+`]`), ""},
		{"a country with a region", post("/v1/boosted-pages/geo-locations", `{"query": "Cz"}`, 200, jsonHeader,
			`[{"value": "CZ", "label": "Czechia", "type": "country", "region": "Praha", "country_name": "Czechia"}]`), "region"},
		{"a targeting key the document refuses, yet 200", bearerPost("/v1/boosted-pages/save/1", `{"targeting": {"interests": []}}`, 200, jsonHeader, `true`), "not a 4xx refusal"},
		{"a budget the document refuses, yet 200", bearerPost("/v1/boosted-pages/save/1", `{"budget": "ten"}`, 200, jsonHeader, `true`), "not a 4xx refusal"},
		{"rules as the document takes them", bearerPost("/v1/boosted-pages/save/1", `{"rules": {"min_reactions": "25", "post_budget": 15, "post_days": "7", "spend_cap": "", "hours": null}}`, 200, jsonHeader, `true`), ""},
		{"a rule the document refuses, yet 200", bearerPost("/v1/boosted-pages/save/1", `{"rules": {"min_likes": 3}}`, 200, jsonHeader, `true`), "not a 4xx refusal"},
	}
}

// TestOpenAPITolerantTypes: IntLike and BoolLike take exactly what the
// server's Int and Bool take.
func TestOpenAPITolerantTypes(t *testing.T) {
	t.Parallel()
	doc, err := apiDoc()
	if err != nil {
		t.Fatal(err)
	}
	for name, cases := range map[string]map[string]bool{
		"IntLike": {`3`: true, `-7`: true, `"3"`: true, `" -7 "`: true, `"+5"`: true, `""`: true, `null`: true,
			`"abc"`: false, `"1.5"`: false, `true`: false, `[1]`: false, `{}`: false, `"99999999999999999999"`: false},
		"BoolLike": {`true`: true, `false`: true, `"true"`: true, `"FALSE"`: true, `"1"`: true, `"0"`: true,
			`1`: true, `0`: true, `""`: true, `null`: true, `"yes"`: false, `2`: false, `"2"`: false, `[]`: false},
		"PositiveIntLike": {`1`: true, `"42"`: true, `" 7 "`: true, `"+5"`: true, `"007"`: true, `""`: true, `null`: true,
			`0`: false, `-3`: false, `"0"`: false, `"-3"`: false, `"abc"`: false, `1.5`: false, `true`: false},
		"Budget": {`"20.00"`: true, `" 5 "`: true, `"0.5"`: true, `20.5`: true, `""`: true, `null`: true,
			`"1.234"`: false, `"-5"`: false, `"ten"`: false, `"12345678901.00"`: false, `0`: false, `-5`: false, `true`: false},
		"EndDate":          {`"2030-12-31"`: true, `""`: true, `null`: true, `"31.12.2030"`: false, `"2030-12-31T00:00:00Z"`: false, `20301231`: false},
		"CountryCodeInput": {`"CZ"`: true, `"cz"`: true, `" De "`: true, `""`: false, `"CZE"`: false, `"C1"`: false, `5`: false},
		"RulesInput": {`{}`: true, `null`: true, `""`: true, `{"min_reactions": "3", "spend_cap": 5, "post_budget": "5", "post_days": 2}`: true,
			`{"min_engagement_rate": "1.5", "hours": {"days": ["mon"], "from": "09:00", "to": "17:00", "timezone": "UTC"}}`: true,
			`{"min_likes": 1}`: false, `[]`: false, `"x"`: false, `{"min_engagement_rate": "1.234"}`: false,
			`{"hours": {"days": ["mon"], "from": "24:00", "to": "17:00", "timezone": "UTC"}}`: false,
			`{"content_types": ["gif"]}`: false, `{"min_reactions": -1}`: false},
	} {
		schema := doc.Components.Schemas[name].Value
		for in, ok := range cases {
			var v any
			if err := json.Unmarshal([]byte(in), &v); err != nil {
				t.Fatal(err)
			}
			err := schema.VisitJSON(v, openapi3.EnableJSONSchema2020())
			if (err == nil) != ok {
				t.Errorf("%s of %s: accepted %v, want %v (%v)", name, in, err == nil, ok, err)
			}
		}
	}
}

// specRoutes are the routes of the spec and of the contract's additions,
// with their Bearer flag.
var specRoutes = map[string]bool{
	"POST /v1/user/pre-signup-sn":                  false,
	"POST /v1/user/signup-sn":                      false,
	"POST /v1/user/login-sn":                       false,
	"POST /v1/user/login-password":                 false,
	"GET /v1/user/detail":                          true,
	"POST /v1/user/save":                           true,
	"GET /v1/user/verify-email":                    false,
	"GET /v1/boosted-pages/detail/{id}":            true,
	"POST /v1/boosted-pages/save/{id}":             true,
	"POST /v1/boosted-pages/sources":               true,
	"POST /v1/boosted-pages/count":                 true,
	"GET /v1/boosted-pages/source-detail/{id}":     true,
	"DELETE /v1/boosted-pages/delete-source/{id}":  true,
	"GET /v1/boosted-pages/history/{id}":           true,
	"GET /v1/boosted-pages/access-data/{id}":       true,
	"POST /v1/boosted-pages/geo-locations-by-code": false,
	"POST /v1/boosted-pages/geo-locations":         false,
	"POST /v1/boosted-pages/create":                true,
	"POST /v1/boosted-posts/list":                  true,
	"POST /v1/boosted-posts/count":                 true,
	"POST /v1/boosted-posts/batch-insights":        true,
	"POST /v1/presets/browse":                      false,
	"POST /v1/presets/count":                       false,
	"GET /v1/presets/available":                    true,
	"GET /v1/presets/optimization-goals":           false,
	"POST /v1/agencies/list":                       true,
	"GET /v1/agencies/detail/{id}":                 false,
	"GET /v1/agencies/services":                    true,
	"GET /v1/billing/detail":                       true,
	"POST /v1/billing/save":                        true,
	"GET /v1/billing/countries":                    true,
	"POST /v1/reviews/submit":                      true,
}
