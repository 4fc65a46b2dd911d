package db

import "testing"

func TestHasPoolMaxConns(t *testing.T) {
	for s, want := range map[string]bool{
		"postgres://u@h:5432/d?sslmode=disable":                   false,
		"postgres://u@h:5432/d?sslmode=disable&pool_max_conns=20": true,
		"postgresql://u@h/d?pool_max_conns=2":                     true,
		"host=h dbname=d pool_max_conns=5":                        true,
		"host=h dbname=d pool_max_conns = 5":                      true,
		"host=h dbname=d":                                         false,
		"host=h application_name=my_pool_max_conns=1":             false,
	} {
		if got := hasPoolMaxConns(s); got != want {
			t.Errorf("hasPoolMaxConns(%q) = %v, want %v", s, got, want)
		}
	}
	if n := DefaultMaxConns(); n < 8 {
		t.Fatalf("DefaultMaxConns() = %d, want at least 8", n)
	}
}
