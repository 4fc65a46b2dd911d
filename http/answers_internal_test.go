package httpapi

import (
	"encoding/json"
	"reflect"
	"testing"
)

// TestPresetCardsJoinsPieces checks the Preset objects that presetCards
// joins from the statements' pieces: the body's fields, then image (null
// when PostgreSQL gave none), prices, agency and, for presets/available,
// the number of purchases; an empty page is []; a body that is not an
// object with a field is an error.
func TestPresetCardsJoinsPieces(t *testing.T) {
	purchases := int32(7)
	rows := []cardPieces{
		{body: json.RawMessage(`{"id":1,"title":"A \"quoted\" }"}`), image: json.RawMessage(`"https://x.test/a.png"`),
			price: json.RawMessage(`"10.50"`), originalPrice: json.RawMessage(`"12.00"`), agency: json.RawMessage(`{"id":3}`)},
		{body: json.RawMessage(`{"id":2}`), price: json.RawMessage(`"0.00"`), originalPrice: json.RawMessage(`"0.00"`),
			agency: json.RawMessage(`{"id":4}`), purchases: &purchases},
	}
	got, err := presetCards(rows, func(p cardPieces) cardPieces { return p })
	if err != nil {
		t.Fatal(err)
	}
	var decoded []map[string]any
	if err := json.Unmarshal(got, &decoded); err != nil {
		t.Fatalf("not JSON: %v: %s", err, got)
	}
	want := []map[string]any{
		{"id": 1.0, "title": `A "quoted" }`, "image": "https://x.test/a.png", "price": "10.50",
			"original_price": "12.00", "agency": map[string]any{"id": 3.0}},
		{"id": 2.0, "image": nil, "price": "0.00", "original_price": "0.00", "agency": map[string]any{"id": 4.0},
			"number_of_purchases": 7.0},
	}
	if !reflect.DeepEqual(decoded, want) {
		t.Errorf("got %s", got)
	}
	if empty, err := presetCards([]cardPieces{}, func(p cardPieces) cardPieces { return p }); err != nil || string(empty) != "[]" {
		t.Errorf("empty page: %s, %v", empty, err)
	}
	for _, body := range []string{``, `{}`, `[1]`, `"x"`, `{"id":1} `} {
		bad := []cardPieces{{body: json.RawMessage(body)}}
		if b, err := presetCards(bad, func(p cardPieces) cardPieces { return p }); err == nil {
			t.Errorf("body %q: no error, answer %s", body, b)
		}
	}
}

// TestJSONArrayJoinsValues checks jsonArray: the values in order, a NULL as
// null, no values as [].
func TestJSONArrayJoinsValues(t *testing.T) {
	for _, c := range []struct {
		in   []json.RawMessage
		want string
	}{
		{nil, `[]`},
		{[]json.RawMessage{json.RawMessage(`{"id": 1}`)}, `[{"id": 1}]`},
		{[]json.RawMessage{json.RawMessage(`{"id": 1}`), nil, json.RawMessage(`"x"`)}, `[{"id": 1},null,"x"]`},
	} {
		if got := string(jsonArray(c.in)); got != c.want {
			t.Errorf("jsonArray(%q) = %s, want %s", c.in, got, c.want)
		}
	}
}
