package search

import (
	"bufio"
	"bytes"
	"context"
	"fmt"
	"math/rand"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"testing"

	"github.com/scoutkit/scout/internal/fsx"
	"github.com/scoutkit/scout/internal/grep"
	"github.com/scoutkit/scout/internal/testfs"
	"github.com/scoutkit/scout/internal/walk"
)

// rgPatterns are the differential patterns: literals, classes,
// alternations, anchors, repetitions, case-insensitive and Unicode. They
// avoid '$', which ripgrep does not match before a '\r', and negated
// classes, which match the '\r' of CRLF lines and the bytes of invalid UTF-8
// in ripgrep (Scout strips the '\r' and reads invalid bytes as U+FFFD).
var rgPatterns = []struct {
	pattern    string
	ignoreCase bool
}{
	{"ErrUnexpectedEOF", false},
	{"func main", false},
	{"errunexpectedeof", true},
	{"ErrUnexpectedEOF|ErrShortWrite|ErrClosedPipe", false},
	{`func [A-Z][a-zA-Z]*\(ctx context\.Context`, false},
	{`[A-Z][a-z]+[0-9]{2,}[a-z]`, false},
	{"^package ", false},
	{"^func \\(", false},
	{"^\t+return nil", false},
	{"[Tt]odo|FIXME|XXX", false},
	{"(?i)copyright [0-9]{4}", false},
	{"0x[0-9a-fA-F]{8,}", false},
	{"[áéíóúñü]", false},
	{"\\p{Greek}+", false},
	{"[世界日本語]", false},
	{"ÉTÉ|été", true},
	{"interface\\{\\}", false},
	{"(foo|bar)baz", false},
	{"a{3,}", false},
	{"[À-ÿ]{2}", false},
	{"HTTP/[12]\\.[01]", false},
	{"go:(build|generate|embed)", false},
	{`\bfunc\b`, false},
	{`\w+é\b`, false},
	{`\d+\s\w`, true},
}

// TestRipgrep compares the files and per-file match counts of whole-tree
// searches with `rg --count-matches`, on a generated tree (with a git work
// tree, .gitignore and hidden files) and on $GOROOT/src. It is skipped
// when rg is not installed or with -short.
func TestRipgrep(t *testing.T) {
	rg, err := exec.LookPath("rg")
	if err != nil {
		t.Skip("rg is not installed")
	}
	if testing.Short() {
		t.Skip("slow: runs rg over trees")
	}
	t.Run("generated", func(t *testing.T) {
		dir := generateTree(t, 1)
		for _, p := range rgPatterns {
			compareRg(t, rg, dir, p.pattern, p.ignoreCase, false)
		}
		for _, p := range rgMultiline {
			compareRg(t, rg, dir, p, false, true)
		}
	})
	t.Run("goroot", func(t *testing.T) {
		dir := testfs.GoSrc(t)
		patterns := rgPatterns
		if raceEnabled {
			patterns = patterns[:4] // the generated tree runs them all
		}
		for _, p := range patterns {
			compareRg(t, rg, dir, p.pattern, p.ignoreCase, false)
		}
		for _, p := range rgMultiline[:min(len(rgMultiline), len(patterns))] {
			compareRg(t, rg, dir, p, false, true)
		}
	})
}

// rgMultiline are compared with rg -U: \A, \z and (?-m)^ and $ hold at the
// file's ends only, ^ and $ at each line, and matches span lines.
var rgMultiline = []string{`\Apackage`, `(?-m)^func main`, `\n\z`, `(?-m)nil \r?\n$`, `^package`, `\Afunc|[0-9]\z`, `nil \r?\n[0-9]+`}

// compareRg compares Run's per-file match counts with rg's, in multiline
// mode (rg -U) when multiline is set.
func compareRg(t *testing.T, rg, dir, pattern string, ignoreCase, multiline bool) {
	t.Helper()
	args := []string{"--count-matches", "--no-messages", "--no-config"}
	if ignoreCase {
		args = append(args, "-i")
	}
	if multiline {
		args = append(args, "-U")
	}
	cmd := exec.Command(rg, append(args, "-e", pattern, ".")...)
	cmd.Dir = dir
	out, err := cmd.Output()
	if ee, ok := err.(*exec.ExitError); err != nil && !(ok && ee.ExitCode() == 1) {
		t.Fatalf("rg %q: %v", pattern, err)
	}
	want := map[string]int{}
	sc := bufio.NewScanner(bytes.NewReader(out))
	for sc.Scan() {
		line := sc.Text()
		i := strings.LastIndexByte(line, ':')
		n, _ := strconv.Atoi(line[i+1:])
		want[strings.TrimPrefix(line[:i], "./")] = n
	}

	fsys, release, err := fsx.OpenDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	defer release()
	res, err := Run(context.Background(), fsys, dir, Request{
		Grep:        grep.Options{Pattern: pattern, IgnoreCase: ignoreCase, Multiline: multiline, CountOnly: true},
		Walk:        walk.Options{},
		MaxFileSize: -1, MaxFiles: -1, Budget: -1, PerFile: -1,
	})
	if err != nil {
		t.Fatalf("%q: %v", pattern, err)
	}
	got := map[string]int{}
	for _, h := range res.Files {
		got[h.Path] = h.Matches
	}
	var diffs []string
	for p, n := range want {
		if got[p] != n && !hasNUL(filepath.Join(dir, p)) {
			diffs = append(diffs, fmt.Sprintf("%s: scout %d, rg %d", p, got[p], n))
		}
	}
	for p, n := range got {
		if _, ok := want[p]; !ok && !hasNUL(filepath.Join(dir, p)) {
			diffs = append(diffs, fmt.Sprintf("%s: scout %d, rg none", p, n))
		}
	}
	sort.Strings(diffs)
	if len(diffs) > 0 {
		t.Errorf("%q (i=%v): %d files differ from rg --count-matches:\n%s", pattern, ignoreCase, len(diffs), strings.Join(diffs[:min(len(diffs), 10)], "\n"))
	}
}

// hasNUL reports a file with a NUL byte: ripgrep and Scout both treat it as
// binary, but not at the same point, so it is left out of the comparison.
func hasNUL(p string) bool {
	b, err := os.ReadFile(p)
	return err == nil && bytes.IndexByte(b, 0) >= 0
}

// generateTree writes a seeded random tree: a git work tree with nested
// .gitignore files, hidden files and directories, CRLF and Unicode text.
func generateTree(t *testing.T, seed int64) string {
	t.Helper()
	dir := t.TempDir()
	r := rand.New(rand.NewSource(seed))
	words := []string{"func main", "ErrUnexpectedEOF", "errUnexpectedEof", "ErrShortWrite", "package x", "return nil",
		"todo", "FIXME", "été", "ÉTÉ", "αβγ", "世界", "interface{}", "foobaz", "barbaz", "aaaa", "0xDEADBEEF01",
		"Copyright 2024", "HTTP/1.1", "go:generate", "Abc123x", "\t\treturn nil", "func (r *R)"}
	write := func(rel, data string) {
		p := filepath.Join(dir, filepath.FromSlash(rel))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(data), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.Mkdir(filepath.Join(dir, ".git"), 0o755); err != nil {
		t.Fatal(err)
	}
	write(".gitignore", "*.log\nbuild/\n!keep.log\n")
	write("sub/.gitignore", "/local.txt\n")
	dirs := []string{"", "sub/", "sub/deep/", "build/", ".hidden/", "pkg/a/", "pkg/b/"}
	exts := []string{".go", ".txt", ".log", ".md", ""}
	for i := range 120 {
		var b strings.Builder
		eol := "\n"
		if r.Intn(5) == 0 {
			eol = "\r\n"
		}
		for range r.Intn(30) {
			for range 1 + r.Intn(4) {
				if r.Intn(3) == 0 {
					b.WriteString(words[r.Intn(len(words))])
				} else {
					b.WriteString(strconv.Itoa(r.Intn(1000)))
				}
				b.WriteByte(' ')
			}
			b.WriteString(eol)
		}
		name := fmt.Sprintf("%sf%03d%s", dirs[r.Intn(len(dirs))], i, exts[r.Intn(len(exts))])
		write(name, b.String())
	}
	write("keep.log", "func main\n")
	write("sub/local.txt", "func main\n")
	write(".env", "func main\n")
	return dir
}
