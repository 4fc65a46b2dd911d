package httpapi_test

import (
	"testing"
	"time"

	"adboost/auth/networkafake"
	httpapi "adboost/http"
)

// fakeNetworkA is network_a (auth/networkafake) on a local port for one test.
type fakeNetworkA struct {
	*networkafake.Fake
	url string // the base URL, NETWORK_A_API_URL
}

// The OAuth errors of the fake: an unknown token is 401, an expired one
// (ExpireToken) 400.
const fakeExpiredToken = "EAAexpired0token"

func newFakeNetworkA(t *testing.T) *fakeNetworkA {
	f, url := networkafake.Start(t)
	f.ExpireToken(fakeExpiredToken)
	return &fakeNetworkA{Fake: f, url: url}
}

// config points a test server at the fake, with a short timeout.
func (f *fakeNetworkA) config(cfg *httpapi.Config) {
	cfg.NetworkAAPIURL = f.url
	cfg.NetworkATimeout = 300 * time.Millisecond
}

// fail makes every call fail in one of the ways of TestNetworkAFailures
// ("" ends it): "error500", "slow" (2 s), "garbage", "no-oauth-401".
func (f *fakeNetworkA) fail(mode string) {
	f.SetDelay(0)
	f.SetFault(networkafake.FaultNone)
	switch mode {
	case "error500":
		f.SetFault(networkafake.FaultError500)
	case "slow":
		f.SetDelay(2 * time.Second)
	case "garbage":
		f.SetFault(networkafake.FaultGarbage)
	case "no-oauth-401":
		f.SetFault(networkafake.FaultBare401)
	case "":
	default:
		panic("unknown mode " + mode)
	}
}
