package httpapi

import (
	"context"
	"fmt"
	"net"
	"net/http"
	"net/netip"
	"strings"
)

// ParseTrustedProxies reads TRUSTED_PROXIES: comma-separated CIDRs (a bare
// address counts as its own /32 or /128); empty trusts nobody.
func ParseTrustedProxies(s string) ([]netip.Prefix, error) {
	var out []netip.Prefix
	for _, f := range strings.Split(s, ",") {
		f = strings.TrimSpace(f)
		if f == "" {
			continue
		}
		p, err := netip.ParsePrefix(f)
		if err != nil {
			a, aerr := netip.ParseAddr(f)
			if aerr != nil || a.Zone() != "" {
				return nil, fmt.Errorf("TRUSTED_PROXIES: %q is not a CIDR such as 10.0.0.0/8 or an IP address", f)
			}
			p = netip.PrefixFrom(a.Unmap(), a.Unmap().BitLen())
		}
		if p.Addr().Is4In6() {
			p = netip.PrefixFrom(p.Addr().Unmap(), p.Bits()-96)
		}
		out = append(out, p.Masked())
	}
	return out, nil
}

type clientAddrKey struct{}

// clientAddress puts the client address of the request (see clientAddr) in
// its context, for the login limiter.
func (s *Server) clientAddress(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		addr := clientAddr(r.RemoteAddr, r.Header.Values("X-Forwarded-For"), s.cfg.TrustedProxies)
		next.ServeHTTP(w, r.WithContext(context.WithValue(r.Context(), clientAddrKey{}, addr)))
	})
}

// clientAddrOf answers the client address that clientAddress found.
func clientAddrOf(ctx context.Context) string {
	addr, _ := ctx.Value(clientAddrKey{}).(string)
	return addr
}

// clientAddr answers who sent a request: the peer address, unless the peer
// is a trusted proxy; then X-Forwarded-For is read from the right (the hop
// that the nearest proxy added) to the left, and the first hop that is not
// a trusted proxy is the client. A hop that is not an IP address ends the
// walk at the trusted hop before it; when every hop is trusted, the leftmost
// is the client. IPv6 clients are counted by their /64 network, which one
// subscriber usually holds whole.
func clientAddr(remoteAddr string, forwarded []string, trusted []netip.Prefix) string {
	addr, ok := parseHop(remoteAddr)
	if !ok {
		return cut(remoteAddr, 64)
	}
	if isTrusted(addr, trusted) && len(forwarded) > 0 {
		var hops []string
		for _, h := range forwarded {
			hops = append(hops, strings.Split(h, ",")...)
		}
		for i := len(hops) - 1; i >= 0; i-- {
			hop, ok := parseHop(strings.TrimSpace(hops[i]))
			if !ok {
				break
			}
			addr = hop
			if !isTrusted(hop, trusted) {
				break
			}
		}
	}
	if addr.Is6() {
		return netip.PrefixFrom(addr, 64).Masked().String()
	}
	return addr.String()
}

// parseHop reads an address with or without a port (a peer address, or an
// X-Forwarded-For entry as some proxies write them).
func parseHop(s string) (netip.Addr, bool) {
	if host, _, err := net.SplitHostPort(s); err == nil {
		s = host
	}
	a, err := netip.ParseAddr(strings.Trim(s, "[]"))
	if err != nil {
		return netip.Addr{}, false
	}
	return a.WithZone("").Unmap(), true
}

func isTrusted(a netip.Addr, trusted []netip.Prefix) bool {
	for _, p := range trusted {
		if p.Contains(a) {
			return true
		}
	}
	return false
}
