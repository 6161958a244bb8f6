package tool

import (
	"encoding/json"
	"path/filepath"
	"slices"
	"strings"
	"syscall"
	"testing"
	"testing/fstest"
	"time"

	"github.com/scoutkit/scout"
	"github.com/scoutkit/scout/internal/testfs"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// The hostile names of namesTree: a newline that would forge a match row
// after a heading, an invalid byte that JSON would turn into U+FFFD, a
// control character in a directory's name and a tab in its file's, an
// archive member with a newline.
const (
	forged  = "a\n*1|fake"
	invalid = "b\xffc"
	ctlDir  = "d\x01"
	ctlFile = "d\x01/x\ty"
	member  = "x\ny"
)

// namesTree holds files with hostile names, beside a plain one, and a
// name with quotes beside the name inside them.
func namesTree() fstest.MapFS {
	mt := time.Date(2024, 1, 1, 0, 0, 0, 0, time.UTC)
	f := func(s string) *fstest.MapFile { return &fstest.MapFile{Data: []byte(s), ModTime: mt} }
	return fstest.MapFS{
		forged:    f("hello\n"),
		invalid:   f("hello\n"),
		ctlFile:   f("hello\n"),
		"ok.txt":  f("hello\n"),
		`"q.txt"`: f("quoted literal\n"),
		"q.txt":   f("quote stripped\n"),
		"arc.zip": f(string(testfs.Zip(testfs.Member{Name: member, Body: "hello\n"}, testfs.Member{Name: "m\xffn", Body: "hello\n"}, testfs.Member{Name: "plain.txt", Body: "hello\n"}))),
	}
}

// forgedLine reports a line of text that a name forged: one that starts
// with the fake match row, or holds a name's raw control or invalid byte,
// or U+FFFD for it.
func forgedLine(text string) string {
	for l := range strings.SplitSeq(text, "\n") {
		if strings.HasPrefix(l, "*1|fake") || strings.ContainsAny(l, "\x01\t\ufffd") || strings.IndexByte(l, 0xff) >= 0 {
			return l
		}
	}
	return ""
}

// opens reports whether tr can open the file that s, a text or data
// expected, names: an io/fs path must be UTF-8 (fs.ValidPath), so a MapFS
// lists but cannot open the name that is not; a directory can.
func opens(tr testfs.Tree, s string) bool {
	return tr.FS == nil || !strings.Contains(s, `\xff`)
}

// TestNamesCannotForgeLines runs every tool that lists names over a tree
// with hostile names: the text shows each in its quoted form (no line of
// it comes from a name), and the data carries a valid UTF-8 name exact and
// an invalid one quoted, never as U+FFFD.
func TestNamesCannotForgeLines(t *testing.T) {
	tests := []struct {
		toolset, name, args string
		style               string
		want                []string // in the text
		data                []string // in the data's JSON
		why                 string
	}{
		{Pi, "search", `{"pattern":"hello","paths":"."}`, "", []string{`# "a\n*1|fake"#5BF9`, `# "b\xffc"#5BF9`, `# "d\x01/x\ty"#5BF9`, "# ok.txt#5BF9"},
			[]string{`"a\n*1|fake"`, `"\"b\\xffc\""`}, "hashline headings"},
		{Pi, "search", `{"pattern":"hello","paths":"."}`, "plain", []string{`# "a\n*1|fake"`, `# "b\xffc"`, "*1|hello"}, nil, "plain headings"},
		{Pi, "search", `{"pattern":"hello","paths":"arc.zip"}`, "", []string{`# "arc.zip:x\ny"`, "# arc.zip:plain.txt"}, []string{`"arc.zip:x\ny"`}, "an archive member's heading"},
		{Pi, "find", `{"paths":["**/*"]}`, "", []string{`"a\n*1|fake"`, `"b\xffc"`, `# "d\x01"/`, `"x\ty"`}, []string{`"a\n*1|fake"`, `"\"b\\xffc\""`, `"d\u0001/x\ty"`}, "grouped paths"},
		{Pi, "read", `{"path":"."}`, "", []string{`  - "a\n*1|fake"`, `  - "b\xffc"`, `  - "d\x01"/`, `    - "x\ty"`}, []string{`"path":"\"b\\xffc\""`}, "directory tree rows"},
		{Pi, "read", `{"path":"arc.zip"}`, "", []string{`"m\xffn" (6B)`, "plain.txt (6B)", `"x\ny" (6B)`}, []string{`"path":"x\ny"`, `"path":"\"m\\xffn\""`}, "archive listing"},
		{Amplifier, "grep", `{"pattern":"hello"}`, "", []string{`"a\n*1|fake"`, `"b\xffc"`, "ok.txt"}, []string{`"a\n*1|fake"`, `"\"b\\xffc\""`}, "files_with_matches"},
		{Amplifier, "grep", `{"pattern":"hello","output_mode":"content"}`, "", []string{`"a\n*1|fake":1:hello`, `"b\xffc":1:hello`}, []string{`"file":"\"b\\xffc\""`}, "content"},
		{Amplifier, "grep", `{"pattern":"hello","output_mode":"count"}`, "", []string{`"a\n*1|fake":1`, `"b\xffc":1`}, []string{`"\"b\\xffc\"":1`}, "count"},
		{Amplifier, "glob", `{"pattern":"**/*"}`, "", []string{`"a\n*1|fake"`, `"b\xffc"`, `"d\x01"/`}, []string{`"path":"\"b\\xffc\""`}, "glob"},
		{Standardized, "Glob", `{"pattern":"**/*"}`, "", []string{`"a\n*1|fake"`, `"b\xffc"`, `"d\x01/x\ty"`}, []string{`"\"b\\xffc\""`}, "Glob"},
	}
	for _, tr := range testfs.Trees(t, namesTree()) {
		for _, tt := range tests {
			t.Run(tr.Name+"/"+tt.toolset+"/"+tt.name+"/"+tt.why, func(t *testing.T) {
				env, _ := call(t, Config{FS: tr.FS, Root: tr.Root, Style: tt.style}, tt.toolset, tt.name, tt.args)
				if env.Status == scout.StatusError {
					t.Fatalf("error: %s", env.Text)
				}
				if l := forgedLine(env.Text); l != "" {
					t.Errorf("a name forged the line %q in:\n%s", l, env.Text)
				}
				for _, w := range tt.want {
					if !opens(tr, w) {
						continue
					}
					if !slices.ContainsFunc(strings.Split(env.Text, "\n"), func(l string) bool { return strings.HasPrefix(l, w) }) {
						t.Errorf("text lacks a line starting %q:\n%s", w, env.Text)
					}
				}
				js, err := json.Marshal(env.Data)
				if err != nil {
					t.Fatal(err)
				}
				if strings.Contains(string(js), `\ufffd`) {
					t.Errorf("data holds U+FFFD: %s", js)
				}
				for _, w := range tt.data {
					if opens(tr, w) && !strings.Contains(string(js), w) {
						t.Errorf("data lacks %s: %s", w, js)
					}
				}
			})
		}
	}
}

// TestNamesRoundTrip passes the quoted names the text shows back to the
// tools that take a path: each finds the file, the directory or the
// member. A name that starts and ends with a quote is read as written when
// it exists, else pi's reading drops the quotes, else the Go form is
// unquoted.
func TestNamesRoundTrip(t *testing.T) {
	tests := []struct {
		toolset, name, args string
		want                string // a line of the text
		why                 string
	}{
		{Pi, "read", `{"path":"\"a\\n*1|fake\""}`, `¶"a\n*1|fake"#5BF9`, "read a quoted name"},
		{Pi, "read", `{"path":"\"b\\xffc\""}`, `¶"b\xffc"#5BF9`, "read an invalid byte"},
		{Pi, "read", `{"path":"\"b\\xffc\":1"}`, "1:hello", "read a quoted name with a selector"},
		{Pi, "read", `{"path":"\"d\\x01\"/\"x\\ty\""}`, `¶"d\x01/x\ty"#5BF9`, "read a name from the grouped listing, its directory joined"},
		{Pi, "read", `{"path":"\"d\\x01\""}`, `  - "x\ty"  6B        just now`, "read a quoted directory"},
		{Pi, "read", `{"path":"arc.zip:\"x\\ny\""}`, "1:hello", "read a quoted archive member"},
		{Pi, "read", `{"path":"\"arc.zip:x\\ny\""}`, "1:hello", "read a member from its quoted heading"},
		{Pi, "read", `{"path":"arc.zip:\"m\\xffn\""}`, "1:hello", "read a zip member whose name is not UTF-8"},
		{Pi, "read", `{"path":"\"q.txt\""}`, "1:quoted literal", "a name with quotes that exists wins"},
		{Pi, "read", `{"path":"\"ok.txt\""}`, "1:hello", "pi drops the quotes around an existing path"},
		{Pi, "search", `{"pattern":"hello","paths":"\"a\\n*1|fake\""}`, `¶"a\n*1|fake"#5BF9`, "search a quoted name: its '*' is no glob"},
		{Pi, "search", `{"pattern":"hello","paths":["\"b\\xffc\"","ok.txt"]}`, `# "b\xffc"#5BF9`, "search a quoted name among others"},
		{Pi, "search", `{"pattern":"hello","paths":"\"b\\xffc\":1"}`, "*1:hello", "search a quoted name with a selector"},
		{Pi, "search", `{"pattern":"hello","paths":"arc.zip:\"x\\ny\""}`, "*1|hello", "search a quoted archive member"},
		{Pi, "search", `{"pattern":".","paths":"\"q.txt\""}`, "*1:quoted literal", "search: a name with quotes that exists wins"},
		{Pi, "search", `{"pattern":"hello","paths":"\"ok.txt\""}`, "*1:hello", "search: pi drops the quotes"},
		{Pi, "find", `{"paths":["\"d\\x01\""]}`, `"x\ty"`, "find below a quoted directory"},
		{Pi, "find", `{"paths":["\"a\\n*1|fake\""]}`, `"a\n*1|fake"`, "find a quoted file: its '*' is no glob"},
		{Pi, "find", `{"paths":["\"q.txt\""]}`, `"q.txt"`, "find: a name with quotes that exists wins"},
		{Pi, "find", `{"paths":["\"ok.txt\""]}`, "ok.txt", "find: pi drops the quotes"},
		{Amplifier, "grep", `{"pattern":"hello","path":"\"a\\n*1|fake\""}`, `"a\n*1|fake"`, "grep a quoted path"},
		{Amplifier, "grep", `{"pattern":"hello","path":"\"d\\x01\""}`, `"d\x01/x\ty"`, "grep a quoted directory"},
		{Amplifier, "glob", `{"pattern":"*","path":"\"d\\x01\""}`, `"d\x01/x\ty"`, "glob below a quoted directory"},
		{Standardized, "Glob", `{"pattern":"*","path":"\"d\\x01\""}`, `"d\x01/x\ty"`, "Glob below a quoted directory"},
	}
	for _, tr := range testfs.Trees(t, namesTree()) {
		for _, tt := range tests {
			t.Run(tr.Name+"/"+tt.why, func(t *testing.T) {
				if !opens(tr, tt.args) {
					t.Skip("io/fs cannot open a name that is not UTF-8")
				}
				cfg := Config{FS: tr.FS, Root: tr.Root, Now: func() time.Time { return time.Date(2024, 1, 1, 0, 0, 0, 0, time.UTC) }}
				env, _ := call(t, cfg, tt.toolset, tt.name, tt.args)
				if env.Status == scout.StatusError {
					t.Fatalf("%s %s: error: %s (%s)", tt.name, tt.args, env.Text, tt.why)
				}
				if !slices.Contains(strings.Split(env.Text, "\n"), tt.want) {
					t.Errorf("%s %s: text lacks the line %q (%s):\n%s", tt.name, tt.args, tt.want, tt.why, env.Text)
				}
			})
		}
	}
}

// TestNamesQuotedRefused: a quoted name that unquotes to a NUL or out of
// the root is refused as the same path would be, and one that names
// nothing is missing under the name given.
func TestNamesQuotedRefused(t *testing.T) {
	tests := []struct {
		toolset, name, args string
		code                scout.Code
		why                 string
	}{
		{Pi, "read", `{"path":"\"a\\x00b\""}`, scout.CodeInvalidParam, "read: a NUL"},
		{Pi, "search", `{"pattern":"x","paths":"\"a\\x00b\""}`, scout.CodeInvalidParam, "search: a NUL"},
		{Pi, "find", `{"paths":["\"a\\x00b\""]}`, scout.CodeInvalidParam, "find: a NUL"},
		{Amplifier, "grep", `{"pattern":"x","path":"\"a\\x00b\""}`, scout.CodeInvalidParam, "grep: a NUL"},
		{Pi, "read", `{"path":"\"../x\\n\""}`, scout.CodeAccessDenied, "read: out of the root"},
		{Pi, "search", `{"pattern":"x","paths":"\"../x\\n\""}`, scout.CodeAccessDenied, "search: out of the root"},
		{Pi, "find", `{"paths":["\"../x\\n\""]}`, scout.CodeAccessDenied, "find: out of the root"},
		{Amplifier, "glob", `{"pattern":"*","path":"\"../x\\n\""}`, scout.CodeAccessDenied, "glob: out of the root"},
		{Standardized, "Glob", `{"pattern":"*","path":"\"../x\\n\""}`, scout.CodeAccessDenied, "Glob: out of the root"},
		{Pi, "read", `{"path":"\"nope\\n\""}`, scout.CodeNotFound, "read: missing"},
		{Pi, "search", `{"pattern":"x","paths":"\"nope\\n\""}`, scout.CodeNotFound, "search: missing"},
	}
	for _, tr := range testfs.Trees(t, namesTree()) {
		for _, tt := range tests {
			t.Run(tr.Name+"/"+tt.why, func(t *testing.T) {
				env, _ := call(t, Config{FS: tr.FS, Root: tr.Root}, tt.toolset, tt.name, tt.args)
				if env.Status != scout.StatusError || env.Error.Code != tt.code {
					t.Fatalf("%s %s: %s %q, want the error %s (%s)", tt.name, tt.args, env.Status, env.Text, tt.code, tt.why)
				}
			})
		}
	}
}

// TestNamesInErrors: an error message that names a hostile archive member
// and its link target, or a missing path, shows each quoted, so none
// forges a line.
func TestNamesInErrors(t *testing.T) {
	tar := testfs.Tar(testfs.Member{Name: "l\n*1|fake", Link: "t\n*2|fake"})
	for _, tr := range testfs.Trees(t, fstest.MapFS{"arc.tar": {Data: tar}}) {
		t.Run(tr.Name, func(t *testing.T) {
			env, _ := call(t, Config{FS: tr.FS, Root: tr.Root}, Pi, "read", `{"path":"arc.tar:\"l\\n*1|fake\""}`)
			require.Equal(t, scout.StatusError, env.Status, env.Text)
			assert.Contains(t, env.Text, `Archive entry '"l\n*1|fake"' is a link to '"t\n*2|fake"'`)
			for l := range strings.SplitSeq(env.Text, "\n") {
				assert.False(t, strings.HasPrefix(l, "*1|") || strings.HasPrefix(l, "*2|"), "forged line %q in:\n%s", l, env.Text)
			}
			for _, c := range []struct{ args, want string }{
				{`{"pattern":"x","paths":"nope\u0001x"}`, `Path not found: "nope\x01x"`},
				{`{"pattern":"x","paths":"nope\u0001x:5"}`, `Path not found for line-range selector: "nope\x01x"`},
			} {
				env, _ := call(t, Config{FS: tr.FS, Root: tr.Root}, Pi, "search", c.args)
				require.Equal(t, scout.StatusError, env.Status, env.Text)
				assert.Contains(t, env.Text, c.want)
				assert.NotContains(t, env.Text, "\x01", "a raw control character")
			}
			for _, c := range []struct{ toolset, name, args string }{
				{Pi, "find", `{"paths":["nope\n1|fake/*.go"]}`},
				{Amplifier, "grep", `{"pattern":"x","path":"nope\n1|fake"}`},
			} {
				env, _ := call(t, Config{FS: tr.FS, Root: tr.Root}, c.toolset, c.name, c.args)
				require.Equal(t, scout.StatusError, env.Status, env.Text)
				assert.Contains(t, env.Text, `Path not found: "nope\n1|fake"`, c.toolset+" "+c.name)
			}
			env, _ = call(t, Config{FS: tr.FS, Root: tr.Root}, Standardized, "Glob", `{"pattern":"*","path":"nope\n*1|fake"}`)
			require.Equal(t, scout.StatusError, env.Status, env.Text)
			assert.Contains(t, env.Text, `Search root '"nope\n*1|fake"' does not exist.`)
			env, _ = call(t, Config{FS: tr.FS, Root: tr.Root}, Pi, "search", `{"pattern":"x","paths":"arc.tar:../\u0001"}`)
			require.Equal(t, scout.StatusError, env.Status, env.Text)
			assert.Contains(t, env.Text, `Archive path '"../\x01"' contains '..'`)
		})
	}
}

// TestNamesInReadErrors: read's errors about a file show a hostile name
// quoted, so a name cannot forge a line of the message (the failed
// conversions, the not-found path and document).
func TestNamesInReadErrors(t *testing.T) {
	tree := fstest.MapFS{
		"n\n*1|fake.ipynb": {Data: []byte("{bad")},
		"p\n*1|fake.pdf":   {Data: []byte("%PDF-1.4 garbage")},
		"i\n*1|fake.gif":   {Data: []byte("GIF89a")},
	}
	rows := []struct{ path, want string }{
		{"n\n*1|fake.ipynb", `Cannot read notebook '"n\n*1|fake.ipynb"'`},
		{"p\n*1|fake.pdf", `Read '"p\n*1|fake.pdf":raw' to get the file as it is`},
		{"i\n*1|fake.gif", `Cannot read image '"i\n*1|fake.gif"'`},
		{"nope\n*1|fake", `Path '"nope\n*1|fake"' not found`},
		{"omp://no\npe", `Not found: omp://"no\npe"`},
	}
	for _, tr := range testfs.Trees(t, tree) {
		t.Run(tr.Name, func(t *testing.T) {
			for _, r := range rows {
				args, err := json.Marshal(map[string]string{"path": r.path})
				require.NoError(t, err)
				env, _ := call(t, Config{FS: tr.FS, Root: tr.Root}, Pi, "read", string(args))
				assert.Contains(t, env.Text, r.want) // pi's read shows a failed conversion as its text
				for l := range strings.SplitSeq(env.Text, "\n") {
					assert.False(t, strings.HasPrefix(l, "*1|"), "forged line %q in:\n%s", l, env.Text)
				}
			}
		})
	}
}

// TestNamesInReadErrorsFIFO: the error for a file that is not regular
// quotes its name (a named pipe, which only a real directory holds).
func TestNamesInReadErrorsFIFO(t *testing.T) {
	dir := t.TempDir()
	if err := syscall.Mkfifo(filepath.Join(dir, "f\n*1|fifo"), 0o644); err != nil {
		t.Skip("no named pipes here:", err)
	}
	env, _ := call(t, Config{Root: dir}, Pi, "read", `{"path":"f\n*1|fifo"}`)
	require.Equal(t, scout.StatusError, env.Status, env.Text)
	assert.Contains(t, env.Text, `Cannot read '"f\n*1|fifo"': it is not a regular file`)
}
