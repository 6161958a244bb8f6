package grep

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"sync"
	"testing"
	"testing/fstest"
	"time"
	"unicode/utf16"

	"github.com/scoutkit/scout/internal/errs"
	"github.com/scoutkit/scout/internal/fsx"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestCompileErrors(t *testing.T) {
	tests := []struct {
		name, pattern string
		want          string // substring of the message
		group         bool
		reason        string
	}{
		{"unclosed group", "foo(bar", "missing closing ): `foo(bar` at position 0", true, "the whole pattern is the culprit"},
		{"unopened group", "foo)", "unexpected ): `foo)` at position 0", true, "Go reports the whole pattern"},
		{"bad escape", `ab\qc`, "invalid escape sequence: `\\q` at position 2", false, "position of the escape"},
		{"bad escape after runes", `éé\q`, "at position 2", false, "positions count characters, not bytes"},
		{"missing repeat argument", "a**", "invalid nested repetition operator: `**` at position 1", false, "Go rejects a double star"},
		{"bad class", "[z-a]", "invalid character class range: `z-a` at position 1", false, "range out of order"},
		{"unclosed class", "x[ab", "missing closing ]: `[ab` at position 1", false, "suffix of the pattern"},
		{"repeat too big", "a{1001}", "invalid repeat count", false, "Go caps repetitions at 1000"},
		{"look-ahead", "foo(?=bar)", "`(?=` at position 3; look-around is not supported (RE2 syntax)", false, "ripgrep says so too"},
		{"negative look-behind", "(?<!foo)bar", "look-around is not supported (RE2 syntax)", false, "Go reads (?< as a named group: \"invalid named capture\" alone misleads"},
		{"look-behind", "a(?<=b)", "look-around is not supported (RE2 syntax)", false, "the same after other text"},
		{"backreference", `(a)\1`, "invalid escape sequence: `\\1` at position 3; backreferences are not supported (RE2 syntax)", false, "an escaped digit is a backreference elsewhere"},
		{"pattern too long", strings.Repeat("a|", MaxPatternBytes/2) + "b", "the pattern is 65537 bytes, over the cap of 65536 bytes", false, "compiling it would take memory and time"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := Compile(Options{Pattern: tt.pattern})
			if err == nil {
				t.Fatalf("Compile(%q) succeeded; %s", tt.pattern, tt.reason)
			}
			if errs.CodeOf(err) != errs.InvalidParam {
				t.Errorf("code %q, want INVALID_PARAM", errs.CodeOf(err))
			}
			if msg := err.Error(); !strings.HasPrefix(msg, "Invalid regex: ") || !strings.Contains(msg, tt.want) {
				t.Errorf("message %q, want it to contain %q (%s)", msg, tt.want, tt.reason)
			}
			if IsGroupError(err) != tt.group {
				t.Errorf("IsGroupError = %v, want %v", !tt.group, tt.group)
			}
		})
	}
	for _, tt := range []struct {
		r      [2]int
		reason string
	}{
		{[2]int{0, 3}, "lines are numbered from 1"},
		{[2]int{5, 2}, "the end before the start: read as an empty range, the search found nothing"},
		{[2]int{5, -1}, "a negative end: 0 is the open end"},
	} {
		if _, err := Compile(Options{Pattern: "a", LineRanges: [][2]int{{1, 2}, tt.r}}); errs.CodeOf(err) != errs.InvalidParam {
			t.Errorf("line range %v: got %v, want INVALID_PARAM (%s)", tt.r, err, tt.reason)
		}
	}
	if _, err := Compile(Options{Pattern: "a", LineRanges: [][2]int{{3, 3}, {7, 0}}}); err != nil {
		t.Errorf("a one-line range and an open one: %v", err)
	}
}

func TestSanitizeBraces(t *testing.T) {
	tests := []struct{ in, want, reason string }{
		{"a{2}", "a{2}", "valid repetition kept"},
		{"a{2,}", "a{2,}", "open repetition kept"},
		{"a{2,5}b", "a{2,5}b", "bounded repetition kept"},
		{"interface{}", `interface\{\}`, "empty braces escaped"},
		{"{x}", `\{x\}`, "not a repetition"},
		{"a{,5}", `a\{,5\}`, "a repetition needs a minimum"},
		{`\p{Greek}{2}`, `\p{Greek}{2}`, "class escape copied whole"},
		{`\x{41}`, `\x{41}`, "hex escape copied whole"},
		{`\{a}`, `\{a\}`, "an escaped brace stays; the lone close is escaped"},
		{"a{", `a\{`, "unterminated"},
		{"", "", "empty"},
		{`a\`, `a\`, "trailing backslash untouched"},
	}
	for _, tt := range tests {
		if got := SanitizeBraces(tt.in); got != tt.want {
			t.Errorf("SanitizeBraces(%q) = %q, want %q (%s)", tt.in, got, tt.want, tt.reason)
		}
	}
}

func TestEscapeParens(t *testing.T) {
	tests := []struct{ in, want, reason string }{
		{"foo(bar", `foo\(bar`, "unclosed group"},
		{"a)b(c)", `a\)b\(c\)`, "every paren"},
		{`\(x\)`, `\(x\)`, "escaped parens untouched"},
		{`\\(`, `\\\(`, "an escaped backslash does not escape the paren"},
	}
	for _, tt := range tests {
		got := EscapeParens(tt.in)
		if got != tt.want {
			t.Errorf("EscapeParens(%q) = %q, want %q (%s)", tt.in, got, tt.want, tt.reason)
		}
		if _, err := Compile(Options{Pattern: got}); err != nil {
			t.Errorf("EscapeParens(%q) = %q does not compile: %v", tt.in, got, err)
		}
	}
}

func TestLiterals(t *testing.T) {
	tests := []struct {
		pattern  string
		ic       bool
		want     string // literals joined by "|", folded ones prefixed with "~"
		complete bool
		reason   string
	}{
		{"ErrUnexpectedEOF", false, "ErrUnexpectedEOF", true, "plain literal"},
		{"ErrUnexpectedEOF|ErrShortWrite|ErrClosedPipe", false, "ErrUnexpectedEOF|ErrShortWrite|ErrClosedPipe", true, "factored alternation is re-expanded"},
		{`func [A-Z][a-zA-Z]*\(ctx context\.Context`, false, "(ctx context.Context", false, "longest inner literal"},
		{"errunexpectedeof", true, "~errunexpectedeof", true, "folded literal: ASCII folding finds exactly its matches"},
		{"kelvin", true, "~kelvin", false, "k also folds to the Kelvin sign: verify"},
		{"(?i)fox|Dog", false, "~fox|~dog", true, "folded alternation"},
		{"[Tt]odo|FIXME", false, "~todo|FIXME", false, "a literal folded in part: verify"},
		{"(?i:a)1|(?i)b2", false, "~a1|~b2", true, "folded where it has letters"},
		{"[A-Z][a-z]+[0-9]{2,}[a-z]", false, "", false, "no literal: the DFA runs alone"},
		{"colou?r", false, "colour|color", true, "optional letter gives two literals, the longer first (greedy)"},
		{"colou??r", false, "color|colour", true, "a lazy optional letter prefers the shorter"},
		{"ab?", false, "ab|a", true, "complete sets list the literals in the order the pattern prefers them"},
		{"a|ab", false, "a|ab", true, "an alternation keeps its order"},
		{"(?:a|ab)(?:c|bcd)", false, "ac|abcd|abc|abbcd", true, "a concatenation multiplies in order"},
		{"[Ff]oo", false, "~foo", false, "case pair becomes a folded literal, folded in part: verify"},
		{`^foo\b`, false, "foo", false, "assertions need verification"},
		{"ab+c", false, "ab", false, "start of a repetition extends the run"},
		{"x+yz", false, "xyz", false, "end of a repetition starts the next run"},
		{`\x{FFFD}`, false, "", false, "U+FFFD also matches invalid bytes"},
		{"a.b", false, "", false, "single common letters are too short for a set"},
		{`\pL+z`, false, "z", false, "a single rare byte is worth scanning for"},
		{"foo\r", false, "foo\r", false, "a CR may be a line terminator: verify"},
		{`foo\r`, false, "foo\r", false, "an escaped CR too"},
		{"(?:ab|ba|aa){500}x", false, "abx|bax|aax", false, "the neighbours across a split run, though the run is too many"},
		{"(?:foo|bar|baz)(?:qux|quux|corge){3}Zed", false, "quxZed|quuxZed|corgeZed", false, "the run of three before Zed, not the run of nine before it"},
		{"[a-c]{20}@example", false, "a@example|b@example|c@example", false, "the last class and the literal after it"},
		{"(?:ab|cd|ef)(?:gh|ij|kl)(?:mn|op)", false, "ghmn|ghop|ijmn|ijop|klmn|klop", false, "within a run of exact children too"},
		{`(?:\w+x|@)[a-c]{9}`, false, "", false, "no usable set, no rare byte"},
		{`[a-c]{9}\pL+@`, false, "@", false, "a rare byte beats a set of too many literals"},
	}
	for _, tt := range tests {
		m, err := Compile(Options{Pattern: tt.pattern, IgnoreCase: tt.ic})
		if err != nil {
			t.Fatal(err)
		}
		var parts []string
		for _, l := range m.lits {
			s := l.s
			if l.fold {
				s = "~" + strings.ToLower(s)
			}
			parts = append(parts, s)
		}
		if got := strings.Join(parts, "|"); got != tt.want || m.complete != tt.complete {
			t.Errorf("%q: literals %q complete %v, want %q %v (%s)", tt.pattern, got, m.complete, tt.want, tt.complete, tt.reason)
		}
	}
}

func TestWholeMode(t *testing.T) {
	tests := []struct {
		o      Options
		whole  bool
		reason string
	}{
		{Options{Pattern: `a\nb`, Multiline: true}, true, "a literal newline"},
		{Options{Pattern: "a\nb", DotAll: true}, true, "a real newline character"},
		{Options{Pattern: `\n|0`, IgnoreCase: true, Multiline: true}, true, "the parser makes [\n0] of it"},
		{Options{Pattern: `\Apackage`, Multiline: true}, true, "\\A holds at the file's start only"},
		{Options{Pattern: `(?-m)^package`, Multiline: true}, true, "so does (?-m)^"},
		{Options{Pattern: `\}\z`, Multiline: true}, true, "\\z holds at the file's end only"},
		{Options{Pattern: `(?-m)\}$`, Multiline: true}, true, "so does (?-m)$"},
		{Options{Pattern: `^package`, Multiline: true}, false, "^ holds at every line start: line mode"},
		{Options{Pattern: `\Apackage`}, false, "without Multiline each line is a text, as in rg without -U"},
		{Options{Pattern: `\s+`}, false, "a space class does not cross lines by default"},
		{Options{Pattern: `\s+`, Multiline: true}, true, "with Multiline it may"},
		{Options{Pattern: `[^a]`, Multiline: true}, true, "a negated class covers the newline"},
		{Options{Pattern: `^a.$`, Multiline: true}, false, "nothing can match a newline"},
		{Options{Pattern: `a.b`, DotAll: true}, true, "dot matches newline"},
		{Options{Pattern: `(?s)a.b`}, false, "an inline flag alone keeps line mode"},
	}
	for _, tt := range tests {
		m, err := Compile(tt.o)
		if err != nil {
			t.Fatal(err)
		}
		if m.whole != tt.whole {
			t.Errorf("%+v: whole = %v, want %v (%s)", tt.o, m.whole, tt.whole, tt.reason)
		}
	}
}

// TestNewlineNeedsMultiline: a pattern that spells a newline is an error
// outside multiline mode (ripgrep without -U refuses it too), one that
// says how to fix the call; classes that merely cover the newline are
// fine.
func TestNewlineNeedsMultiline(t *testing.T) {
	for _, p := range []string{`a\nb`, "a\nb", `\n|0`, `[\n]`, `foo\(\):\n\s+return`, `\x0A`} {
		_, err := Compile(Options{Pattern: p})
		if errs.CodeOf(err) != errs.InvalidParam || !errors.Is(err, ErrNewline) || !strings.Contains(err.Error(), "multiline") {
			t.Errorf("%q: got %v, want INVALID_PARAM wrapping ErrNewline that names multiline", p, err)
		}
		for _, o := range []Options{{Pattern: p, Multiline: true}, {Pattern: p, DotAll: true}} {
			if _, err := Compile(o); err != nil {
				t.Errorf("%+v: %v", o, err)
			}
		}
	}
	for _, p := range []string{`\s+`, `[^a]`, `\W`, `.`} {
		if _, err := Compile(Options{Pattern: p}); err != nil {
			t.Errorf("%q covers the newline without spelling it: %v", p, err)
		}
	}
}

// TestMultilineAnchors: in multiline mode \A, \z and (?-m)^ and $ hold
// at the file's start and end only, ^ and $ at every line (rg -U).
func TestMultilineAnchors(t *testing.T) {
	data := []byte("package a\npackage b\n}\nx }\n}")
	tests := []struct {
		pattern string
		lines   []int
	}{
		{`\Apackage`, []int{1}},
		{`(?-m)^package`, []int{1}},
		{`^package`, []int{1, 2}},
		{`\}\z`, []int{5}},
		{`(?-m)\}$`, []int{5}},
		{`\}$`, []int{3, 4, 5}},
		{`^\}$`, []int{3, 5}},
		{`\A\z`, nil},
	}
	for _, tt := range tests {
		m, err := Compile(Options{Pattern: tt.pattern, Multiline: true})
		if err != nil {
			t.Fatal(err)
		}
		res, err := m.NewScanner().SearchBytes(context.Background(), data)
		if err != nil {
			t.Fatal(err)
		}
		var got []int
		for _, l := range res.Lines {
			got = append(got, l.Number)
		}
		if !slices.Equal(got, tt.lines) {
			t.Errorf("%q: lines %v, want %v", tt.pattern, got, tt.lines)
		}
	}
}

// fixture is the shared test file: CRLF and LF lines, a multi-byte rune
// and an invalid byte.
const fixture = "package main\r\n\r\nfunc main() {\r\n\tprintln(\"héllo\")\n\treturn\n}\n// end \xff\n"

func TestSearchCases(t *testing.T) {
	tests := []struct {
		name   string
		o      Options
		data   string
		want   string // fmtResult lines after the header
		reason string
	}{
		{"crlf", Options{Pattern: `\)$`}, fixture, "4 true \"\\tprintln(\\\"héllo\\\")\" [[17 18]]", "$ matches before \\r\\n and \\n alike"},
		{"crlf text", Options{Pattern: "main"}, fixture, "1 true \"package main\" [[8 12]]|3 true \"func main() {\" [[5 9]]", "no \\r in Text"},
		{"context", Options{Pattern: "return", Before: 1, After: 1}, fixture, "4 false \"\\tprintln(\\\"héllo\\\")\" []|5 true \"\\treturn\" [[1 7]]|6 false \"}\" []", "one line each side"},
		{"overlap", Options{Pattern: "main|return", Before: 2, After: 2}, fixture,
			"1 true \"package main\" [[8 12]]|2 false \"\" []|3 true \"func main() {\" [[5 9]]|4 false \"\\tprintln(\\\"héllo\\\")\" []|5 true \"\\treturn\" [[1 7]]|6 false \"}\" []|7 false \"// end \ufffd\" []",
			"overlapping contexts give each line once"},
		{"lossy", Options{Pattern: "end"}, fixture, "7 true \"// end \ufffd\" [[3 6]]", "invalid byte decoded as U+FFFD"},
		{"span after invalid", Options{Pattern: `\x{FFFD}`}, fixture, "7 true \"// end \ufffd\" [[7 10]]", "span mapped onto the decoded text"},
		{"cut", Options{Pattern: "llo", MaxColumns: 10}, fixture, "4 true \"\\tprintln(\\\"\" []", "cut before the match: no span"},
		{"cut counts invalid bytes", Options{Pattern: "a", MaxColumns: 3}, "\xff\xffabc\n", "1 true \"\ufffd\ufffda\" [[6 7]]", "each invalid byte is one character (one U+FFFD)"},
		{"cut counts characters", Options{Pattern: "print", MaxColumns: 12}, fixture, "4 true \"\\tprintln(\\\"hé\" [[1 6]]", "the 12th character is é, two bytes"},
		{"ignore case", Options{Pattern: "HÉLLO", IgnoreCase: true}, fixture, "4 true \"\\tprintln(\\\"héllo\\\")\" [[10 16]]", "Unicode folding"},
		{"ranges", Options{Pattern: "main|return", LineRanges: [][2]int{{3, 4}}, After: 5}, fixture, "3 true \"func main() {\" [[5 9]]|4 false \"\\tprintln(\\\"héllo\\\")\" []", "matches and context only inside the range"},
		{"limit", Options{Pattern: "main|return", MaxMatchesPerFile: 1, After: 5}, fixture, "1 true \"package main\" [[8 12]]|2 false \"\" []", "after-context stops at the next match"},
		{"first only", Options{Pattern: "main|return", FirstOnly: true}, fixture, "1 true \"package main\" [[8 12]]", "one line"},
		{"multiline literal newline", Options{Pattern: "{\r?\n\tprint", Multiline: true}, fixture, "3 true \"func main() {\" [[12 13]]|4 true \"\\tprintln(\\\"héllo\\\")\" [[0 6]]", "a match spanning two lines marks both"},
		{"dotall", Options{Pattern: "return.}", DotAll: true}, fixture, "5 true \"\\treturn\" [[1 7]]|6 true \"}\" [[0 1]]", "dot matches the newline"},
		{"multiline anchors", Options{Pattern: "^}$", Multiline: true}, fixture, "6 true \"}\" [[0 1]]", "line mode with (?m)"},
		{"no match", Options{Pattern: "zzz"}, fixture, "", "nothing"},
		{"empty lines", Options{Pattern: "^$"}, "a\n\nb\n\n", "2 true \"\" [[0 0]]|4 true \"\" [[0 0]]", "a trailing newline adds no line"},
		{"utf-8 bom", Options{Pattern: "^a"}, "\xEF\xBB\xBFab\n", "1 true \"ab\" [[0 1]]", "the BOM is skipped"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			m, err := Compile(tt.o)
			if err != nil {
				t.Fatal(err)
			}
			res, err := m.NewScanner().SearchBytes(context.Background(), []byte(tt.data))
			if err != nil {
				t.Fatal(err)
			}
			var got []string
			for _, l := range res.Lines {
				got = append(got, fmt.Sprintf("%d %v %q %v", l.Number, l.Match, l.Text, l.Spans))
			}
			if g := strings.Join(got, "|"); g != tt.want {
				t.Errorf("got  %s\nwant %s\n(%s)", g, tt.want, tt.reason)
			}
			if msg := searchAll(t, tt.o, []byte(tt.data), res); msg != "" {
				t.Errorf("entry points disagree: %s", msg)
			}
		})
	}
}

func TestEncodings(t *testing.T) {
	text := "first\r\nsécond ☃ line\nthird\n"
	u16 := utf16.Encode([]rune(text))
	le := []byte{0xFF, 0xFE}
	be := []byte{0xFE, 0xFF}
	for _, u := range u16 {
		le = append(le, byte(u), byte(u>>8))
		be = append(be, byte(u>>8), byte(u))
	}
	le32 := []byte{0xFF, 0xFE, 0, 0}
	be32 := []byte{0, 0, 0xFE, 0xFF}
	for _, r := range text {
		le32 = append(le32, byte(r), byte(r>>8), byte(r>>16), 0)
		be32 = append(be32, 0, byte(r>>16), byte(r>>8), byte(r))
	}
	tests := []struct {
		name, enc string
		data      []byte
	}{
		{"utf-16le", "utf-16le", le},
		{"utf-16be", "utf-16be", be},
		{"utf-32le", "utf-32le", le32},
		{"utf-32be", "utf-32be", be32},
		{"utf-8 bom", "utf-8", append([]byte{0xEF, 0xBB, 0xBF}, text...)},
	}
	m, err := Compile(Options{Pattern: "☃", Before: 1})
	if err != nil {
		t.Fatal(err)
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			for _, small := range []bool{false, true} {
				s := m.NewScanner()
				if small {
					s.chunk, s.maxLine = 4, 64
				}
				res, err := s.SearchReader(context.Background(), bytes.NewReader(tt.data))
				if err != nil {
					t.Fatal(err)
				}
				want := "lines=1 matches=1 binary=false trunc=false stop=\"\" enc=\"" + tt.enc + "\" long=0\n" +
					"  1 match=false cut=false \"first\" []\n  2 match=true cut=false \"sécond ☃ line\" [[8 11]]\n"
				if got := fmtResult(res); got != want {
					t.Errorf("small=%v: got\n%s\nwant\n%s", small, got, want)
				}
				res2, err := s.SearchBytes(context.Background(), tt.data)
				if err != nil || fmtResult(res2) != fmtResult(res) {
					t.Errorf("SearchBytes differs: %v\n%s", err, fmtResult(res2))
				}
			}
		})
	}
}

// TestEncodingWhole: a UTF-16 file whose UTF-8 form is larger than the
// file, searched whole (multiline), through SearchFile with its size.
func TestEncodingWhole(t *testing.T) {
	text := strings.Repeat("漢字テキスト\n", 300) + "終わり\n最後\n"
	data := []byte{0xFF, 0xFE}
	for _, u := range utf16.Encode([]rune(text)) {
		data = append(data, byte(u), byte(u>>8))
	}
	m, err := Compile(Options{Pattern: "終わり\n最", CountOnly: true, Multiline: true})
	if err != nil {
		t.Fatal(err)
	}
	for name, fsys := range treeFS(t, map[string]string{"u.txt": string(data)}) {
		res, err := m.NewScanner().SearchFile(context.Background(), fsys, "u.txt", -1)
		if err != nil || res.MatchLines != 2 || res.Matches != 1 || res.Truncated || res.Encoding != "utf-16le" {
			t.Errorf("%s: %v %s", name, err, fmtResult(res))
		}
	}
}

// stuck is a reader that never makes progress.
type stuck struct{}

func (stuck) Read([]byte) (int, error) { return 0, nil }

func TestNoProgress(t *testing.T) {
	m, err := Compile(Options{Pattern: "x"})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := m.NewScanner().SearchReader(context.Background(), stuck{}); !errors.Is(err, io.ErrNoProgress) {
		t.Errorf("got %v, want io.ErrNoProgress", err)
	}
}

func TestBinary(t *testing.T) {
	late := strings.Repeat("x\n", DefaultBinaryScan) + "match\x00here\nmatch\n"
	// UTF-16BE of a line of 22 '中' (44 bytes; 66 in UTF-8), a NUL and 'x'
	utf16Late := "\xfe\xff" + strings.Repeat("\x4e\x2d", 22) + "\x00\x00\x00x"
	tests := []struct {
		name   string
		data   string
		o      Options
		want   string
		reason string
	}{
		{"early nul", "match\n\x00", Options{Pattern: "match"}, "lines=0 matches=0 binary=true trunc=false stop=\"\" enc=\"\" long=0\n", "NUL in the window: skipped"},
		{"late nul", late, Options{Pattern: "match"}, "lines=0 matches=0 binary=false trunc=true stop=\"nul\" enc=\"\" long=0\n", "the search ends at the NUL's line"},
		{"no binary check", "match\x00\n", Options{Pattern: "match", BinaryScan: -1}, "lines=1 matches=1 binary=false trunc=false stop=\"\" enc=\"\" long=0\n  1 match=true cut=false \"match\\x00\" [[0 5]]\n", "NUL is an ordinary byte"},
		{"count after binary", "\x00match\n", Options{Pattern: "match", CountOnly: true}, "lines=0 matches=0 binary=true trunc=false stop=\"\" enc=\"\" long=0\n", "counts are zero"},
		// A window of a long line (chunk8's 64 bytes) before the NUL is
		// searched, in decoded text as in bytes (FuzzSearch, whose check
		// measured the lines of the UTF-16 bytes: none over 64 there).
		{"late nul in a long decoded line", utf16Late, Options{Pattern: ".", CountOnly: true, FirstOnly: true, BinaryScan: 2},
			"lines=0 matches=0 binary=false trunc=true stop=\"nul\" enc=\"utf-16be\" long=0\n", "the search ends at the NUL's line"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if msg := searchAll(t, tt.o, []byte(tt.data), refSearch(tt.o, []byte(tt.data))); msg != "" {
				t.Fatal(msg)
			}
			m, _ := Compile(tt.o)
			res, _ := m.NewScanner().SearchBytes(context.Background(), []byte(tt.data))
			if got := fmtResult(res); got != tt.want {
				t.Errorf("got\n%s\nwant\n%s(%s)", got, tt.want, tt.reason)
			}
		})
	}
}

// treeFS returns the same files as an fstest.MapFS and as a directory.
func treeFS(t *testing.T, files map[string]string) map[string]fs.FS {
	mfs := fstest.MapFS{}
	dir := t.TempDir()
	for name, data := range files {
		mfs[name] = &fstest.MapFile{Data: []byte(data)}
		p := filepath.Join(dir, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(data), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	root, err := os.OpenRoot(dir)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { root.Close() })
	return map[string]fs.FS{"mapfs": mfs, "dir": root.FS()}
}

func TestSearchFile(t *testing.T) {
	big := strings.Repeat("line of text\n", 200_000) + "needle here\n" // larger than one read buffer
	files := map[string]string{
		"a.go":      fixture,
		"sub/b.txt": "no match\n",
		"big.txt":   big,
		"bin.dat":   "needle\x00",
	}
	m, err := Compile(Options{Pattern: "needle|main", Before: 1})
	if err != nil {
		t.Fatal(err)
	}
	for name, fsys := range treeFS(t, files) {
		t.Run(name, func(t *testing.T) {
			s := m.NewScanner()
			for _, max := range []int64{-1, int64(len(big))} {
				res, err := s.SearchFile(context.Background(), fsys, "a.go", max)
				if err != nil || res.MatchLines != 2 || len(res.Lines) != 3 {
					t.Errorf("a.go max %d: %v %s", max, err, fmtResult(res))
				}
				res, err = s.SearchFile(context.Background(), fsys, "big.txt", max)
				if err != nil || res.MatchLines != 1 || res.Lines[1].Number != 200_001 || res.Lines[0].Text != "line of text" {
					t.Errorf("big.txt max %d: %v %s", max, err, fmtResult(res))
				}
				res, err = s.SearchFile(context.Background(), fsys, "bin.dat", max)
				if err != nil || !res.Binary {
					t.Errorf("bin.dat: %v %+v", err, res)
				}
			}
			res, err := s.SearchFile(context.Background(), fsys, "sub/b.txt", 9)
			if err != nil || res.MatchLines != 0 || res.Lines != nil {
				t.Errorf("sub/b.txt: %v %+v", err, res)
			}
			_, err = s.SearchFile(context.Background(), fsys, "missing.txt", -1)
			if errs.CodeOf(err) != errs.NotFound || !errors.Is(err, fs.ErrNotExist) {
				t.Errorf("missing file: %v (code %s)", err, errs.CodeOf(err))
			}
			_, err = s.SearchFile(context.Background(), fsys, "sub", -1)
			if !errors.Is(err, fsx.ErrNotRegular) {
				t.Errorf("directory: %v, want fsx.ErrNotRegular", err)
			}
			_, err = s.SearchFile(context.Background(), fsys, "big.txt", int64(len(big))-1)
			if !errors.Is(err, fsx.ErrTooLarge) || errs.CodeOf(err) != errs.TooLarge {
				t.Errorf("one byte over the cap: %v, want fsx.ErrTooLarge", err)
			}
		})
	}
}

// TestReuse: a result given back is the next search's, cleared: each
// search's result equals a fresh scanner's, whatever the result before it
// held (lines, a binary file, an encoding, a truncation).
func TestReuse(t *testing.T) {
	files := map[string]string{
		"a.go":    fixture,
		"b.txt":   "no match\n",
		"bin.dat": "needle\x00",
		"u16.txt": string([]byte{0xFF, 0xFE, 'n', 0, 'e', 0, 'e', 0, 'd', 0, 'l', 0, 'e', 0, '\n', 0}),
		"bom.txt": "\xEF\xBB\xBFneedle\n",
		"many":    strings.Repeat("needle\n", 50),
	}
	order := []string{"a.go", "b.txt", "bin.dat", "b.txt", "u16.txt", "b.txt", "bom.txt", "many", "b.txt", "a.go"}
	m, err := Compile(Options{Pattern: "needle|main", Before: 1, MaxMatchesPerFile: 20})
	require.NoError(t, err)
	for name, fsys := range treeFS(t, files) {
		s := m.NewScanner()
		var last *FileResult
		for i, f := range order {
			res, err := s.SearchFile(context.Background(), fsys, f, -1)
			require.NoError(t, err, "%s: %s", name, f)
			want, err := m.NewScanner().SearchFile(context.Background(), fsys, f, -1)
			require.NoError(t, err)
			require.Equal(t, want, res, "%s: %s after %s", name, f, order[max(i-1, 0)])
			if last != nil {
				require.Same(t, last, res, "%s: %s does not reuse the result given back", name, f)
			}
			last = nil
			if res.MatchLines == 0 {
				s.Reuse(res)
				last = res
			}
		}
	}
}

// endless yields the same block forever, counting bytes.
type endless struct {
	block []byte
	n     int64
}

func (e *endless) Read(p []byte) (int, error) {
	k := copy(p, e.block[e.n%int64(len(e.block)):])
	e.n += int64(k)
	return k, nil
}

func TestEarlyStop(t *testing.T) {
	tests := []struct {
		name string
		o    Options
	}{
		{"limit", Options{Pattern: "line", MaxMatchesPerFile: 3, After: 2}},
		{"first only", Options{Pattern: "line", FirstOnly: true}},
		{"count first", Options{Pattern: "l.ne", FirstOnly: true, CountOnly: true}},
		{"ranges end", Options{Pattern: "line", LineRanges: [][2]int{{5, 6}}}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			m, err := Compile(tt.o)
			if err != nil {
				t.Fatal(err)
			}
			r := &endless{block: []byte("a line\n")}
			res, err := m.NewScanner().SearchReader(context.Background(), r)
			if err != nil {
				t.Fatal(err)
			}
			if r.n > 1<<20 {
				t.Errorf("read %d bytes of an endless stream; want a stop after the first buffer", r.n)
			}
			if res.MatchLines == 0 {
				t.Errorf("no match: %s", fmtResult(res))
			}
		})
	}
}

// TestCancel checks that a search notices the end of its context (within
// 100 ms: BenchmarkCancel measures it; the bound here only catches hangs on
// loaded test machines), whatever the path.
func TestCancel(t *testing.T) {
	tests := []struct{ pattern, reason string }{
		{"zzz", "literal, no match"},
		{"[A-Z][a-z]+[0-9]{2,}[a-z]", "DFA, no match"},
		{"needle", "every line matches"},
		{"(?i)SOME", "folded literal, every line matches"},
	}
	for _, tt := range tests {
		m, err := Compile(Options{Pattern: tt.pattern})
		if err != nil {
			t.Fatal(err)
		}
		for _, line := range []string{"Some text without the needle\n", strings.Repeat("Some text without the needle ", 3000) + "\n"} {
			ctx, cancel := context.WithTimeout(context.Background(), 50*time.Millisecond)
			r := &endless{block: []byte(strings.Repeat(line, 10))}
			_, err = m.NewScanner().SearchReader(ctx, r)
			late := time.Since(start(ctx)) - 50*time.Millisecond
			cancel()
			if errs.CodeOf(err) != errs.Timeout {
				t.Errorf("%q (%s): error %v, want TIMEOUT", tt.pattern, tt.reason, err)
			}
			if late > 10*time.Second { // a hang; the race detector and a loaded machine make 2 s possible
				t.Errorf("%q (%s): returned %v after the deadline", tt.pattern, tt.reason, late)
			}
		}
	}
}

// cancelCases are searches that run for long inside one long line or one
// whole-file search: the automata must poll the context as they go.
// setup, when set, shrinks a scanner's caches to force a path.
var cancelCases = []struct {
	name  string
	o     Options
	block string // repeated endlessly: without a newline, one endless line
	setup func(s *Scanner)
}{
	{"long line, no literal", Options{Pattern: "[A-Z][a-z]+[0-9]{2,}[a-z]", CountOnly: true}, "Some text without the needle ", nil},
	{"long line, dense matches counted", Options{Pattern: `\w+`, CountOnly: true}, "Some text without the needle ", nil},
	{"long line, spans", Options{Pattern: `\w+\d|x`}, "a1 b2 cc3 ", nil},
	{"whole file", Options{Pattern: `\s+\w`, Multiline: true}, "Some text\nwithout the\nneedle ", nil},
	// Two letters that the text lacks: no prefilter (a single rare Q would be one) and no match.
	{"whole file, long match", Options{Pattern: `S.*[QZ]`, DotAll: true}, "Some text\nwithout the\nneedle ", nil},
	{"uncached automata", Options{Pattern: `(a|b)*a(a|b){12}c`, CountOnly: true}, abText(4096), func(s *Scanner) {
		s.dfa.limit = 16
		fwd, back := s.matchDFAs()
		shrinkCache(fwd, 4<<10)
		shrinkCache(back, 4<<10)
	}},
	// States of up to 9000 threads: building one costs as much as
	// scanning thousands of bytes, and stepping one uncached too.
	{"huge states", Options{Pattern: strings.Repeat("[ab]", 9000), CountOnly: true}, abText(4096), nil},
	{"huge states uncached", Options{Pattern: strings.Repeat("[ab]", 9000), CountOnly: true}, abText(4096), func(s *Scanner) {
		s.dfa.byteLimit = 1 << 10
		fwd, back := s.matchDFAs()
		shrinkCache(fwd, 64<<10)
		shrinkCache(back, 64<<10)
	}},
}

// abText returns n pseudo-random letters a and b.
func abText(n int) string {
	b := make([]byte, n)
	for i, x := 0, uint32(7); i < n; i++ {
		x ^= x << 13
		x ^= x >> 17
		x ^= x << 5
		b[i] = "ab"[x&1]
	}
	return string(b)
}

// searchUntilCanceled runs case c on an endless reader and cancels it
// after delay; it returns how long the search took to return after the
// cancel, or -1 when it ended before (a whole-file search that reached its
// size cap), and the search's error.
func searchUntilCanceled(tb testing.TB, i int, delay time.Duration) (time.Duration, error) {
	return searchUntilCanceledIn(tb, i, delay, func(ctx context.Context, s *Scanner) error {
		_, err := s.SearchReader(ctx, &endless{block: []byte(strings.Repeat(cancelCases[i].block, 64))})
		return err
	})
}

// searchUntilCanceledIn is searchUntilCanceled with search running the
// search.
func searchUntilCanceledIn(tb testing.TB, i int, delay time.Duration, search func(context.Context, *Scanner) error) (time.Duration, error) {
	c := cancelCases[i]
	m, err := Compile(c.o)
	if err != nil {
		tb.Fatal(err)
	}
	s := m.NewScanner()
	if c.setup != nil {
		c.setup(s)
	}
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	var at time.Time
	fired := make(chan struct{})
	timer := time.AfterFunc(delay, func() { at = time.Now(); cancel(); close(fired) })
	err = search(ctx, s)
	if timer.Stop() {
		return -1, err // the search ended before the cancel
	}
	<-fired
	return time.Since(at), err
}

// TestCancelInside: a search canceled inside one long line or one
// whole-file search returns Scout's CANCELED error (the bound only catches
// hangs; BenchmarkCancel measures the latency).
func TestCancelInside(t *testing.T) {
	for i, c := range cancelCases {
		// 5 ms in: a whole-file search must not reach its size cap first,
		// on a machine many times faster than this one.
		late, err := searchUntilCanceled(t, i, 5*time.Millisecond)
		if errs.CodeOf(err) != errs.Canceled {
			t.Errorf("%s: error %v, want CANCELED", c.name, err)
		}
		if late > 10*time.Second { // a hang; the race detector and a loaded machine make 2 s possible
			t.Errorf("%s: returned %v after the cancel", c.name, late)
		}
	}
}

// start returns when the context's 50 ms timeout was started.
func start(ctx context.Context) time.Time {
	d, _ := ctx.Deadline()
	return d.Add(-50 * time.Millisecond)
}

func TestLongLine(t *testing.T) {
	m, err := Compile(Options{Pattern: "needle", MaxColumns: 20})
	if err != nil {
		t.Fatal(err)
	}
	s := m.NewScanner()
	s.chunk, s.maxLine = 1<<10, 4<<10
	line := strings.Repeat("x", 10_000) + "needle" + strings.Repeat("y", 10_000)
	data := "first\n" + line + "\nlast needle\n"
	res, err := s.SearchReader(context.Background(), strings.NewReader(data))
	if err != nil {
		t.Fatal(err)
	}
	// needle is shorter than the windows' overlap: nothing can be missed.
	if res.LongLines != 0 || res.MatchLines != 2 || res.Matches != 2 || res.Lines[0].Number != 2 || res.Lines[1].Number != 3 || !res.Lines[0].Cut {
		t.Errorf("long line: %s", fmtResult(res))
	}
	if cap(s.buf) > 4<<10+1+readAlign {
		t.Errorf("buffer grew to %d, past maxLine", cap(s.buf))
	}
}

// TestLongContextLine: a line that fills the buffer (maxLine bytes with
// its newline) kept as before-context does not make the line after it a
// long line: read or mapped, that line is found and shown whole, with the
// context line before it (a matching line after a context line of 4 MiB
// was shown as "…").
func TestLongContextLine(t *testing.T) {
	const maxLine = 64
	ctx := context.Background()
	for _, n := range []int{maxLine - 2, maxLine - 1} {
		for _, before := range []int{1, 2} {
			data := []byte("a\n" + strings.Repeat("x", n) + "\nneedle one\nneedle two\n")
			o := Options{Pattern: "needle", Before: before}
			want := refSearch(o, data)
			m, err := Compile(o)
			if err != nil {
				t.Fatal(err)
			}
			f := newMappedFile(t, data)
			defer f.remove()
			for _, mapped := range []bool{false, true} {
				s := m.NewScanner()
				s.chunk, s.maxLine = 8, maxLine
				got, err := s.SearchReader(ctx, bytes.NewReader(data))
				if mapped {
					s.mapMin = 0
					got, err = f.search(ctx, s)
				}
				if err != nil {
					t.Fatal(err)
				}
				if d := diff(want, got); d != "" {
					t.Errorf("a line of %d bytes, %d lines before, mapped %v:\n%s", n, before, mapped, d)
				}
			}
		}
	}
}

// TestLongLineCount: a line longer than maxLine with matches in several of
// its windows is one matching line, whether lines are reported or only
// counted (which tells lines apart by offset, not number), and each match
// counts once, those in the windows' overlaps too.
func TestLongLineCount(t *testing.T) {
	long := strings.Repeat("x needle ", 2000) // 18 KB: five 4 KB windows
	data := "first needle\n" + long + "\nmid\n" + long + long + "\nlast needle\n"
	for _, count := range []bool{false, true} {
		m, err := Compile(Options{Pattern: "needle", CountOnly: count, MaxColumns: 20})
		if err != nil {
			t.Fatal(err)
		}
		s := m.NewScanner()
		s.chunk, s.maxLine = 1<<10, 4<<10
		res, err := s.SearchReader(context.Background(), strings.NewReader(data))
		if err != nil {
			t.Fatal(err)
		}
		if res.LongLines != 0 || res.MatchLines != 4 || res.Matches != 3*2000+2 {
			t.Errorf("count only %v: %s; want 4 matching lines, 6002 matches", count, fmtResult(res))
		}
	}
}

// TestMemoryBound streams a large input with a rare literal and checks
// that the search allocates a bounded amount of memory.
func TestMemoryBound(t *testing.T) {
	size := int64(2 << 30)
	if testing.Short() {
		size = 64 << 20
	}
	m, err := Compile(Options{Pattern: "rare_literal_xyz"})
	if err != nil {
		t.Fatal(err)
	}
	block := []byte(strings.Repeat("some ordinary line of text, nothing to see\n", 1000))
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	r := io.MultiReader(io.LimitReader(&endless{block: block}, size), strings.NewReader("rare_literal_xyz\n"))
	res, err := m.NewScanner().SearchFile(context.Background(), readerFS{r, size + 17}, "f", -1)
	if err != nil {
		t.Fatal(err)
	}
	runtime.ReadMemStats(&after)
	if res.MatchLines != 1 {
		t.Errorf("match lines %d, want 1", res.MatchLines)
	}
	if alloc := after.TotalAlloc - before.TotalAlloc; alloc > 16<<20 {
		t.Errorf("allocated %d MiB searching %d MiB", alloc>>20, size>>20)
	}
}

// TestLongLineGrowth: a line longer than a chunk, in a file of known size
// whose rest fits in MaxLineBytes, is read in one more read into a buffer
// made for the rest of the file, not through buffers doubling from the
// chunk's size (each copying the line read so far), with the result of
// the search of the bytes.
func TestLongLineGrowth(t *testing.T) {
	data := []byte(abText(12*readSize) + "bx\nshort bx line\n" + abText(readSize/2) + "bx\n")
	m, err := Compile(Options{Pattern: "b+x", CountOnly: true})
	require.NoError(t, err)
	s := m.NewScanner()
	want, err := s.SearchBytes(context.Background(), data)
	require.NoError(t, err)
	r := &readCounter{r: bytes.NewReader(data)}
	got, err := s.SearchFile(context.Background(), readerFS{r, int64(len(data))}, "f", -1)
	require.NoError(t, err)
	assert.Equal(t, want, got)
	assert.Equal(t, 3, want.MatchLines)
	assert.LessOrEqual(t, r.reads, 3, "reads of %v bytes", r.sizes)

	// A search that may stop at the line's end reads the rest of the file
	// at once only within jumpMax times the buffer it outgrew (here after
	// one doubling); with more after the line, the buffer doubles and the
	// rest is not read.
	m, err = Compile(Options{Pattern: "b+x", CountOnly: true, FirstOnly: true})
	require.NoError(t, err)
	for _, after := range []int{readSize / 2, 30 * readSize} {
		data := []byte(abText(12*readSize) + "bx\nshort bx line\n" + abText(after) + "bx\n")
		r = &readCounter{r: bytes.NewReader(data)}
		got, err = m.NewScanner().SearchFile(context.Background(), readerFS{r, int64(len(data))}, "f", -1)
		require.NoError(t, err)
		assert.Equal(t, 1, got.MatchLines)
		read := 0
		for _, n := range r.sizes {
			read += n
		}
		if after < readSize {
			assert.GreaterOrEqual(t, read, len(data), "reads of %v bytes", r.sizes)
			assert.LessOrEqual(t, r.reads, 4, "reads of %v bytes", r.sizes)
		} else {
			assert.Less(t, read, len(data)/2, "reads of %v bytes", r.sizes)
		}
	}

	// A count over a line longer than the limit grows jumpMax-fold to it
	// (twofold, from the 64 KiB binary window to 1 MiB took four steps,
	// each a copy into fresh memory), then searches it in windows.
	line := []byte(abText(3<<20) + "bx\n")
	m, err = Compile(Options{Pattern: "b+x", CountOnly: true})
	require.NoError(t, err)
	s = m.NewScanner()
	s.chunk, s.maxLine = 4<<10, 1<<20
	r = &readCounter{r: bytes.NewReader(line)}
	got, err = s.SearchFile(context.Background(), readerFS{r, int64(len(line))}, "f", -1)
	require.NoError(t, err)
	assert.Equal(t, []int{1, 1, 1}, []int{got.MatchLines, got.Matches, got.LongLines})
	assert.LessOrEqual(t, r.reads, 6, "reads of %v bytes", r.sizes)
}

// readCounter counts the reads of r and records the sizes asked for.
type readCounter struct {
	r     io.Reader
	reads int
	sizes []int
}

func (c *readCounter) Read(p []byte) (int, error) {
	c.reads++
	c.sizes = append(c.sizes, len(p))
	return c.r.Read(p)
}

// readerFS is an FS with one file "f" whose content comes from a reader.
type readerFS struct {
	r    io.Reader
	size int64
}

func (f readerFS) Open(name string) (fs.File, error) {
	if name != "f" {
		return nil, &fs.PathError{Op: "open", Path: name, Err: fs.ErrNotExist}
	}
	return readerFile(f), nil
}

type readerFile readerFS

func (f readerFile) Read(p []byte) (int, error) { return f.r.Read(p) }
func (f readerFile) Close() error               { return nil }
func (f readerFile) Stat() (fs.FileInfo, error) { return sizeInfo(f.size), nil }

// sizeInfo is the FileInfo of a regular file of that size.
type sizeInfo int64

func (s sizeInfo) Name() string       { return "f" }
func (s sizeInfo) Size() int64        { return int64(s) }
func (s sizeInfo) Mode() fs.FileMode  { return 0o444 }
func (s sizeInfo) ModTime() time.Time { return time.Time{} }
func (s sizeInfo) IsDir() bool        { return false }
func (s sizeInfo) Sys() any           { return nil }

// TestConcurrent shares one Matcher between goroutines, each with its own
// Scanner (run with -race).
func TestConcurrent(t *testing.T) {
	data := []byte(strings.Repeat(fixture, 50))
	for _, p := range []string{"main|return", "[A-Z][a-z]+", "(?i)HÉLLO", "end"} {
		m, err := Compile(Options{Pattern: p, Before: 1, After: 1})
		if err != nil {
			t.Fatal(err)
		}
		want, err := m.NewScanner().SearchBytes(context.Background(), data)
		if err != nil {
			t.Fatal(err)
		}
		done := make(chan string)
		for g := 0; g < 4; g++ {
			go func() {
				s := m.NewScanner()
				for k := 0; k < 5; k++ {
					got, err := s.SearchReader(context.Background(), bytes.NewReader(data))
					if err != nil {
						done <- err.Error()
						return
					}
					if d := diff(want, got); d != "" {
						done <- d
						return
					}
				}
				done <- ""
			}()
		}
		for g := 0; g < 4; g++ {
			if msg := <-done; msg != "" {
				t.Errorf("%q: %s", p, msg)
			}
		}
	}
}

// TestOneHugeLine searches a file that is one line far longer than
// MaxLineBytes: time and memory stay bounded (windows of MaxLineBytes).
func TestOneHugeLine(t *testing.T) {
	size := int64(200 << 20)
	if testing.Short() {
		size = 24 << 20
	}
	for _, p := range []string{"needle", "[A-Z]eedle", "[A-Z]eedle.*"} {
		m, err := Compile(Options{Pattern: p, MaxColumns: 512, CountOnly: p != "needle"})
		if err != nil {
			t.Fatal(err)
		}
		var before, after runtime.MemStats
		runtime.ReadMemStats(&before)
		r := io.MultiReader(io.LimitReader(&endless{block: []byte("abcdefgh")}, size), strings.NewReader("Needle needle\n"))
		res, err := m.NewScanner().SearchReader(context.Background(), r)
		if err != nil {
			t.Fatal(err)
		}
		runtime.ReadMemStats(&after)
		// Only a pattern whose matches may be longer than the windows'
		// overlap may miss one.
		if unbounded := strings.HasSuffix(p, "*"); res.MatchLines != 1 || (res.LongLines > 0) != unbounded {
			t.Errorf("%q: %s", p, fmtResult(res))
		}
		if !res.Binary && len(res.Lines) == 1 && len(res.Lines[0].Text) > 512 {
			t.Errorf("%q: reported text of %d bytes", p, len(res.Lines[0].Text))
		}
		if alloc := after.TotalAlloc - before.TotalAlloc; alloc > 4*MaxLineBytes {
			t.Errorf("%q: allocated %d MiB for a %d MiB line", p, alloc>>20, size>>20)
		}
	}
}

// TestWithRanges checks that a copy of a matcher restricted to line ranges
// searches as the matcher compiled with them does, and leaves the original
// whole.
func TestWithRanges(t *testing.T) {
	text := []byte("a1\nb2\na3\na4\nb5\na6\na7\n")
	ranges := [][2]int{{6, 0}, {2, 3}}
	for _, o := range []Options{
		{Pattern: "a"},
		{Pattern: "a", Before: 1, After: 2},
		{Pattern: "a", CountOnly: true},
		{Pattern: "a", FirstOnly: true},
		{Pattern: "b", MaxMatchesPerFile: 1},
		{Pattern: `a\d\nb`, Multiline: true},
	} {
		base, err := Compile(o)
		if err != nil {
			t.Fatal(err)
		}
		ranged, err := base.WithRanges(ranges)
		if err != nil {
			t.Fatal(err)
		}
		o2 := o
		o2.LineRanges = ranges
		ref, err := Compile(o2)
		if err != nil {
			t.Fatal(err)
		}
		search := func(m *Matcher) *FileResult {
			res, err := m.NewScanner().SearchBytes(context.Background(), text)
			if err != nil {
				t.Fatal(err)
			}
			return res
		}
		assert.Equal(t, search(ref), search(ranged), "%+v: WithRanges differs from LineRanges", o)
		assert.Equal(t, search(base), search(mustCompile(t, o)), "%+v: WithRanges changed the original", o)
		whole, err := ranged.WithRanges(nil)
		if err != nil {
			t.Fatal(err)
		}
		assert.Equal(t, search(base), search(whole), "%+v: WithRanges(nil) is not every line", o)
	}
	m := mustCompile(t, Options{Pattern: "a"})
	if _, err := m.WithRanges([][2]int{{0, 3}}); errs.CodeOf(err) != errs.InvalidParam {
		t.Errorf("line range starting at 0: got %v, want INVALID_PARAM", err)
	}
}

func mustCompile(t *testing.T, o Options) *Matcher {
	t.Helper()
	m, err := Compile(o)
	if err != nil {
		t.Fatal(err)
	}
	return m
}

// TestSpansLines: a match can span lines only in a multiline search whose
// pattern can match a newline; a whole-file search for an anchor alone
// keeps every match within a line. SpansLines, which builds no matcher,
// says what the matcher Compile builds does; a pattern Compile refuses
// spans nothing.
func TestSpansLines(t *testing.T) {
	for _, tt := range []struct {
		pattern           string
		multiline, dotAll bool
		ignoreCase        bool
		want              bool
	}{
		{`a\nb`, true, true, false, true},
		{`a\nb`, true, false, false, true},
		{`a.b`, true, true, false, true},
		{`a.b`, true, false, false, false},
		{`a\sb`, true, false, false, true},
		{`[^a]`, true, false, false, true},
		{`[^a]`, true, false, true, true},
		{`aa|bb`, true, true, false, false},
		{`\Aaa`, true, true, false, false},
		{`(?s:a.b)`, true, false, false, true},
		{`a.b`, false, false, false, false},
		{`a\sb`, false, false, false, false},
		{`a(\n`, true, true, false, false},
		{strings.Repeat(`\n`, MaxPatternBytes/2+1), true, true, false, false},
	} {
		o := Options{Pattern: tt.pattern, Multiline: tt.multiline, DotAll: tt.dotAll, IgnoreCase: tt.ignoreCase}
		name := errs.Echo(tt.pattern)
		if got := SpansLines(o); got != tt.want {
			t.Errorf("%q multiline %v dotall %v: SpansLines %v, want %v", name, tt.multiline, tt.dotAll, got, tt.want)
		}
		m, err := Compile(o)
		if err != nil {
			if tt.want {
				t.Errorf("%q: %v", name, err)
			}
			continue
		}
		if m.spans != tt.want {
			t.Errorf("%q multiline %v dotall %v: the matcher spans %v, want %v", name, tt.multiline, tt.dotAll, m.spans, tt.want)
		}
	}
}

// TestBigBuffers: a file that needs more than a scanner's own buffer
// (ownMax) is searched in a big buffer that goes back to the pool when its
// search ends, so the scanner keeps only its own; files of every size
// class, searched by several scanners at once (the race detector watches
// the pool), give the same results as with fresh scanners.
func TestBigBuffers(t *testing.T) {
	files := map[string]string{"small.txt": "x\nneedle 0\n"}
	var names []string
	for i, n := range []int{ownMax / 2, ownMax + 1, 3 * ownMax, 9 * ownMax, 2*readSize + 17} {
		name := fmt.Sprintf("f%d.txt", i)
		files[name] = strings.Repeat("some text of a line\n", n/20) + fmt.Sprintf("needle %d\n", i)
		names = append(names, name)
	}
	names = append(names, "small.txt")
	m, err := Compile(Options{Pattern: `needle \d`})
	if err != nil {
		t.Fatal(err)
	}
	for kind, fsys := range treeFS(t, files) {
		want := map[string]string{}
		for _, name := range names {
			res, err := m.NewScanner().SearchFile(context.Background(), fsys, name, -1)
			if err != nil || len(res.Lines) != 1 {
				t.Fatalf("%s %s: %v %+v", kind, name, err, res)
			}
			want[name] = res.Lines[0].Text
		}
		var wg sync.WaitGroup
		for range 4 {
			wg.Go(func() {
				s := m.NewScanner()
				for range 3 {
					for _, name := range names {
						res, err := s.SearchFile(context.Background(), fsys, name, -1)
						if err != nil || len(res.Lines) != 1 || res.Lines[0].Text != want[name] {
							t.Errorf("%s %s: %v %+v, want %q", kind, name, err, res, want[name])
						}
						if cap(s.buf) > ownMax || cap(s.own) > ownMax {
							t.Errorf("%s %s: the scanner keeps a buffer of %d bytes, own %d; want at most %d", kind, name, cap(s.buf), cap(s.own), ownMax)
						}
					}
				}
			})
		}
		wg.Wait()
	}
}

// cancelingReader is an endless reader that cancels its search once it
// has given at bytes.
type cancelingReader struct {
	endless
	at     int64
	cancel context.CancelFunc
}

func (r *cancelingReader) Read(p []byte) (int, error) {
	n, err := r.endless.Read(p)
	if r.n >= r.at {
		r.cancel()
	}
	return n, err
}

// TestCancelPolls: a search notices its cancel within a bounded amount of
// work, whatever it is doing: while it fills a whole-file buffer of
// megabytes (it reads on at most pollBytes past the cancel, not to the
// buffer's end) and while it walks a text of dense matches (at most 256
// matches past it, not to the next pollBytes of text).
func TestCancelPolls(t *testing.T) {
	t.Run("filling", func(t *testing.T) {
		m, err := Compile(Options{Pattern: `\s+\w`, Multiline: true})
		require.NoError(t, err)
		ctx, cancel := context.WithCancel(context.Background())
		defer cancel()
		r := &cancelingReader{endless: endless{block: []byte(strings.Repeat("Some text\nwithout the\nneedle ", 64))}, at: 3 << 20, cancel: cancel}
		_, err = m.NewScanner().SearchReader(ctx, r)
		require.Equal(t, errs.Canceled, errs.CodeOf(err), "error %v", err)
		assert.LessOrEqual(t, r.n, r.at+pollBytes+int64(len(r.block)), "bytes read after the cancel at %d", r.at)
	})
	t.Run("growing", func(t *testing.T) {
		m, err := Compile(Options{Pattern: `x`, Multiline: true})
		require.NoError(t, err)
		s := m.NewScanner()
		const keep = 4 * copyStep
		old := s.buffer(keep)
		for i := range old {
			old[i] = 'a'
		}
		asks := 0
		nb := s.grow(old, MaxWholeBytes+1, keep, 0, func() bool { asks++; return true })
		defer s.release()
		assert.Equal(t, 1, asks, "asks of stop")
		assert.Equal(t, copyStep, bytes.Count(nb[:keep], []byte{'a'}), "bytes copied after the cancel")
	})
	t.Run("matches", func(t *testing.T) {
		for _, pattern := range []string{`x`, `\w`} { // a plain literal, and the automata
			m, err := Compile(Options{Pattern: pattern, Multiline: true})
			require.NoError(t, err)
			s := m.NewScanner()
			ctx, cancel := context.WithCancel(context.Background())
			s.begin(ctx, &FileResult{})
			calls := 0
			ok := s.eachMatch(bytes.Repeat([]byte("x"), pollBytes), false, func(a, b int) bool {
				if calls++; calls == 10 {
					cancel()
				}
				return true
			})
			assert.False(t, ok, "%s: the walk did not see its cancel", pattern)
			assert.LessOrEqual(t, calls, 10+256, "%s: matches walked after the cancel", pattern)
			cancel()
		}
	})
}

// TestWholeBig: a whole-file search of a text over the largest pooled
// buffer (8 MiB), whose buffer is anonymous memory where the system has
// some, finds every match, also the one that straddles the 8 MiB mark,
// whether the text is a file of known size (one buffer) or a stream (a
// buffer grown and copied step by step), and reads no more than
// MaxWholeBytes.
func TestWholeBig(t *testing.T) {
	m, err := Compile(Options{Pattern: `end\nbegin`, Multiline: true, CountOnly: true})
	require.NoError(t, err)
	filler := "some words on a line\n"
	var b bytes.Buffer
	want := 0
	for b.Len() < 12<<20 {
		if b.Len() < 8<<20 && b.Len()+len(filler)+4 >= 8<<20 {
			// "end\n" ends just past the mark, "begin" follows.
			b.WriteString(strings.Repeat("x", 8<<20-b.Len()-2) + "end\nbegin\n")
			want++
			continue
		}
		if b.Len()%(1<<20) < len(filler) {
			b.WriteString("end\nbegin\n")
			want++
		}
		b.WriteString(filler)
	}
	data := b.Bytes()
	f := newMappedFile(t, data)
	defer f.remove()
	for _, c := range []struct {
		name   string
		search func(s *Scanner) (*FileResult, error)
	}{
		{"stream", func(s *Scanner) (*FileResult, error) {
			return s.SearchReader(context.Background(), bytes.NewReader(data))
		}},
		{"file", func(s *Scanner) (*FileResult, error) {
			s.mapMin = -1 // read, not mapped
			return s.SearchFile(context.Background(), mapDir.fsys, f.name, -1)
		}},
	} {
		res, err := c.search(m.NewScanner())
		require.NoError(t, err, c.name)
		assert.Equal(t, want, res.Matches, "%s: matches", c.name)
		assert.Equal(t, StopNone, res.Stop, c.name)
	}
	// Past MaxWholeBytes the search stops, the matches before it counted.
	big := append(bytes.Clone(data), bytes.Repeat([]byte(filler+"end\nbegin\n"), (6<<20)/(len(filler)+10))...)
	res, err := m.NewScanner().SearchReader(context.Background(), bytes.NewReader(big))
	require.NoError(t, err)
	assert.Equal(t, StopSize, res.Stop)
	assert.Equal(t, bytes.Count(big[:MaxWholeBytes], []byte("end\nbegin")), res.Matches)
}
