package web

import (
	"context"
	"net"
	"net/http"
	"net/http/httptest"
	"net/netip"
	"strings"
	"testing"

	"github.com/scoutkit/scout/internal/errs"
)

func TestPrivateKind(t *testing.T) {
	tests := []struct{ addr, kind string }{
		{"127.0.0.1", "loopback"},
		{"127.1.2.3", "loopback"},
		{"::1", "loopback"},
		{"10.0.0.1", "private"},
		{"172.16.5.4", "private"},
		{"172.31.255.255", "private"},
		{"192.168.1.1", "private"},
		{"fc00::1", "private"},
		{"fd00:ec2::254", "private"}, // AWS metadata over IPv6
		{"fec0::1", "private"},
		{"169.254.169.254", "link-local"}, // cloud metadata
		{"169.254.0.1", "link-local"},
		{"fe80::1", "link-local"},
		{"0.0.0.0", "unspecified"},
		{"0.1.2.3", "unspecified"},
		{"::", "unspecified"},
		{"100.100.100.200", "shared"}, // Alibaba metadata
		{"224.0.0.1", "link-local"},
		{"239.1.1.1", "multicast"},
		{"255.255.255.255", "multicast"},
		{"::ffff:127.0.0.1", "loopback"}, // IPv4-mapped
		{"::ffff:169.254.169.254", "link-local"},
		{"::ffff:10.1.2.3", "private"},
		{"::127.0.0.1", "loopback"},          // IPv4-compatible
		{"64:ff9b::a9fe:a9fe", "link-local"}, // NAT64 of 169.254.169.254
		{"8.8.8.8", ""},
		{"172.32.0.1", ""},
		{"100.128.0.1", ""},
		{"2606:4700::1111", ""},
		{"::ffff:8.8.8.8", ""},
		{"64:ff9b::808:808", ""},
		{"64:ff9b:1::a00:1", "private"}, // local-use NAT64 (RFC 8215)
		{"64:ff9b:1:7f00:0:100::", "private"},
		{"2002:7f00:1::1", "loopback"},     // 6to4 of 127.0.0.1
		{"2002:a9fe:a9fe::", "link-local"}, // 6to4 of 169.254.169.254
		{"2002:808:808::1", ""},
	}
	for _, tt := range tests {
		if got := privateKind(netip.MustParseAddr(tt.addr)); got != tt.kind {
			t.Errorf("%s: %q, want %q", tt.addr, got, tt.kind)
		}
	}
}

// TestPrivateRefused checks that the default fetcher refuses private
// addresses, by literal and by name, with an ACCESS_DENIED error naming the
// address and the option, and that AllowPrivate fetches them.
func TestPrivateRefused(t *testing.T) {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/plain")
		w.Write([]byte("secret"))
	}))
	t.Cleanup(srv.Close)
	_, port, _ := net.SplitHostPort(srv.Listener.Addr().String())
	for _, u := range []string{srv.URL + "/x", "http://localhost:" + port + "/x", "http://[::ffff:127.0.0.1]:" + port + "/x"} {
		t.Run(u, func(t *testing.T) {
			for _, f := range []Fetcher{&HTTPFetcher{}, DefaultFetcher()} {
				p, err := Render(context.Background(), f, u, Options{})
				if errs.CodeOf(err) != errs.AccessDenied || !strings.Contains(err.Error(), "127.0.0.1, a loopback address") && !strings.Contains(err.Error(), "127.0.0.1 is a loopback address") ||
					!strings.Contains(err.Error(), "--allow-private-network") || !strings.HasPrefix(err.Error(), "Access denied: "+u+" was not fetched: ") {
					t.Fatalf("err = %s %v; page %+v", errs.CodeOf(err), err, p)
				}
			}
			p, err := Render(context.Background(), &HTTPFetcher{AllowPrivate: true}, u, Options{})
			if err != nil || p.Content != "secret" {
				t.Fatalf("allowed: err %v page %+v", err, p)
			}
		})
	}
	t.Run("a cloud metadata name is refused before any lookup", func(t *testing.T) {
		for _, u := range []string{"http://metadata.google.internal/computeMetadata/v1/", "http://METADATA.google.internal./x"} {
			_, err := Render(context.Background(), &HTTPFetcher{}, u, Options{})
			if errs.CodeOf(err) != errs.AccessDenied || !strings.Contains(strings.ToLower(err.Error()), "metadata.google.internal is a cloud metadata name") && !strings.Contains(strings.ToLower(err.Error()), "metadata.google.internal. is a cloud metadata name") {
				t.Fatalf("%s: err = %v", u, err)
			}
		}
	})
	t.Run("a name is named with its address", func(t *testing.T) {
		_, err := Render(context.Background(), &HTTPFetcher{}, "http://localhost:"+port+"/x", Options{})
		if err == nil || !strings.Contains(err.Error(), "localhost resolves to 127.0.0.1, a loopback address") && !strings.Contains(err.Error(), "localhost resolves to ::1, a loopback address") {
			t.Fatalf("err = %v", err)
		}
	})
}

// TestPrivateRedirect checks that the address of every connection is
// checked, a redirect's too: here the test server's port counts as public
// and a second server's as private.
func TestPrivateRedirect(t *testing.T) {
	private := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { w.Write([]byte("secret")) }))
	t.Cleanup(private.Close)
	public := httptest.NewServer(http.RedirectHandler(private.URL+"/metadata", http.StatusFound))
	t.Cleanup(public.Close)
	privatePort := private.Listener.Addr().(*net.TCPAddr).Port
	old := dialCheck
	dialCheck = func(ap netip.AddrPort) error {
		if int(ap.Port()) == privatePort {
			return &PrivateError{Host: ap.Addr().String(), Addr: ap.Addr(), Kind: "private"}
		}
		return nil
	}
	t.Cleanup(func() { dialCheck = old })
	_, err := Render(context.Background(), &HTTPFetcher{}, public.URL+"/start", Options{})
	// It named the redirect's target alone, not the URL read.
	if errs.CodeOf(err) != errs.AccessDenied || !strings.HasPrefix(err.Error(), "Access denied: "+private.URL+"/metadata (a redirect from "+public.URL+"/start) was not fetched: ") {
		t.Fatalf("err = %s %v", errs.CodeOf(err), err)
	}
}
