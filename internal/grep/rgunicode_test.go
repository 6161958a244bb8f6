package grep

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// unicodeText holds the characters where Go's ASCII Perl classes and
// Rust's Unicode ones differ: Latin accents (precomposed and combining),
// Greek, Cyrillic, CJK, Arabic-Indic and other decimal digits, circled
// letters (Other_Alphabetic), connector punctuation, and the spaces NBSP,
// NEL, ideographic space, em space, narrow NBSP, and \v.
const unicodeText = "café au lait, naïve résumé; Ærø straße; caf!\n" +
	"cafe\u0301 con lec\u0327he; caf\u00e9s\n" +
	"Σίσυφος καὶ ὁ λόγος: αβγ δεζ ς\n" +
	"Привет, мир! ёлка_123\n" +
	"中文字符 和 日本語のテキスト、한국어\n" +
	"٣٤٥ + ۶۷ = ١٢٣٤; ०१२३ ৪৫ ３４５\n" +
	"a\u00a0b\u3000c\u2003d\u202fe\u0085f\vg h\tend\n" +
	"Ⓐⓑⓒ ⅫⅣ x‿y a⁀b ¹²³ ½\n" +
	"under_score snake_case CamelCase x1 9lives\n" +
	"mixed: éa aé 1é é1 _é é_ Éé ÉÉ\n" +
	"ǅungla ǈ ſ \u212a Kelvin k\n" +
	"  \u3000\u3000indented with ideographic spaces\n" +
	"tab\tand\u00a0nbsp\u00a0\u00a0twice\n" +
	"emoji 😀 done 🙂x x🙂 \U0001d400\U0001d401 math\n" +
	"trailing nbsp\u00a0\n" +
	"zero\u200dwidth\u200cjoin e\u20dd \u0300lead\n"

// unicodeCases are patterns whose classes or word boundaries meet the
// characters of unicodeText; each is searched as it is by ripgrep.
var unicodeCases = []struct {
	pattern    string
	ignoreCase bool
}{
	{pattern: `\w+`},
	{pattern: `\W+`},
	{pattern: `\d+`},
	{pattern: `\D+`},
	{pattern: `\s+`},
	{pattern: `\S+`},
	{pattern: `\bcaf\b`},
	{pattern: `\bcaf`},
	{pattern: `caf\B`},
	{pattern: `\b\w+\b`},
	{pattern: `\b`},
	{pattern: `[aé]\B`},
	{pattern: `\B[éa]\b`},
	{pattern: `\w\b`},
	{pattern: `\bé`},
	{pattern: `é\b`},
	{pattern: `\b[^\s]+\b`},
	{pattern: `[\w-]+`},
	{pattern: `[^\s]+`},
	{pattern: `[^\w\s]+`},
	{pattern: `[\d\s]+`},
	{pattern: `[^\W\d_]+`},
	{pattern: `[\W\d]+`},
	{pattern: `[\S#]+`},
	{pattern: `\w+\s+\w+`},
	{pattern: `\d\s*[+=]`},
	{pattern: `(?i)\w+`},
	{pattern: `(?i)\bστρ|\bσίσυφος\b`},
	{pattern: `\bKELVIN\b`, ignoreCase: true},
	{pattern: `[\w]+`, ignoreCase: true},
	{pattern: `\W`, ignoreCase: true},
	{pattern: `(?-u:\w)+`},
	{pattern: `(?-u:\d)+`},
	{pattern: `(?-u:\s)+`},
	{pattern: `(?-u:\W)+`},
	{pattern: `(?-u:[\w])+`},
	{pattern: `(?-u)\w+(?u)\s\w+`},
	{pattern: `(?i-u:\w)+`},
	{pattern: `(?-u:\w+(?u:é\w))`},
	{pattern: `\p{Greek}\w`},
	{pattern: `[[:alpha:]]\w`},
	{pattern: `^\s*\S`},
	{pattern: `\s$`},
}

// TestRipgrepUnicode compares the matches (line, byte offset, text) of
// each pattern on unicodeText with `rg --only-matching --byte-offset`.
func TestRipgrepUnicode(t *testing.T) {
	rg, err := exec.LookPath("rg")
	if err != nil {
		t.Skip("rg is not installed")
	}
	dir := t.TempDir()
	file := filepath.Join(dir, "u.txt")
	if err := os.WriteFile(file, []byte(unicodeText), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, c := range unicodeCases {
		t.Run(c.pattern, func(t *testing.T) {
			args := []string{"--no-config", "--only-matching", "--byte-offset", "--line-number", "--no-filename", "--color=never"}
			if c.ignoreCase {
				args = append(args, "-i")
			}
			out, err := exec.Command(rg, append(args, "-e", c.pattern, file)...).Output()
			if err != nil && len(out) > 0 {
				t.Fatalf("rg: %v", err)
			}
			var want []string
			for _, l := range strings.Split(strings.TrimSuffix(string(out), "\n"), "\n") {
				if l != "" {
					want = append(want, l)
				}
			}
			m, err := Compile(Options{Pattern: c.pattern, IgnoreCase: c.ignoreCase})
			if err != nil {
				t.Fatal(err)
			}
			res, err := m.NewScanner().SearchBytes(context.Background(), []byte(unicodeText))
			if err != nil {
				t.Fatal(err)
			}
			var got []string
			lineStart := map[int]int{}
			off := 0
			for i, l := range strings.SplitAfter(unicodeText, "\n") {
				lineStart[i+1] = off
				off += len(l)
			}
			for _, l := range res.Lines {
				for _, s := range l.Spans {
					got = append(got, fmt.Sprintf("%d:%d:%s", l.Number, lineStart[l.Number]+s[0], l.Text[s[0]:s[1]]))
				}
			}
			if strings.Join(got, "\n") != strings.Join(want, "\n") {
				t.Errorf("matches differ\ngot:\n%s\nrg:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
			}
			if len(want) == 0 {
				t.Errorf("rg finds no match: the case tests nothing")
			}
		})
	}
}
