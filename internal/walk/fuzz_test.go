package walk

import (
	"strings"
	"testing"
)

// refMatch is a direct backtracking reading of git's wildmatch rules (with
// WM_PATHNAME), exponential but obviously right, to check the automaton.
// Bracket expressions reuse parseClass.
func refMatch(p string, i int, s string) bool {
	if i == len(p) {
		return s == ""
	}
	switch p[i] {
	case '\\':
		return i+1 < len(p) && s != "" && s[0] == p[i+1] && refMatch(p, i+2, s[1:])
	case '?':
		return s != "" && s[0] != '/' && refMatch(p, i+1, s[1:])
	case '[':
		set, n := parseClass(p[i:])
		return n > 0 && s != "" && set[s[0]>>5]&(1<<(s[0]&31)) != 0 && refMatch(p, i+n, s[1:])
	case '*':
		j := i
		for j < len(p) && p[j] == '*' {
			j++
		}
		double := j-i >= 2 && (i == 0 || p[i-1] == '/')
		if double && j == len(p) {
			return true
		}
		if double && p[j] == '/' {
			if refMatch(p, j+1, s) {
				return true
			}
			for k := 0; k < len(s); k++ {
				if s[k] == '/' && refMatch(p, j+1, s[k+1:]) {
					return true
				}
			}
			return false
		}
		for k := 0; ; k++ {
			if refMatch(p, j, s[k:]) {
				return true
			}
			if k == len(s) || s[k] == '/' {
				return false
			}
		}
	}
	return s != "" && s[0] == p[i] && refMatch(p, i+1, s[1:])
}

func FuzzPattern(f *testing.F) {
	seeds := [][2]string{
		{"*.go", "a.go"}, {"**/foo", "a/b/foo"}, {"a/**/b", "a/x/b"}, {"a/**/b", "a/xb"}, {"foo/**", "foo/x"},
		{"cls[!0-9].txt", "clsa.txt"}, {"[]a]", "]"}, {"[[:digit:]]", "7"}, {`\#x`, "#x"}, {"a**b", "a/b"},
		{"**", "x/y"}, {"*/**/*", "a/b"}, {"[a-", "[a-"}, {`x\`, `x\`}, {"**/", "a/"}, {"a/**/**/b", "a/b"},
		{"[[:nope:]]", "n"}, {"[[:]a]", "["}, {"a[", "a["}, {"[a-c[:digit:]x-z]", "5"}, {"[[::]]", ":"},
	}
	for _, s := range seeds {
		f.Add(s[0], s[1])
	}
	f.Fuzz(func(t *testing.T, glob, s string) {
		if len(glob) > 24 || len(s) > 32 || strings.Count(glob, "*") > 6 {
			return // keep the reference's backtracking cheap
		}
		p := compilePattern(glob)
		want := refMatch(glob, 0, s)
		if got := p.match(s); got != want {
			t.Fatalf("%q ~ %q: automaton %v, reference %v", glob, s, got, want)
		}
	})
}

// FuzzParseRules checks that no ignore file makes the parser or matcher
// fail, whatever its bytes.
func FuzzParseRules(f *testing.F) {
	f.Add("*.log\n!keep.log\n/build/\n", "a/keep.log")
	f.Add("\\\n[\n!\n/\n**\n", "x")
	f.Fuzz(func(t *testing.T, content, rel string) {
		rs, _ := parseRules(content)
		if rs == nil {
			return
		}
		base := rel
		if i := strings.LastIndexByte(rel, '/'); i >= 0 {
			base = rel[i+1:]
		}
		rs.match(rel, base, true)
		rs.match(rel, base, false)
	})
}
