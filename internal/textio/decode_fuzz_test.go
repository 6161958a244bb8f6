package textio

import (
	"bytes"
	"io"
	"testing"
	"testing/iotest"
	"unicode/utf8"
)

// FuzzDecode: whatever the bytes and however the reader hands them over
// (a byte at a time, half of what is asked, the end with the last data),
// Decode gives the same text; the text of a UTF-16 or UTF-32 file is
// valid UTF-8, and a UTF-8 one is the bytes as they are, less the mark.
func FuzzDecode(f *testing.F) {
	for _, s := range []string{"héllo", "\xEF\xBB\xBFhi\xff", "\xFF\xFEh\x00i\x00", "\xFE\xFF\x00h\x00i", "\xFF\xFE\x00\x00h\x00\x00\x00", "\x00\x00\xFE\xFFh",
		"\xFF\xFE\x3d\xd8\x00\xde", "\xFF\xFE\x3d\xd8", "\xFE\xFF\xd8\x3d\xde\x00x", "\xFF\xFE\x00\x00\x00\x00\x11\x00", "\xFF\xFEa", "\xEF\xBB"} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		enc, binary := Sniff(data)
		if binary {
			return
		}
		whole, err := io.ReadAll(Decode(bytes.NewReader(data), enc))
		if err != nil {
			t.Fatalf("%s %q: %v", enc, data, err)
		}
		for name, r := range map[string]io.Reader{
			"one byte": iotest.OneByteReader(bytes.NewReader(data)),
			"half":     iotest.HalfReader(bytes.NewReader(data)),
			"data+EOF": iotest.DataErrReader(bytes.NewReader(data)),
		} {
			got, err := io.ReadAll(Decode(r, enc))
			if err != nil || !bytes.Equal(got, whole) {
				t.Fatalf("%s %q read %s: %q, %v; whole %q", enc, data, name, got, err, whole)
			}
		}
		switch enc {
		case UTF8:
			if !bytes.Equal(whole, data) {
				t.Fatalf("UTF-8 %q decoded to %q", data, whole)
			}
		case UTF8BOM:
			if !bytes.Equal(whole, data[3:]) {
				t.Fatalf("UTF-8 with a mark %q decoded to %q", data, whole)
			}
		default:
			if !utf8.Valid(whole) {
				t.Fatalf("%s %q decoded to invalid UTF-8 %q", enc, data, whole)
			}
		}
	})
}
