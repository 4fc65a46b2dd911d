package main

import (
	"net/netip"
	"testing"
	"time"
)

func TestLimitsConfiguration(t *testing.T) {
	t.Parallel()
	c, err := loadConfig(envOf(map[string]string{}), quiet())
	if err != nil {
		t.Fatal(err)
	}
	if c.statementTimeout != 5*time.Second || len(c.trustedProxies) != 0 {
		t.Fatalf("defaults: DB_STATEMENT_TIMEOUT %v, TRUSTED_PROXIES %v; want 5s and nobody", c.statementTimeout, c.trustedProxies)
	}
	c, err = loadConfig(envOf(map[string]string{
		"DB_STATEMENT_TIMEOUT": "250ms", "TRUSTED_PROXIES": "10.0.0.0/8, fd00::/8,192.0.2.1",
	}), quiet())
	if err != nil {
		t.Fatal(err)
	}
	want := []netip.Prefix{netip.MustParsePrefix("10.0.0.0/8"), netip.MustParsePrefix("fd00::/8"), netip.MustParsePrefix("192.0.2.1/32")}
	if c.statementTimeout != 250*time.Millisecond || len(c.trustedProxies) != 3 ||
		c.trustedProxies[0] != want[0] || c.trustedProxies[1] != want[1] || c.trustedProxies[2] != want[2] {
		t.Fatalf("DB_STATEMENT_TIMEOUT %v, TRUSTED_PROXIES %v", c.statementTimeout, c.trustedProxies)
	}
	if c, err := loadConfig(envOf(map[string]string{"DB_STATEMENT_TIMEOUT": "0"}), quiet()); err != nil || c.statementTimeout != 0 {
		t.Fatalf("DB_STATEMENT_TIMEOUT=0: %v, %v", c.statementTimeout, err)
	}
	for _, bad := range []string{"-1s", "5", "soon"} {
		if _, err := loadConfig(envOf(map[string]string{"DB_STATEMENT_TIMEOUT": bad}), quiet()); err == nil {
			t.Errorf("DB_STATEMENT_TIMEOUT=%q accepted", bad)
		}
	}
}
