package main

import (
	"fmt"
	"io/fs"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"testing/fstest"
	"time"

	"github.com/scoutkit/scout"
	"github.com/scoutkit/scout/format"
	"github.com/scoutkit/scout/internal/testfs"
)

// TestFindText: a find prints its result as the find tool's text with the
// command's own words for what the tool phrases in arguments: the limit
// notice names --limit (and the GLOB at the maximum), the timeout note
// --timeout and its maximum, what was left out the flags that include it.
func TestFindText(t *testing.T) {
	entries := func(paths ...string) []scout.FindEntry {
		var es []scout.FindEntry
		for _, p := range paths {
			es = append(es, scout.FindEntry{Path: strings.TrimSuffix(p, "/"), Dir: strings.HasSuffix(p, "/")})
		}
		return es
	}
	// names returns n root file names starting with prefix and their
	// listing.
	names := func(prefix string, n int) (names []string, listing string) {
		for i := range n {
			names = append(names, fmt.Sprintf("%s%03d", prefix, i))
		}
		return names, strings.Join(names, "\n")
	}
	n150, list150 := names("f", 150)
	n200, list200 := names("f", 200)
	long, longList := names(strings.Repeat("n", 300), 200)
	tests := []struct {
		name, reason string
		res          scout.FindResult
		timeout      float64
		want         string
	}{
		{
			name:    "grouped",
			reason:  "entries grouped by directory in result order, directories with a slash",
			res:     scout.FindResult{Entries: entries("main.go", "src/a.go", "src/sub/"), Matched: 3},
			timeout: 5,
			want:    "main.go\n\n# src/\na.go\nsub/",
		},
		{
			name:    "no byte cap",
			reason:  "a listing over 50 KB is printed whole",
			res:     scout.FindResult{Entries: entries(long...), Matched: 200},
			timeout: 5,
			want:    longList,
		},
		{
			name:    "exact file",
			reason:  "a GLOB naming one file prints it alone",
			res:     scout.FindResult{Entries: entries("src/a.go"), ExactFile: true, Matched: 1},
			timeout: 5,
			want:    "src/a.go",
		},
		{
			name:    "none",
			reason:  "no match: the missing paths, then what was left out with the flags that include it",
			res:     scout.FindResult{MissingPaths: []string{"x/*.go"}, Skipped: map[scout.SkipReason]int{scout.SkipHidden: 2, scout.SkipIgnored: 1, scout.SkipSymlink: 1}},
			timeout: 5,
			want:    "No files found matching pattern\nSkipped missing paths: x/*.go\nLeft out 4 entries: 2 hidden (drop --no-hidden to list them), 1 ignored (--no-ignore lists what ignore files leave out; a GLOB naming node_modules lists it), 1 symlink.",
		},
		{
			name:    "missing paths",
			reason:  "missing paths are noted after the entries",
			res:     scout.FindResult{Entries: entries("src/a.go", "src/b.go"), Matched: 2, MissingPaths: []string{"nope/*.go", "gone"}},
			timeout: 5,
			want:    "# src/\na.go\nb.go\n\nSkipped missing paths: nope/*.go, gone",
		},
		{
			name:    "limit",
			reason:  "a result cut below the maximum limit suggests --limit twice as large",
			res:     scout.FindResult{Entries: entries("a", "b"), Matched: 5, Truncated: scout.TruncLimit},
			timeout: 5,
			want:    "a\nb\n\n[2 results limit reached. Use --limit 4 for more]",
		},
		{
			name:    "limit near the maximum",
			reason:  "the suggested --limit is at most 200",
			res:     scout.FindResult{Entries: entries(n150...), Matched: 500, Truncated: scout.TruncLimit},
			timeout: 5,
			want:    list150 + "\n\n[150 results limit reached. Use --limit 200 for more]",
		},
		{
			name:    "limit at the maximum",
			reason:  "at --limit 200 the notice says to narrow the GLOB",
			res:     scout.FindResult{Entries: entries(n200...), Matched: 500, Truncated: scout.TruncLimit},
			timeout: 5,
			want:    list200 + "\n\n[200 results limit reached; narrow the GLOB for the rest]",
		},
		{
			name:    "timeout",
			reason:  "a timed-out result names --timeout and its maximum, then the missing paths",
			res:     scout.FindResult{Entries: entries("a", "d/b"), Matched: 2, Truncated: scout.TruncTimeout, MissingPaths: []string{"m"}},
			timeout: 1.5,
			want:    "a\n\n# d/\nb\n\nfind timed out after 1.5s; listing the 2 entries found. Raise --timeout (at most 60) or narrow the GLOB\nSkipped missing paths: m",
		},
		{
			name:    "timeout with nothing found",
			reason:  "a timeout before any match is noted under the no-match line",
			res:     scout.FindResult{Truncated: scout.TruncTimeout},
			timeout: 60,
			want:    "No files found matching pattern\nfind timed out after 60s; listing the 0 entries found. Raise --timeout (at most 60) or narrow the GLOB",
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got, _ := format.FindText(&tt.res, findOptions(tt.timeout)); got != tt.want {
				t.Errorf("%s\n got:\n%s\nwant:\n%s", tt.reason, got, tt.want)
			}
		})
	}
}

// TestFindOutput: what scout find prints, byte for byte, over a file
// system: grouped entries newest first, an exact file, no match with what
// was left out, missing paths, the limit notice.
func TestFindOutput(t *testing.T) {
	at := func(min int) time.Time { return time.Date(2026, 1, 1, 0, min, 0, 0, time.UTC) }
	withTerminals(t, fstest.MapFS{
		"main.go":             {ModTime: at(5)},
		"src/a.go":            {ModTime: at(4)},
		"src/sub/b.go":        {ModTime: at(3)},
		"src/sub/c":           {Mode: fs.ModeDir | 0o755, ModTime: at(2)},
		".hidden.md":          {ModTime: at(1)},
		".gitignore":          {Data: []byte("ignored.md\n"), ModTime: at(1)},
		".git/HEAD":           {Data: []byte("ref: refs/heads/main\n")},
		"ignored.md":          {ModTime: at(1)},
		"node_modules/x/y.md": {ModTime: at(1)},
	})
	leftOut := "Left out 4 entries: 2 hidden (drop --no-hidden to list them), 2 ignored (--no-ignore lists what ignore files leave out; a GLOB naming node_modules lists it).\n"
	tests := []struct {
		args   []string
		want   string
		reason string
	}{
		{[]string{"*.go"}, "main.go\n\n# src/\na.go\n\n# src/sub/\nb.go\n", "grouped by directory, newest first"},
		{[]string{"src/**"}, "# src/\na.go\nsub/\n\n# src/sub/\nb.go\nc/\n", "directories end in a slash"},
		{[]string{"src/a.go"}, "src/a.go\n", "an exact file alone"},
		{[]string{"*.md", "--no-hidden"}, "No files found matching pattern\n" + leftOut, "no match: what was left out, with flags"},
		{[]string{"nope/*.md", "*.md", "--no-hidden"}, "No files found matching pattern\nSkipped missing paths: nope/*.md\n" + leftOut, "no match: the missing paths first"},
		{[]string{"nope/*.go", "src/*.go"}, "# src/\na.go\n\nSkipped missing paths: nope/*.go\n", "missing paths after the entries"},
		{[]string{"*.go", "--limit", "2"}, "main.go\n\n# src/\na.go\n\n[2 results limit reached. Use --limit 4 for more]\n", "the limit notice names --limit"},
	}
	for _, tt := range tests {
		code, out, errb := runCLI(append([]string{"find"}, tt.args...)...)
		if code != 0 || out != tt.want {
			t.Errorf("%s: find %v: exit %d %s\n got:\n%q\nwant:\n%q", tt.reason, tt.args, code, errb, out, tt.want)
		}
	}
}

// TestFindOutputMaxLimit: a result cut at the maximum limit says to narrow
// the GLOB, since a larger --limit is refused.
func TestFindOutputMaxLimit(t *testing.T) {
	m := fstest.MapFS{}
	var want strings.Builder
	for i := range 201 {
		m[fmt.Sprintf("f%03d.txt", i)] = &fstest.MapFile{ModTime: time.Date(2026, 1, 1, 0, 0, 300-i, 0, time.UTC)}
		if i < 200 {
			fmt.Fprintf(&want, "f%03d.txt\n", i)
		}
	}
	want.WriteString("\n[200 results limit reached; narrow the GLOB for the rest]\n")
	withTerminals(t, m)
	if code, out, errb := runCLI("find", "*.txt"); code != 0 || out != want.String() {
		t.Errorf("find *.txt over 201 files: exit %d %s\n got:\n%s\nwant:\n%s", code, errb, out, want.String())
	}
}

// TestFindOutputTimeout: a find that outlasts --timeout lists what it
// found with a note naming --timeout.
func TestFindOutputTimeout(t *testing.T) {
	m := fstest.MapFS{}
	for i := range 20 {
		m[fmt.Sprintf("d%02d/f.txt", i)] = &fstest.MapFile{}
	}
	withTerminals(t, testfs.SlowFS{MapFS: m, Delay: 150 * time.Millisecond})
	code, out, errb := runCLI("find", "**/*.txt", "--timeout", "0.5")
	note := regexp.MustCompile(`\n\nfind timed out after 0\.5s; listing the (\d+) entries found\. Raise --timeout \(at most 60\) or narrow the GLOB\n$`)
	sub := note.FindStringSubmatch(out)
	if code != 0 || sub == nil {
		t.Fatalf("exit %d %s %q; want a listing ending in the timeout note", code, errb, out)
	}
	n, _ := strconv.Atoi(sub[1])
	if got := strings.Count(out[:len(out)-len(sub[0])], "f.txt"); n >= 20 || got != n {
		t.Errorf("the note counts %d entries, the listing holds %d (of 20):\n%s", n, got, out)
	}
}
