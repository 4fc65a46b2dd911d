package httpapi_test

import (
	"encoding/json"
	"maps"
	"net/http"
	"reflect"
	"slices"
	"strings"
	"testing"
)

// billingFields are the BillingInfo fields, each with a value that tells it
// apart from the others.
var billingFields = map[string]any{
	"full_name": "Ana Nováková", "phone": "+420 111 222 333", "phone_country": "CZ",
	"billing_email": "billing@ana.example", "company_name": "Ana s.r.o.", "street1": "Vinohradská 12",
	"street2": "3rd floor", "city": "Praha", "state": "Hlavní město Praha", "zip": "120 00",
	"country": "DE", "company_id": "12345678", "vat_number": "CZ12345678",
}

func emptyBilling() map[string]any {
	m := map[string]any{}
	for k := range billingFields {
		m[k] = ""
	}
	return m
}

func with(m map[string]any, k string, v any) map[string]any {
	c := maps.Clone(m)
	c[k] = v
	return c
}

func TestBillingRoundTrip(t *testing.T) {
	e := newEnv(t)
	e.load(accountsFixture)
	e.countries()
	ana, bob := e.token(100), e.token(101)

	// No billing row: every field, as an empty string.
	if got := e.get("/v1/billing/detail", ana).object(); !reflect.DeepEqual(got, emptyBilling()) {
		t.Fatalf("detail without billing info = %v", got)
	}
	var ok bool
	e.post("/v1/billing/save", ana, billingFields).ok(&ok)
	if !ok {
		t.Fatal("save answered false")
	}
	if got := e.get("/v1/billing/detail", ana).object(); !reflect.DeepEqual(got, billingFields) {
		t.Fatalf("detail = %v\nwant     %v", got, billingFields)
	}
	// Another user sees nothing of it.
	if got := e.get("/v1/billing/detail", bob).object(); !reflect.DeepEqual(got, emptyBilling()) {
		t.Fatalf("bob's detail = %v", got)
	}

	// An update writes the whole form: codes in lower case are taken, a
	// field left out or empty is emptied, spaces around values are dropped.
	update := with(with(with(billingFields, "country", "us"), "street2", ""), "city", "  Brno ")
	delete(update, "vat_number")
	e.post("/v1/billing/save", ana, update).ok(&ok)
	want := with(with(with(with(billingFields, "country", "US"), "street2", ""), "city", "Brno"), "vat_number", "")
	if got := e.get("/v1/billing/detail", ana).object(); !reflect.DeepEqual(got, want) {
		t.Fatalf("detail after update = %v\nwant     %v", got, want)
	}
	// Every field at its bound of 255 characters (not bytes).
	long := strings.Repeat("ř", 255)
	bounded := with(with(billingFields, "full_name", long), "vat_number", long)
	e.post("/v1/billing/save", bob, bounded).ok(&ok)
	if got := e.get("/v1/billing/detail", bob).object(); !reflect.DeepEqual(got, bounded) {
		t.Fatalf("bob's detail = %v", got)
	}
	// Empty countries are no countries.
	e.post("/v1/billing/save", bob, map[string]string{"country": "", "phone_country": ""}).ok(&ok)
	if got := e.get("/v1/billing/detail", bob).object(); !reflect.DeepEqual(got, emptyBilling()) {
		t.Fatalf("bob's detail after emptying = %v", got)
	}

	for _, path := range []string{"/v1/billing/detail", "/v1/billing/countries"} {
		e.get(path, "").fails(http.StatusUnauthorized, "unauthorized")
	}
	e.post("/v1/billing/save", "", billingFields).fails(http.StatusUnauthorized, "unauthorized")
}

func TestBillingSaveRefused(t *testing.T) {
	e := newEnv(t)
	e.load(accountsFixture)
	e.countries()
	ana := e.token(100)
	var ok bool
	e.post("/v1/billing/save", ana, billingFields).ok(&ok)

	type tc struct {
		name  string
		body  any
		words []string
	}
	cases := []tc{
		{"unknown country", with(billingFields, "country", "XX"), []string{"country", "XX"}},
		{"country name", with(billingFields, "country", "Germany"), []string{"country"}},
		{"three-letter country", with(billingFields, "country", "DEU"), []string{"country"}},
		{"unknown phone country", with(billingFields, "phone_country", "ZZ"), []string{"phone_country", "ZZ"}},
		{"invalid billing e-mail", with(billingFields, "billing_email", "billing at ana"), []string{"billing_email"}},
		{"billing e-mail with a name", with(billingFields, "billing_email", "Ana <a@b.example>"), []string{"billing_email"}},
		{"invalid phone", with(billingFields, "phone", "ring twice"), []string{"phone"}},
		{"control character", with(billingFields, "street1", "Main\x00 1"), []string{"street1"}},
		{"line break", with(billingFields, "company_name", "Ana\ns.r.o."), []string{"company_name"}},
		{"wrong type", with(billingFields, "zip", 12000), []string{"zip"}},
		{"array body", `[]`, []string{"object"}},
	}
	for field := range billingFields {
		cases = append(cases, tc{"long " + field, with(billingFields, field, strings.Repeat("a", 256)), []string{field, "255"}})
	}
	slices.SortFunc(cases, func(a, b tc) int { return strings.Compare(a.name, b.name) })
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			e.post("/v1/billing/save", ana, c.body).fails(http.StatusBadRequest, "bad_request", c.words...)
		})
	}
	// Nothing of the refused saves was written.
	if got := e.get("/v1/billing/detail", ana).object(); !reflect.DeepEqual(got, billingFields) {
		t.Fatalf("detail after refused saves = %v\nwant %v", got, billingFields)
	}
	// Nor created for a user without billing info.
	bob := e.token(101)
	e.post("/v1/billing/save", bob, with(billingFields, "country", "XX")).fails(http.StatusBadRequest, "bad_request", "country")
	if n := scalar[int64](e, "SELECT count(*) FROM billing_info WHERE user_id = 101"); n != 0 {
		t.Fatal("a refused save created a billing row")
	}
}

func TestBillingCountries(t *testing.T) {
	e := newEnv(t)
	e.load(accountsFixture)
	e.countries()
	var got map[string]string
	e.get("/v1/billing/countries", e.token(100)).ok(&got)

	// Exactly the countries of geo_country, code → name.
	var want map[string]string
	raw := scalar[string](e, "SELECT jsonb_object_agg(code, name)::text FROM geo_country")
	if err := json.Unmarshal([]byte(raw), &want); err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("countries = %v\nwant %v", got, want)
	}
	for _, code := range []string{"CZ", "DE", "US"} {
		if got[code] == "" {
			t.Errorf("%s missing from %v", code, got)
		}
	}
	if got["US"] != scalar[string](e, "SELECT name FROM geo_country WHERE code = 'US'") {
		t.Fatalf("US = %q", got["US"])
	}
	// Every code answered is accepted as a billing country.
	var ok bool
	for code := range got {
		e.post("/v1/billing/save", e.token(100), map[string]string{"country": code, "phone_country": code}).ok(&ok)
	}
}
