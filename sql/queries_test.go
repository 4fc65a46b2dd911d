package sqlfiles

import (
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// selectStar finds `SELECT *`, `SELECT DISTINCT t.*`, `RETURNING *` and the
// like. sqlc expands the star before `sqlc vet` sees a query (so the vet
// rule no-select-star of sqlc.yaml only catches what it leaves), and a star
// in the source still hides which columns a query depends on.
var selectStar = regexp.MustCompile(`(?is)\b(select(\s+distinct)?|returning)\s+([a-z_][a-z0-9_]*\s*\.\s*)?\*`)

// comments are SQL line comments, which may mention a star.
var comments = regexp.MustCompile(`--[^\n]*`)

// TestNoSelectStar: no query of sql/queries selects or returns *.
func TestNoSelectStar(t *testing.T) {
	files, err := filepath.Glob("queries/*.sql")
	if err != nil || len(files) == 0 {
		t.Fatalf("no query files (%v)", err)
	}
	for _, name := range files {
		src, err := os.ReadFile(name)
		if err != nil {
			t.Fatal(err)
		}
		code := comments.ReplaceAllString(string(src), "")
		for _, m := range selectStar.FindAllStringIndex(code, -1) {
			line := 1 + strings.Count(code[:m[0]], "\n")
			t.Errorf("%s:%d: %q: name the columns", name, line, code[m[0]:m[1]])
		}
	}
	for _, bad := range []string{"SELECT * FROM t", "select\n  distinct p.* from p", "UPDATE t SET a = 1 RETURNING *", "SELECT a.  * FROM a"} {
		if !selectStar.MatchString(bad) {
			t.Errorf("the check misses %q", bad)
		}
	}
	for _, good := range []string{"SELECT count(*) FROM t", "SELECT a * b FROM t", "SELECT id FROM t"} {
		if selectStar.MatchString(good) {
			t.Errorf("the check refuses %q", good)
		}
	}
}
