package glob

import (
	"errors"
	"io/fs"
	"os"
	"path"
	"slices"
	"strings"
	"testing"
	"testing/fstest"
	"time"
	"unicode/utf8"

	"github.com/scoutkit/scout/internal/errs"
	"github.com/scoutkit/scout/internal/testfs"
)

func TestMatch(t *testing.T) {
	tests := []struct {
		pattern, path string
		want          bool
		why           string
	}{
		{"*.go", "main.go", true, "star in one segment"},
		{"*.go", "cmd/main.go", false, "star never crosses '/'"},
		{"?.go", "a.go", true, "question mark is one character"},
		{"?.go", "ab.go", false, "question mark is exactly one character"},
		{"a?b", "a/b", false, "question mark never matches '/'"},
		{"**/*.go", "main.go", true, "**/ matches zero directories"},
		{"**/*.go", "a/b/c/main.go", true, "**/ matches several directories"},
		{"src/**/*.go", "src/a.go", true, "middle **/ matches zero directories"},
		{"src/**/*.go", "src/x/y/a.go", true, "middle **/ matches several directories"},
		{"src/**/*.go", "lib/a.go", false, "literal prefix still applies"},
		{"**/foo", "foo", true, "**/foo matches foo itself"},
		{"**", "a/b/c", true, "bare ** matches everything"},
		{"a/**", "a/b/c", true, "trailing ** matches below a"},
		{"a/**", "a", false, "trailing ** needs something below a, as in gitignore"},
		{"{a,b}.txt", "b.txt", true, "alternatives"},
		{"{a,{b,c}}.txt", "c.txt", true, "nested alternatives"},
		{"{src/**/*.go,*.md}", "src/a.go", true, "globstar inside alternatives"},
		{"{src/**/*.go,*.md}", "docs/x.md", false, "star in an alternative does not cross '/'"},
		{"[abc].txt", "b.txt", true, "class"},
		{"[a-c].txt", "d.txt", false, "range excludes"},
		{"[!a].txt", "b.txt", true, "negated class with !"},
		{"[^a].txt", "b.txt", true, "negated class with ^"},
		{"[^a].txt", "a.txt", false, "negated class with ^ excludes"},
		{"a[!x]b", "a/b", false, "a negated class never matches '/'"},
		{"[]a].txt", "].txt", true, "']' first in a class is literal"},
		{"[a-].txt", "-.txt", true, "'-' last in a class is literal"},
		{"[-a].txt", "-.txt", true, "'-' first in a class is literal"},
		{"[a-z0-9_]x", "5x", true, "several ranges in one class"},
		{"[a-z0-9_]x", "_x", true, "range plus single character"},
		{"[a-z0-9_]x", "-x", false, "not in any range"},
		{"[!a-z0-9]x", "5x", false, "negated multi-range excludes"},
		{"[!a-z0-9]x", "Zx", true, "negated multi-range includes the rest"},
		{"[!a-z0-9]x", "éx", true, "negated class includes non-ASCII"},
		{"[!!]", "!", false, "negating '!' itself"},
		{"[!!]", "\"", true, "negated '!' includes the next character"},
		{"[!-]", "a", true, "negated '-' alone"},
		{`[\\]`, `\`, true, "escaped backslash in a class"},
		{`[\]]`, "]", true, "an escaped ']' is a class member"},
		{`[\\]]`, `\]`, true, "escaped backslash class, then a literal ']'"},
		{`[\\-a]`, "]", true, "escaped range start (backslash to a) includes ']'"},
		{"[,}]", "}", true, "',' and '}' inside a class are plain characters"},
		{"{[,}],x}", ",", true, "a class with ',' inside braces"},
		{"[a/b]", "/", false, "a class never matches '/', even when listed"},
		{`a\*b`, "a*b", true, "backslash escapes a metacharacter"},
		{`a\*b`, "axb", false, "escaped star is literal"},
		{"a}b", "a}b", true, "a '}' with no '{' is literal"},
		{"a,b", "a,b", true, "a comma outside braces is literal"},
		{"a]b", "a]b", true, "a ']' with no '[' is literal"},
		{"日本/*.txt", "日本/語.txt", true, "non-ASCII names"},
		{"[[:digit:]]x", "7x", true, "POSIX class"},
		{"[[:digit:]]x", "ax", false, "POSIX class excludes"},
		{"[[:alpha:]][[:digit:]][[:upper:]]", "a1B", true, "several POSIX classes"},
		{"[[:alpha:]]", "é", false, "POSIX classes are ASCII, as in git"},
		{"[![:alpha:]]", "é", true, "a negated POSIX class includes non-ASCII"},
		{"[[:digit:][:upper:]]", "Q", true, "two classes in one bracket"},
		{"[a-c[:digit:]x-z]", "y", true, "classes and ranges together"},
		{"[a-c[:digit:]x-z]", "q", false, "classes and ranges together exclude"},
		{"[[:space:]]", "\t", true, "space includes tab"},
		{"[[:blank:]]", "\n", false, "blank is space and tab only"},
		{"[[:punct:]]", "_", true, "punct"},
		{"[[:xdigit:]]", "F", true, "xdigit"},
		{"[[:lower:]]", "A", false, "lower is case-sensitive"},
		{"[[:alnum:]_]*", "a_1", true, "a class plus a character"},
		{"[[:]ab]", "[ab]", true, "'[:' without ':]' before the next ']' is a plain '[' member, as in git"},
		{"[[:]ab]", ":ab]", true, "'[:' without ':]' before the next ']' is a plain '[' member"},
		{"[[:digit]ab]", "[ab]", true, "an unclosed class name is plain text"},
		{"[,]", ",", true, "a comma in a class"},
		{"a***b", "a/x/b", true, "a run of three stars crosses '/' like '**'"},
		{strings.Repeat("*", 10000) + ".go", "a/b.go", true, "a long run of stars is one wildcard"},
		{"a/**/**/**/b", "a/b", true, "repeated **/ segments match zero directories"},
		{"a/**/**/**/b", "a/x/y/b", true, "repeated **/ segments match several directories"},
		{"**/***/b", "b", false, "'***/' is not a globstar segment"},
	}
	for _, tt := range tests {
		g, err := Compile(tt.pattern)
		if err != nil {
			t.Errorf("Compile(%q): %v (%s)", tt.pattern, err, tt.why)
			continue
		}
		if got := g.Match(tt.path); got != tt.want {
			t.Errorf("Compile(%q).Match(%q) = %v, want %v (%s)", tt.pattern, tt.path, got, tt.want, tt.why)
		}
		if g.String() != tt.pattern {
			t.Errorf("Compile(%q).String() = %q", tt.pattern, g.String())
		}
	}
}

func TestCompileErrors(t *testing.T) {
	tests := []struct {
		pattern, want, why string
	}{
		{"{a,b", "Invalid glob '{a,b': unclosed '{' — close it with '}' or remove it", "unclosed brace"},
		{"x/{a,{b}", "Invalid glob 'x/{a,{b}': unclosed '{' — close it with '}' or remove it", "nested unclosed brace"},
		{"[ab", "Invalid glob '[ab': unclosed '[' — close it with ']' or remove it", "unclosed class"},
		{"[]", "Invalid glob '[]': unclosed '[' — close it with ']' or remove it", "a leading ']' is literal, so the class is open"},
		{`a\`, `Invalid glob 'a\': it ends with a lone '\' — remove it, or write '\\' for a literal backslash`, "trailing backslash"},
		{"a\xffb", `Invalid glob "a\xffb": it is not valid UTF-8 — pass the pattern as UTF-8 text`, "invalid UTF-8"},
		{"", "Invalid glob '': the pattern is empty — pass a glob such as '*' or '**/*.go'", "empty pattern"},
		{"[z-a]", "Invalid glob '[z-a]': the range 'z-a' is reversed — write it as 'a-z'", "reversed range"},
		{"a[/]b", "Invalid glob 'a[/]b': the class '[/]' matches no character (a class never matches '/') — remove it", "class of only '/'"},
		{"[[:alpah:]]", "Invalid glob '[[:alpah:]]': unknown character class '[:alpah:]' — use one of alnum, alpha, blank, cntrl, digit, graph, lower, print, punct, space, upper, xdigit", "unknown POSIX class"},
		{"[[::]]", "Invalid glob '[[::]]': unknown character class '[::]' — use one of alnum, alpha, blank, cntrl, digit, graph, lower, print, punct, space, upper, xdigit", "empty POSIX class name"},
		{"[[:alpha:]", "Invalid glob '[[:alpha:]': unclosed '[' — close it with ']' or remove it", "a POSIX class in an unclosed bracket"},
		{"[[::]", "Invalid glob '[[::]': unknown character class '[::]' — use one of alnum, alpha, blank, cntrl, digit, graph, lower, print, punct, space, upper, xdigit", "an empty POSIX class name, which path.Match reads as the class of '[' and ':' (FuzzAgainstPathMatch)"},
		{strings.Repeat("*", 20000), "Invalid glob '" + errs.Echo(strings.Repeat("*", 20000)) + "': it is 20000 bytes long, over the cap of 16384 bytes — shorten it, or split the paths over several calls", "length cap"},
		{strings.Repeat("*", 100000), "Invalid glob '" + errs.Echo(strings.Repeat("*", 100000)) + "': it is 100000 bytes long, over the cap of 16384 bytes — shorten it, or split the paths over several calls", "length cap"},
		{"*" + strings.Repeat("?", 256), "Invalid glob '" + errs.Echo("*"+strings.Repeat("?", 256)) + "': it has more than 256 wildcards (runs of '*', '?' and classes), the cap — use fewer", "each '?' counts toward the wildcard cap, which path.Match lacks (FuzzAgainstPathMatch)"},
		{strings.Repeat("*a", 257), "Invalid glob '" + errs.Echo(strings.Repeat("*a", 257)) + "': it has more than 256 wildcards (runs of '*', '?' and classes), the cap — use fewer", "wildcard cap"},
	}
	for _, tt := range tests {
		_, err := Compile(tt.pattern)
		var e *errs.Error
		if !errors.As(err, &e) || e.Code != errs.InvalidParam {
			t.Errorf("Compile(%q) error = %v, want an InvalidParam *errs.Error (%s)", tt.pattern, err, tt.why)
			continue
		}
		if e.Message != tt.want {
			t.Errorf("Compile(%q) message\n got %q\nwant %q (%s)", tt.pattern, e.Message, tt.want, tt.why)
		}
	}
}

// TestNoBacktracking guards against the exponential matching of
// backtracking glob engines (gobwas/glob v1.1.0 takes over a minute here).
func TestNoBacktracking(t *testing.T) {
	g, err := Compile("*a*a*a*a*a*a*a*c*")
	if err != nil {
		t.Fatal(err)
	}
	name := strings.Repeat("a", 5000)
	start := time.Now()
	if g.Match(name) {
		t.Fatal("matched a name without 'c'")
	}
	if d := time.Since(start); d > 2*time.Second {
		t.Errorf("matching took %v; it must be linear in the path", d)
	}
}

// TestLinearTranslation checks that the expression a glob compiles to
// grows with the pattern's wildcards, not with its runs of stars: 20,000
// stars once took 18 s over 200 files.
func TestLinearTranslation(t *testing.T) {
	tests := []struct{ pattern, want string }{
		{strings.Repeat("*", 10000), `^(?s:.*)$`},
		{"a" + strings.Repeat("*", 3) + "b", `^(?s:a.*b)$`},
		{"**/**/**/*.go", `^(?s:(?:.*/)?[^/]*\.go)$`},
		{"x/**/**/y", `^(?s:x/(?:.*/)?y)$`},
	}
	for _, tt := range tests {
		got, _, err := translate(tt.pattern, slashNever)
		if err != nil || got != tt.want {
			t.Errorf("translate(%.20q) = %q, %v; want %q", tt.pattern, got, err, tt.want)
		}
	}
	// At the caps, the pattern still compiles.
	if _, err := Compile(strings.Repeat("*a", 256)); err != nil {
		t.Errorf("256 wildcards: %v", err)
	}
	if _, err := Compile(strings.Repeat("a", 16<<10)); err != nil {
		t.Errorf("16 KiB: %v", err)
	}
}

func TestClassEnd(t *testing.T) {
	tests := []struct {
		s     string
		start int
		end   int
		ok    bool
	}{
		{"[,]", 0, 2, true},
		{"a[]x]b", 1, 4, true},
		{"[[:alpha:],]", 0, 11, true},
		{"[!]]", 0, 3, true},
		{`[\]]`, 0, 3, true},
		{"[ab", 0, 0, false},
		{"[[:nope:]]", 0, 0, false},
	}
	for _, tt := range tests {
		end, ok := ClassEnd(tt.s, tt.start)
		if end != tt.end || ok != tt.ok {
			t.Errorf("ClassEnd(%q, %d) = %d, %v; want %d, %v", tt.s, tt.start, end, ok, tt.end, tt.ok)
		}
	}
}

func TestGlobstarAfterBraces(t *testing.T) {
	tests := []struct {
		pattern, path string
		want          bool
		why           string
	}{
		{"{x/,}**/a", "a", true, "every alternative ends at a segment start: globstar, zero directories"},
		{"{x/,}**/a", "x/a", true, "first alternative, zero directories"},
		{"{x/,}**/a", "q/r/a", true, "second alternative, several directories"},
		{"{x/,y}**/a", "x/a", false, "mixed alternatives: '**' is a plain crossing star, '/a' is literal"},
		{"{x/,y}**/a", "yq/a", true, "mixed alternatives: '**' crosses"},
		{"{*}*", "a/b", false, "a star after a group is not '**'"},
	}
	for _, tt := range tests {
		g, err := Compile(tt.pattern)
		if err != nil {
			t.Fatal(err)
		}
		if got := g.Match(tt.path); got != tt.want {
			t.Errorf("Compile(%q).Match(%q) = %v, want %v (%s)", tt.pattern, tt.path, got, tt.want, tt.why)
		}
	}
}

func TestFastPath(t *testing.T) {
	tests := []struct {
		pattern, path string
		want          bool
		why           string
	}{
		{"**/*.go", ".go", true, "star may be empty"},
		{"**/*.go", "a/b/.go", true, "any depth"},
		{"**/*.go", "a.go/b", false, "suffix must end the path"},
		{"*.go", "a/b.go", false, "one segment only"},
		{"*.go", "b.go", true, "one segment"},
		{"**/*", "a/b/c", true, "everything"},
		{"**/*", "", true, "even the empty path"},
		{"**", "x", true, "everything"},
		{"src/a.go", "src/a.go", true, "literal path"},
		{"src/a.go", "src/a.gox", false, "literal path is exact"},
		{"**/Makefile", "Makefile", true, "base name at the top"},
		{"**/Makefile", "a/b/Makefile", true, "base name at depth"},
		{"**/Makefile", "a/xMakefile", false, "base name is a whole segment"},
		{"**/*.{ts,tsx}", "a/b.tsx", true, "suffix alternatives"},
		{"**/*.{ts,tsx}", "a/b.tsz", false, "suffix alternatives exclude"},
		{"*.{md,txt}", "a/b.md", false, "one-segment alternatives"},
		{"**/{go.mod,go.sum}", "x/go.sum", true, "base-name alternatives"},
	}
	for _, tt := range tests {
		g, err := Compile(tt.pattern)
		if err != nil {
			t.Fatal(err)
		}
		if g.fast == nil {
			t.Errorf("Compile(%q) has no fast path", tt.pattern)
		}
		if got := g.Match(tt.path); got != tt.want || got != g.re.MatchString(tt.path) {
			t.Errorf("Compile(%q).Match(%q) = %v, regexp %v, want %v (%s)", tt.pattern, tt.path, got, g.re.MatchString(tt.path), tt.want, tt.why)
		}
	}
}

func TestNilPattern(t *testing.T) {
	var p *Pattern
	if !p.Match("any/path") || p.String() != "" {
		t.Errorf("nil Pattern: Match = %v, String = %q; want true, \"\"", p.Match("any/path"), p.String())
	}
}

func TestCompileFilter(t *testing.T) {
	tests := []struct {
		filter, path string
		want         bool
		why          string
	}{
		{"*.py", "a/b/c.py", true, "no slash: base name at any depth"},
		{"*.py", "c.py", true, "no slash: top level too"},
		{"*.{ts,tsx}", "src/x.tsx", true, "alternatives on the base name"},
		{"src/*.py", "src/a.py", true, "slash: whole path"},
		{"src/*.py", "lib/src/a.py", false, "slash: anchored at the base"},
		{"/src/*.py", "src/a.py", true, "leading slash only anchors"},
		{"**/*.md", "docs/a/b.md", true, "explicit globstar kept"},
		{"**/*.{test.py,spec.py}", "t/a.spec.py", true, "braces with dots in their alternatives"},
		{"vendor/", "vendor", true, "trailing slash dropped"},
	}
	for _, tt := range tests {
		g, err := CompileFilter(tt.filter)
		if err != nil {
			t.Errorf("CompileFilter(%q): %v (%s)", tt.filter, err, tt.why)
			continue
		}
		if got := g.Match(tt.path); got != tt.want {
			t.Errorf("CompileFilter(%q).Match(%q) = %v, want %v (%s)", tt.filter, tt.path, got, tt.want, tt.why)
		}
		if g.String() != tt.filter {
			t.Errorf("CompileFilter(%q).String() = %q, want the filter as given", tt.filter, g.String())
		}
	}
	if _, err := CompileFilter("{a"); errs.CodeOf(err) != errs.InvalidParam {
		t.Errorf("CompileFilter(\"{a\") error = %v, want InvalidParam", err)
	}
}

// TestCompileFilterErrorNamesFilter: the error of a malformed filter quotes
// the filter as given, not the form it is rewritten to before compiling.
func TestCompileFilterErrorNamesFilter(t *testing.T) {
	for _, tt := range []struct{ filter, want string }{
		{"[a", "Invalid glob '[a': unclosed '['"},
		{"*.{ts,tsx", "Invalid glob '*.{ts,tsx': unclosed '{'"},
		{"/src/[z-a]", "Invalid glob '/src/[z-a]': the range 'z-a' is reversed"},
		{"src/[a/", "Invalid glob 'src/[a/': unclosed '['"},
		{"**/[a", "Invalid glob '**/[a': unclosed '['"},
	} {
		_, err := CompileFilter(tt.filter)
		if errs.CodeOf(err) != errs.InvalidParam || !strings.HasPrefix(err.Error(), tt.want) {
			t.Errorf("CompileFilter(%q) error = %v, want InvalidParam starting %q", tt.filter, err, tt.want)
		}
	}
}

func TestHasMeta(t *testing.T) {
	for s, want := range map[string]bool{
		"src/a.go": false, "*.go": true, "a?": true, "[ab]": true, "{a,b}": true, "a}b]": false, "": false,
	} {
		if got := HasMeta(s); got != want {
			t.Errorf("HasMeta(%q) = %v, want %v", s, got, want)
		}
	}
}

func TestQuoteMeta(t *testing.T) {
	for _, name := range []string{"a*b[1]{x,y}?.txt", "plain.txt", "a,b"} {
		g, err := Compile(QuoteMeta(name))
		if err != nil || !g.Match(name) || g.Match("other") {
			t.Errorf("Compile(QuoteMeta(%q)) does not match exactly the name: err %v", name, err)
		}
	}
}

// TestCutLiteral: the leading literal directories of a glob, which both
// the splits of a find or search path (SplitFind, SplitSearch, through
// splitAtGlob) and find's pruning of the walk take; the rows that differ
// from a cut at the first segment with a glob character say why.
func TestCutLiteral(t *testing.T) {
	tests := []struct {
		in, dir, rest string
		found         bool
		why           string
	}{
		{"src/cmd/*.go", "src/cmd", "*.go", true, "cut at the first glob segment"},
		{"src/*/x.go", "src", "*/x.go", true, "what follows stays as written"},
		{"src/**", "src", "**", true, ""},
		{"*.go", "", "*.go", false, "a glob in the first segment"},
		{"{a,b}/x", "", "{a,b}/x", false, "a brace in the first segment"},
		{"{a/b,c}/x", "", "{a/b,c}/x", false, "braces across segments"},
		{"a/[{]/b", "a", "[{]/b", true, "a class is a glob segment"},
		{"a/b.go", "a", "b.go", true, "no glob character: the last segment names the match, not a directory"},
		{"b.go", "", "b.go", false, "no glob character, one segment"},
		{"a/", "a", "", true, "an empty last segment"},
		{"", "", "", false, ""},
		{`src/x\,y/*.go`, "src", `x\,y/*.go`, true, "a quoted character is not a literal name"},
		{`src/a\*b`, "src", `a\*b`, true, ""},
		{`a\?b/c/*`, "", `a\?b/c/*`, false, "a quoted character in the first segment"},
		{"a/b,c/d", "a/b,c", "d", true, "a comma is part of a name (a union's caller handles it)"},
		{"/x/*.go", "/x", "*.go", true, "an absolute glob"},
		{"/*.go", "", "*.go", true, "only a leading slash: an empty segment before the cut"},
		{"./src//a/*.go", "./src//a", "*.go", true, "segments as written, not cleaned"},
	}
	for _, tt := range tests {
		dir, rest, found := CutLiteral(tt.in)
		if dir != tt.dir || rest != tt.rest || found != tt.found {
			t.Errorf("CutLiteral(%q) = (%q, %q, %v), want (%q, %q, %v) %s", tt.in, dir, rest, found, tt.dir, tt.rest, tt.found, tt.why)
		}
	}
}

func TestSplitFind(t *testing.T) {
	tests := []struct {
		in, base, pattern string
		hasGlob           bool
		why               string
	}{
		{"*.ts", ".", "**/*.ts", true, "bare top-level glob is made recursive"},
		{"**/*.ts", ".", "**/*.ts", true, "already recursive: unchanged"},
		{"src/*.ts", "src", "*.ts", true, "glob after a directory stays non-recursive"},
		{"./*.ts", ".", "*.ts", true, "an explicit ./ anchors like a directory"},
		{"src/app/**/*.tsx", "src/app", "**/*.tsx", true, "pi code comment example"},
		{"src/app", "src/app", "**/*", false, "no glob: everything below"},
		{"/abs/path/**/*.ts", "/abs/path", "**/*.ts", true, "absolute base kept"},
		{"/**/*.ts", "/", "**/*.ts", true, "only a leading slash before the glob"},
		{`src\app\*.ts`, ".", `**/src\app\*.ts`, true, "'\\' quotes a character, not a separator (the pi adapters turn it into '/' first)"},
		{`src\app`, `src\app`, "**/*", false, "no glob: '\\' is a name's byte"},
		{"{a,b}/x.ts", ".", "**/{a,b}/x.ts", true, "brace in the first segment"},
		{"a/{b,c}", "a", "{b,c}", true, "brace later"},
		{"{a,b", ".", "**/{a,b}", true, "unclosed brace closed (pi's native glob)"},
		{"src/{a,b", "src", "{a,b}", true, "unclosed brace closed below a base"},
	}
	for _, tt := range tests {
		base, pattern, hasGlob := SplitFind(tt.in)
		if base != tt.base || pattern != tt.pattern || hasGlob != tt.hasGlob {
			t.Errorf("SplitFind(%q) = (%q, %q, %v), want (%q, %q, %v) (%s)", tt.in, base, pattern, hasGlob, tt.base, tt.pattern, tt.hasGlob, tt.why)
		}
	}
}

func TestSplitSearch(t *testing.T) {
	tests := []struct {
		in, base, pattern, why string
	}{
		{"src/a.ts", "src/a.ts", "", "no glob"},
		{"*.ts", ".", "**/*.ts", "bare top-level glob is made recursive"},
		{"src/*.ts", "src", "*.ts", "stays non-recursive"},
		{"src/**/*.ts", "src", "**/*.ts", "explicit recursion kept"},
		{"*/x.ts", ".", "*/x.ts", "contains '/': not prefixed (pi)"},
		{"{a.txt,b.txt}", ".", "{a.txt,b.txt}", "exact brace union: not prefixed"},
		{"{a.txt,b.txt", ".", "{a.txt,b.txt}", "unclosed brace closed, then exact union"},
		{"{*.go,*.md}", ".", "**/{*.go,*.md}", "union with globs inside is prefixed"},
		{"src/{a,b", "src", "{a,b}", "unclosed brace closed below a base"},
		{"/**/*.ts", "/", "**/*.ts", "pi quirk: leading slash base is the root"},
		{`a\*.ts`, ".", `**/a\*.ts`, "'\\' quotes a character, not a separator (the pi adapters turn it into '/' first)"},
		{`a\b.ts`, `a\b.ts`, "", "no glob: '\\' is a name's byte"},
	}
	for _, tt := range tests {
		base, pattern := SplitSearch(tt.in)
		if base != tt.base || pattern != tt.pattern {
			t.Errorf("SplitSearch(%q) = (%q, %q), want (%q, %q) (%s)", tt.in, base, pattern, tt.base, tt.pattern, tt.why)
		}
	}
}

func TestSearchPattern(t *testing.T) {
	tests := []struct {
		in, want, why string
	}{
		{"*.ts", "**/*.ts", "prefixed"},
		{"", "**/*", "empty becomes *"},
		{"  ", "**/*", "blank becomes *"},
		{"a/*.ts", "a/*.ts", "contains '/'"},
		{"**", "**", "starts with **"},
		{"**.ts", "**.ts", "starts with ** (pi rule, not only **/)"},
		{"{x,y}", "{x,y}", "exact union"},
		{"{x,y", "{x,y}", "closed"},
		{"{{x,y", "**/{{x,y}}", "two braces closed; nested brace is a glob character, so prefixed"},
		{`a\b`, `**/a\b`, "'\\' quotes a character, not a separator"},
		{`a\{b`, `**/a\{b`, "a quoted brace is not closed"},
		{"[{]", "**/[{]", "a brace inside a class is not closed"},
		{"[]{]{", "**/[]{]{}", "']' first in a class, then a brace to close"},
		{"[{", "**/[{}", "an unclosed class does not hide the brace"},
		{`{\`, `**/{\`, "a lone '\\' at the end is left for Compile to report; a '}' after it was quoted, and each call added one more"},
	}
	for _, tt := range tests {
		got := SearchPattern(tt.in)
		if got != tt.want {
			t.Errorf("SearchPattern(%q) = %q, want %q (%s)", tt.in, got, tt.want, tt.why)
		}
		if again := SearchPattern(got); again != got {
			t.Errorf("SearchPattern is not idempotent on %q: %q", got, again)
		}
	}
}

func TestBraceUnion(t *testing.T) {
	tests := []struct {
		items []string
		want  string
		why   string
	}{
		{nil, "", "nothing"},
		{[]string{" ", ""}, "", "only blanks"},
		{[]string{"apps/**/*"}, "apps/**/*", "one item as is"},
		{[]string{"apps/**/*", "packages/**/*"}, "{apps/**/*,packages/**/*}", "several items"},
		{[]string{"a.txt", "./a.txt", "a.txt"}, "a.txt", "normalised duplicates dropped"},
		{[]string{"a//b/./c", " d "}, "{a/b/c,d}", "doubled slashes and . segments dropped, trimmed"},
		{[]string{"x/{a,b}/../c", "y"}, "{x/{a,b}/../c,y}", ".. left alone: it may sit inside braces"},
		{[]string{"src/*/", "**/*.go"}, "{src/*/,**/*.go}", "a trailing '/' kept: it makes the item match directories only"},
		{[]string{"src/*//", "./"}, "{src/*/,.}", "one trailing '/' of several"},
	}
	for _, tt := range tests {
		if got := BraceUnion(tt.items); got != tt.want {
			t.Errorf("BraceUnion(%q) = %q, want %q (%s)", tt.items, got, tt.want, tt.why)
		}
	}
}

// TestFindOverTrees runs SplitFind + Compile over a MapFS and a real
// directory, checking the set of files found.
func TestFindOverTrees(t *testing.T) {
	files := []string{"a.ts", "b.go", "src/c.ts", "src/deep/d.ts", "src/deep/e.go", "docs/f.md"}
	mfs := fstest.MapFS{}
	for _, f := range files {
		mfs[f] = &fstest.MapFile{Data: []byte("x")}
	}
	dir := testfs.WriteDir(t, mfs)
	tests := []struct {
		entry string
		want  []string
		why   string
	}{
		{"*.ts", []string{"a.ts", "src/c.ts", "src/deep/d.ts"}, "bare glob is recursive"},
		{"src/*.ts", []string{"src/c.ts"}, "glob after a directory is not"},
		{"src/**/*.ts", []string{"src/c.ts", "src/deep/d.ts"}, "explicit globstar, zero or more directories"},
		{"src", []string{"src/c.ts", "src/deep", "src/deep/d.ts", "src/deep/e.go"}, "a directory lists everything below it"},
		{"{src,docs}/*", []string{"docs/f.md", "src/c.ts", "src/deep"}, "braces in the first segment"},
	}
	for name, fsys := range map[string]fs.FS{"MapFS": mfs, "TempDir": os.DirFS(dir)} {
		for _, tt := range tests {
			base, pattern, _ := SplitFind(tt.entry)
			g, err := Compile(pattern)
			if err != nil {
				t.Fatalf("%s: Compile(%q): %v", name, pattern, err)
			}
			var got []string
			err = fs.WalkDir(fsys, base, func(p string, d fs.DirEntry, err error) error {
				if err != nil {
					return err
				}
				if p == base {
					return nil
				}
				rel := strings.TrimPrefix(p, base+"/")
				if base == "." {
					rel = p
				}
				if g.Match(rel) {
					got = append(got, p)
				}
				return nil
			})
			if err != nil {
				t.Fatal(err)
			}
			slices.Sort(got)
			if !slices.Equal(got, tt.want) {
				t.Errorf("%s: find %q = %q, want %q (%s)", name, tt.entry, got, tt.want, tt.why)
			}
		}
	}
}

func FuzzCompile(f *testing.F) {
	for _, s := range []string{"*.go", "**/*.go", "*.test.ts", "src/**/*.go", "{a,{b,c}}", "[!a-z]", "[^]]", `\{`, "{", "[", "a/**", "[]a-]"} {
		f.Add(s, "src/a.go")
	}
	f.Fuzz(func(t *testing.T, pattern, path string) {
		g, err := Compile(pattern)
		if err != nil {
			var e *errs.Error
			if !errors.As(err, &e) || e.Code != errs.InvalidParam || !strings.HasPrefix(e.Message, "Invalid glob ") {
				t.Fatalf("Compile(%q) error %v is not an InvalidParam glob error", pattern, err)
			}
			return
		}
		if g.Match(path) != g.re.MatchString(path) {
			t.Fatalf("Compile(%q): fast path and regexp disagree on %q", pattern, path)
		}
		if !HasMeta(pattern) && !strings.Contains(pattern, `\`) && g.Match(path) != (pattern == path) {
			t.Fatalf("literal pattern %q vs %q: Match = %v", pattern, path, g.Match(path))
		}
	})
}

// FuzzAgainstPathMatch compares Compile with path.Match, the standard
// library's single-segment matcher, on the syntax both share: no braces, no
// "**", no "[!" (path.Match negates with '^' only), no POSIX class (to
// path.Match "[[:digit:]]" is a class of '[', ':', 'd', ... then a ']'),
// valid UTF-8, and no '/' in the name when the pattern has a class
// (path.Match lets a class match '/'; Scout's classes never do).
func FuzzAgainstPathMatch(f *testing.F) {
	for _, s := range [][2]string{{"*.go", "a.go"}, {"[a-c]?x", "bzx"}, {"[^a]*", "b/c"}, {`\*`, "*"}, {"a*b*c", "abxc"}, {"[!a-z0-9]", "Q"}} {
		f.Add(s[0], s[1])
	}
	f.Fuzz(func(t *testing.T, pattern, name string) {
		if pattern == "" || strings.Contains(pattern, "{") || strings.Contains(pattern, "**") || strings.Contains(pattern, "[!") ||
			strings.Contains(pattern, "[:") && strings.Contains(pattern, ":]") ||
			!utf8.ValidString(pattern) || !utf8.ValidString(name) ||
			strings.Contains(pattern, "[") && strings.Contains(name, "/") {
			return
		}
		want, err := path.Match(pattern, name)
		if err != nil {
			return
		}
		g, err := Compile(pattern)
		if err != nil {
			// Scout rejects a reversed range, which path.Match accepts as
			// one that matches nothing (the class's other ranges still
			// match), a class that can match nothing, and a pattern over
			// its caps on length and wildcards, which path.Match lacks.
			if msg := err.Error(); strings.Contains(msg, "is reversed") || !want && strings.Contains(msg, "matches no character") || strings.Contains(msg, "the cap") {
				return
			}
			t.Fatalf("Compile(%q): %v, but path.Match accepts it", pattern, err)
		}
		if got := g.Match(name); got != want {
			t.Fatalf("Compile(%q).Match(%q) = %v, path.Match = %v", pattern, name, got, want)
		}
	})
}

// BenchmarkMatch measures matching on a few typical paths: a fast-path
// glob, a regexp glob with a literal prefix, and one with alternatives.
func BenchmarkMatch(b *testing.B) {
	paths := []string{"src/internal/walk/walker.go", "README.md", "a/b/c/d/e/f/g/h.ts", "node_modules/x/y/index.js"}
	for _, tc := range []struct{ name, pattern string }{
		{"**/*.go", "**/*.go"}, {"src/**/*_test.go", "src/**/*_test.go"}, {"**/*.{ts,tsx}", "**/*.{ts,tsx}"},
		// Hostile shapes, to compare with the ones above: a run of 10,000
		// stars (one wildcard), and 256 wildcards that all cross '/'.
		{"10000-stars", strings.Repeat("*", 10000) + ".go"},
		{"256-globstars", strings.Repeat("**a", 255) + "**"},
	} {
		g, err := Compile(tc.pattern)
		if err != nil {
			b.Fatal(err)
		}
		b.Run(tc.name, func(b *testing.B) {
			for b.Loop() {
				for _, p := range paths {
					g.Match(p)
				}
			}
		})
	}
}

func FuzzSearchPattern(f *testing.F) {
	for _, s := range []string{"*.ts", "{a,b", "[{]", "src/{x", `a\b`, " ", "{a.txt,b.txt}", "[]{]{"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, p string) {
		got := SearchPattern(p)
		if again := SearchPattern(got); again != got {
			t.Fatalf("SearchPattern(%q) = %q is not a fixed point: %q", p, got, again)
		}
		if strings.Count(got, `\`) != strings.Count(p, `\`) {
			t.Fatalf("SearchPattern(%q) = %q changes its backslashes", p, got)
		}
		if _, err := Compile(got); err != nil && strings.Contains(err.Error(), "unclosed '{'") {
			t.Fatalf("SearchPattern(%q) = %q leaves a '{' open: %v", p, got, err)
		}
	})
}

func TestTrailingSlash(t *testing.T) {
	tests := []struct {
		pattern, path     string
		file, dir, search bool // Match, MatchDir, CompileFiles' Match
		why               string
	}{
		{"src/*/", "src/a", false, true, false, "a trailing '/' matches directories only"},
		{"src/*/", "src/a/x.go", false, false, true, "search: the files below the directories"},
		{"src/*/", "src/a/b/x.go", false, false, true, "search: at any depth below"},
		{"src/*/", "src/x.go", false, true, false, "a directory named x.go (the caller says which entries are directories)"},
		{"**/testdata/", "testdata", false, true, false, "**/ matches zero directories"},
		{"**/testdata/", "a/b/testdata", false, true, false, "and several"},
		{"**/testdata/", "a/testdata/t.txt", false, false, true, "search: below any testdata"},
		{"**/testdata/", "a/testdatax", false, false, false, "the name is whole"},
		{"a/b/", "a/b", false, true, false, "a literal path"},
		{"a/b/", "a/b/c", false, false, true, "search: below the literal directory"},
		{"**/", "a/b", false, true, true, "every directory; search: every file (**/**)"},
		{"**/", "a", false, true, true, "the zero directories of **/ hold the base's own files"},
		{"src/**/", "src/a/b", false, true, true, "directories below src"},
		{"src/**/", "src/x.go", false, true, true, "search: every file below src (src/**/**)"},
		{"src/**/**/", "src/x.go", false, true, true, "repeated **/ too"},
		{"src/**/**/", "lib/x.go", false, false, false, "the prefix still applies"},
		{"{src/*/,*.go}", "src/a", false, true, false, "an alternative ending in '/'"},
		{"{src/*/,*.go}", "m.go", true, true, true, "the other alternatives match as before"},
		{"{src/*/,*.go}", "src/a/x.txt", false, false, true, "search: below the directory alternative"},
		{"{x,{a/,b}}", "a", false, true, false, "nested braces that end the pattern"},
		{"{x,{a/,b}}", "b", true, true, true, "their other alternative"},
		{"{a/,b}c", "a/c", true, true, true, "a '/' before more text is a separator"},
		{"{a/,b}c", "a", false, false, false, "not trailing"},
		{"a/**", "a/b", true, true, true, "no trailing '/': as before"},
		{"a/**", "a", false, false, false, "a/** still needs something below a"},
		{"*.go", "d.go", true, true, true, "files and directories alike"},
		{`a\/`, "a/", true, true, true, "a quoted '/' is not trailing"},
	}
	for _, tt := range tests {
		g, err := Compile(tt.pattern)
		if err != nil {
			t.Fatalf("Compile(%q): %v", tt.pattern, err)
		}
		f, err := CompileFiles(tt.pattern)
		if err != nil {
			t.Fatalf("CompileFiles(%q): %v", tt.pattern, err)
		}
		if got := g.Match(tt.path); got != tt.file {
			t.Errorf("Compile(%q).Match(%q) = %v, want %v (%s)", tt.pattern, tt.path, got, tt.file, tt.why)
		}
		if got := g.MatchDir(tt.path); got != tt.dir {
			t.Errorf("Compile(%q).MatchDir(%q) = %v, want %v (%s)", tt.pattern, tt.path, got, tt.dir, tt.why)
		}
		if got := g.MatchEntry(tt.path, true); got != tt.dir {
			t.Errorf("Compile(%q).MatchEntry(%q, true) = %v, want %v (%s)", tt.pattern, tt.path, got, tt.dir, tt.why)
		}
		if got := f.Match(tt.path); got != tt.search {
			t.Errorf("CompileFiles(%q).Match(%q) = %v, want %v (%s)", tt.pattern, tt.path, got, tt.search, tt.why)
		}
		if want := tt.file != tt.dir || tt.file != tt.search; want && !g.DirOnly() {
			t.Errorf("Compile(%q).DirOnly() = false, want true", tt.pattern)
		}
	}
	for _, pattern := range []string{"*.go", "{a/,b}c", `a\/`, "a/**"} {
		if g, err := Compile(pattern); err != nil || g.DirOnly() {
			t.Errorf("Compile(%q).DirOnly() = true, want false", pattern)
		}
	}
	var p *Pattern
	if !p.MatchDir("a") || p.DirOnly() {
		t.Error("a nil Pattern matches every directory and has no directory-only alternative")
	}
}
