package errs

import (
	"strconv"
	"strings"
	"testing"
	"unicode/utf8"
)

// FuzzEcho: whatever an input holds, Echo shows it as valid UTF-8 on one
// line (no line break or other control character can forge a line of
// the message), at most MaxEcho bytes and the "…(N bytes)" that says how
// long the input was; Clip cuts the same way, at a character boundary.
func FuzzEcho(f *testing.F) {
	for _, s := range []string{"", "a", "x\n*1|fake", "b\xffc", strings.Repeat("é", 150), "\n" + strings.Repeat("a", MaxEcho),
		"https://u:p@h/x", "skill://u:secret@x:2-3 \r\n", "\u2028\u202e\x7f", strings.Repeat("\x00", 300)} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		tail := "…(" + strconv.Itoa(len(s)) + " bytes)"
		for name, got := range map[string]string{"Echo": Echo(s), "Clip": Clip(s)} {
			if !utf8.ValidString(got) && name == "Echo" {
				t.Fatalf("Echo(%q) = %q: not UTF-8", s, got)
			}
			if len(got) > MaxEcho+len(tail) || len(got) > MaxEcho && !strings.HasSuffix(got, tail) {
				t.Fatalf("%s(%q) = %q: over %d bytes without the length", name, s, got, MaxEcho)
			}
		}
		if got := Echo(s); strings.ContainsFunc(got, func(r rune) bool { return r < ' ' || r == 0x7f || r == '\u2028' || r == '\u2029' || r == 0x85 }) {
			t.Fatalf("Echo(%q) = %q holds a control character or line separator", s, got)
		}
	})
}
