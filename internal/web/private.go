package web

import (
	"context"
	"errors"
	"fmt"
	"net"
	"net/http"
	"net/netip"
	"net/url"
	"strings"
	"sync"
	"syscall"
	"time"

	"golang.org/x/net/http/httpproxy"

	"github.com/scoutkit/scout/internal/errs"
)

// PrivateOption names the settings that allow private addresses, for the
// error that refuses one.
const PrivateOption = "AllowPrivateNetwork (CLI: --allow-private-network; C: allow_private_network)"

// PrivateError is the error of a fetch refused because the address it
// would connect to is private.
type PrivateError struct {
	Host string     // the host of the URL, as written
	Addr netip.Addr // the address it resolved to; invalid for a name refused as such
	Kind string     // "loopback", "private", "link-local", "cloud metadata", ...
}

func (e *PrivateError) Error() string {
	a := "a "
	if strings.ContainsRune("aeiou", rune(e.Kind[0])) {
		a = "an "
	}
	if !e.Addr.IsValid() {
		return fmt.Sprintf("%s is %s%s name", e.Host, a, e.Kind)
	}
	if e.Host == e.Addr.String() {
		return fmt.Sprintf("%s is %s%s address", e.Host, a, e.Kind)
	}
	return fmt.Sprintf("%s resolves to %s, %s%s address", e.Host, e.Addr, a, e.Kind)
}

// privateKind says what kind of non-public address a is: "loopback",
// "private", "link-local" (cloud metadata services among them),
// "unspecified", "shared" (RFC 6598, Alibaba's metadata service), ...;
// "" for a public address. IPv4 addresses written as IPv6 (mapped,
// compatible, NAT64, 6to4) are judged as the IPv4 address they hold; the
// local-use NAT64 prefix, which an operator's own translator serves, is
// private.
func privateKind(a netip.Addr) string {
	a = a.Unmap()
	if a.Is6() {
		b := a.As16()
		var v4 [4]byte
		copy(v4[:], b[12:])
		switch {
		case [12]byte(b[:12]) == [12]byte{} && !a.IsLoopback() && !a.IsUnspecified(): // ::a.b.c.d
			return privateKind(netip.AddrFrom4(v4))
		case nat64.Contains(a):
			return privateKind(netip.AddrFrom4(v4))
		case sixToFour.Contains(a): // 2002:aabb:ccdd::/48 holds a.b.c.d
			return privateKind(netip.AddrFrom4([4]byte(b[2:6])))
		case nat64Local.Contains(a):
			return "private"
		}
	}
	switch {
	case a.IsLoopback():
		return "loopback"
	case a.IsUnspecified(), a.Is4() && a.As4()[0] == 0:
		return "unspecified"
	case a.IsLinkLocalUnicast(), a.IsLinkLocalMulticast(), a.IsInterfaceLocalMulticast():
		return "link-local"
	case a.IsPrivate(), siteLocal.Contains(a):
		return "private"
	case shared.Contains(a):
		return "shared"
	case a.IsMulticast(), a == netip.AddrFrom4([4]byte{255, 255, 255, 255}):
		return "multicast"
	}
	return ""
}

// metadataName reports the names of cloud metadata services, refused
// before any lookup (their addresses are refused as link-local too).
func metadataName(host string) bool {
	return host == "metadata.google.internal" || host == "metadata.goog" || host == "metadata"
}

var (
	nat64      = netip.MustParsePrefix("64:ff9b::/96")
	nat64Local = netip.MustParsePrefix("64:ff9b:1::/48")
	sixToFour  = netip.MustParsePrefix("2002::/16")
	siteLocal  = netip.MustParsePrefix("fec0::/10")
	shared     = netip.MustParsePrefix("100.64.0.0/10")
)

// dialCheck refuses a connection to a private address (the tests also
// refuse chosen ports).
var dialCheck = func(ap netip.AddrPort) error { return checkAddr(ap.Addr().String(), ap.Addr()) }

// checkAddr refuses a private address that host resolved to.
func checkAddr(host string, a netip.Addr) error {
	if k := privateKind(a); k != "" {
		return &PrivateError{Host: host, Addr: a.Unmap(), Kind: k}
	}
	return nil
}

// publicTransport is http.DefaultTransport whose connections are refused
// when they would reach a private address: the check runs on the address
// each connection is made to, after name resolution, so names that resolve
// to private addresses, redirects to them and names that change their
// answer between lookups (DNS rebinding) are refused alike. Through a
// proxy from the environment, the target's name is resolved and checked
// before the request (the proxy's own address, which is often private, is
// allowed).
var publicTransport = sync.OnceValue(func() *http.Transport {
	t := http.DefaultTransport.(*http.Transport).Clone()
	dialer := &net.Dialer{Timeout: 30 * time.Second, KeepAlive: 30 * time.Second,
		Control: func(network, address string, _ syscall.RawConn) error {
			ap, err := netip.ParseAddrPort(address)
			if err != nil {
				return err
			}
			return dialCheck(ap)
		}}
	plain := &net.Dialer{Timeout: 30 * time.Second, KeepAlive: 30 * time.Second}
	proxies := proxyAddrs()
	t.DialContext = func(ctx context.Context, network, addr string) (net.Conn, error) {
		if proxies[addr] {
			return plain.DialContext(ctx, network, addr)
		}
		host, _, _ := net.SplitHostPort(addr)
		if metadataName(strings.TrimSuffix(strings.ToLower(host), ".")) {
			return nil, &PrivateError{Host: host, Kind: "cloud metadata"}
		}
		conn, err := dialer.DialContext(ctx, network, addr)
		var pe *PrivateError
		if errors.As(err, &pe) {
			pe.Host = host
		}
		return conn, err
	}
	t.Proxy = func(req *http.Request) (*url.URL, error) {
		p, err := http.ProxyFromEnvironment(req)
		if err != nil || p == nil {
			return p, err
		}
		host := req.URL.Hostname()
		if metadataName(strings.TrimSuffix(strings.ToLower(host), ".")) {
			return nil, &PrivateError{Host: host, Kind: "cloud metadata"}
		}
		addrs, err := net.DefaultResolver.LookupNetIP(req.Context(), "ip", host)
		if err != nil {
			return nil, err
		}
		for _, a := range addrs {
			if err := checkAddr(host, a); err != nil {
				return nil, err
			}
		}
		return p, nil
	}
	return t
})

// proxyAddrs returns the host:port of the proxies the environment sets.
func proxyAddrs() map[string]bool {
	c := httpproxy.FromEnvironment()
	out := map[string]bool{}
	for _, p := range []string{c.HTTPProxy, c.HTTPSProxy} {
		u, err := url.Parse(p)
		if err != nil || u.Host == "" {
			if u, err = url.Parse("http://" + p); err != nil || u.Host == "" {
				continue
			}
		}
		port := u.Port()
		if port == "" {
			port = map[string]string{"https": "443", "socks5": "1080", "socks5h": "1080"}[u.Scheme]
		}
		if port == "" {
			port = "80"
		}
		out[net.JoinHostPort(u.Hostname(), port)] = true
	}
	return out
}

// privateErr turns a fetch of rawURL refused for a private address into
// the ACCESS_DENIED error that says how to allow it, naming the refused
// redirect when redirected; ok is false for any other error.
func privateErr(rawURL string, redirected bool, err error) (error, bool) {
	var pe *PrivateError
	if !errors.As(err, &pe) {
		return nil, false
	}
	target := rawURL
	var ue *url.Error
	if errors.As(err, &ue) {
		target = errs.Echo(ue.URL) // the redirect that was refused
	}
	if redirected {
		target = fmt.Sprintf("%s (a redirect from %s)", target, errs.Echo(rawURL))
	}
	return errs.Wrap(errs.AccessDenied, pe, "Access denied: %s was not fetched: %v. Scout does not read loopback, private, link-local or cloud metadata addresses unless the host allows them: set %s.", target, pe, PrivateOption), true
}
