package httpapi_test

import (
	"net/http"
	"testing"
)

// A 400 names the field as the client sent it, also for the
// fields that requests share through embedded structs (paging, the preset,
// campaign and boosted-post filters): "field page:", never "field paging.page:".
func TestBadRequestNamesWireField(t *testing.T) {
	e := newEnv(t)
	e.load(`{"users": [{"id": 100, "email": "ana@example.com"}]}`)
	tok := e.token(100)
	for _, c := range []struct {
		path, token string
		body        map[string]any
		want        string
	}{
		{"/v1/presets/browse", "", map[string]any{"page": "x"}, "field page: must be an integer"},
		{"/v1/presets/browse", "", map[string]any{"location": map[string]any{"value": 5}}, "field location.value: must be a string"},
		{"/v1/presets/count", "", map[string]any{"goal": 5}, "field goal: must be a string"},
		{"/v1/agencies/list", tok, map[string]any{"limit": true}, "field limit: must be an integer"},
		{"/v1/boosted-pages/sources", tok, map[string]any{"status": 1}, "field status: must be a string"},
		{"/v1/boosted-pages/count", tok, map[string]any{"platform": []int{1}}, "field platform: must be a string"},
		{"/v1/boosted-posts/list", tok, map[string]any{"source_id": "x"}, "field source_id: must be an integer"},
		{"/v1/boosted-posts/count", tok, map[string]any{"boosted_page_id": "x"}, "field boosted_page_id: must be an integer"},
	} {
		e.post(c.path, c.token, c.body).fails(http.StatusBadRequest, "bad_request", c.want)
	}
}
