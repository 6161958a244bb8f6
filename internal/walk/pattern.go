package walk

import (
	"math/bits"
	"strings"

	"github.com/scoutkit/scout/internal/posixclass"
)

// A pattern is a compiled gitignore glob (git's wildmatch with
// WM_PATHNAME): "*" and "?" and classes never match "/", "**" between
// slashes (or at either end) matches any number of directories, and a
// backslash quotes the next character. It matches bytes, as git does.
type pattern struct {
	toks  []token
	never bool // the glob ends in a lone backslash, which git never matches
}

type tokKind uint8

const (
	tLit    tokKind = iota // one literal byte
	tAny                   // "?": any byte but '/'
	tClass                 // "[...]": a byte set, never '/'
	tStar                  // "*": any run of bytes without '/'
	tDirs                  // "**/": "" or any string ending in '/'; entry state
	tDirsIn                // inside a directory name of a "**/"
	tRest                  // trailing "/**" part or a whole "**": any string
)

type token struct {
	kind tokKind
	b    byte       // tLit
	set  *[8]uint32 // tClass: bit c set when byte c matches
}

// compilePattern compiles a gitignore glob. A glob that git's wildmatch
// aborts on (an unclosed "[", an unknown "[:name:]" class) never matches,
// as in git.
func compilePattern(p string) pattern {
	var toks []token
	for i := 0; i < len(p); i++ {
		c := p[i]
		switch c {
		case '\\':
			if i+1 == len(p) {
				return pattern{never: true}
			}
			i++
			toks = append(toks, token{kind: tLit, b: p[i]})
		case '?':
			toks = append(toks, token{kind: tAny})
		case '[':
			set, n := parseClass(p[i:])
			if n == 0 {
				return pattern{never: true}
			}
			toks = append(toks, token{kind: tClass, set: set})
			i += n - 1
		case '*':
			j := i
			for j < len(p) && p[j] == '*' {
				j++
			}
			atStart := i == 0 || p[i-1] == '/'
			switch {
			case j-i >= 2 && atStart && j == len(p):
				toks = append(toks, token{kind: tRest})
			case j-i >= 2 && atStart && p[j] == '/':
				toks = append(toks, token{kind: tDirs}, token{kind: tDirsIn})
				j++ // the '/' belongs to the token
			default:
				toks = append(toks, token{kind: tStar})
			}
			i = j - 1
		default:
			toks = append(toks, token{kind: tLit, b: c})
		}
	}
	return pattern{toks: toks}
}

// parseClass parses the bracket expression at the start of p and returns
// its byte set and length, as git's wildmatch reads it: a ']' right after
// the '[' (and '!' or '^') is a member, '\' quotes the next byte, "a-z"
// is a range, "[:name:]" a POSIX class, and a "[:" not closed by ":]"
// before the next ']' is a plain '[' member. n is 0 when git aborts the
// match: the bracket is not closed, or the class name is unknown.
func parseClass(p string) (set *[8]uint32, n int) {
	set = new([8]uint32)
	i := 1
	negate := i < len(p) && (p[i] == '!' || p[i] == '^')
	if negate {
		i++
	}
	add := func(c byte) { set[c>>5] |= 1 << (c & 31) }
	first := true
	for ; i < len(p); i++ {
		c := p[i]
		if c == ']' && !first {
			if negate {
				for k := range set {
					set[k] = ^set[k]
				}
			}
			set['/'>>5] &^= 1 << ('/' & 31)
			return set, i + 1
		}
		first = false
		if c == '[' && i+1 < len(p) && p[i+1] == ':' {
			end := strings.IndexByte(p[i+2:], ']')
			if end < 0 {
				return nil, 0
			}
			if name := p[i+2 : i+2+end]; end >= 1 && name[end-1] == ':' {
				ranges, ok := posixclass.Lookup(name[:end-1])
				if !ok {
					return nil, 0
				}
				for _, r := range ranges {
					for b := int(r.Lo); b <= int(r.Hi); b++ {
						add(byte(b))
					}
				}
				i += 2 + end
				continue
			}
		}
		if c == '\\' && i+1 < len(p) {
			i++
			c = p[i]
		}
		lo := c
		if i+2 < len(p) && p[i+1] == '-' && p[i+2] != ']' {
			hi := p[i+2]
			i += 2
			if hi == '\\' && i+1 < len(p) {
				i++
				hi = p[i]
			}
			for b := int(lo); b <= int(hi); b++ {
				add(byte(b))
			}
			continue
		}
		add(lo)
	}
	return nil, 0
}

// match reports whether the whole of s matches. It simulates the token
// automaton with a set of live states, so it runs in O(len(toks)×len(s))
// whatever the pattern.
func (p *pattern) match(s string) bool {
	n := len(p.toks)
	if p.never {
		return false
	}
	if n < 64 {
		return p.match64(s)
	}
	cur := make([]bool, n+1)
	next := make([]bool, n+1)
	cur[0] = true
	p.closure(cur)
	for i := 0; i < len(s); i++ {
		clear(next)
		any := false
		for st := 0; st < n; st++ {
			if cur[st] {
				if to := p.step(st, s[i]); to >= 0 {
					next[to] = true
					any = true
				}
			}
		}
		if !any {
			return false
		}
		p.closure(next)
		cur, next = next, cur
	}
	return cur[n]
}

// match64 is match with the state set in one word.
func (p *pattern) match64(s string) bool {
	n := len(p.toks)
	cur := p.closure64(1)
	for i := 0; i < len(s); i++ {
		var next uint64
		for set := cur &^ (1 << n); set != 0; set &= set - 1 {
			st := bits.TrailingZeros64(set)
			if to := p.step(st, s[i]); to >= 0 {
				next |= 1 << to
			}
		}
		if next == 0 {
			return false
		}
		cur = p.closure64(next)
	}
	return cur&(1<<n) != 0
}

// step returns the state reached from state st on byte c, or -1.
func (p *pattern) step(st int, c byte) int {
	t := &p.toks[st]
	switch t.kind {
	case tLit:
		if c == t.b {
			return st + 1
		}
	case tAny:
		if c != '/' {
			return st + 1
		}
	case tClass:
		if t.set[c>>5]&(1<<(c&31)) != 0 {
			return st + 1
		}
	case tStar:
		if c != '/' {
			return st
		}
	case tDirs, tDirsIn:
		// A '/' ends a directory name: back to the entry state, from
		// which the rest of the glob may start.
		if c == '/' {
			if t.kind == tDirs {
				return st
			}
			return st - 1
		}
		if t.kind == tDirs {
			return st + 1
		}
		return st
	case tRest:
		return st
	}
	return -1
}

// skip returns how far the empty string moves a state: 1 for "*" and a
// trailing "**", 2 for "**/" (past its inner state), 0 otherwise.
func (t *token) skip() int {
	switch t.kind {
	case tStar, tRest:
		return 1
	case tDirs:
		return 2
	}
	return 0
}

func (p *pattern) closure(set []bool) {
	for st := 0; st < len(p.toks); st++ {
		if k := p.toks[st].skip(); set[st] && k > 0 {
			set[st+k] = true
		}
	}
}

func (p *pattern) closure64(set uint64) uint64 {
	for st := 0; st < len(p.toks); st++ {
		if k := p.toks[st].skip(); set&(1<<st) != 0 && k > 0 {
			set |= 1 << (st + k)
		}
	}
	return set
}
