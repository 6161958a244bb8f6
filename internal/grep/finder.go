package grep

import (
	"bytes"
	"encoding/binary"
	"math/bits"
	"strings"
)

// Literal finders: the prefilter. A finder reports where the next
// occurrence of one of the required literals starts. Finders keep cursors
// into the buffer they were last used on, so each Scanner owns its own
// and calls reset before searching a new buffer; calls on one buffer must
// use non-decreasing from values.
//
// Single literals are found by their rarest byte (a background frequency
// table, byteRank) with bytes.IndexByte, which is vectorised, and then
// compared whole: Go's bytes.Index keys on the first byte, which is often
// a common one ("func main" starts with 'f'). Case-insensitive literals
// scan for both cases of their rarest byte with two cached cursors and
// compare with ASCII case folding; when that byte proves common in the
// text, they switch to a pairFinder, which tests two of their bytes at
// eight positions per 64-bit word. Small sets of literals keep one cursor
// per literal and take the nearest.
type finder interface {
	// index returns the offset of the first occurrence starting at or
	// after from, or -1.
	index(data []byte, from int) int
	// reset forgets cached cursors; call it before using a new buffer.
	reset()
}

// newFinder returns a fresh finder for the set (nil for an empty set).
func newFinder(set litSet) finder {
	switch {
	case len(set) == 0:
		return nil
	case hasSIMD && len(set) <= len(pairTable{}.lits):
		return newSIMDFinder(set)
	case len(set) == 1:
		return newOneFinder(set[0])
	}
	m := &multiFinder{}
	for _, l := range set {
		m.subs = append(m.subs, newOneFinder(l))
	}
	m.next = make([]int, len(m.subs))
	m.reset()
	return m
}

func newOneFinder(l lit) finder {
	if l.fold {
		return newFoldFinder(foldRun(l.s))
	}
	return newExactFinder(l.s)
}

// exactFinder finds one case-sensitive literal by its rarest byte.
type exactFinder struct {
	needle []byte
	rare   byte
	off    int // offset of rare in needle
}

func newExactFinder(s string) *exactFinder {
	f := &exactFinder{needle: []byte(s)}
	f.off = rarest(f.needle, -1, exactFreq)
	f.rare = f.needle[f.off]
	return f
}

func (f *exactFinder) reset() {}

func (f *exactFinder) index(data []byte, from int) int {
	n := len(f.needle)
	for p := from + f.off; p < len(data); {
		j := bytes.IndexByte(data[p:], f.rare)
		if j < 0 {
			return -1
		}
		p += j
		start := p - f.off
		if start+n <= len(data) && bytes.Equal(data[start:start+n], f.needle) {
			return start
		}
		p++
	}
	return -1
}

// foldFinder finds an ASCII literal (without k or s) in any letter case.
// It scans for both cases of its rarest byte with bytes.IndexByte; when
// that byte proves common in the text searched (a candidate every few
// dozen bytes, as the letters of "rareneedle" are in English text), it
// hands over to a pairFinder for the rest of its life.
type foldFinder struct {
	lower    []byte // the literal in lower case
	lo, up   byte   // the two cases of the scan byte (equal for a non-letter)
	off      int
	clo, cup int // next position of lo / up at or after the last search; -2 = unknown

	cands, span int         // candidates seen and bytes scanned to find them
	pair        *pairFinder // set once candidates are dense
}

// Dense candidates: after foldProbe of them, fewer than foldGap bytes
// apart on average.
const foldProbe, foldGap = 4096, 128

func newFoldFinder(s string) *foldFinder {
	f := &foldFinder{lower: []byte(strings.ToLower(s))}
	f.off = rarest(f.lower, -1, foldFreq)
	f.lo, f.up = f.lower[f.off], toUpper(f.lower[f.off])
	f.reset()
	return f
}

func (f *foldFinder) reset() { f.clo, f.cup = -2, -2 }

func (f *foldFinder) index(data []byte, from int) int {
	if f.pair != nil {
		return f.pair.index(data, from)
	}
	n := len(f.lower)
	at := from + f.off // the scan byte of a match starting at from or later
	for {
		f.clo = advance(data, f.clo, at, f.lo)
		p := f.clo
		if f.up != f.lo {
			f.cup = advance(data, f.cup, at, f.up)
			if p < 0 || (f.cup >= 0 && f.cup < p) {
				p = f.cup
			}
		}
		if p < 0 {
			return -1
		}
		start := p - f.off
		if start+n <= len(data) && foldEqual(data[start:start+n], f.lower) {
			return start
		}
		if f.cands++; len(f.lower) >= 2 && f.cands <= foldProbe {
			f.span += p + 1 - at
			if f.cands == foldProbe && f.span < foldProbe*foldGap {
				f.pair = newPairFinder(f.lower)
				return f.pair.index(data, p-f.off+1)
			}
		}
		at = p + 1
	}
}

// advance returns the first position at or after at of b in data, reusing
// cursor when it is still valid (-1: none left, -2: unknown).
func advance(data []byte, cursor, at int, b byte) int {
	if cursor == -1 || cursor >= at {
		return cursor
	}
	if at >= len(data) {
		return -1
	}
	j := bytes.IndexByte(data[at:], b)
	if j < 0 {
		return -1
	}
	return at + j
}

// pairFinder finds an ASCII literal (in lower case, without k or s) of two
// or more bytes in any letter case by the bytes at two of its offsets,
// o1 < o2, eight candidate starts at a time: it loads the words at
// start+o1 and start+o2, folds letters to lower case (OR 0x20 maps exactly
// a letter's two cases to its lower case) and looks for a zero byte in the
// XOR with the wanted bytes. Its speed does not depend on how common the
// bytes are.
type pairFinder struct {
	lower  []byte
	o1, o2 int
	// the wanted bytes and the fold masks, repeated in each byte
	want1, want2, mask1, mask2 uint64
}

const (
	lsb = 0x0101010101010101
	msb = 0x8080808080808080
)

func newPairFinder(lower []byte) *pairFinder {
	a := rarest(lower, -1, foldFreq)
	b := rarest(lower, a, foldFreq)
	a, b = min(a, b), max(a, b)
	f := &pairFinder{lower: lower, o1: a, o2: b}
	f.want1, f.mask1 = lsb*uint64(lower[a]), foldMask(lower[a])
	f.want2, f.mask2 = lsb*uint64(lower[b]), foldMask(lower[b])
	return f
}

// foldMask is the mask that folds byte c's letter case in each byte of a
// word: 0x20 for a letter, 0 otherwise.
func foldMask(c byte) uint64 {
	if c >= 'a' && c <= 'z' {
		return lsb * 0x20
	}
	return 0
}

func (f *pairFinder) reset() {}

func (f *pairFinder) index(data []byte, from int) int {
	o1, o2 := f.o1, f.o2
	m1, m2, c1, c2 := f.mask1, f.mask2, f.want1, f.want2
	p := from
	// Two words a step; the loads stay inside data while p+o2+16 <= len(data).
	for end := len(data) - o2 - 16; p <= end; p += 16 {
		x := (binary.LittleEndian.Uint64(data[p+o1:]) | m1 ^ c1) | (binary.LittleEndian.Uint64(data[p+o2:]) | m2 ^ c2)
		y := (binary.LittleEndian.Uint64(data[p+o1+8:]) | m1 ^ c1) | (binary.LittleEndian.Uint64(data[p+o2+8:]) | m2 ^ c2)
		// A set high bit marks a zero byte (or a byte above a zero one,
		// which the comparison rejects).
		if tx, ty := (x-lsb)&^x&msb, (y-lsb)&^y&msb; tx|ty != 0 {
			if i := f.check(data, p, tx); i >= 0 {
				return i
			}
			if i := f.check(data, p+8, ty); i >= 0 {
				return i
			}
		}
	}
	for n := len(f.lower); p+n <= len(data); p++ {
		if foldEqual(data[p:p+n], f.lower) {
			return p
		}
	}
	return -1
}

// check compares the literal at the starts p+i whose byte i of t is set.
func (f *pairFinder) check(data []byte, p int, t uint64) int {
	n := len(f.lower)
	for ; t != 0; t &= t - 1 {
		start := p + bits.TrailingZeros64(t)/8
		if start+n <= len(data) && foldEqual(data[start:start+n], f.lower) {
			return start
		}
	}
	return -1
}

// multiFinder finds the nearest occurrence of any of several literals.
type multiFinder struct {
	subs []finder
	next []int // cached next occurrence per literal; -2 unknown, -1 none
}

func (m *multiFinder) reset() {
	for i, s := range m.subs {
		s.reset()
		m.next[i] = -2
	}
}

func (m *multiFinder) index(data []byte, from int) int {
	best := -1
	for i, s := range m.subs {
		if m.next[i] == -2 || (m.next[i] >= 0 && m.next[i] < from) {
			m.next[i] = s.index(data, from)
		}
		if c := m.next[i]; c >= 0 && (best < 0 || c < best) {
			best = c
		}
	}
	return best
}

// rarest returns the index of the byte of b with the lowest rank, other
// than the one at skip (-1: none); it prefers a byte other than b[skip].
func rarest(b []byte, skip int, rank func(byte) int) int {
	best := -1
	for i := range b {
		if i == skip {
			continue
		}
		if best < 0 {
			best = i
			continue
		}
		same, bestSame := skip >= 0 && b[i] == b[skip], skip >= 0 && b[best] == b[skip]
		if bestSame && !same || same == bestSame && rank(b[i]) < rank(b[best]) {
			best = i
		}
	}
	return best
}

// exactFreq and foldFreq rank bytes for a case-sensitive and an
// ASCII-case-folding search.
func exactFreq(c byte) int { return int(byteRank[c]) }
func foldFreq(c byte) int  { return int(byteRank[c]) + int(byteRank[toUpper(c)]) }

func toUpper(b byte) byte {
	if b >= 'a' && b <= 'z' {
		return b - 'a' + 'A'
	}
	return b
}

// foldEqual reports whether s equals lower (already lower case) under
// ASCII case folding.
func foldEqual(s, lower []byte) bool {
	for i, c := range s {
		if c >= 'A' && c <= 'Z' {
			c += 'a' - 'A'
		}
		if c != lower[i] {
			return false
		}
	}
	return true
}

// asciiFoldEqual reports whether b equals s under ASCII case folding.
func asciiFoldEqual(b []byte, s string) bool {
	if len(b) != len(s) {
		return false
	}
	for i, c := range b {
		if d := s[i]; c != d && (c|0x20 != d|0x20 || c|0x20 < 'a' || c|0x20 > 'z') {
			return false
		}
	}
	return true
}

// byteRank orders bytes from rarest (0) to most frequent (255), measured
// once over the Go source tree ($GOROOT/src, Go 1.26: code, text and test
// data). Only the order matters.
var byteRank = [256]uint8{
	254, 187, 181, 179, 172, 155, 168, 145, 162, 251, 247, 133, 144, 131, 152, 177,
	158, 127, 119, 132, 134, 124, 125, 122, 136, 118, 86, 99, 109, 90, 83, 139,
	255, 174, 223, 140, 167, 159, 166, 161, 231, 229, 180, 171, 242, 186, 234, 230,
	250, 235, 228, 218, 221, 204, 215, 197, 212, 200, 225, 173, 165, 222, 160, 97,
	156, 232, 195, 206, 203, 216, 188, 182, 193, 207, 151, 164, 199, 198, 190, 205,
	201, 178, 211, 217, 214, 183, 189, 176, 191, 170, 153, 185, 202, 184, 95, 219,
	150, 246, 220, 240, 237, 253, 238, 226, 224, 245, 154, 196, 239, 227, 248, 243,
	233, 157, 249, 244, 252, 236, 210, 192, 241, 213, 169, 209, 175, 208, 56, 91,
	149, 105, 92, 146, 137, 138, 79, 42, 102, 163, 38, 147, 94, 143, 117, 43,
	113, 116, 53, 61, 121, 45, 8, 60, 57, 6, 21, 39, 34, 9, 14, 32,
	104, 16, 13, 4, 41, 12, 2, 80, 73, 111, 129, 26, 40, 51, 0, 1,
	66, 31, 10, 5, 65, 20, 62, 107, 74, 101, 64, 11, 30, 7, 47, 59,
	148, 135, 130, 100, 106, 78, 110, 85, 93, 84, 52, 25, 88, 29, 58, 15,
	81, 68, 67, 55, 23, 77, 76, 22, 71, 72, 24, 63, 19, 3, 17, 37,
	128, 96, 98, 87, 48, 44, 27, 54, 142, 123, 35, 120, 75, 33, 28, 70,
	114, 50, 36, 115, 69, 18, 89, 82, 108, 126, 46, 49, 141, 112, 103, 194,
}
