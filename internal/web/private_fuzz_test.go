package web

import (
	"net/netip"
	"testing"
)

// FuzzPrivateKind: every address net/netip calls loopback, private,
// link-local, unspecified or multicast is refused, and an IPv4 address
// written as IPv6 (mapped, compatible, NAT64, 6to4) is judged as the IPv4
// address it holds.
func FuzzPrivateKind(f *testing.F) {
	for _, s := range []string{"127.0.0.1", "10.1.2.3", "169.254.169.254", "100.100.100.200", "0.1.2.3", "8.8.8.8", "::1", "::", "fe80::1",
		"fc00::1", "fec0::1", "ff02::1", "::ffff:127.0.0.1", "::127.0.0.1", "64:ff9b::a9fe:a9fe", "2001:db8::1", "255.255.255.255", "224.0.0.1"} {
		a := netip.MustParseAddr(s)
		f.Add(a.AsSlice())
	}
	f.Fuzz(func(t *testing.T, b []byte) {
		var a netip.Addr
		switch len(b) {
		case 4:
			a = netip.AddrFrom4([4]byte(b))
		case 16:
			a = netip.AddrFrom16([16]byte(b))
		default:
			return
		}
		k := privateKind(a)
		u := a.Unmap()
		if k == "" && (u.IsLoopback() || u.IsPrivate() || u.IsLinkLocalUnicast() || u.IsLinkLocalMulticast() || u.IsInterfaceLocalMulticast() ||
			u.IsUnspecified() || u.IsMulticast()) {
			t.Fatalf("%s is public, net/netip says otherwise", a)
		}
		if !u.Is4() {
			return
		}
		v4 := u.As4()
		for _, six := range []netip.Addr{
			netip.AddrFrom16([16]byte{10: 0xff, 11: 0xff, 12: v4[0], 13: v4[1], 14: v4[2], 15: v4[3]}),              // mapped
			netip.AddrFrom16([16]byte{0: 0, 1: 0x64, 2: 0xff, 3: 0x9b, 12: v4[0], 13: v4[1], 14: v4[2], 15: v4[3]}), // NAT64
			netip.AddrFrom16([16]byte{12: v4[0], 13: v4[1], 14: v4[2], 15: v4[3]}),                                  // compatible
			netip.AddrFrom16([16]byte{0: 0x20, 1: 0x02, 2: v4[0], 3: v4[1], 4: v4[2], 5: v4[3], 15: 1}),             // 6to4
		} {
			if six.IsUnspecified() || six.IsLoopback() { // :: and ::1 are IPv6's own
				continue
			}
			if got := privateKind(six); got != k {
				t.Fatalf("%s is %q, but %s, which holds it, %q", u, k, six, got)
			}
		}
	})
}
