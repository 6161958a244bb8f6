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
	var h Hasher
	h.Write(text)
	return h.Tag()
}

var bom = []byte{0xEF, 0xBB, 0xBF}

// A Hasher computes the tag of a text written to it in pieces, split
// anywhere: after the Writes of its pieces in order, Tag returns what
// TextTag returns for the whole text. As TextTag, it does not look for a
// byte-order mark. The zero Hasher is ready for use.
//
// The text is normalised as it comes: CRLF and lone CR become LF, and the
// spaces and tabs before every line end and at the end of the text are
// dropped. It is hashed a stretch of lines at a time, copying nothing:
// across a line that ends in blanks or CR, not a byte at a time.
type Hasher struct {
	d digest
	// blanks are the spaces and tabs at the end of the text so far, held
	// back: they are dropped if a line end or the end of the text follows,
	// and hashed if more text follows on their line.
	blanks []byte
	// cr: the text so far ends in a CR, hashed as a line end; an LF right
	// after it belongs to that line end.
	cr bool
}

var lf = []byte{'\n'}

// Write adds p, the next piece of the text.
func (h *Hasher) Write(p []byte) {
	if len(p) == 0 {
		return
	}
	if h.cr {
		h.cr = false
		if p[0] == '\n' {
			p = p[1:]
		}
	}
	if len(h.blanks) > 0 {
		// The held blanks and p's leading ones are one run: trailing
		// blanks if a line end or the end of the text follows it.
		i := 0
		for i < len(p) && (p[i] == ' ' || p[i] == '\t') {
			i++
		}
		switch {
		case i == len(p):
			h.blanks = append(h.blanks, p...)
			return
		case p[i] == '\n' || p[i] == '\r':
			p = p[i:]
		default:
			h.d.write(h.blanks) // p[:i] goes with the rest of p
		}
		h.blanks = h.blanks[:0]
	}
	// p[kept:i] is normalised text, not hashed yet; cr is the next CR at
	// or after i (len(p): none), looked for again only once passed. The
	// text between the line ends that change it (a CR, an LF after a
	// blank) is hashed in one write, so clean text costs one scan.
	kept, cr := 0, indexFrom(p, 0, '\r')
	for i := 0; ; {
		if cr < i {
			cr = indexFrom(p, i, '\r')
		}
		end := cr
		if bytes.IndexByte(p[i:cr], '\n') >= 0 { // not a line ended by a CR
			end = blankLF(p, i, cr)
		}
		t := end
		for t > kept && (p[t-1] == ' ' || p[t-1] == '\t') {
			t--
		}
		h.d.write(p[kept:t])
		if end == len(p) {
			// p ends in a line that the next piece may go on with.
			h.blanks = append(h.blanks, p[t:]...)
			return
		}
		kept, i = end, end+1
		if end == cr {
			switch {
			case i == len(p):
				h.d.write(lf)
				kept, h.cr = i, true
			case p[i] == '\n': // CRLF: the LF is the line end
				kept = i
				i++
			default:
				h.d.write(lf)
				kept = i
			}
		}
	}
}

// Tag returns the tag of the text written so far.
func (h *Hasher) Tag() string {
	v := h.d.sum() & 0xFFFF
	const hexdigits = "0123456789ABCDEF"
	return string([]byte{hexdigits[v>>12&0xF], hexdigits[v>>8&0xF], hexdigits[v>>4&0xF], hexdigits[v&0xF]})
}

// indexFrom returns the index of the first c in b at or after i, or len(b).
func indexFrom(b []byte, i int, c byte) int {
	if j := bytes.IndexByte(b[i:], c); j >= 0 {
		return i + j
	}
	return len(b)
}

const (
	ones   = 0x0101010101010101
	highs  = 0x8080808080808080
	lfs    = '\n' * ones
	spaces = ' ' * ones
	tabs   = '\t' * ones
)

// blankLF returns the index of the first LF in b[i+1:end] right after a
// space or tab, or end. b[i] is not such an LF: i is 0 or just past a
// line end.
func blankLF(b []byte, i, end int) int {
	j := i + 1
	// Sixteen bytes at a time, b[j:j+16], from s = b[j-1:end]: zeros
	// marks at least the zero bytes of its argument, and at most a few
	// others (above a zero byte), so m marks every LF after a blank in
	// them, to be checked a byte at a time.
	for s := b[i:end]; len(s) >= 17; s = s[16:] {
		w1, w2 := binary.LittleEndian.Uint64(s[1:]), binary.LittleEndian.Uint64(s[9:])
		p1, p2 := binary.LittleEndian.Uint64(s[0:]), binary.LittleEndian.Uint64(s[8:])
		m := zeros(w1^lfs)&(zeros(p1^spaces)|zeros(p1^tabs)) | zeros(w2^lfs)&(zeros(p2^spaces)|zeros(p2^tabs))
		if m != 0 {
			for k := 1; k <= 16; k++ {
				if s[k] == '\n' && (s[k-1] == ' ' || s[k-1] == '\t') {
					return j + k - 1
				}
			}
		}
		j += 16
	}
	// The rest, short (or a line ended by a CR): an LF at a time.
	for j < end {
		k := bytes.IndexByte(b[j:end], '\n')
		if k < 0 {
			break
		}
		j += k
		if b[j-1] == ' ' || b[j-1] == '\t' {
			return j
		}
		j++
	}
	return end
}

// zeros has the high bit set in each zero byte of x, and maybe in a byte
// above one (a 0x01 borrowed from), in none if x has no zero byte.
func zeros(x uint64) uint64 { return (x - ones) &^ x & highs }

const (
	prime1 uint32 = 2654435761
	prime2 uint32 = 2246822519
	prime3 uint32 = 3266489917
	prime4 uint32 = 668265263
	prime5 uint32 = 374761393
)

// digest is the state of an xxHash32 (seed 0) of bytes written in pieces;
// the zero digest has had nothing written.
type digest struct {
	v1, v2, v3, v4 uint32
	n              uint32   // bytes written, modulo 2^32 as xxHash32 has it
	started        bool     // the v's are set: 16 bytes or more written
	mem            [16]byte // mem[:k] were written after the last stripe
	k              int
}

// write hashes b, 16-byte stripes straight from b.
func (d *digest) write(b []byte) {
	if len(b) == 0 {
		return
	}
	d.n += uint32(len(b))
	if d.k+len(b) < 16 {
		d.k += copy(d.mem[d.k:], b)
		return
	}
	if !d.started {
		p1, p2 := prime1, prime2
		d.v1, d.v2, d.v3, d.v4 = p1+p2, p2, 0, -p1
		d.started = true
	}
	v1, v2, v3, v4 := d.v1, d.v2, d.v3, d.v4
	if d.k > 0 {
		c := copy(d.mem[d.k:], b)
		b = b[c:]
		v1 = round(v1, binary.LittleEndian.Uint32(d.mem[0:]))
		v2 = round(v2, binary.LittleEndian.Uint32(d.mem[4:]))
		v3 = round(v3, binary.LittleEndian.Uint32(d.mem[8:]))
		v4 = round(v4, binary.LittleEndian.Uint32(d.mem[12:]))
	}
	for len(b) >= 16 {
		v1 = round(v1, binary.LittleEndian.Uint32(b[0:]))
		v2 = round(v2, binary.LittleEndian.Uint32(b[4:]))
		v3 = round(v3, binary.LittleEndian.Uint32(b[8:]))
		v4 = round(v4, binary.LittleEndian.Uint32(b[12:]))
		b = b[16:]
	}
	d.v1, d.v2, d.v3, d.v4 = v1, v2, v3, v4
	d.k = copy(d.mem[:], b)
}

// sum returns the hash of the bytes written.
func (d *digest) sum() uint32 {
	var h uint32
	if d.started {
		h = bits.RotateLeft32(d.v1, 1) + bits.RotateLeft32(d.v2, 7) + bits.RotateLeft32(d.v3, 12) + bits.RotateLeft32(d.v4, 18)
	} else {
		h = prime5
	}
	h += d.n
	b := d.mem[:d.k]
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
