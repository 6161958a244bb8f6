package walk

import (
	"fmt"
	"strings"

	"github.com/scoutkit/scout/internal/fsx"
)

// A rule is one line of an ignore file.
type rule struct {
	glob     pattern
	text     string // the glob as written, after the line was trimmed (for the slow path kinds)
	negate   bool   // "!": a match re-includes
	dirOnly  bool   // trailing "/": matches directories only
	anchored bool   // contains "/": matched against the path relative to the file's directory
	kind     ruleKind
}

type ruleKind uint8

const (
	kGlob   ruleKind = iota // general glob, run the automaton
	kSuffix                 // "*" followed by a literal: a suffix test on the base name
)

// A ruleSet is one ignore file, compiled. Git's rule is that the last
// matching line wins; lookups find the highest matching line index. The
// common shapes are answered by map lookups (as ripgrep's globset does):
// literal base names ("node_modules"), extensions ("*.log") and literal
// anchored paths ("/build"); other lines are tried last to first, only
// while they could still beat the best map hit.
type ruleSet struct {
	rules []rule
	base  map[string][]int32 // literal base name -> rule indices, ascending
	ext   map[string][]int32 // "*.ext" -> rule indices
	path  map[string][]int32 // literal anchored path -> rule indices
	slow  []int32            // all other rules, ascending
}

// match is the verdict of a rule set on a path.
type match int8

const (
	noMatch   match = iota // no line matches
	matchIgn               // the last matching line ignores the path
	matchKeep              // the last matching line is a negation ("!")
)

// The bounds of one ignore file, past which it is refused whole: every
// path is matched against every rule that no map lookup answers, in time
// that grows with the length of the rule, so that a file of a million
// rules made a walk of 50 files take 22 s and 600 MB. A line longer than
// an OS path cannot be a rule that matters.
const (
	maxIgnoreRules = 10_000
	maxIgnoreLine  = 4096
)

// parseRules compiles the contents of an ignore file. It returns nil when
// the file has no rules, and an error wrapping fsx.ErrTooLarge when it has
// more than maxIgnoreRules or a line other than a comment longer than
// maxIgnoreLine.
func parseRules(content string) (*ruleSet, error) {
	rs := &ruleSet{}
	content = strings.TrimPrefix(content, "\uFEFF") // a UTF-8 byte-order mark, which git skips
	n := 0
	for line := range strings.SplitSeq(content, "\n") {
		if n++; len(line) > maxIgnoreLine && line[0] != '#' && len(strings.TrimRight(line, " \r")) > maxIgnoreLine {
			return nil, fmt.Errorf("%w: line %d is longer than %d bytes", fsx.ErrTooLarge, n, maxIgnoreLine)
		}
		r, ok := parseLine(line)
		if !ok {
			continue
		}
		if len(rs.rules) == maxIgnoreRules {
			return nil, fmt.Errorf("%w: more than %d rules", fsx.ErrTooLarge, maxIgnoreRules)
		}
		rs.add(r)
	}
	if len(rs.rules) == 0 {
		return nil, nil
	}
	return rs, nil
}

// parseLine applies gitignore's line syntax; ok is false for blank lines,
// comments and lines that are empty once the syntax is removed.
func parseLine(line string) (r rule, ok bool) {
	line = strings.TrimSuffix(line, "\r")
	if line == "" || line[0] == '#' {
		return rule{}, false
	}
	line = trimTrailingSpaces(line)
	if strings.HasPrefix(line, "!") {
		r.negate = true
		line = line[1:]
	}
	if strings.HasSuffix(line, "/") {
		r.dirOnly = true
		line = line[:len(line)-1]
	}
	if strings.Contains(line, "/") {
		r.anchored = true
		line = strings.TrimPrefix(line, "/")
	}
	if line == "" {
		return rule{}, false
	}
	r.text = line
	r.glob = compilePattern(line)
	if !r.anchored && line[0] == '*' && !hasMeta(line[1:]) && line[1:] != "" {
		r.kind = kSuffix
	}
	return r, true
}

// trimTrailingSpaces removes unescaped trailing spaces, as git does.
func trimTrailingSpaces(s string) string {
	end := len(s)
	for end > 0 && s[end-1] == ' ' {
		// Count the backslashes before this space: an odd count escapes it.
		k := end - 1
		for k > 0 && s[k-1] == '\\' {
			k--
		}
		if (end-1-k)%2 == 1 {
			break
		}
		end--
	}
	return s[:end]
}

func hasMeta(s string) bool { return strings.ContainsAny(s, "*?[\\") }

func (rs *ruleSet) add(r rule) {
	idx := int32(len(rs.rules))
	rs.rules = append(rs.rules, r)
	put := func(m *map[string][]int32, key string) {
		if *m == nil {
			*m = map[string][]int32{}
		}
		(*m)[key] = append((*m)[key], idx)
	}
	switch lit := !hasMeta(r.text); {
	case lit && r.anchored:
		put(&rs.path, r.text)
	case lit:
		put(&rs.base, r.text)
	case r.kind == kSuffix && r.text[1] == '.' && !strings.Contains(r.text[2:], "."):
		put(&rs.ext, r.text[2:])
	default:
		rs.slow = append(rs.slow, idx)
	}
}

// match returns the verdict for rel, the path relative to the directory of
// the ignore file, whose last element is base.
func (rs *ruleSet) match(rel, base string, isDir bool) match {
	best := int32(-1)
	last := func(idxs []int32) {
		for k := len(idxs) - 1; k >= 0 && idxs[k] > best; k-- {
			if !rs.rules[idxs[k]].dirOnly || isDir {
				best = idxs[k]
				return
			}
		}
	}
	if rs.base != nil {
		last(rs.base[base])
	}
	if rs.path != nil {
		last(rs.path[rel])
	}
	if rs.ext != nil {
		if dot := strings.LastIndexByte(base, '.'); dot >= 0 {
			last(rs.ext[base[dot+1:]])
		}
	}
	for k := len(rs.slow) - 1; k >= 0 && rs.slow[k] > best; k-- {
		r := &rs.rules[rs.slow[k]]
		if r.dirOnly && !isDir {
			continue
		}
		if r.matches(rel, base) {
			best = rs.slow[k]
			break
		}
	}
	switch {
	case best < 0:
		return noMatch
	case rs.rules[best].negate:
		return matchKeep
	}
	return matchIgn
}

// matches runs the rule's glob on the base name, or on the relative path
// when the rule is anchored.
func (r *rule) matches(rel, base string) bool {
	switch {
	case r.kind == kSuffix:
		return strings.HasSuffix(base, r.text[1:])
	case r.anchored:
		return r.glob.match(rel)
	}
	return r.glob.match(base)
}
