package httpapi_test

import (
	"net/http"
	"reflect"
	"regexp"
	"strings"
	"testing"
	"time"
)

// presetRating answers the rating browse shows for a visible preset.
func (e *env) presetRating(presetID int64) float64 {
	e.t.Helper()
	for _, p := range e.post("/v1/presets/browse", "", `{}`).presetList() {
		if p["id"] == float64(presetID) {
			return p["rating"].(float64)
		}
	}
	e.t.Fatalf("preset %d is not in browse", presetID)
	return 0
}

func TestReviewSubmit(t *testing.T) {
	e := newEnv(t)
	e.load(catalogueFixture())
	bob := e.token(102)

	// Preset 6 has no reviews yet.
	if r := e.presetRating(6); r != 0 {
		t.Fatalf("rating before = %v", r)
	}
	before := time.Now().UTC().Add(-2 * time.Second)
	got := e.post("/v1/reviews/submit", bob, `{"preset_id": "6", "rating": "4", "message": "Solid"}`).object()
	created, err := time.Parse("2006-01-02 15:04:05", got["created_at"].(string))
	if err != nil || created.Before(before) || created.After(time.Now().UTC().Add(2*time.Second)) {
		t.Fatalf("created_at = %v (%v), want now in UTC as YYYY-MM-DD HH:MM:SS", got["created_at"], err)
	}
	id := got["id"]
	delete(got, "created_at")
	want := map[string]any{"id": id, "rating": 4.0, "message": "Solid",
		"user": map[string]any{"id": 102.0, "first_name": "Bob", "last_name": "Stone"}}
	if _, ok := id.(float64); !ok || !reflect.DeepEqual(got, want) {
		t.Fatalf("review = %v, want %v", got, want)
	}
	if r := e.presetRating(6); r != 4 {
		t.Fatalf("rating after one 4 = %v", r)
	}

	// Another user's 5: 4.5, rounded up.
	var other map[string]any
	e.post("/v1/reviews/submit", e.token(100), map[string]any{"preset_id": 6, "rating": 5}).ok(&other)
	if other["message"] != "" || other["id"] == id {
		t.Fatalf("second user's review = %v", other)
	}
	if r := e.presetRating(6); r != 5 {
		t.Fatalf("rating of 4 and 5 = %v, want 5", r)
	}

	// Bob again: his review is replaced (same id, one row), dated anew.
	if _, err := e.pool.Exec(t.Context(), "UPDATE review SET created_at = '2020-01-01 00:00:00+00' WHERE id = $1", int64(id.(float64))); err != nil {
		t.Fatal(err)
	}
	again := e.post("/v1/reviews/submit", bob, map[string]any{"preset_id": 6, "rating": 2, "message": "Changed my mind"}).object()
	if again["id"] != id || again["rating"] != 2.0 || again["message"] != "Changed my mind" ||
		strings.HasPrefix(again["created_at"].(string), "2020") {
		t.Fatalf("replaced review = %v, want id %v, rating 2, the new message and a new date", again, id)
	}
	var rows int
	if err := e.pool.QueryRow(t.Context(), "SELECT count(*) FROM review WHERE preset_id = 6 AND user_id = 102").Scan(&rows); err != nil || rows != 1 {
		t.Fatalf("%d reviews of Bob on preset 6 (%v), want 1", rows, err)
	}
	// 2 and 5: 3.5, rounded up to 4.
	if r := e.presetRating(6); r != 4 {
		t.Fatalf("rating of 2 and 5 = %v, want 4", r)
	}

	// A message of 2,000 characters (not bytes) is accepted.
	long := strings.Repeat("é", 2000)
	var max map[string]any
	e.post("/v1/reviews/submit", bob, map[string]any{"preset_id": 1, "rating": 1, "message": long}).ok(&max)
	if max["message"] != long {
		t.Fatal("the 2,000-character message came back changed")
	}
	if !regexp.MustCompile(`^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$`).MatchString(max["created_at"].(string)) {
		t.Fatalf("created_at = %v", max["created_at"])
	}
}

func TestReviewSubmitVisibility(t *testing.T) {
	e := newEnv(t)
	e.load(catalogueFixture())
	ana, max, bob := e.token(100), e.token(101), e.token(102)

	// The own agency's private preset can be reviewed.
	var r map[string]any
	e.post("/v1/reviews/submit", ana, `{"preset_id": 10, "rating": 5}`).ok(&r)
	e.post("/v1/reviews/submit", max, `{"preset_id": 11, "rating": 5}`).ok(&r)

	reviews := func() (n int) {
		if err := e.pool.QueryRow(t.Context(), "SELECT count(*) FROM review").Scan(&n); err != nil {
			t.Fatal(err)
		}
		return n
	}
	before := reviews()
	for _, tc := range []struct {
		token  string
		preset int64
		why    string
	}{
		{bob, 10, "private preset of another agency (no agency)"},
		{max, 10, "Ana's agency's private preset, for Max"},
		{ana, 11, "Max's agency's private preset, for Ana"},
		{ana, 12, "inactive public preset"},
		{ana, 13, "inactive private preset of the own agency"},
		{ana, 999, "unknown preset"},
	} {
		t.Run(tc.why, func(t *testing.T) {
			e.in(t).post("/v1/reviews/submit", tc.token, map[string]any{"preset_id": tc.preset, "rating": 3}).fails(http.StatusNotFound, "not_found")
		})
	}
	if after := reviews(); after != before {
		t.Fatalf("%d reviews after the refused submits, %d before", after, before)
	}
}

func TestReviewSubmitErrors(t *testing.T) {
	e := newEnv(t)
	e.load(catalogueFixture())
	bob := e.token(102)

	e.post("/v1/reviews/submit", "", `{"preset_id": 1, "rating": 5}`).fails(http.StatusUnauthorized, "unauthorized")
	e.post("/v1/reviews/submit", "not-a-token", `{"preset_id": 1, "rating": 5}`).fails(http.StatusUnauthorized, "unauthorized")

	for _, tc := range []struct{ body, word string }{
		{`{"rating": 5}`, "preset_id"},
		{`{"preset_id": "", "rating": 5}`, "preset_id"},
		{`{"preset_id": 0, "rating": 5}`, "preset_id"},
		{`{"preset_id": "one", "rating": 5}`, "preset_id"},
		{`{"preset_id": 1}`, "rating"},
		{`{"preset_id": 1, "rating": 0}`, "rating"},
		{`{"preset_id": 1, "rating": 6}`, "rating"},
		{`{"preset_id": 1, "rating": "-1"}`, "rating"},
		{`{"preset_id": 1, "rating": 4.5}`, "rating"},
		{`{"preset_id": 1, "rating": "five"}`, "rating"},
		{`{"preset_id": 1, "rating": 5, "message": 7}`, "message"},
		{`{"preset_id": 1, "rating": 5, "message": "` + strings.Repeat("a", 2001) + `"}`, "message"},
		{`{"preset_id": 1, "rating": 5, "message": "nul\u0000"}`, "message"},
		{`{"preset_id": 1, "rating": 5`, "malformed"},
	} {
		e.post("/v1/reviews/submit", bob, tc.body).fails(http.StatusBadRequest, "bad_request", tc.word)
	}
	var n int
	if err := e.pool.QueryRow(t.Context(), "SELECT count(*) FROM review WHERE user_id = 102 AND preset_id = 1").Scan(&n); err != nil || n != 0 {
		t.Fatalf("%d reviews written by refused submits (%v)", n, err)
	}
}
