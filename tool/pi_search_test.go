package tool

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"testing/fstest"

	"github.com/scoutkit/scout"
	"github.com/scoutkit/scout/internal/testfs"
	"github.com/stretchr/testify/assert"
)

type memResolver map[string]string

func (m memResolver) Resolve(_ context.Context, url string) (*scout.Resource, error) {
	v, ok := m[url]
	if !ok {
		return nil, &scout.Error{Code: scout.CodeNotFound, Message: url + " not found"}
	}
	if p, ok := strings.CutPrefix(v, "file:"); ok {
		return &scout.Resource{SourcePath: p}, nil
	}
	return &scout.Resource{Text: v}, nil
}

// piSources is the host of the tests of pi search's sources: files, an
// archive, a virtual resource and a backed one, no context lines.
func piSources() Config {
	tree := fstest.MapFS{
		"docs/guide.md": {Data: []byte("intro\nneedle in guide\n")},
		"dist/a.zip":    {Data: testfs.Zip(testfs.Files(map[string]string{"src/x.ts": "a\nneedle in zip\n", "logo.png": "\x00needle", "latin.txt": "caf\xe9\n"})...)},
	}
	c := Config{FS: tree}
	c.Resolvers = map[string]scout.Resolver{"memory": memResolver{"memory://todo": "first\nneedle in memory\n"}, "skill": memResolver{"skill://guide": "file:docs/guide.md"}}
	c.ContextBefore, c.ContextAfter = -1, -1
	return c
}

func TestPiSearchSources(t *testing.T) {
	c := piSources()
	tests := []struct {
		name, args, want, reason string
	}{
		{"member", `{"pattern":"needle","paths":"dist/a.zip:src/x.ts"}`, "*2|needle in zip", "an archive member: flat lines, no tag"},
		{"member range", `{"pattern":"needle","paths":"dist/a.zip:src/x.ts:1-1"}`, "No matches found", "a line range on an archive member"},
		{"binary member", `{"pattern":"needle","paths":["dist/a.zip:logo.png","docs/guide.md"]}`, "# docs/guide.md#", "a binary member is skipped when others remain"},
		{"binary member note", `{"pattern":"needle","paths":["dist/a.zip:logo.png","docs/guide.md"]}`, "Skipped archive entries (search supports text members only): dist/a.zip:logo.png (binary)", "... with a note"},
		{"virtual", `{"pattern":"needle","paths":"memory://todo"}`, "*2|needle in memory", "a virtual resource is searched in memory, without a tag"},
		{"virtual range", `{"pattern":"needle|first","paths":"memory://todo:1"}`, "*1|first\n*2|needle in memory", "a line selector on an internal URL"},
		{"backed", `{"pattern":"needle","paths":"skill://guide"}`, "¶docs/guide.md#", "a backed resource is searched as its file"},
		{"url glob", `{"pattern":"needle","paths":"memory://*"}`, "Glob patterns are not supported for internal URLs: memory://*", "no globs in internal URLs"},
		{"several", `{"pattern":"needle","paths":["memory://todo","docs"]}`, "# docs/guide.md#", "internal URLs and paths together"},
		{"archive", `{"pattern":"needle","paths":"dist/a.zip"}`, "# dist/a.zip:src/x.ts\n*2|needle in zip", "an archive: its text members under file headings"},
		{"archive no match", `{"pattern":"nothing here","paths":"dist/a.zip"}`, "No matches found\nNot searched: 1 binary.", "an archive's binary member is counted"},
		{"archive dir", `{"pattern":"needle","paths":"dist/a.zip:src"}`, "# dist/a.zip:src/x.ts\n*2|needle in zip", "a directory inside an archive"},
		{"archive glob", `{"pattern":"needle","paths":"dist/a.zip:**/*.ts"}`, "# dist/a.zip:src/x.ts\n*2|needle in zip", "a glob inside an archive"},
		{"member glob range", `{"pattern":"needle","paths":"dist/a.zip:**/*.ts:1-2"}`, "Line-range selector requires a single file, not a glob: dist/a.zip:**/*.ts", "a line range on a glob inside an archive"},
		{"archive dir range", `{"pattern":"needle","paths":"dist/a.zip:src:1-2"}`, "Line-range selector requires a single file: dist/a.zip:src is a directory in an archive; name one member, e.g. dist/a.zip:src/file:50-100", "... on a directory inside an archive"},
		{"missing member range", `{"pattern":"needle","paths":"dist/a.zip:src/nope.ts:1-2"}`, "Path not found for line-range selector: dist/a.zip:src/nope.ts", "... on a member the archive does not hold"},
		{"non-UTF-8 member", `{"pattern":"needle","paths":"dist/a.zip:latin.txt"}`, "Cannot search archive member(s): dist/a.zip:latin.txt (not UTF-8). Search supports text members only.", "a non-UTF-8 member alone is the error"},
		{"non-UTF-8 member note", `{"pattern":"needle","paths":["dist/a.zip:latin.txt","docs/guide.md"]}`, "*2:needle in guide\n\nSkipped archive entries (search supports text members only): dist/a.zip:latin.txt (not UTF-8)", "... and is skipped with a note among others"},
		{"virtual i", `{"pattern":"NEEDLE","paths":"memory://todo","i":true}`, "*2|needle in memory", "i is passed to the in-memory search of a virtual resource"},
		{"virtual case", `{"pattern":"NEEDLE","paths":"memory://todo"}`, "No matches found", "... which without i minds the case"},
		{"virtual bad regex", `{"pattern":"a[b","paths":"memory://todo"}`, "Invalid regex: ", "a regex that does not compile for a virtual resource is Invalid regex"},
		{"virtual unbalanced paren", `{"pattern":"needle(","paths":"memory://todo"}`, "Invalid regex: missing closing ): `needle(` at position 0; an internal URL without a backing file is searched with the pattern as written", "the parenthesis repair is grep's, not that of the in-memory search of a virtual resource: Invalid regex"},
		{"virtual unbalanced paren among paths", `{"pattern":"needle)","paths":["docs","memory://todo:1-2"]}`, "Invalid regex: unexpected ): `needle)`", "... among other paths too"},
		{"backed unbalanced paren", `{"pattern":"needle(","paths":["skill://guide","docs"]}`, "Note: `needle(` searched as `needle\\(`", "a backed resource is searched as its file: repaired"},
		{"virtual braces", `{"pattern":"in{}|memory","paths":"memory://todo"}`, "*2|needle in memory", "braces that cannot repeat are still literal for a virtual resource"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			env := Call(context.Background(), c, Pi, "search", []byte(tt.args))
			if !strings.Contains(env.Text, tt.want) {
				t.Errorf("%s\n got: %s\nwant substring: %s", tt.reason, env.Text, tt.want)
			}
		})
	}
}

// TestPiSearchUnreadableArchive: a member entry whose archive cannot be
// read is left out with a note among other paths, and is the error alone;
// a lone member the archive does not hold names the whole entry, as read
// does.
func TestPiSearchUnreadableArchive(t *testing.T) {
	c := piSources()
	c.FS.(fstest.MapFS)["dist/bad.zip"] = &fstest.MapFile{Data: []byte("junk")}
	tests := []struct {
		args   string
		status scout.Status
		want   []string
		reason string
	}{
		{`{"pattern":"needle","paths":["dist/bad.zip:src/x.ts","docs/guide.md"]}`, scout.StatusSuccess,
			[]string{"guide.md#", "needle in guide", "\n\nSkipped archive entries (search supports text members only): dist/bad.zip:src/x.ts (not a valid zip file)"},
			"the other path is searched; the note names the entry and why"},
		{`{"pattern":"needle","paths":["dist/bad.zip:src/x.ts","dist/a.zip:logo.png","docs/guide.md"]}`, scout.StatusSuccess,
			[]string{"Skipped archive entries (search supports text members only): dist/bad.zip:src/x.ts (not a valid zip file), dist/a.zip:logo.png (binary)"},
			"one note for every member left out"},
		{`{"pattern":"needle","paths":["dist/bad.zip:src/x.ts"]}`, scout.StatusError,
			[]string{"Cannot search archive member(s): dist/bad.zip:src/x.ts (not a valid zip file). Search supports text members only."},
			"alone: the error"},
		{`{"pattern":"needle","paths":["dist/a.zip:src/nope.ts"]}`, scout.StatusError,
			[]string{"Path 'dist/a.zip:src/nope.ts' not found inside archive"},
			"a lone missing member names the whole entry"},
		{`{"pattern":"needle","paths":["dist/a.zip:src/nope.ts","docs/guide.md"]}`, scout.StatusSuccess,
			[]string{"needle in guide", "Skipped missing paths: dist/a.zip:src/nope.ts"},
			"among other paths, a missing path"},
	}
	for _, tt := range tests {
		env := Call(context.Background(), c, Pi, "search", []byte(tt.args))
		if env.Status != tt.status {
			t.Errorf("%s: status %s, want %s (%s)", tt.reason, env.Status, tt.status, env.Text)
		}
		for _, w := range tt.want {
			if !strings.Contains(env.Text, w) {
				t.Errorf("%s\n got: %s\nwant substring: %s", tt.reason, env.Text, w)
			}
		}
	}
}

// TestPiSearchNoLineCap: seed 000, "search.ts overrides maxLines to
// Number.MAX_SAFE_INTEGER, so normal search output is byte-capped, not
// line-capped": 4000 short lines (more than truncateHead's default 3000,
// less than 50 KB) come whole.
func TestPiSearchNoLineCap(t *testing.T) {
	var b strings.Builder
	for i := 1; i <= 4000; i++ {
		fmt.Fprintf(&b, "x%d\n", i)
	}
	c := Config{FS: fstest.MapFS{"a.txt": {Data: []byte(b.String())}}, ContextAfter: 3999}
	env := Call(context.Background(), c, Pi, "search", []byte(`{"pattern":"^x1$","paths":"a.txt"}`))
	if env.Status != scout.StatusSuccess || !strings.HasSuffix(env.Text, "\n3999:x3999\n4000:x4000") || strings.Count(env.Text, "\n") != 4000 {
		t.Errorf("%s, %d lines, ending %q: want all 4000 lines and a header", env.Status, strings.Count(env.Text, "\n"), env.Text[max(0, len(env.Text)-100):])
	}
}

// failOpenFS is a MapFS whose file fail cannot be opened (an I/O error,
// not a missing file).
type failOpenFS struct {
	fstest.MapFS
	fail string
}

func (f failOpenFS) Open(name string) (fs.File, error) {
	if name == f.fail {
		return nil, &fs.PathError{Op: "open", Path: name, Err: errors.New("input/output error")}
	}
	return f.MapFS.Open(name)
}

// TestPiSearchUnreadableFile: seed 000, "Multi-file native scans skip
// per-file open/search failures ...; the scan continues with surviving
// files". The file that fails is counted, never an error of the call.
func TestPiSearchUnreadableFile(t *testing.T) {
	tree := fstest.MapFS{
		"a.txt": {Data: []byte("needle a\n")},
		"b.txt": {Data: []byte("needle b\n")},
		"c.txt": {Data: []byte("needle c\n")},
	}
	c := Config{FS: failOpenFS{tree, "b.txt"}}
	tests := []struct {
		args, text, reason string
	}{
		{`{"pattern":"needle","paths":"."}`, "# a.txt#46AC\n*1:needle a\n\n# c.txt#84FB\n*1:needle c\n\nNot searched: 1 unreadable.", "a directory scan goes on past the file"},
		{`{"pattern":"needle","paths":["a.txt","b.txt"]}`, "# a.txt#46AC\n*1:needle a\n\nNot searched: 1 unreadable.", "so does a list of files"},
		{`{"pattern":"nothing","paths":"."}`, "No matches found\nNot searched: 1 unreadable.", "no match: the unreadable file is said"},
	}
	for _, tt := range tests {
		env := Call(context.Background(), c, Pi, "search", []byte(tt.args))
		d, _ := env.Data.(piSearchData)
		if env.Status != scout.StatusSuccess || env.Text != tt.text || d.Skipped[scout.SkipUnreadable] != 1 {
			t.Errorf("%s: %s\n got %s %q (data %+v)\nwant %q", tt.reason, tt.args, env.Status, env.Text, d, tt.text)
		}
	}
}

// TestPiSearchRangesAmongOthers: a line range on an archive member or an
// internal URL among other paths keeps that entry to its lines; the other
// paths are searched whole.
func TestPiSearchRangesAmongOthers(t *testing.T) {
	c := piSources()
	tests := []struct {
		args, want, absent, reason string
	}{
		{`{"pattern":"needle|intro","paths":["dist/a.zip:src/x.ts:2","docs/guide.md"]}`, "# dist/a.zip:src/x.ts\n*2|needle in zip\n\n# docs/guide.md#", "", "a member with a range among other paths"},
		{`{"pattern":"needle","paths":["dist/a.zip:src/x.ts:1-1","docs/guide.md"]}`, "# docs/guide.md#", "a.zip", "... that holds no match"},
		{`{"pattern":"needle|first","paths":["memory://todo:1-1","docs"]}`, "*1|first", "needle in memory", "a virtual resource"},
		{`{"pattern":"needle|intro","paths":["skill://guide:2","dist/a.zip:src/x.ts"]}`, "*2:needle in guide", "intro", "a backed resource"},
	}
	for _, tt := range tests {
		env := Call(context.Background(), c, Pi, "search", []byte(tt.args))
		if !strings.Contains(env.Text, tt.want) || tt.absent != "" && strings.Contains(env.Text, tt.absent) {
			t.Errorf("%s\n got: %s\nwant substring: %s, and no %q", tt.reason, env.Text, tt.want, tt.absent)
		}
	}
}

func TestPiSearchMeta(t *testing.T) {
	line := "hit " + strings.Repeat("x", 300) + "\n"
	tree := fstest.MapFS{
		"big.txt":  {Data: []byte(strings.Repeat(line, 200))},
		"long.txt": {Data: []byte("hit " + strings.Repeat("y", 600) + "\n")},
		"small.go": {Data: []byte("hit\n")},
	}
	tests := []struct {
		args, want, reason string
	}{
		{`{"pattern":"hit","paths":"big.txt"}`, `"meta":{"truncation":{"direction":"head","truncatedBy":"bytes","totalLines":201,"totalBytes":61906,"outputLines":166,"shownRange":{"start":1,"end":166},"nextOffset":167,"maxBytes":51200}}`, "text over 50 KB (a 14-byte header, 200 lines of 306-308 bytes): meta.truncation"},
		{`{"pattern":"hit","paths":"long.txt"}`, `"meta":{"limits":{"columnTruncated":{"maxColumn":512}}}`, "a line cut at 512 characters: meta.limits.columnTruncated"},
		{`{"pattern":"hit","paths":"small.go"}`, `"truncated":false,"displayContent":"*1│hit"}`, "nothing cut: no meta"},
	}
	for _, tt := range tests {
		env := Call(context.Background(), Config{FS: tree}, Pi, "search", []byte(tt.args))
		b, err := json.Marshal(env.Data)
		if err != nil {
			t.Fatal(err)
		}
		if !strings.Contains(string(b), tt.want) {
			t.Errorf("%s\n got: %s\nwant substring: %s", tt.reason, b, tt.want)
		}
	}
}

// leftOutConfig is a tree with one file too large (the cap is 100 bytes),
// one binary and one small text, each holding "needle".
func leftOutConfig() Config {
	c := Config{FS: fstest.MapFS{
		"big.log":   {Data: []byte(strings.Repeat("filler\n", 100) + "needle\n")},
		"small.txt": {Data: []byte("needle\n")},
		"logo.png":  {Data: []byte("\x89PNG\x00needle")},
	}}
	c.MaxFileSize = 100
	return c
}

// TestPiSearchNotSearched: files the search could not read are named
// whether or not something matched; a file over the size cap that held a
// match must never be missed without a mention.
func TestPiSearchNotSearched(t *testing.T) {
	c := leftOutConfig()
	for _, tt := range []struct{ args, want, reason string }{
		{`{"paths":".","pattern":"needle"}`, "*1:needle\n\nNot searched: 1 too large.", "matches: the too-large file is named, the binary one is not"},
		{`{"paths":".","pattern":"nothing"}`, "No matches found\nNot searched: 1 binary, 1 too large.", "no match: everything left out is named"},
	} {
		env := Call(context.Background(), c, Pi, "search", []byte(tt.args))
		if !strings.HasSuffix(env.Text, tt.want) {
			t.Errorf("%s\n got: %q\nwant suffix: %q", tt.reason, env.Text, tt.want)
		}
	}
}

// TestPiSearchSkippedData: data counts the files left out by reason, as
// pi find's data does, whether or not the text names them; a search that
// left nothing out has no skipped field.
func TestPiSearchSkippedData(t *testing.T) {
	c := leftOutConfig()
	for _, tt := range []struct {
		args   string
		want   map[scout.SkipReason]int
		reason string
	}{
		{`{"paths":".","pattern":"needle"}`, map[scout.SkipReason]int{scout.SkipBinary: 1, scout.SkipTooLarge: 1}, "matches: the text names only the too-large file, data counts both"},
		{`{"paths":".","pattern":"nothing"}`, map[scout.SkipReason]int{scout.SkipBinary: 1, scout.SkipTooLarge: 1}, "no match"},
		{`{"paths":"small.txt","pattern":"needle"}`, nil, "nothing left out: no skipped field"},
	} {
		env := Call(context.Background(), c, Pi, "search", []byte(tt.args))
		d, ok := env.Data.(piSearchData)
		if !ok {
			t.Fatalf("%s: data %T (%q)", tt.reason, env.Data, env.Text)
		}
		assert.Equal(t, tt.want, d.Skipped, tt.reason)
		js, _ := json.Marshal(env.Data)
		assert.Equal(t, tt.want != nil, strings.Contains(string(js), `"skipped":`), "%s: %s", tt.reason, js)
	}
}

// TestPiSearchSkippedPathsData: the archive entries a search named and
// left out (binary, not UTF-8, unreadable archive) are in data with why,
// as the text's note names them, so a caller never parses the note.
func TestPiSearchSkippedPathsData(t *testing.T) {
	c := piSources()
	c.FS.(fstest.MapFS)["dist/bad.zip"] = &fstest.MapFile{Data: []byte("junk")}
	for _, tt := range []struct {
		args   string
		want   string
		reason string
	}{
		{`{"pattern":"needle","paths":["dist/a.zip:logo.png","docs/guide.md"]}`,
			`"skippedPaths":[{"path":"dist/a.zip:logo.png","reason":"binary","named":true}]`, "a binary member"},
		{`{"pattern":"needle","paths":["dist/a.zip:latin.txt","docs/guide.md"]}`,
			`"skippedPaths":[{"path":"dist/a.zip:latin.txt","reason":"binary","message":"not UTF-8","named":true}]`, "a member that is not UTF-8"},
		{`{"pattern":"nothing","paths":["dist/bad.zip:src/x.ts","docs/guide.md"]}`,
			`"skippedPaths":[{"path":"dist/bad.zip:src/x.ts","reason":"unreadable","code":"UNSUPPORTED","message":"not a valid zip file","named":true}]`, "an archive that cannot be read, no match"},
		{`{"pattern":"needle","paths":"docs/guide.md"}`, "", "nothing left out: no skippedPaths field"},
	} {
		env := Call(context.Background(), c, Pi, "search", []byte(tt.args))
		js, _ := json.Marshal(env.Data)
		if tt.want == "" && strings.Contains(string(js), "skippedPaths") || tt.want != "" && !strings.Contains(string(js), tt.want) {
			t.Errorf("%s: data %s\nwant %s (text %q)", tt.reason, js, tt.want, env.Text)
		}
	}
}

// TestPiSearchScopeDisplay: scopePath (and context.path_resolved, "the
// resolved, normalised relative path") shows each entry as pi's
// formatPathRelativeToCwd does: relative to the root, cleaned, a trailing
// '/' kept when given (pi's toScopeDisplay), whatever spelling names it,
// and each path once.
func TestPiSearchScopeDisplay(t *testing.T) {
	tree := fstest.MapFS{
		"a.txt":     {Data: []byte("needle a\n")},
		"src/b.txt": {Data: []byte("needle b\n")},
	}
	root := testfs.WriteDir(t, tree)
	for _, tt := range []struct{ paths, want, reason string }{
		{`["./src", "a.txt"]`, "src, a.txt", "./ is dropped"},
		{`["src/../src/", "a.txt"]`, "src/, a.txt", "cleaned, the trailing / kept"},
		{`["` + root + `/a.txt", "src"]`, "a.txt, src", "an absolute path inside the root is shown relative to it"},
		{`["` + root + `/src/*.txt", "a.txt"]`, "src/*.txt, a.txt", "... a glob too"},
		{`"` + root + `/src/*.txt"`, "src/*.txt", "... a lone glob too"},
		{`["a.txt", "./a.txt"]`, "a.txt", "one path in two spellings is named once"},
	} {
		env := Call(context.Background(), Config{Root: root}, Pi, "search", []byte(`{"pattern":"needle","paths":`+tt.paths+`}`))
		d, ok := env.Data.(piSearchData)
		if !ok || d.ScopePath != tt.want || env.Context.PathResolved != tt.want {
			t.Errorf("%s: paths %s: scopePath %q, path_resolved %q, want %q (%s)", tt.reason, tt.paths, d.ScopePath, env.Context.PathResolved, tt.want, env.Text)
		}
	}
}

// TestPiSearchByteCapContinues: when the 50 KB cap cuts a page of files,
// the notice names the skip that shows the first file not shown whole, so
// that following the hints shows every matching line of every file, and
// never asks for the same page again.
func TestPiSearchByteCapContinues(t *testing.T) {
	tree := fstest.MapFS{}
	var want []string
	for i := range 30 {
		name := fmt.Sprintf("f%02d.txt", i)
		var b strings.Builder
		for j := 1; j <= 20; j++ {
			fmt.Fprintf(&b, "hit %d %s\n", j, strings.Repeat("z", 300))
		}
		tree[name] = &fstest.MapFile{Data: []byte(b.String())}
		want = append(want, name)
	}
	skipRe := regexp.MustCompile(`skip=(\d+)`)
	seen := map[string]bool{}
	skip, calls := 0, 0
	for {
		calls++
		if calls > 30 {
			t.Fatal("the hints do not end")
		}
		env := Call(context.Background(), Config{FS: tree}, Pi, "search", fmt.Appendf(nil, `{"paths":".","pattern":"hit","skip":%d}`, skip))
		if env.Status == scout.StatusError {
			t.Fatalf("skip=%d: %+v", skip, env.Error)
		}
		if len(env.Text) > 51200+300 {
			t.Errorf("skip=%d: %d bytes of text", skip, len(env.Text))
		}
		for _, name := range want {
			// A file is seen when its section reaches its last line.
			if i := strings.Index(env.Text, "# "+name+"#"); i >= 0 && strings.Contains(env.Text[i:], "*20:hit 20 ") {
				seen[name] = true
			}
		}
		m := skipRe.FindAllStringSubmatch(env.Text, -1)
		if len(m) == 0 {
			break
		}
		next, _ := strconv.Atoi(m[len(m)-1][1])
		if next <= skip {
			t.Fatalf("skip=%d: the hint asks for skip=%d again:\n%s", skip, next, env.Text[max(0, len(env.Text)-400):])
		}
		skip = next
	}
	for _, name := range want {
		if !seen[name] {
			t.Errorf("%s was never shown whole by following the hints (%d calls)", name, calls)
		}
	}
}

// TestPiSearchCaps: a single file shows its first 200 matching lines and
// ignores skip; in a scope of several files each shows its first 20. Both
// set perFileLimitReached; neither has a page notice.
func TestPiSearchCaps(t *testing.T) {
	lines := func(n int) []byte {
		var b strings.Builder
		for i := 1; i <= n; i++ {
			fmt.Fprintf(&b, "hit %d\n", i)
		}
		return []byte(b.String())
	}
	tree := fstest.MapFS{"big.txt": {Data: lines(250)}, "small.txt": {Data: lines(25)}}
	c := Config{FS: tree, Style: "numbered"}
	tests := []struct {
		args            string
		first, last     string // the first and last lines of the text
		matches         int
		reason          string
		notWantInText   string
		wantPerFileFlag bool
	}{
		{`{"pattern":"hit","paths":"big.txt","skip":5}`, "*1|hit 1", "*200|hit 200", 200, "a single file: 200 matches from the first, skip ignored", "skip=", true},
		{`{"pattern":"hit","paths":"small.txt"}`, "*1|hit 1", "*25|hit 25", 25, "a single file under the cap: all its matches", "skip=", false},
		{`{"paths":".","pattern":"hit"}`, "# big.txt", "*20|hit 20", 40, "a directory: 20 matches per file", "skip=", true},
	}
	for _, tt := range tests {
		env := Call(context.Background(), c, Pi, "search", []byte(tt.args))
		d, ok := env.Data.(piSearchData)
		if !ok {
			t.Fatalf("%s: data is %T", tt.reason, env.Data)
		}
		ls := strings.Split(env.Text, "\n")
		if ls[0] != tt.first || ls[len(ls)-1] != tt.last || d.MatchCount != tt.matches || d.PerFileLimitReached != tt.wantPerFileFlag || strings.Contains(env.Text, tt.notWantInText) {
			t.Errorf("%s: text %q...%q, matchCount %d, perFileLimitReached %v; want %q...%q, %d, %v, without %q",
				tt.reason, ls[0], ls[len(ls)-1], d.MatchCount, d.PerFileLimitReached, tt.first, tt.last, tt.matches, tt.wantPerFileFlag, tt.notWantInText)
		}
	}
}

// TestPiPattern: pi's pattern repairs as searched: braces that cannot be a
// repetition are escaped, and so is a '$' before one, which could never
// match there.
func TestPiPattern(t *testing.T) {
	for _, tc := range []struct{ in, want, why string }{
		{`${platform}`, `\$\{platform\}`, "a template: the '$' before an escaped brace is literal"},
		{`\${platform}`, `\$\{platform\}`, "an escaped '$' stays as it is"},
		{`\\${x}`, `\\\$\{x\}`, "an escaped backslash, then a '$' before a brace"},
		{`a${2}`, `a${2}`, "a repetition is not escaped, nor the '$' before it"},
		{`end$|{x`, `end$|\{x`, "a '$' not before a brace is an anchor"},
		{`[${]`, `[\$\{]`, "in a class the escapes change nothing"},
		{`\p{L}$`, `\p{L}$`, "a Unicode class is copied whole"},
		{`(?-u:\w)+(`, `\(?-u:\w\)+\(`, "Rust's u flag is no parse error: the unclosed group is retried with every parenthesis literal, as pi does"},
	} {
		if got, _ := piPattern(tc.in); got != tc.want {
			t.Errorf("piPattern(%q) = %q, want %q: %s", tc.in, got, tc.want, tc.why)
		}
	}
}

// TestPiSearchDisplay: details.displayContent is the page as a person
// reads it, each line behind a gutter of its number (as wide as the
// file's largest plus one, "*" marking a match), "..." at a jump, no tags;
// several files each under "# path"; none when nothing matched.
func TestPiSearchDisplay(t *testing.T) {
	var a strings.Builder
	for i := 1; i <= 24; i++ {
		if i == 3 || i == 20 {
			a.WriteString("needle  \n")
		} else {
			fmt.Fprintf(&a, "l%d\n", i)
		}
	}
	tree := fstest.MapFS{
		"a.txt":     {Data: []byte(a.String())},
		"sub/b.txt": {Data: []byte("x\nneedle " + strings.Repeat("y", 600) + "\n")},
	}
	for _, tt := range []struct{ args, want, reason string }{
		{`{"pattern":"needle","paths":"a.txt"}`,
			"  2│l2\n *3│needle\n  4│l4\n  5│l5\n  6│l6\n   │...\n 19│l19\n*20│needle\n 21│l21\n 22│l22\n 23│l23",
			"one file: no heading, a gutter 3 wide, blanks before ..."},
		{`{"pattern":"needle","paths":"."}`,
			"# a.txt\n  2│l2\n *3│needle\n  4│l4\n  5│l5\n  6│l6\n   │...\n 19│l19\n*20│needle\n 21│l21\n 22│l22\n 23│l23\n\n# sub/b.txt\n 1│x\n*2│needle " + strings.Repeat("y", 505) + "…",
			"a directory: each file under # path, its own gutter, a cut line ending in …"},
		{`{"pattern":"nothing","paths":"."}`, "", "no match: no displayContent"},
	} {
		for _, tr := range testfs.Trees(t, tree) {
			env := Call(context.Background(), Config{FS: tr.FS, Root: tr.Root}, Pi, "search", []byte(tt.args))
			d, ok := env.Data.(piSearchData)
			if !ok {
				t.Fatalf("%s: data %T, text %q", tr.Name, env.Data, env.Text)
			}
			if d.DisplayContent != tt.want {
				t.Errorf("%s (%s)\n got: %q\nwant: %q", tt.reason, tr.Name, d.DisplayContent, tt.want)
			}
			b, _ := json.Marshal(env.Data)
			if has := strings.Contains(string(b), `"displayContent"`); has != (tt.want != "") {
				t.Errorf("%s (%s): displayContent in the JSON: %v", tt.reason, tr.Name, has)
			}
		}
	}
}
