package httpapi

import (
	"slices"
	"testing"
)

// TestBatchInsightsIDsSorted checks that batch-insights sends its ids to
// PostgreSQL sorted and without repeats, whatever order and repeats the
// list has: the array's sort before the index is read then returns at once.
func TestBatchInsightsIDsSorted(t *testing.T) {
	r := batchInsightsRequest{IDs: " 901, 900,901 ,950,99999, 7"}
	if err := r.validate(); err != nil {
		t.Fatal(err)
	}
	if want := []int64{7, 900, 901, 950, 99999}; !slices.Equal(r.ids, want) {
		t.Errorf("ids %v, want %v", r.ids, want)
	}
}
