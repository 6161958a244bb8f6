package grep

import (
	"bytes"
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/scoutkit/scout/internal/testfs"
)

// rgCases pair a pattern with its ripgrep spelling where the two differ.
var rgCases = []struct {
	pattern, rg string
	ignoreCase  bool
	multiline   bool // rg -U
}{
	{pattern: "ErrUnexpectedEOF"},
	{pattern: "func main"},
	{pattern: "return"},
	{pattern: "ErrUnexpectedEOF|ErrShortWrite|ErrClosedPipe"},
	{pattern: `func [A-Z][a-zA-Z]*\(ctx context\.Context`},
	{pattern: "[A-Z][a-z]+[0-9]{2,}[a-z]"},
	{pattern: `[0-9]+\.[0-9]+`},
	{pattern: `^func \(`},
	{pattern: `\)$`},
	{pattern: `^[ \t]*//`},
	{pattern: "errunexpectedeof", ignoreCase: true},
	{pattern: `http\.handler`, ignoreCase: true},
	{pattern: "kelvin|straße|σ", ignoreCase: true},
	{pattern: `\p{Greek}`},
	{pattern: "é"},
	{pattern: "[À-ÿ]+"},
	{pattern: `\bfunc\b`},
	{pattern: `\w+Error\b`},
	{pattern: `\d{4}-\d{2}-\d{2}`},
	{pattern: `\b\w+\b`},
	{pattern: `\s\S+\s`},
	{pattern: `[^\w\s]{3,}`},
	{pattern: `\b\p{Greek}+\b`},
	{pattern: `(?i)\w\d\b`},
	{pattern: `(?-u:\w)+é`},
	{pattern: "x{2,}"},
	{pattern: "(foo|bar)baz"},
	{pattern: "[[:upper:]]{4,}"},
	{pattern: ".{120,}"},
	{pattern: "a.c"},
	{pattern: "^$"},
	{pattern: "TODO|FIXME|XXX"},
	{pattern: "[^a-z ]{6}"},
	{pattern: `(?m)^\}$`},
	{pattern: `\Apackage`, multiline: true},
	{pattern: `(?-m)^package`, multiline: true},
	{pattern: `^package`, multiline: true},
	{pattern: `\}\n\z`, multiline: true},
	{pattern: `(?-m)\}\n$`, multiline: true},
	{pattern: `\A//`, multiline: true},
	{pattern: `\{\n[ \t]+return`, multiline: true},
	{pattern: `\n\n\n`, multiline: true},
}

// rgDirs are the parts of $GOROOT/src searched (all of it would take too
// long for a unit test): code, test data, text and Unicode tables.
var rgDirs = []string{"regexp", "strings", "unicode", "bytes", "net/http", "encoding", "html", "go/printer", "cmd/go/testdata/script", "cmd/compile/internal/ssa/_gen"}

// TestRipgrep compares per-file match counts with `rg --count-matches`.
// Files with NUL bytes, carriage returns or invalid UTF-8 are left out:
// there the two tools differ by design (see the package documentation).
func TestRipgrep(t *testing.T) {
	rg, err := exec.LookPath("rg")
	if err != nil {
		t.Skip("rg is not installed")
	}
	src := testfs.GoSrc(t)
	var dirs []string
	for _, d := range rgDirs {
		if _, err := os.Stat(filepath.Join(src, d)); err == nil {
			dirs = append(dirs, d)
		}
	}
	if len(dirs) == 0 {
		t.Skip("no GOROOT/src")
	}
	list := exec.Command(rg, append([]string{"--files", "--no-config"}, dirs...)...)
	list.Dir = src
	out, err := list.Output()
	if err != nil {
		t.Fatalf("rg --files: %v", err)
	}
	files := map[string][]byte{}
	skipped := 0
	for _, name := range strings.Split(strings.TrimSpace(string(out)), "\n") {
		data, err := os.ReadFile(filepath.Join(src, name))
		if err != nil {
			t.Fatal(err)
		}
		if bytes.IndexByte(data, 0) >= 0 || bytes.IndexByte(data, '\r') >= 0 || !utf8.Valid(data) {
			skipped++
			continue
		}
		files[name] = data
	}
	if len(files) < 500 {
		t.Fatalf("only %d files to compare", len(files))
	}
	t.Logf("%d files compared, %d left out (NUL, CR or invalid UTF-8)", len(files), skipped)
	for _, c := range rgCases {
		t.Run(c.pattern, func(t *testing.T) {
			rgPat := c.pattern
			if c.rg != "" {
				rgPat = c.rg
			}
			args := []string{"--count-matches", "--no-messages", "--no-config", "--with-filename"}
			if c.ignoreCase {
				args = append(args, "-i")
			}
			if c.multiline {
				args = append(args, "-U")
			}
			args = append(args, "-e", rgPat)
			cmd := exec.Command(rg, append(args, dirs...)...)
			cmd.Dir = src
			out, err := cmd.Output()
			if err != nil && len(out) > 0 {
				t.Fatalf("rg: %v", err)
			}
			want := map[string]int{}
			for _, line := range strings.Split(strings.TrimSpace(string(out)), "\n") {
				i := strings.LastIndexByte(line, ':')
				if i < 0 {
					continue
				}
				n, err := strconv.Atoi(line[i+1:])
				if err != nil {
					t.Fatalf("rg output %q", line)
				}
				want[line[:i]] = n
			}
			m, err := Compile(Options{Pattern: c.pattern, IgnoreCase: c.ignoreCase, Multiline: c.multiline, CountOnly: true})
			if err != nil {
				t.Fatal(err)
			}
			s := m.NewScanner()
			total, bad := 0, 0
			for name, data := range files {
				res, err := s.SearchBytes(context.Background(), data)
				if err != nil {
					t.Fatal(err)
				}
				total += res.Matches
				if res.Matches != want[name] {
					if bad++; bad <= 5 {
						t.Errorf("%s: %d matches, rg %d", name, res.Matches, want[name])
					}
				}
			}
			if bad > 5 {
				t.Errorf("... %d files differ in all", bad)
			}
			if total == 0 {
				t.Errorf("no matches at all: the case tests nothing")
			}
		})
	}
}
