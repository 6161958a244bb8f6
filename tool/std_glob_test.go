package tool

import (
	"context"
	"encoding/json"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"testing/fstest"
	"time"

	"github.com/stretchr/testify/assert"

	"github.com/scoutkit/scout"
	"github.com/scoutkit/scout/internal/testfs"
)

func TestStdGlobBreakers(t *testing.T) {
	m := fstest.MapFS{}
	for i := range 20100 {
		m[fmt.Sprintf("f%05d.txt", i)] = &fstest.MapFile{}
	}
	m["a.py"] = &fstest.MapFile{}
	cfg := Config{FS: m}
	defer func(d time.Duration) { stdMaxDuration = d }(stdMaxDuration)
	stdMaxDuration = time.Minute

	env := Call(context.Background(), cfg, Standardized, "Glob", []byte(`{"pattern":"*.go"}`))
	if env.Status != scout.StatusError || env.Error.Code != scout.CodeInternal || !strings.Contains(env.Text, "more than 20000 items") {
		t.Fatalf("no match before the count breaker: %s %+v %q", env.Status, env.Error, env.Text)
	}
	if d := env.Data.(*stdGlobData); d.AbortedReason != "count_limit" {
		t.Errorf("data = %v, want aborted_reason count_limit", d)
	}
	if got := string(env.Context.ParamsInput); got != `{"pattern":"*.go"}` {
		t.Errorf("params_input = %s, want the arguments as given", got)
	}

	env = Call(context.Background(), cfg, Standardized, "Glob", []byte(`{"pattern":"*.py"}`))
	if env.Status != scout.StatusPartial || !strings.Contains(env.Text, "[Partial: Scanned more than 20000 items") {
		t.Fatalf("match before the count breaker: %s %q", env.Status, env.Text)
	}
	assert.Equal(t, &stdGlobData{Paths: []string{"a.py"}, AbortedReason: "count_limit"}, env.Data)
	if js, _ := json.Marshal(env.Data); string(js) != `{"paths":["a.py"],"truncated":false,"aborted_reason":"count_limit"}` {
		t.Errorf("data = %s, want the Glob fields in their order", js)
	}
	if env.Stats.Visited < 20000 {
		t.Errorf("visited %d, want the breaker's 20000", env.Stats.Visited)
	}

	// Matches past the limit before the breaker: both truncated and aborted.
	env = Call(context.Background(), cfg, Standardized, "Glob", []byte(`{"pattern":"f*.txt","limit":3}`))
	if d := env.Data.(*stdGlobData); env.Status != scout.StatusPartial || !d.Truncated || d.AbortedReason != "count_limit" {
		t.Errorf("limit and breaker: %s %v", env.Status, d)
	}
}

// TestRelativeRootAbsolutePath: an absolute path inside the project root is
// accepted when the root is given as a relative path or left to the current
// directory.
func TestRelativeRootAbsolutePath(t *testing.T) {
	dir := t.TempDir()
	if err := os.MkdirAll(filepath.Join(dir, "src", "a,b"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "src", "a.py"), nil, 0o644); err != nil {
		t.Fatal(err)
	}
	t.Chdir(dir)
	abs := filepath.ToSlash(filepath.Join(dir, "src"))
	for _, tc := range []struct{ root, toolset, name, args string }{
		{".", Standardized, "Glob", `{"pattern":"*.py","path":"` + abs + `"}`},
		{"", Standardized, "Glob", `{"pattern":"*.py","path":"` + abs + `"}`},
		{".", Amplifier, "glob", `{"pattern":"*.py","path":"` + abs + `"}`},
		{".", Pi, "find", `{"paths":["` + abs + `/a,b"]}`}, // an existing name with a comma is one path
	} {
		env := Call(context.Background(), Config{Root: tc.root}, tc.toolset, tc.name, []byte(tc.args))
		if env.Status == scout.StatusError {
			t.Errorf("root %q, %s %s: %s", tc.root, tc.name, tc.args, env.Text)
		}
	}
}

// TestStdGlobTimeLimit: the 2 s breaker gives a partial result with
// aborted_reason time_limit and the time-limit notice, or a TIMEOUT error when
// nothing matched yet.
func TestStdGlobTimeLimit(t *testing.T) {
	m := fstest.MapFS{"a.py": &fstest.MapFile{}}
	dir := "d"
	for range 20 { // a chain of directories, read one after the other
		dir += "/d"
	}
	m[dir+"/z.py"] = &fstest.MapFile{}
	cfg := Config{FS: testfs.SlowFS{MapFS: m, Delay: 150 * time.Millisecond}}
	for _, tc := range []struct{ args, status, text string }{
		{`{"pattern":"**/*.py"}`, "partial", "\n[Partial: Search timed out (>2s). Results are incomplete.]\n\na.py"},
		{`{"pattern":"**/*.go"}`, "error", "\n[Error: Search timed out (>2s) before any match. Narrow path or pattern.]"},
	} {
		t.Run(tc.args, func(t *testing.T) {
			t.Parallel()
			env := Call(context.Background(), cfg, Standardized, "Glob", []byte(tc.args))
			d, _ := env.Data.(*stdGlobData)
			if string(env.Status) != tc.status || d == nil || d.AbortedReason != "time_limit" || !strings.HasSuffix(env.Text, tc.text) {
				t.Fatalf("%s %+v %q, want %s with time_limit and %q", env.Status, d, env.Text, tc.status, tc.text)
			}
			if tc.status == "error" && env.Error.Code != scout.CodeTimeout {
				t.Errorf("error %+v, want TIMEOUT", env.Error)
			}
		})
	}
}

// TestStdGlobTreeOrder: paths come as a sorted top-down walk lists
// them (a directory's own files before its subdirectories'), and the limit
// keeps the first of that order.
func TestStdGlobTreeOrder(t *testing.T) {
	m := fstest.MapFS{}
	for _, p := range []string{"tests.py", "b.py", "src/z.py", "src/a.py", "src/utils/io.py", "a/deep/x.py"} {
		m[p] = &fstest.MapFile{}
	}
	for _, c := range []struct {
		args string
		want []string
	}{
		{`{"pattern":"**/*.py"}`, []string{"b.py", "tests.py", "a/deep/x.py", "src/a.py", "src/z.py", "src/utils/io.py"}},
		{`{"pattern":"**/*.py","limit":3}`, []string{"b.py", "tests.py", "a/deep/x.py"}},
	} {
		env := Call(context.Background(), Config{FS: m}, Standardized, "Glob", []byte(c.args))
		if d, ok := env.Data.(*stdGlobData); assert.True(t, ok, "%s: data %v", c.args, env.Data) {
			assert.Equal(t, c.want, d.Paths, c.args)
		}
	}
	// Names sort by their bytes, as Python's sorted() sorts them: upper
	// case, then '_', then lower case.
	m = fstest.MapFS{"a.py": {}, "_c.py": {}, "Z.py": {}, "B.py": {}, "a/x.py": {}, "B/y.py": {}}
	env := Call(context.Background(), Config{FS: m}, Standardized, "Glob", []byte(`{"pattern":"**/*.py"}`))
	if d, ok := env.Data.(*stdGlobData); assert.True(t, ok, env.Text) {
		assert.Equal(t, []string{"B.py", "Z.py", "_c.py", "a.py", "B/y.py", "a/x.py"}, d.Paths)
	}
}

// slowStatFS delays Stat as SlowFS delays ReadDir: time spent before the
// walk (the search root's stat) counts in the call's time.
type slowStatFS struct{ testfs.SlowFS }

func (s slowStatFS) Stat(name string) (fs.FileInfo, error) {
	time.Sleep(s.Delay)
	return s.MapFS.Stat(name)
}

// TestStdGlobTextStats: the text's "(Scanned V items in Tms)" gives the
// envelope's stats.visited and stats.time_ms, as the contract's example
// does (12000 items in 2010ms; visited 12000, time_ms 2010), also when the
// call spends time outside the walk.
func TestStdGlobTextStats(t *testing.T) {
	m := fstest.MapFS{"a.py": &fstest.MapFile{}, "src/b.py": &fstest.MapFile{}, "src/c/d.py": &fstest.MapFile{}}
	cfg := Config{FS: slowStatFS{testfs.SlowFS{MapFS: m, Delay: 5 * time.Millisecond}}}
	re := regexp.MustCompile(`\(Scanned (\d+) items in (\d+)ms\)`)
	for _, args := range []string{`{"pattern":"**/*.py"}`, `{"pattern":"**/*.py","limit":1}`, `{"pattern":"*.go","path":"src"}`} {
		env := Call(context.Background(), cfg, Standardized, "Glob", []byte(args))
		sm := re.FindStringSubmatch(env.Text)
		if sm == nil {
			t.Fatalf("%s: text %q lacks the scanned line", args, env.Text)
		}
		want := fmt.Sprintf("(Scanned %d items in %dms)", env.Stats.Visited, env.Stats.TimeMS)
		if sm[0] != want || env.Stats.TimeMS < 5 {
			t.Errorf("%s: text says %s, stats say %s", args, sm[0], want)
		}
	}
}

// TestStdGlobPatternNotRelative: a pattern is matched below path, so an
// absolute one or one that climbs out of path would match nothing; it is an
// INVALID_PARAM error that names the path to give instead, one that works
// when followed (the leading directory taken from path), or ACCESS_DENIED
// when that path is out of the project root.
func TestStdGlobPatternNotRelative(t *testing.T) {
	m := fstest.MapFS{"src/a.py": &fstest.MapFile{}, "src/lib/b.py": &fstest.MapFile{}, "b.py": &fstest.MapFile{}}
	cfg := Config{FS: m, Root: "/proj"}
	for _, tc := range []struct {
		reason, args string
		code         scout.Code
		want         string
	}{
		{"absolute", `{"pattern":"/proj/src/*.py"}`, scout.CodeInvalidParam, `{"path": "/proj/src", "pattern": "*.py"}`},
		{"climbs out of path", `{"pattern":"../*.py","path":"src"}`, scout.CodeInvalidParam, `{"path": ".", "pattern": "*.py"}`},
		{"climbs out of a deeper path", `{"pattern":"../*.py","path":"src/lib"}`, scout.CodeInvalidParam, `{"path": "src", "pattern": "*.py"}`},
		{"climbs after a directory", `{"pattern":"src/../**/*.py"}`, scout.CodeInvalidParam, `{"path": ".", "pattern": "**/*.py"}`},
		{"climbs out of the root", `{"pattern":"../*.py"}`, scout.CodeAccessDenied, "Access denied. Path must be within project root."},
		{"absolute, out of the root", `{"pattern":"/etc/*.conf"}`, scout.CodeAccessDenied, "Access denied. Path must be within project root."},
		{"the file system's root, out of the project root", `{"pattern":"/*.py"}`, scout.CodeAccessDenied, "Access denied. Path must be within project root."},
		{"the file system's root, doubled", `{"pattern":"//*.py"}`, scout.CodeAccessDenied, "Access denied. Path must be within project root."},
		{"climbs after a glob", `{"pattern":"**/../*.py","path":"src"}`, scout.CodeInvalidParam, "Pattern '**/../*.py' cannot match: patterns are matched against the paths below the directory searched, 'src', which are relative and never hold '..'"},
	} {
		env := Call(context.Background(), cfg, Standardized, "Glob", []byte(tc.args))
		if assert.Equal(t, scout.StatusError, env.Status, tc.reason) {
			assert.Equal(t, tc.code, env.Error.Code, tc.reason)
			assert.Contains(t, env.Error.Message, tc.want, tc.reason)
		}
		// The hint works when followed.
		if i := strings.Index(env.Text, "e.g. "); i >= 0 {
			hint := strings.TrimSuffix(env.Text[i+len("e.g. "):], ".")
			again := Call(context.Background(), cfg, Standardized, "Glob", []byte(hint))
			assert.NotEqual(t, scout.StatusError, again.Status, "%s: the hint %s: %s", tc.reason, hint, again.Text)
		}
	}
	for _, args := range []string{`{"pattern":"**/*.py"}`, `{"pattern":"src/*.py"}`, `{"pattern":"a..b/*.py"}`} {
		env := Call(context.Background(), cfg, Standardized, "Glob", []byte(args))
		assert.NotEqual(t, scout.StatusError, env.Status, "%s: %s", args, env.Text)
	}
}

// TestStdGlobFSRoot: "/" is an absolute path like any other, outside the
// project root (seed 002: 解析后的路径必须在 project_root 内，否则报
// ACCESS_DENIED), not the project root as pi reads it; unless the project
// root is "/" itself.
func TestStdGlobFSRoot(t *testing.T) {
	m := fstest.MapFS{"a.py": &fstest.MapFile{}}
	for _, tc := range []struct {
		root, path string
		code       scout.Code // "" when the call succeeds
	}{
		{"/proj", "/", scout.CodeAccessDenied},
		{"/proj", "//", scout.CodeAccessDenied},
		{"", "/", scout.CodeAccessDenied},
		{"/", "/", ""},
		{"/proj", "/proj", ""},
	} {
		env := Call(context.Background(), Config{FS: m, Root: tc.root}, Standardized, "Glob", []byte(`{"pattern":"*.py","path":"`+tc.path+`"}`))
		var code scout.Code
		if env.Error != nil {
			code = env.Error.Code
		}
		assert.Equal(t, tc.code, code, "root %q path %q: %s", tc.root, tc.path, env.Text)
		if tc.code == scout.CodeAccessDenied {
			assert.Equal(t, "Access denied. Path must be within project root.", env.Text)
		}
	}
}

// TestStdGlobContext: the context fields of seed 002 §3.2: cwd, the
// arguments as given (params_input), the searched path relative to the
// project root in POSIX form (path_resolved) and the pattern in POSIX form
// (pattern_normalized); an error keeps cwd and params_input.
func TestStdGlobContext(t *testing.T) {
	m := fstest.MapFS{"a.py": &fstest.MapFile{}, "src/main.py": &fstest.MapFile{}, "src/utils/io.py": &fstest.MapFile{}}
	rows := []struct{ reason, args, want string }{
		{"the contract's example", `{"pattern": "**/*.py", "path": "src", "limit": 2}`,
			`{"cwd":".","params_input":{"pattern":"**/*.py","path":"src","limit":2},"path_resolved":"src","pattern_normalized":"**/*.py"}`},
		{"path defaults to the project root", `{"pattern":"*.py"}`,
			`{"cwd":".","params_input":{"pattern":"*.py"},"path_resolved":".","pattern_normalized":"*.py"}`},
		{"a Windows pattern becomes POSIX", `{"pattern":"utils\\*.py","path":"src"}`,
			`{"cwd":".","params_input":{"pattern":"utils\\*.py","path":"src"},"path_resolved":"src","pattern_normalized":"utils/*.py"}`},
		{"a Windows path becomes POSIX", `{"pattern":"*.py","path":"src\\utils"}`,
			`{"cwd":".","params_input":{"pattern":"*.py","path":"src\\utils"},"path_resolved":"src/utils","pattern_normalized":"*.py"}`},
		{"an absolute path inside the root becomes relative", `{"pattern":"*.py","path":"ROOT/src"}`,
			`{"cwd":".","params_input":{"pattern":"*.py","path":"ROOT/src"},"path_resolved":"src","pattern_normalized":"*.py"}`},
		{"a path is cleaned", `{"pattern":"./*.py","path":"./src/utils/../"}`,
			`{"cwd":".","params_input":{"pattern":"./*.py","path":"./src/utils/../"},"path_resolved":"src","pattern_normalized":"*.py"}`},
		{"'./' alone is a pattern of its own, no empty one", `{"pattern":"./"}`,
			`{"cwd":".","params_input":{"pattern":"./"},"path_resolved":".","pattern_normalized":"./"}`},
		{"params_input keeps the numbers as given", `{"pattern":"*.py","limit":2.0}`,
			`{"cwd":".","params_input":{"pattern":"*.py","limit":2.0},"path_resolved":".","pattern_normalized":"*.py"}`},
		{"an error keeps cwd and params_input", `{"pattern":"*.py","path":"nope"}`,
			`{"cwd":".","params_input":{"pattern":"*.py","path":"nope"}}`},
	}
	for _, tr := range testfs.Trees(t, m) {
		cfg := Config{FS: tr.FS, Root: tr.Root}
		if tr.FS != nil {
			cfg.Root = "/proj"
		}
		for _, tc := range rows {
			args, want := strings.ReplaceAll(tc.args, "ROOT", cfg.Root), strings.ReplaceAll(tc.want, "ROOT", cfg.Root)
			env := Call(context.Background(), cfg, Standardized, "Glob", []byte(args))
			got, err := json.Marshal(env.Context)
			if assert.NoError(t, err, tc.reason) {
				assert.JSONEq(t, want, string(got), "%s, %s: %s", tr.Name, tc.reason, args)
			}
		}
	}
}

// TestStdGlobIgnoredDirs: with include_ignored false the contract's
// directories are pruned (seed 002 §5.3), each of them, and only
// directories: a file of such a name is listed. include_ignored brings the
// directories back. .git, directory or file, is never listed.
func TestStdGlobIgnoredDirs(t *testing.T) {
	for _, name := range []string{".git", ".hg", ".svn", "__pycache__", "node_modules", "target", "build", "dist", ".idea", ".vscode", ".DS_Store", "venv", ".venv", ".mypy_cache", ".pytest_cache", ".ruff_cache", ".tox", ".cache", "site-packages"} {
		m := fstest.MapFS{name + "/x.py": &fstest.MapFile{}, "sub/" + name: &fstest.MapFile{}, "z.py": &fstest.MapFile{}}
		for _, tr := range testfs.Trees(t, m) {
			for _, tc := range []struct {
				args string
				want []string
			}{
				{`{"pattern":"**/*","include_hidden":true}`, []string{"z.py", "sub/" + name}},
				{`{"pattern":"**/*","include_hidden":true,"include_ignored":true}`, []string{"z.py", name + "/x.py", "sub/" + name}},
			} {
				if name == ".git" {
					tc.want = []string{"z.py"}
				}
				env := Call(context.Background(), Config{FS: tr.FS, Root: tr.Root}, Standardized, "Glob", []byte(tc.args))
				if d, ok := env.Data.(*stdGlobData); assert.True(t, ok, "%s %s: %s", name, tc.args, env.Text) {
					assert.ElementsMatch(t, tc.want, d.Paths, "%s, %s %s", tr.Name, name, tc.args)
				}
			}
		}
	}
}

// TestStdGlobDefaultLimit: limit defaults to 50 (seed 002 §2.2): 50
// matches are all returned, 51 are cut to 50 with truncated set.
func TestStdGlobDefaultLimit(t *testing.T) {
	for _, tc := range []struct {
		files     int
		status    scout.Status
		truncated bool
	}{
		{50, scout.StatusSuccess, false},
		{51, scout.StatusPartial, true},
	} {
		m := fstest.MapFS{}
		for i := range tc.files {
			m[fmt.Sprintf("f%02d.py", i)] = &fstest.MapFile{}
		}
		env := Call(context.Background(), Config{FS: m}, Standardized, "Glob", []byte(`{"pattern":"*.py"}`))
		d, ok := env.Data.(*stdGlobData)
		if !ok || env.Status != tc.status || len(d.Paths) != 50 || d.Truncated != tc.truncated {
			t.Errorf("%d files: %s %q; want %s, 50 paths, truncated %v", tc.files, env.Status, env.Text, tc.status, tc.truncated)
		}
	}
}

// TestPathArgAsWritten: the path argument of Glob, amplifier glob and
// amplifier grep names a directory as written when one of that name
// exists, though the path rules (argPath) would read it otherwise: a name
// with a leading or trailing space, or in double quotes. Seed 002: 路径不存在
// is NOT_FOUND, and these exist.
func TestPathArgAsWritten(t *testing.T) {
	names := []string{"sp ", " lead", `"q"`}
	m := fstest.MapFS{}
	for _, n := range names {
		m[n+"/f.txt"] = &fstest.MapFile{Data: []byte("needle\n")}
	}
	for _, tr := range testfs.Trees(t, m) {
		cfg := Config{FS: tr.FS, Root: tr.Root}
		for _, n := range names {
			for _, c := range []struct{ toolset, name, args string }{
				{Standardized, "Glob", `{"pattern": "*.txt", "path": %q}`},
				{Amplifier, "glob", `{"pattern": "*.txt", "path": %q}`},
				{Amplifier, "grep", `{"pattern": "needle", "path": %q}`},
			} {
				env := Call(context.Background(), cfg, c.toolset, c.name, fmt.Appendf(nil, c.args, n))
				js, _ := json.Marshal(env.Data)
				if env.Status != scout.StatusSuccess || !strings.Contains(string(js), n+"/f.txt") && !strings.Contains(string(js), strings.ReplaceAll(n, `"`, `\"`)+"/f.txt") {
					t.Errorf("%s %s/%s path %q: %s %q %s; want %s/f.txt", tr.Name, c.toolset, c.name, n, env.Status, env.Text, js, n)
				}
			}
		}
	}
}

// TestStdGlobCountBreakerBoundary: the count breaker allows 20000 visited
// entries, directories and files alike: a tree of exactly 20000 is searched
// to the end (success, no aborted_reason), one more entry trips it after
// 20000 (partial, count_limit, visited 20000).
func TestStdGlobCountBreakerBoundary(t *testing.T) {
	defer func(d time.Duration) { stdMaxDuration = d }(stdMaxDuration)
	stdMaxDuration = time.Minute // the count breaker, not the clock, on a loaded machine
	for _, tc := range []struct {
		files   int // files in d/, below the directory d and the file a.py
		status  scout.Status
		aborted string
	}{
		{19998, scout.StatusSuccess, ""},
		{19999, scout.StatusPartial, "count_limit"},
	} {
		m := fstest.MapFS{"a.py": &fstest.MapFile{}}
		for i := range tc.files {
			m[fmt.Sprintf("d/f%05d.txt", i)] = &fstest.MapFile{}
		}
		env := Call(context.Background(), Config{FS: m}, Standardized, "Glob", []byte(`{"pattern":"**/*.py"}`))
		d, ok := env.Data.(*stdGlobData)
		if !ok || env.Status != tc.status || d.AbortedReason != tc.aborted || env.Stats.Visited != min(2+tc.files, stdMaxVisited) {
			t.Errorf("%d entries: %s %+v visited %d; want %s, aborted_reason %q, visited %d", 2+tc.files, env.Status, d, env.Stats.Visited, tc.status, tc.aborted, min(2+tc.files, stdMaxVisited))
		}
	}
}

// TestStdGlobWildcardsInSegment: '*' and '?' never cross '/', '**' does,
// whatever the depth.
func TestStdGlobWildcardsInSegment(t *testing.T) {
	m := fstest.MapFS{"a.py": {}, "ab.py": {}, "src/main.py": {}, "src/a/b.py": {}, "srcxmain.py": {}}
	for _, tr := range testfs.Trees(t, m) {
		for _, tc := range []struct {
			pattern string
			want    []string
		}{
			{"?.py", []string{"a.py"}},
			{"src?main.py", []string{"srcxmain.py"}},
			{"*main.py", []string{"srcxmain.py"}},
			{"src*", []string{"srcxmain.py"}},
			{"*/*.py", []string{"src/main.py"}},
			{"*/?/*.py", []string{"src/a/b.py"}},
			{"**/b.py", []string{"src/a/b.py"}},
			{"src/**", []string{"src/main.py", "src/a/b.py"}},
		} {
			env := Call(context.Background(), Config{FS: tr.FS, Root: tr.Root}, Standardized, "Glob", []byte(`{"pattern":"`+tc.pattern+`"}`))
			if d, ok := env.Data.(*stdGlobData); assert.True(t, ok, "%s: %s", tc.pattern, env.Text) {
				assert.Equal(t, tc.want, d.Paths, "%s: %s", tr.Name, tc.pattern)
			}
		}
	}
}

// TestStdGlobDescriptionSaysWhatIsSkipped: the description tells the model
// what the walk leaves out, as it does: .gitignore'd paths (include_ignored
// brings them back) and .git, which no argument brings back; and that a
// breaker with no match is an error.
func TestStdGlobDescriptionSaysWhatIsSkipped(t *testing.T) {
	tl, err := Lookup(Standardized, "Glob")
	if err != nil {
		t.Fatal(err)
	}
	for _, claim := range []string{".gitignore'd paths are skipped unless", ".git is never listed", "an error when nothing matched yet"} {
		assert.Contains(t, tl.Description, claim)
	}
	m := fstest.MapFS{
		".git/HEAD":  {Data: []byte("ref: refs/heads/main\n")},
		".git/x.py":  {},
		".gitignore": {Data: []byte("gen/\n")},
		"gen/a.py":   {},
		"b.py":       {},
	}
	for _, tr := range testfs.Trees(t, m) {
		for args, want := range map[string][]string{
			`{"pattern":"**/*.py"}`: {"b.py"},
			`{"pattern":"**/*.py","include_hidden":true,"include_ignored":true}`: {"b.py", "gen/a.py"},
		} {
			env := Call(context.Background(), Config{FS: tr.FS, Root: tr.Root}, Standardized, "Glob", []byte(args))
			if d, ok := env.Data.(*stdGlobData); assert.True(t, ok, "%s: %s", args, env.Text) {
				assert.Equal(t, want, d.Paths, "%s: %s", tr.Name, args)
			}
		}
	}
}

// TestStdGlobLinkOutOfRoot: a symlink whose target lies outside the
// project root is not listed (its kind cannot be seen without following
// it out), and an empty result says it was left out: it was dropped
// uncounted, so "No files found" gave no reason.
func TestStdGlobLinkOutOfRoot(t *testing.T) {
	m := fstest.MapFS{
		"a.py":   &fstest.MapFile{Data: []byte("x\n")},
		"out.py": &fstest.MapFile{Mode: fs.ModeSymlink | 0o777, Data: []byte("../elsewhere.py")},
	}
	for _, tr := range testfs.Trees(t, m) {
		for _, tc := range []struct {
			args string
			want []string
			text string // a line of the text
		}{
			{`{"pattern":"*.py"}`, []string{"a.py"}, "a.py"},
			{`{"pattern":"o*.py"}`, []string{}, "Left out 1 entry: 1 symlink."},
		} {
			env := Call(context.Background(), Config{FS: tr.FS, Root: tr.Root}, Standardized, "Glob", []byte(tc.args))
			if d, ok := env.Data.(*stdGlobData); assert.True(t, ok, "%s %s: %s", tr.Name, tc.args, env.Text) {
				assert.Equal(t, tc.want, d.Paths, "%s %s", tr.Name, tc.args)
			}
			assert.Contains(t, strings.Split(env.Text, "\n"), tc.text, "%s %s", tr.Name, tc.args)
		}
	}
}
