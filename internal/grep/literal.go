package grep

import (
	"encoding/binary"
	"regexp/syntax"
	"slices"
	"strings"
	"unicode/utf8"
)

// Required-literal extraction.
//
// analyze walks the simplified syntax tree and computes, for each node,
// the finite set of strings it can match exactly (when small) and a set
// of strings of which every match contains at least one (a "required"
// set). The prefilter searches a buffer for the best required set of the
// whole pattern and runs the automaton only on the lines that contain a
// candidate. Case-insensitive literals are kept with a fold flag and
// searched with an ASCII case-folding finder. Which required set is best
// depends on its user: the prefilter can search only for a few literals
// (byPrefilter), a trigram index wants long ones (byLength).

// maxSet bounds the size of literal sets (products of small sets grow
// fast; a larger set would not make a fast prefilter anyway).
const maxSet = 16

// maxClass is the largest character class turned into a set of
// one-character literals.
const maxClass = 4

// lit is a literal string; fold means any simple case folding of it, or
// with part, of a part of it (a product of a folded literal with one that
// is not: [Tt]odo), so that a folded match is only a candidate.
type lit struct {
	s    string
	fold bool
	part bool
}

// litSet is a set of literals; a match contains (or equals) one of them.
type litSet []lit

// info is what analyze knows about a node.
type info struct {
	exact litSet // every match is one of these, in the order a leftmost-first match prefers them; nil: unknown or too many
	req   litSet // every match contains one of these; nil: no requirement
	pre   litSet // every match starts with one of these; nil: unknown
	suf   litSet // every match ends with one of these; nil: unknown
	pure  bool   // the node is made only of literals, small classes, concatenations and alternations
}

// order reports whether the set s is a better required set than t; at
// each node analyze keeps the best set by its order.
type order func(s, t litSet) bool

// analyze computes the info of re, choosing required sets by better.
func analyze(re *syntax.Regexp, better order) info {
	a := analyzer{better: better, infos: map[*syntax.Regexp]info{}, products: map[string]litSet{}}
	return a.info(re)
}

// analyzer is one run of analyze. It keeps the info of each node (the
// copies of a repetition, x{1000}, are one node) and each product of two
// sets, by the sets' literals (the neighbours in a chain of classes
// multiply the same sets over and over): a pattern of thousands of nodes
// costs no more allocations than it has distinct ones. The sets it
// returns are shared, and never changed.
type analyzer struct {
	better   order
	infos    map[*syntax.Regexp]info
	products map[string]litSet
	key      []byte // scratch for the keys of products
}

// info computes the info of re.
func (a *analyzer) info(re *syntax.Regexp) info {
	if in, ok := a.infos[re]; ok {
		return in
	}
	in := a.compute(re)
	a.infos[re] = in
	return in
}

func (a *analyzer) compute(re *syntax.Regexp) info {
	better := a.better
	switch re.Op {
	case syntax.OpEmptyMatch:
		return info{exact: litSet{{}}, pure: true}
	case syntax.OpLiteral:
		if slices.Contains(re.Rune, utf8.RuneError) {
			return info{} // U+FFFD also matches each invalid byte
		}
		return info{exact: litSet{{s: string(re.Rune), fold: re.Flags&syntax.FoldCase != 0}}, pure: true}
	case syntax.OpCharClass:
		return classInfo(re.Rune)
	case syntax.OpBeginLine, syntax.OpEndLine, syntax.OpBeginText, syntax.OpEndText,
		syntax.OpWordBoundary, syntax.OpNoWordBoundary:
		return info{exact: litSet{{}}}
	case syntax.OpCapture:
		return a.info(re.Sub[0])
	case syntax.OpQuest:
		// The exact set lists the literals in the order a leftmost-first
		// match prefers them: a greedy x? tries x before the empty string.
		sub := a.info(re.Sub[0])
		if sub.exact != nil && len(sub.exact) < maxSet {
			if re.Flags&syntax.NonGreedy != 0 {
				return info{exact: append(litSet{{}}, sub.exact...), pure: sub.pure}
			}
			return info{exact: append(slices.Clip(sub.exact), lit{}).dedup(), pure: sub.pure}
		}
		return info{}
	case syntax.OpPlus:
		sub := a.info(re.Sub[0])
		return info{req: sub.best(better), pre: sub.exact, suf: sub.exact}
	case syntax.OpRepeat:
		if re.Min == 0 {
			return info{}
		}
		sub := a.info(re.Sub[0])
		return info{req: sub.best(better), pre: sub.exact, suf: sub.exact}
	case syntax.OpConcat:
		return a.concatInfo(flatConcat(nil, re.Sub))
	case syntax.OpAlternate:
		return a.alternateInfo(re.Sub)
	}
	// OpAnyChar, OpAnyCharNotNL, OpStar, OpNoMatch and anything new.
	return info{}
}

// classInfo turns a small character class into a set of one-rune
// literals; a pair of the two ASCII cases of a letter becomes one folded
// literal.
func classInfo(ranges []rune) info {
	n := 0
	for i := 0; i < len(ranges); i += 2 {
		n += int(ranges[i+1]-ranges[i]) + 1
		if n > maxClass {
			return info{}
		}
	}
	var set litSet
	for i := 0; i < len(ranges); i += 2 {
		for r := ranges[i]; r <= ranges[i+1]; r++ {
			if r == utf8.RuneError {
				return info{} // also matches each invalid byte
			}
			set = append(set, lit{s: string(r)})
		}
	}
	if len(set) == 2 && len(set[0].s) == 1 && len(set[1].s) == 1 {
		a, b := set[0].s[0], set[1].s[0]
		if a >= 'A' && a <= 'Z' && b == a+'a'-'A' && a != 'K' && a != 'S' {
			set = litSet{{s: set[1].s, fold: true}}
		}
	}
	return info{exact: set, pure: true}
}

// concatInfo combines the children of a concatenation: runs of children
// with exact sets multiply into longer literals, extended by the known
// start of the child that ends a run and started from the known end of
// the child before; the best of the runs, the children's own sets and the
// products of two neighbours (which a run may have split, or extended to
// too many literals) becomes the requirement of the whole.
func (a *analyzer) concatInfo(subs []*syntax.Regexp) info {
	better := a.better
	out := info{pure: true}
	run := litSet{{}}
	exactAll := true
	var best, last litSet // last: the known end of the child before; nil: unknown
	consider := func(s litSet) {
		if better(s, best) {
			best = s
		}
	}
	for _, sub := range subs {
		si := a.info(sub)
		out.pure = out.pure && si.pure
		first := si.exact
		if first == nil {
			first = si.pre
		}
		if last != nil && first != nil {
			consider(a.product(last, first))
		}
		consider(si.exact)
		last = si.exact
		if last == nil {
			last = si.suf
		}
		if si.exact != nil {
			if p := a.product(run, si.exact); p != nil {
				run = p
				continue
			}
			if exactAll {
				out.pre = run
			}
			consider(run)
			run = si.exact
			exactAll = false
			continue
		}
		head := run
		if si.pre != nil {
			if p := a.product(run, si.pre); p != nil {
				head = p
			}
		}
		if exactAll && head.score() > 0 {
			out.pre = head
		}
		exactAll = false
		consider(head)
		consider(si.req)
		run = litSet{{}}
		if si.suf != nil {
			run = si.suf
		}
	}
	consider(run)
	if exactAll {
		out.exact = run
	} else if run.score() > 0 {
		out.suf = run
	}
	out.req = best
	return out
}

// flatConcat appends subs to dst with the children of a nested
// concatenation, captured or not, in its place (Simplify nests a
// repetition's copies): runs and neighbours then cross the nesting.
func flatConcat(dst, subs []*syntax.Regexp) []*syntax.Regexp {
	for _, sub := range subs {
		inner := sub
		for inner.Op == syntax.OpCapture {
			inner = inner.Sub[0]
		}
		if inner.Op == syntax.OpConcat {
			dst = flatConcat(dst, inner.Sub)
		} else {
			dst = append(dst, sub)
		}
	}
	return dst
}

// alternateInfo unions the children's sets.
func (a *analyzer) alternateInfo(subs []*syntax.Regexp) info {
	better := a.better
	out := info{pure: true}
	var exact, req litSet
	exactOK, reqOK := true, true
	for _, sub := range subs {
		si := a.info(sub)
		out.pure = out.pure && si.pure
		if si.exact == nil {
			exactOK = false
		} else {
			exact = append(exact, si.exact...)
		}
		if b := si.best(better); b == nil {
			reqOK = false
		} else {
			req = append(req, b...)
		}
	}
	if exactOK && len(exact) <= maxSet {
		out.exact = exact.dedup()
	}
	if reqOK && len(req) <= maxSet {
		out.req = req.dedup()
	}
	return out
}

// product returns every concatenation of an element of s with one of t,
// without repeats, or nil when there would be more than maxSet; the same
// set for the same literals.
func (a *analyzer) product(s, t litSet) litSet {
	if len(s)*len(t) > maxSet {
		return nil
	}
	a.key = appendLits(appendLits(a.key[:0], s), t)
	if p, ok := a.products[string(a.key)]; ok {
		return p
	}
	out := make(litSet, 0, len(s)*len(t))
	for _, x := range s {
		for _, y := range t {
			l := lit{s: x.s + y.s, fold: x.fold || y.fold, part: x.part || y.part}
			if x.fold != y.fold {
				plain := x.s // the side not folded
				if x.fold {
					plain = y.s
				}
				l.part = l.part || hasLetter(plain)
			}
			if !slices.Contains(out, l) {
				out = append(out, l)
			}
		}
	}
	a.products[string(a.key)] = out
	return out
}

// appendLits appends the set s to key: its number of literals, then each
// one's length, fold and part flags and its bytes.
func appendLits(key []byte, s litSet) []byte {
	key = binary.AppendUvarint(key, uint64(len(s)))
	for _, l := range s {
		n := uint64(len(l.s)) << 2
		if l.fold {
			n |= 1
		}
		if l.part {
			n |= 2
		}
		key = append(binary.AppendUvarint(key, n), l.s...)
	}
	return key
}

// best returns the better of the exact and the required set.
func (in info) best(better order) litSet {
	if better(in.exact, in.req) {
		return in.exact
	}
	return in.req
}

// dedup removes repeated literals (keeping the first).
func (s litSet) dedup() litSet {
	out := s[:0:0]
	for _, l := range s {
		dup := false
		for _, o := range out {
			if o == l {
				dup = true
				break
			}
		}
		if !dup {
			out = append(out, l)
		}
	}
	return out
}

// score rates a set as a prefilter: the length of its shortest literal
// (folded literals count only the characters a fold finder can scan for),
// 0 if the set is empty or unusable.
func (s litSet) score() int {
	if len(s) == 0 {
		return 0
	}
	shortest := -1
	for _, l := range s {
		n := len(l.s)
		if l.fold {
			n = len(foldRun(l.s))
		}
		if shortest < 0 || n < shortest {
			shortest = n
		}
	}
	return shortest
}

// byLength prefers a longer shortest literal, then fewer literals: the
// order for a trigram index, which can look up many literals but none
// shorter than a trigram.
func byLength(s, t litSet) bool {
	a, b := s.score(), t.score()
	if a != b {
		return a > b
	}
	return a > 0 && len(s) < len(t)
}

// byPrefilter prefers the set the prefilter makes the more use of (see
// use), then byLength: a set of too many literals is worth nothing to it,
// however long they are.
func byPrefilter(s, t litSet) bool {
	if a, b := s.use(), t.use(); a != b {
		return a > b
	}
	return byLength(s, t)
}

// use rates the set as a prefilter: 2 when it is worth searching for
// (usable with literals of two bytes or more), 1 when it is a single rare
// byte, 0 when the automaton alone does better.
func (s litSet) use() int {
	switch {
	case s.usable(2):
		return 2
	case s.rareByte():
		return 1
	}
	return 0
}

// usable reports whether the set is worth a prefilter: at most 8
// literals, none shorter than minLen bytes.
func (s litSet) usable(minLen int) bool {
	return len(s) > 0 && len(s) <= 8 && s.score() >= minLen
}

// rareByte reports whether the set is one case-sensitive byte that is
// rare in text (ranked among the rarest 200 of byteRank): then scanning
// for it beats running the automaton over every byte.
func (s litSet) rareByte() bool {
	return len(s) == 1 && len(s[0].s) == 1 && !s[0].fold && byteRank[s[0].s[0]] < 200
}

// foldExact reports whether an ASCII case-folding comparison finds exactly
// the matches of each folded literal of the set: it is folded whole, and
// ASCII without the letters k and s (see foldRun).
func (s litSet) foldExact() bool {
	for _, l := range s {
		if l.fold && (l.part || foldRun(l.s) != l.s) {
			return false
		}
	}
	return true
}

// hasLetter reports whether s holds a letter, or a byte of a character
// outside ASCII, which case folding may change.
func hasLetter(s string) bool {
	for i := range len(s) {
		if c := s[i] | 0x20; c >= 'a' && c <= 'z' || s[i] >= 0x80 {
			return true
		}
	}
	return false
}

// foldRun returns the longest run of s that an ASCII case-folding search
// can find exactly: ASCII characters other than the letters k and s
// (which also fold to U+212A KELVIN SIGN and U+017F LONG S).
func foldRun(s string) string {
	best, start := "", 0
	for i := 0; i <= len(s); i++ {
		if i == len(s) || s[i] >= utf8.RuneSelf || strings.IndexByte("kKsS", s[i]) >= 0 {
			if i-start > len(best) {
				best = s[start:i]
			}
			start = i + 1
		}
	}
	return best
}

// anchorsText reports whether re holds an assertion about the start or the
// end of the whole text: \A, \z, or ^ and $ outside (?m).
func anchorsText(re *syntax.Regexp) bool {
	if re.Op == syntax.OpBeginText || re.Op == syntax.OpEndText {
		return true
	}
	return slices.ContainsFunc(re.Sub, anchorsText)
}

// hasLiteralNewline reports whether the pattern spells out a newline: a
// literal one, or a class that lists it on its own (the parser turns
// "\n|0" into [\n0]); a class such as \s or [^a] that merely covers it
// does not count.
func hasLiteralNewline(re *syntax.Regexp) bool {
	switch re.Op {
	case syntax.OpLiteral:
		for _, r := range re.Rune {
			if r == '\n' {
				return true
			}
		}
	case syntax.OpCharClass:
		for i := 0; i < len(re.Rune); i += 2 {
			if re.Rune[i] == '\n' && re.Rune[i+1] == '\n' {
				return true
			}
		}
	}
	for _, sub := range re.Sub {
		if hasLiteralNewline(sub) {
			return true
		}
	}
	return false
}

// canMatchNewline reports whether any part of the pattern can match '\n'.
func canMatchNewline(re *syntax.Regexp) bool {
	switch re.Op {
	case syntax.OpAnyChar:
		return true
	case syntax.OpLiteral:
		for _, r := range re.Rune {
			if r == '\n' {
				return true
			}
		}
	case syntax.OpCharClass:
		for i := 0; i < len(re.Rune); i += 2 {
			if re.Rune[i] <= '\n' && '\n' <= re.Rune[i+1] {
				return true
			}
		}
	}
	for _, sub := range re.Sub {
		if canMatchNewline(sub) {
			return true
		}
	}
	return false
}

// hasByte reports whether a literal of the set contains the byte c.
func (s litSet) hasByte(c byte) bool {
	for _, l := range s {
		if strings.IndexByte(l.s, c) >= 0 {
			return true
		}
	}
	return false
}
