package main

import (
	"bytes"
	"testing"
	"time"

	"adboost/db/dbtest"
)

// TestRunNetworkB runs the benchmark on 10 campaigns of 10 posts, half of
// them with a network_b account of 10 media: the first cycle boosts every
// post and media (a second ad set per account), the steady cycle creates
// nothing and costs at most 3 calls a page and a network_b account.
func TestRunNetworkB(t *testing.T) {
	t.Parallel()
	const n, posts, nB = 10, 10, 5
	if got := countB(n, 0.5); got != nB {
		t.Fatalf("countB(10, 0.5) = %d", got)
	}
	var table, progress bytes.Buffer
	results, err := Run(t.Context(), Config{
		Ns: []int{n}, Posts: posts, Delay: 5 * time.Millisecond, ShareB: 0.5,
		Adboost: buildAdboost(t), DatabaseURL: dbtest.NewURL(t), Progress: &progress,
	}, &table)
	t.Logf("progress:\n%s\ntable:\n%s", progress.String(), table.String())
	if err != nil {
		t.Fatal(err)
	}
	first, steady := results[0], results[1]
	if first.AdsCreated != (n+nB)*posts || first.AdSets != n+nB || first.BoostedPosts != (n+nB)*posts {
		t.Errorf("first cycle: %+v; want %d ads and boosted posts, %d ad sets", first, (n+nB)*posts, n+nB)
	}
	if steady.AdsCreated != 0 || steady.Calls > 3*(n+nB) {
		t.Errorf("steady cycle: %+v; want no new ad and at most %d calls", steady, 3*(n+nB))
	}
}
