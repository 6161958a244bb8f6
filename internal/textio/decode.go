package textio

import (
	"bytes"
	"io"
	"net/http"

	"golang.org/x/text/encoding/unicode"
	"golang.org/x/text/encoding/unicode/utf32"
	"golang.org/x/text/transform"
)

// Encoding names the encoding of a text, as found by Sniff.
type Encoding string

// The encodings Sniff recognises. Only the UTF-16 and UTF-32 forms need a
// byte order mark; anything else is read as UTF-8 (lossy when invalid).
const (
	UTF8    Encoding = "utf-8"
	UTF8BOM Encoding = "utf-8-bom"
	UTF16LE Encoding = "utf-16le"
	UTF16BE Encoding = "utf-16be"
	UTF32LE Encoding = "utf-32le"
	UTF32BE Encoding = "utf-32be"
)

// SniffBytes is how much of the start of a file Sniff should be given.
const SniffBytes = 64 << 10

// Sniff returns the encoding of a text from its first bytes (up to
// SniffBytes) and whether it is binary: a NUL byte in a text with no UTF-16
// or UTF-32 byte order mark.
func Sniff(head []byte) (enc Encoding, binary bool) {
	switch {
	case bytes.HasPrefix(head, []byte{0xFF, 0xFE, 0, 0}):
		return UTF32LE, false
	case bytes.HasPrefix(head, []byte{0, 0, 0xFE, 0xFF}):
		return UTF32BE, false
	case bytes.HasPrefix(head, []byte{0xFF, 0xFE}):
		return UTF16LE, false
	case bytes.HasPrefix(head, []byte{0xFE, 0xFF}):
		return UTF16BE, false
	case bytes.HasPrefix(head, []byte{0xEF, 0xBB, 0xBF}):
		return UTF8BOM, bytes.IndexByte(head, 0) >= 0
	}
	return UTF8, bytes.IndexByte(head, 0) >= 0
}

// ContentType names the kind of a binary file from its first bytes, e.g.
// "application/zip"; "application/octet-stream" when unknown.
func ContentType(head []byte) string { return http.DetectContentType(head) }

// Decode returns a reader of r's text as UTF-8 without a byte order mark.
// r must start at the beginning of the text. UTF-8 is passed on as it is,
// invalid bytes included, with or without a byte order mark, so that a
// text's hashline tag does not depend on its mark.
func Decode(r io.Reader, enc Encoding) io.Reader {
	switch enc {
	case UTF8BOM:
		return &skipBOM{r: r, left: 3}
	case UTF16LE:
		return transform.NewReader(r, unicode.UTF16(unicode.LittleEndian, unicode.ExpectBOM).NewDecoder())
	case UTF16BE:
		return transform.NewReader(r, unicode.UTF16(unicode.BigEndian, unicode.ExpectBOM).NewDecoder())
	case UTF32LE:
		return transform.NewReader(r, utf32.UTF32(utf32.LittleEndian, utf32.ExpectBOM).NewDecoder())
	case UTF32BE:
		return transform.NewReader(r, utf32.UTF32(utf32.BigEndian, utf32.ExpectBOM).NewDecoder())
	}
	return r
}

// skipBOM reads r less its first left bytes, a UTF-8 byte order mark.
type skipBOM struct {
	r    io.Reader
	left int
}

func (s *skipBOM) Read(p []byte) (int, error) {
	for s.left > 0 {
		var mark [3]byte
		n, err := s.r.Read(mark[:s.left])
		s.left -= n
		if err != nil {
			return 0, err
		}
	}
	return s.r.Read(p)
}
