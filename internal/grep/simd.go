package grep

import (
	"bytes"
	"strings"
)

// The SIMD prefilter (amd64 with AVX2; simd_amd64.s): a literal set of up
// to 8 literals, case-folded or not, is searched for by two bytes of each
// literal, 32 start positions at a time, as ripgrep's memchr and Teddy do
// (Go's bytes.Index keys on the first byte alone, and a set needs one
// bytes.IndexByte cursor per literal). Elsewhere the portable finders of
// finder.go run.

// pairTable is what pairScan reads: for each literal, the offsets of two
// of its bytes and, repeated over 32 lanes, the wanted bytes and the masks
// ORed in before comparing (0x20 folds an ASCII letter's case).
type pairTable struct {
	n    int
	lits [8]pairLit
}

type pairLit struct {
	o1, o2         int
	c1, m1, c2, m2 [32]byte
}

// simdFinder finds the leftmost occurrence of any literal of a set (a
// folded one in any ASCII letter case): pairScan proposes the starts where
// two bytes of a literal match, which are then compared whole. Its speed
// hardly depends on how common the bytes are.
type simdFinder struct {
	t     pairTable
	lits  [][]byte // the literals; in lower case when folded
	fold  []bool
	reach int // the largest o2: a block of starts at p loads up to p+reach+31
}

// newSIMDFinder returns the finder of set (1 to 8 literals), whose folded
// literals are searched by their foldRun, as foldFinder does.
func newSIMDFinder(set litSet) *simdFinder {
	f := &simdFinder{}
	f.t.n = len(set)
	for i, l := range set {
		b, freq, mask := []byte(l.s), exactFreq, func(byte) byte { return 0 }
		if l.fold {
			b, freq = []byte(strings.ToLower(foldRun(l.s))), foldFreq
			mask = func(c byte) byte { return byte(foldMask(c)) }
		}
		a, c := rarest(b, -1, freq), 0
		if len(b) > 1 {
			c = rarest(b, a, freq)
		}
		pl := &f.t.lits[i]
		pl.o1, pl.o2 = min(a, c), max(a, c)
		for k := range 32 {
			pl.c1[k], pl.m1[k] = b[pl.o1], mask(b[pl.o1])
			pl.c2[k], pl.m2[k] = b[pl.o2], mask(b[pl.o2])
		}
		f.lits = append(f.lits, b)
		f.fold = append(f.fold, l.fold)
		f.reach = max(f.reach, pl.o2)
	}
	return f
}

func (f *simdFinder) reset() {}

func (f *simdFinder) index(data []byte, from int) int {
	p := from
	if end := len(data) - f.reach - 31; p < end {
		for {
			r := pairScan(data, p, end, &f.t)
			if r < 0 {
				p = -1 - r
				break
			}
			if f.at(data, r) {
				return r
			}
			if p = r + 1; p >= end {
				break
			}
		}
	}
	for ; p < len(data); p++ {
		if f.at(data, p) {
			return p
		}
	}
	return -1
}

// quiet reports whether data[from:] holds neither a NUL byte nor a start
// of one of the literals: one pass over the data for the binary check and
// the prefilter together.
func (f *simdFinder) quiet(data []byte, from int) bool {
	p := from
	if end := len(data) - f.reach - 31; p < end {
		for {
			r := pairScanNUL(data, p, end, &f.t)
			if r < 0 {
				p = -1 - r
				break
			}
			if data[r] == 0 || f.at(data, r) {
				return false
			}
			if p = r + 1; p >= end {
				break
			}
		}
	}
	if bytes.IndexByte(data[p:], 0) >= 0 {
		return false
	}
	for ; p < len(data); p++ {
		if f.at(data, p) {
			return false
		}
	}
	return true
}

// at reports whether a literal starts at data[p].
func (f *simdFinder) at(data []byte, p int) bool {
	for i, l := range f.lits {
		if p+len(l) > len(data) {
			continue
		}
		if f.fold[i] && foldEqual(data[p:p+len(l)], l) || !f.fold[i] && bytes.Equal(data[p:p+len(l)], l) {
			return true
		}
	}
	return false
}

// lastIndexByte is bytes.LastIndexByte, which is a loop over bytes, with
// the AVX2 kernel where there is one.
func lastIndexByte(b []byte, c byte) int {
	if hasSIMD && len(b) >= 64 {
		return lastIndexByteAVX2(b, c)
	}
	return bytes.LastIndexByte(b, c)
}
