package networka

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"reflect"
	"testing"

	"adboost/auth/networkafake"
)

func TestNew(t *testing.T) {
	for raw, ok := range map[string]bool{
		"https://graph.network-a.example":        true,
		"https://graph.network-a.example/v25.0/": true,
		"http://127.0.0.1:8081":                  true,
		"graph.network-a.example":                false,
		"ftp://graph.network-a.example":          false,
		"https://":                               false,
		"https://graph.example/?access_token=x":  false,
		"https://user:pass@graph.example":        false,
	} {
		n, err := New(raw, Options{})
		if (err == nil) != ok {
			t.Errorf("New(%q) = %v, want ok %v", raw, err, ok)
		}
		if err == nil && (n.timeout != DefaultTimeout || n.http.Timeout != 0) {
			t.Errorf("timeout %v (http.Client %v), want %v through the context only", n.timeout, n.http.Timeout, DefaultTimeout)
		}
	}
	n, _ := New("https://graph.network-a.example/v25.0/", Options{})
	if u := n.endpoint("/me", nil); u != "https://graph.network-a.example/v25.0/me" {
		t.Errorf("endpoint = %s", u)
	}
}

// A paging link is followed only on the API's own scheme, host and base
// path; its access_token is dropped.
func TestNextLink(t *testing.T) {
	n, _ := New("https://graph.network-a.example/v25.0", Options{})
	cl := call{method: "GET", path: "/me/accounts"}
	for link, want := range map[string]string{
		"": "",
		"https://graph.network-a.example/v25.0/me/accounts?after=QVFI&access_token=EAAsecret&limit=25": "me/accounts?after=QVFI&limit=25",
		"/v25.0/me/accounts?after=2#frag":                          "me/accounts?after=2",
		"https://evil.example/v25.0/me/accounts?after=2":           "error",
		"http://graph.network-a.example/v25.0/me/accounts?after=2": "error",
		"https://x@graph.network-a.example/v25.0/me/accounts":      "error",
		"https://graph.network-a.example/v20.0/me/accounts":        "error",
	} {
		next, ok, err := n.next(cl, link)
		got := ""
		switch {
		case err != nil:
			got = "error"
			if !errors.Is(err, ErrUnavailable) {
				t.Errorf("next(%q) error %v is not ErrUnavailable", link, err)
			}
		case ok:
			got = next.relative()
		}
		if got != want {
			t.Errorf("next(%q) = %s, want %s", link, got, want)
		}
	}
}

func TestCheckToken(t *testing.T) {
	for token, ok := range map[string]bool{
		"EAAGm0PX4ZCpsBA": true, "ya29.a0Af-_~+/x==": true, "": false, "EAA abc": false,
		"EAA\nabc": false, "EAA\"abc": false, string(make([]byte, 5000)): false,
	} {
		if err := CheckToken(token); (err == nil) != ok {
			t.Errorf("CheckToken(%q) = %v, want ok %v", token, err, ok)
		}
	}
}

func TestGraphID(t *testing.T) {
	for in, want := range map[string]int64{`"123"`: 123, `123`: 123, `null`: 0, `"0"`: -1, `"-5"`: -1, `"abc"`: -1, `1.5`: -1} {
		var id graphID
		err := json.Unmarshal([]byte(in), &id)
		if (want < 0) != (err != nil) || (err == nil && int64(id) != want) {
			t.Errorf("graphID %s = %d, %v", in, id, err)
		}
	}
	if clean("Ana\x00's\u200bGym\n") != "Ana's\u200bGym" {
		t.Errorf("clean = %q", clean("Ana\x00's\u200bGym\n"))
	}
}

// TestAccountsPageTokens: each page's access_token of /me/accounts is read,
// through every page of the answer; one that cannot be a bearer token is
// dropped, and none is empty.
func TestAccountsPageTokens(t *testing.T) {
	fake, base := networkafake.Start(t)
	fake.SetAccountsPageSize(2)
	fake.AddUser(networkafake.User{Token: "EAAuser", ID: "1", Pages: []networkafake.Page{
		{ID: "11", Name: "A", Token: "EAApage11"},
		{ID: "12", Name: "B"},
		{ID: "13", Name: "C", Token: "bad token"},
		{ID: "14", Name: "D", Token: "EAApage14"},
	}})
	n, err := New(base, Options{})
	if err != nil {
		t.Fatal(err)
	}
	pages, err := n.Accounts(context.Background(), "EAAuser")
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, p := range pages {
		got = append(got, fmt.Sprintf("%d=%s", p.ID, p.Token))
	}
	if want := []string{"11=EAApage11", "12=", "13=", "14=EAApage14"}; !reflect.DeepEqual(got, want) {
		t.Fatalf("page tokens = %v, want %v", got, want)
	}
}
