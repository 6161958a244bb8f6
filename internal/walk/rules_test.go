package walk

import "testing"

func TestPatternMatch(t *testing.T) {
	cases := []struct {
		glob, s string
		want    bool
		reason  string
	}{
		{"*.go", "a.go", true, "star then literal"},
		{"*.go", "a/b.go", false, "star never crosses a slash"},
		{"a?c", "abc", true, "question mark is one byte"},
		{"a?c", "a/c", false, "question mark never matches a slash"},
		{"**/foo", "foo", true, "leading **/ matches zero directories"},
		{"**/foo", "a/b/foo", true, "leading **/ matches several directories"},
		{"a/**/b", "a/b", true, "middle /**/ matches zero directories"},
		{"a/**/b", "a/x/y/b", true, "middle /**/ matches several directories"},
		{"a/**/b", "a/xb", false, "/**/ needs the slashes"},
		{"foo/**", "foo/x/y", true, "trailing /** matches everything inside"},
		{"foo/**", "foo", false, "trailing /** does not match the directory itself"},
		{"**", "a/b/c", true, "a lone ** matches everything"},
		{"a**b", "a/b", false, "** not between slashes is a plain star"},
		{"a**b", "axxb", true, "** not between slashes is a plain star"},
		{"cls[!0-9].txt", "clsa.txt", true, "[!...] negates the class"},
		{"cls[!0-9].txt", "cls1.txt", false, "[!...] negates the class"},
		{"cls[^0-9].txt", "cls1.txt", false, "[^...] is a synonym of [!...]"},
		{"[]a]", "]", true, "a leading ] is literal inside a class"},
		{"[a-c]x", "bx", true, "range"},
		{"[[:digit:]]x", "7x", true, "POSIX class"},
		{"[[:upper:]]x", "ax", false, "POSIX class excludes"},
		{"a[/]b", "a/b", false, "a class never matches a slash"},
		{"[ab", "[ab", false, "an unclosed bracket never matches (git aborts)"},
		{"[[:alpha:]]x", "ax", true, "POSIX class"},
		{"[[:nope:]]", "n", false, "an unknown POSIX class never matches (git aborts)"},
		{`\#hash`, "#hash", true, "backslash quotes the next character"},
		{`\*`, "*", true, "escaped star is literal"},
		{`\*`, "a", false, "escaped star is literal"},
		{`foo\`, "foo\\", false, "a trailing lone backslash never matches (git)"},
		{"*a*a*a*a*a*a*a*a*a*b", "aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa", false, "no exponential backtracking"},
		{"", "", true, "empty glob matches the empty string"},
	}
	for _, c := range cases {
		p := compilePattern(c.glob)
		if got := p.match(c.s); got != c.want {
			t.Errorf("%q ~ %q = %v, want %v (%s)", c.glob, c.s, got, c.want, c.reason)
		}
	}
}

func TestPatternLongUsesSliceStates(t *testing.T) {
	long := ""
	for range 70 {
		long += "a"
	}
	p := compilePattern(long + "*")
	if !p.match(long+"xyz") || p.match(long[:69]+"b") {
		t.Fatal("a glob with more than 63 tokens must match like a short one")
	}
}

func TestRuleSet(t *testing.T) {
	cases := []struct {
		file   string
		rel    string
		isDir  bool
		want   match
		reason string
	}{
		{"*.log", "a/b.log", false, matchIgn, "extension at any depth"},
		{"*.log\n!keep.log", "keep.log", false, matchKeep, "later negation wins"},
		{"!keep.log\n*.log", "keep.log", false, matchIgn, "last matching line wins"},
		{"build/", "build", false, noMatch, "dir-only rule skips files"},
		{"build/", "x/build", true, matchIgn, "dir-only unanchored rule matches at any depth"},
		{"/root.txt", "sub/root.txt", false, noMatch, "leading slash anchors"},
		{"/root.txt", "root.txt", false, matchIgn, "leading slash anchors"},
		{"doc/*.html", "doc/a.html", false, matchIgn, "middle slash anchors"},
		{"doc/*.html", "x/doc/a.html", false, noMatch, "middle slash anchors"},
		{"node_modules", "a/node_modules", true, matchIgn, "literal base name"},
		{"# comment\n\n", "# comment", false, noMatch, "comments and blanks are skipped"},
		{`\#hash.txt`, "#hash.txt", false, matchIgn, "escaped hash"},
		{`\!bang.txt`, "!bang.txt", false, matchIgn, "escaped bang is literal"},
		{"trail.txt   ", "trail.txt", false, matchIgn, "trailing spaces are trimmed"},
		{`sp\ `, "sp ", false, matchIgn, "escaped trailing space is kept"},
		{"*~", "a.txt~", false, matchIgn, "suffix rule"},
		{"*.tar.gz", "x.tar.gz", false, matchIgn, "multi-dot suffix"},
		{"*.o", "a.o", true, matchIgn, "extension rules match directories too"},
		{"*.log\r\n!a.log\r\n", "a.log", false, matchKeep, "CRLF files"},
		{"/", "x", false, noMatch, "a lone slash is no rule"},
		{"!", "x", false, noMatch, "a lone bang is no rule"},
		{"a/b\n!a/b", "a/b", false, matchKeep, "literal path rules keep order"},
		{"*.txt\n!*.txt\nfoo*", "foo.txt", false, matchIgn, "slow rule after fast rules"},
		{"foo*\n*.txt\n!*.txt", "foo.txt", false, matchKeep, "fast rule after slow rule"},
		{"dir/\n!dir/", "dir", true, matchKeep, "negated dir-only rule"},
	}
	for _, c := range cases {
		rs, err := parseRules(c.file)
		if err != nil {
			t.Fatal(err)
		}
		got := noMatch
		if rs != nil {
			base := c.rel
			if i := lastSlash(base); i >= 0 {
				base = base[i+1:]
			}
			got = rs.match(c.rel, base, c.isDir)
		}
		if got != c.want {
			t.Errorf("file %q, path %q (dir %v) = %v, want %v (%s)", c.file, c.rel, c.isDir, got, c.want, c.reason)
		}
	}
}

func lastSlash(s string) int {
	for i := len(s) - 1; i >= 0; i-- {
		if s[i] == '/' {
			return i
		}
	}
	return -1
}
