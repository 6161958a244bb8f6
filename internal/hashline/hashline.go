// Package hashline computes the whole-file tag printed in hashline output
// (¶path#TAG): xxHash32 (seed 0) of the LF-normalised text with trailing
// spaces, tabs and CRs removed at each line end, low 16 bits, four
// uppercase hex digits. A leading UTF-8 byte-order mark is not text: read
// decodes it away and search drops it from the first line, so the tag
// leaves it out and both print the same tag for the same file.
package hashline

import (
	"bytes"
	"encoding/binary"
	"math/bits"
)

// MaxTagBytes is the largest file that gets a tag; larger files get none.
const MaxTagBytes = 4 << 20

// Tag returns the tag of a file's content.
func Tag(content []byte) string {
	return TextTag(bytes.TrimPrefix(content, bom))
}

// TextTag returns the tag of a file's text: its content less a leading
// UTF-8 byte-order mark, which TextTag does not look for.
func TextTag(text []byte) string {
	h := Sum32(normalize(text)) & 0xFFFF
	const hexdigits = "0123456789ABCDEF"
	return string([]byte{hexdigits[h>>12&0xF], hexdigits[h>>8&0xF], hexdigits[h>>4&0xF], hexdigits[h&0xF]})
}

var bom = []byte{0xEF, 0xBB, 0xBF}

// normalize turns CRLF and lone CR into LF and strips spaces, tabs and CRs
// before every line end and at the end of the text.
func normalize(b []byte) []byte {
	if bytes.IndexByte(b, '\r') >= 0 {
		return normalizeCR(b)
	}
	// Without CRs, line by line (a byte at a time took most of a search's
	// time for tags), and without a copy until a line ends in blanks
	// (most source files have none).
	var out []byte
	kept := 0 // b[kept:i] is to be kept as it is, not copied yet
	for i := 0; ; {
		end := len(b)
		if j := bytes.IndexByte(b[i:], '\n'); j >= 0 {
			end = i + j
		}
		if t := trimSpaceTabCR(b[i:end]); len(t) < end-i {
			if out == nil {
				out = make([]byte, 0, len(b))
			}
			out = append(out, b[kept:i+len(t)]...)
			kept = end
		}
		if end == len(b) {
			break
		}
		i = end + 1
	}
	if out == nil {
		return b
	}
	return append(out, b[kept:]...)
}

// normalizeCR is normalize for any text, CRs included.
func normalizeCR(b []byte) []byte {
	out := make([]byte, 0, len(b))
	for i := 0; i < len(b); i++ {
		c := b[i]
		if c == '\r' {
			if i+1 < len(b) && b[i+1] == '\n' {
				continue
			}
			c = '\n'
		}
		if c == '\n' {
			out = trimSpaceTabCR(out)
		}
		out = append(out, c)
	}
	return trimSpaceTabCR(out)
}

func trimSpaceTabCR(b []byte) []byte {
	for len(b) > 0 {
		switch b[len(b)-1] {
		case ' ', '\t', '\r':
			b = b[:len(b)-1]
			continue
		}
		break
	}
	return b
}

const (
	prime1 uint32 = 2654435761
	prime2 uint32 = 2246822519
	prime3 uint32 = 3266489917
	prime4 uint32 = 668265263
	prime5 uint32 = 374761393
)

// Sum32 is xxHash32 with seed 0.
func Sum32(b []byte) uint32 {
	n := len(b)
	var h uint32
	if n >= 16 {
		p1, p2 := prime1, prime2
		v1 := p1 + p2
		v2 := prime2
		v3 := uint32(0)
		v4 := -p1
		for len(b) >= 16 {
			v1 = round(v1, binary.LittleEndian.Uint32(b[0:]))
			v2 = round(v2, binary.LittleEndian.Uint32(b[4:]))
			v3 = round(v3, binary.LittleEndian.Uint32(b[8:]))
			v4 = round(v4, binary.LittleEndian.Uint32(b[12:]))
			b = b[16:]
		}
		h = bits.RotateLeft32(v1, 1) + bits.RotateLeft32(v2, 7) + bits.RotateLeft32(v3, 12) + bits.RotateLeft32(v4, 18)
	} else {
		h = prime5
	}
	h += uint32(n)
	for len(b) >= 4 {
		h += binary.LittleEndian.Uint32(b) * prime3
		h = bits.RotateLeft32(h, 17) * prime4
		b = b[4:]
	}
	for _, c := range b {
		h += uint32(c) * prime5
		h = bits.RotateLeft32(h, 11) * prime1
	}
	h ^= h >> 15
	h *= prime2
	h ^= h >> 13
	h *= prime3
	h ^= h >> 16
	return h
}

func round(acc, in uint32) uint32 {
	acc += in * prime2
	acc = bits.RotateLeft32(acc, 13)
	return acc * prime1
}
