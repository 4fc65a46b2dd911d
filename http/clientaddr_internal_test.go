package httpapi

import (
	"net/netip"
	"testing"
)

func TestClientAddr(t *testing.T) {
	proxies, err := ParseTrustedProxies(" 10.0.0.0/8, 192.168.1.7 ,2001:db8:ffff::/48,")
	if err != nil {
		t.Fatal(err)
	}
	want := []netip.Prefix{netip.MustParsePrefix("10.0.0.0/8"), netip.MustParsePrefix("192.168.1.7/32"), netip.MustParsePrefix("2001:db8:ffff::/48")}
	if len(proxies) != len(want) {
		t.Fatalf("parsed %v", proxies)
	}
	for i := range want {
		if proxies[i] != want[i] {
			t.Fatalf("parsed %v, want %v", proxies, want)
		}
	}
	for _, bad := range []string{"proxy.example", "10.0.0.0/33", "10.0.0.1/8/1"} {
		if _, err := ParseTrustedProxies(bad); err == nil {
			t.Errorf("TRUSTED_PROXIES %q accepted", bad)
		}
	}
	if p, err := ParseTrustedProxies(""); err != nil || len(p) != 0 {
		t.Fatalf("empty: %v %v", p, err)
	}

	for _, tc := range []struct {
		name, remote string
		forwarded    []string
		trusted      []netip.Prefix
		want         string
	}{
		{"nobody trusted: the peer", "203.0.113.5:4000", []string{"198.51.100.1"}, nil, "203.0.113.5"},
		{"an untrusted peer's header is ignored", "203.0.113.5:4000", []string{"198.51.100.1"}, proxies, "203.0.113.5"},
		{"a trusted proxy names the client", "10.1.2.3:4000", []string{"198.51.100.1"}, proxies, "198.51.100.1"},
		{"the rightmost untrusted hop, not a spoofed left one", "10.1.2.3:4000", []string{"1.1.1.1, 198.51.100.1, 10.9.9.9"}, proxies, "198.51.100.1"},
		{"several headers are one list", "10.1.2.3:4000", []string{"1.1.1.1", "198.51.100.1", "192.168.1.7"}, proxies, "198.51.100.1"},
		{"every hop trusted: the leftmost", "10.1.2.3:4000", []string{"10.0.0.9, 10.0.0.8"}, proxies, "10.0.0.9"},
		{"garbage ends the walk at the trusted hop", "10.1.2.3:4000", []string{"198.51.100.1, garbage"}, proxies, "10.1.2.3"},
		{"a hop with a port", "10.1.2.3:4000", []string{"[2001:db8::1]:443"}, proxies, "2001:db8::/64"},
		{"no header: the proxy itself", "10.1.2.3:4000", nil, proxies, "10.1.2.3"},
		{"IPv6 clients count by their /64", "[2001:db8:1:2:3:4:5:6]:443", nil, nil, "2001:db8:1:2::/64"},
		{"IPv4 mapped in IPv6", "[::ffff:203.0.113.9]:443", nil, nil, "203.0.113.9"},
		{"a trusted IPv6 proxy", "[2001:db8:ffff::1]:443", []string{"203.0.113.7"}, proxies, "203.0.113.7"},
	} {
		if got := clientAddr(tc.remote, tc.forwarded, tc.trusted); got != tc.want {
			t.Errorf("%s: clientAddr(%q, %q) = %q, want %q", tc.name, tc.remote, tc.forwarded, got, tc.want)
		}
	}
}
