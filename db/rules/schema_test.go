package rules_test

// The rules and the schema agree: the CHECK of the stored rules
// (campaign_rules_valid) and Parse, and Contains and the schema's
// regular expression of a whole word (engine_word_pattern).

import (
	"context"
	"encoding/json"
	"strings"
	"testing"

	"adboost/db/dbtest"
	"adboost/db/rules"

	"github.com/jackc/pgx/v5/pgxpool"
)

func TestMain(m *testing.M) { dbtest.Main(m) }

// Every rules object Parse takes is stored in a form campaign_rules_valid
// takes; every object campaign_rules_valid takes is one the engine reads
// (encoding/json into Rules), and one Parse takes too but for what only
// the service checks (service: time zone names, ENGINE_POST_MAX_AGE, the
// keywords' letters and repeats). Where Parse takes what the CHECK does
// not (client), it is a client's form that Parse writes otherwise.
func TestCheckAgreesWithParse(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	pool := dbtest.New(t)
	for _, c := range parseCheckCases() {
		checkParseAndCheck(t, ctx, pool, c)
	}
}

// parseCase is a rules object and whether Parse and the CHECK take it.
type parseCase struct {
	raw          string
	parse, check bool
}

// parseCheckCases lists the rules objects TestCheckAgreesWithParse tries.
func parseCheckCases() []parseCase {
	hours := func(members string) string {
		return `{"hours": {"days": ["mon"], "from": "09:00", "to": "17:00", "timezone": "Europe/Prague"` + members + `}}`
	}
	keyword := func(n int) string { return `{"exclude_keywords": ["` + strings.Repeat("é", n) + `"]}` }
	return []parseCase{
		{`{}`, true, true},
		{`{"min_reactions": 25, "min_comments": 5, "min_shares": 0, "min_engagement_rate": 2.50,
			"post_age_min_hours": 2, "post_age_max_hours": 168, "content_types": ["video", "photo"],
			"exclude_keywords": ["giveaway", "#Ad", "flash deal"],
			"hours": {"days": ["fri", "mon"], "from": "22:00", "to": "02:00", "timezone": "America/New_York"},
			"post_budget": "15.00", "post_days": 7, "max_posts_per_day": 3, "spend_cap": "500.50"}`, true, true},
		{`{"min_reactions": 2147483647}`, true, true},
		{`{"min_reactions": 2147483648}`, false, false},
		{`{"min_reactions": -1}`, false, false},
		{`{"min_reactions": 10.0}`, false, false},
		{`{"post_days": 7.00, "post_budget": "1.00"}`, false, false},
		{`{"min_reactions": 1e1}`, false, true},         // stored as 10
		{`{"min_reactions": "10"}`, true, false},        // client
		{`{"min_reactions": null}`, true, false},        // client
		{`{"min_engagement_rate": 2.5}`, true, true},    //
		{`{"min_engagement_rate": "2.5"}`, true, false}, // client
		{`{"min_engagement_rate": 2.555}`, false, false},
		{`{"min_engagement_rate": 1000}`, true, true},
		{`{"min_engagement_rate": 1000.01}`, false, false},
		{`{"min_engagement_rate": -1}`, false, false},
		{`{"post_age_min_hours": 5, "post_age_max_hours": 4}`, false, false},
		{`{"post_age_max_hours": 169}`, false, true}, // service
		{`{"content_types": []}`, false, false},
		{`{"content_types": ["photo", "photo"]}`, false, false},
		{`{"content_types": ["audio"]}`, false, false},
		{`{"content_types": ["text", "link"]}`, true, true},
		{`{"exclude_keywords": []}`, true, false},                // client
		{`{"exclude_keywords": [" sale"]}`, true, false},         // client
		{`{"exclude_keywords": ["!!"]}`, false, true},            // service
		{`{"exclude_keywords": ["Sale", "#sale"]}`, false, true}, // service
		{`{"exclude_keywords": [5]}`, false, false},
		{`{"exclude_keywords": [""]}`, false, false},
		{keyword(100), true, true},
		{keyword(101), false, false},
		{`{"exclude_keywords": [` + strings.Repeat(`"w",`, 50) + `"w"]}`, false, false},
		{hours(``), true, true},
		{hours(`, "extra": 1`), false, false},
		{`{"hours": {"days": ["mon"], "from": "09:00", "to": "17:00"}}`, false, false},
		{`{"hours": {"days": [], "from": "09:00", "to": "17:00", "timezone": "UTC"}}`, false, false},
		{`{"hours": {"days": ["mon", "mon"], "from": "09:00", "to": "17:00", "timezone": "UTC"}}`, false, false},
		{`{"hours": {"days": ["mon"], "from": "09:00", "to": "24:00", "timezone": "UTC"}}`, false, false},
		{`{"hours": {"days": ["mon"], "from": "09:00", "to": "09:00", "timezone": "UTC"}}`, false, false},
		{`{"hours": {"days": ["mon"], "from": "09:00", "to": "17:00", "timezone": "Mars/Olympus"}}`, false, true}, // service
		{`{"hours": {"days": ["mon"], "from": "09:00", "to": "17:00", "timezone": ""}}`, false, false},
		{`{"post_budget": "15.00", "post_days": 90}`, true, true},
		{`{"post_budget": "15.00"}`, false, false},
		{`{"post_days": 7}`, false, false},
		{`{"post_budget": "15.00", "post_days": 91}`, false, false},
		{`{"post_budget": "0.00", "post_days": 1}`, false, false},
		{`{"post_budget": "15.0", "post_days": 1}`, true, false}, // client
		{`{"post_budget": "12345678901.00", "post_days": 1}`, false, false},
		{`{"max_posts_per_day": 0}`, false, false},
		{`{"max_posts_per_day": 1000}`, true, true},
		{`{"max_posts_per_day": 1001}`, false, false},
		{`{"spend_cap": "500.50"}`, true, true},
		{`{"spend_cap": 500.5}`, true, false}, // client
		{`{"min_likes": 1}`, false, false},
		{`[]`, false, false},
		{`null`, false, false},
	}
}

// checkParseAndCheck checks Parse and campaign_rules_valid agree on one case,
// that the CHECK takes Parse's stored form, and that the engine reads what
// the CHECK takes.
func checkParseAndCheck(t *testing.T, ctx context.Context, pool *pgxpool.Pool, c parseCase) {
	t.Helper()
	r, err := rules.Parse(json.RawMessage(c.raw), rules.Limits{})
	var check bool
	var stored string
	if err := pool.QueryRow(ctx, `SELECT campaign_rules_valid($1::jsonb), $1::jsonb::text`, c.raw).Scan(&check, &stored); err != nil {
		t.Fatalf("%s: %v", c.raw, err)
	}
	if (err == nil) != c.parse || check != c.check {
		t.Errorf("%s: Parse error %v, CHECK %v; want Parse ok %v, CHECK %v", c.raw, err, check, c.parse, c.check)
	}
	if err == nil {
		var ok bool
		if err := pool.QueryRow(ctx, `SELECT campaign_rules_valid($1::jsonb)`, string(r.JSON())).Scan(&ok); err != nil || !ok {
			t.Errorf("%s: the CHECK refuses its stored form %s (%v)", c.raw, r.JSON(), err)
		}
	}
	if check {
		var back rules.Rules
		if err := json.Unmarshal([]byte(stored), &back); err != nil {
			t.Errorf("%s: the CHECK takes it, and the engine cannot read it: %v", c.raw, err)
		}
	}
}

// Contains finds a word where the regular expression of the schema's
// engine_word_pattern matched with ~* finds it, in the server's UTF-8
// locale: PostgreSQL's [[:alnum:]_] and its case-insensitive characters.
// In a C locale (no letters beyond ASCII) only ASCII texts are compared.
func TestContainsAgreesWithPostgreSQL(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	pool := dbtest.New(t)
	var ctype string
	if err := pool.QueryRow(ctx, `SELECT datctype FROM pg_database WHERE datname = current_database()`).Scan(&ctype); err != nil {
		t.Fatal(err)
	}
	ascii := ctype == "C" || ctype == "POSIX"
	texts := []string{
		"Join us #Gym!", "#gymnastics class today", "x#gym glued", "#GYM", "gym_day", "#yoga-class (a.b) fitness",
		"#yoga fitnessfirst", "#Yoga, then a #RUN", "big SALE today", "wholesale prices", "Flash Deal, now",
		"flash dealer", "flash  deal", "c++ and a.b", "axb c++x", "ads ad2 1ad", "(ad)\nnext", "#ad", "AD.",
		"ÉTÉ à Paris", "café crème", "cafés", "adé ad² ad٣ adⅫ", "ad\u0301", "adा", "中ad ad中", "ad🙂",
		"ad\u00a0x", "ΣΑΣ", "σας", "STRASSE", "ſale", "istanbul", "İstanbul", "Ünïcödé wörds", "",
	}
	words := []string{
		"#gym", "gym", "yoga", "fitness", "run", "#run", "sale", "flash deal", "c++", "a.b", "ad", "été",
		"ÉTÉ", "café", "crème", "σας", "ΣΑΣ", "straße", "sale", "İstanbul", "istanbul", "ünïcödé", "WÖRDS", "[x]*",
	}
	if ascii {
		texts, words = asciiOnly(texts), asciiOnly(words)
	}
	rows, err := pool.Query(ctx, `SELECT t.text, w.word, t.text ~* engine_word_pattern(w.word)
		FROM unnest($1::text[]) AS t (text) CROSS JOIN unnest($2::text[]) AS w (word)`, texts, words)
	if err != nil {
		t.Fatal(err)
	}
	n := 0
	for rows.Next() {
		var text, word string
		var want bool
		if err := rows.Scan(&text, &word, &want); err != nil {
			t.Fatal(err)
		}
		n++
		if got := rules.Contains(text, word); got != want {
			t.Errorf("Contains(%q, %q) = %v, PostgreSQL says %v", text, word, got, want)
		}
	}
	if err := rows.Err(); err != nil || n != len(texts)*len(words) {
		t.Fatalf("%d comparisons, want %d: %v", n, len(texts)*len(words), err)
	}
}

// asciiOnly answers the strings without a character beyond ASCII.
func asciiOnly(in []string) []string {
	var out []string
	for _, s := range in {
		if !strings.ContainsFunc(s, func(r rune) bool { return r > 127 }) {
			out = append(out, s)
		}
	}
	return out
}
