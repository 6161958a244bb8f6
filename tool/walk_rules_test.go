package tool

import (
	"context"
	"encoding/json"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"testing/fstest"

	"github.com/scoutkit/scout"
)

// writeTree writes files (path -> contents) under dir.
func writeTree(t *testing.T, dir string, files map[string]string) {
	t.Helper()
	for p, c := range files {
		full := filepath.Join(dir, filepath.FromSlash(p))
		if err := os.MkdirAll(filepath.Dir(full), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(full, []byte(c), 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

// isolateGit gives the test a HOME of its own and no system git
// configuration; the returned directory is that HOME.
func isolateGit(t *testing.T) string {
	home := t.TempDir()
	t.Setenv("HOME", home)
	t.Setenv("XDG_CONFIG_HOME", "")
	t.Setenv("GIT_CONFIG_GLOBAL", "")
	t.Setenv("GIT_CONFIG_NOSYSTEM", "1")
	return home
}

// call runs a tool and returns its envelope with data as generic JSON.
func call(t *testing.T, cfg Config, toolset, name, args string) (*scout.Envelope, map[string]any) {
	t.Helper()
	env := Call(context.Background(), cfg, toolset, name, []byte(args))
	var data map[string]any
	if env.Data != nil {
		js, err := json.Marshal(env.Data)
		if err != nil {
			t.Fatal(err)
		}
		if err := json.Unmarshal(js, &data); err != nil {
			t.Fatalf("%s: data is no object: %s", name, js)
		}
	}
	return env, data
}

// listed returns what a find-like result lists: pi find's files, the
// paths or matches of the glob tools, the files of the searches.
func listed(data map[string]any) []string {
	var out []string
	for _, k := range []string{"files", "paths", "matches"} {
		items, _ := data[k].([]any)
		for _, it := range items {
			switch v := it.(type) {
			case string:
				out = append(out, v)
			case map[string]any:
				out = append(out, v["path"].(string))
			}
		}
	}
	slices.Sort(out)
	return out
}

// TestFiveToolsOneIgnoreEngine: the ignore files of the directories above
// the root (a .gitignore at the work-tree top), the repository's
// core.excludesFile and the user's global excludes apply alike in the five
// tools that walk: pi find and search, amplifier glob and grep, and the
// standardized Glob.
func TestFiveToolsOneIgnoreEngine(t *testing.T) {
	home := isolateGit(t)
	writeTree(t, home, map[string]string{".config/git/ignore": "*.global\n"})
	top := t.TempDir()
	writeTree(t, top, map[string]string{
		".git/HEAD":      "ref: refs/heads/main\n",
		".git/config":    "[core]\n\texcludesFile = repo.ignore\n",
		"repo.ignore":    "*.repo\n",
		".gitignore":     "*.log\n",
		"proj/a.txt":     "needle\n",
		"proj/b.log":     "needle\n",
		"proj/c.repo":    "needle\n",
		"proj/d.global":  "needle\n",
		"proj/sub/e.txt": "needle\n",
	})
	cfg := Config{Root: filepath.Join(top, "proj")}
	check := func(want []string, why string) {
		t.Helper()
		for _, tc := range []struct{ toolset, name, args string }{
			{Pi, "find", `{"paths": ["**/*.*"]}`},
			{Pi, "search", `{"paths": ".", "pattern": "needle"}`},
			{Amplifier, "glob", `{"pattern": "**/*.*", "type": "file"}`},
			{Amplifier, "grep", `{"pattern": "needle"}`},
			{Standardized, "Glob", `{"pattern": "**/*.*"}`},
		} {
			env, data := call(t, cfg, tc.toolset, tc.name, tc.args)
			if env.Status != scout.StatusSuccess {
				t.Errorf("%s %s: %s %q", tc.toolset, tc.name, env.Status, env.Text)
				continue
			}
			if got := listed(data); !slices.Equal(got, want) {
				t.Errorf("%s %s lists %q, want %q (%s)", tc.toolset, tc.name, got, want, why)
			}
		}
	}
	check([]string{"a.txt", "d.global", "sub/e.txt"}, "the top's .gitignore and the repository's excludes file, which replaces the global one, apply")
	if err := os.Remove(filepath.Join(top, ".git/config")); err != nil {
		t.Fatal(err)
	}
	check([]string{"a.txt", "c.repo", "sub/e.txt"}, "the top's .gitignore and the global excludes file apply")
}

// TestMissingPathsAsGiven: a missing entry of a multi-path call is reported
// as given, glob and all, in the text and in missingPaths.
func TestMissingPathsAsGiven(t *testing.T) {
	isolateGit(t)
	root := t.TempDir()
	writeTree(t, root, map[string]string{"src/a.ts": "needle\n"})
	cfg := Config{Root: root}
	for _, tc := range []struct{ name, args string }{
		{"find", `{"paths": ["src/**/*.ts", "tests/**/*.ts"]}`},
		{"search", `{"pattern": "needle", "paths": ["src/**/*.ts", "tests/**/*.ts"]}`},
	} {
		env, data := call(t, cfg, Pi, tc.name, tc.args)
		missing, _ := data["missingPaths"].([]any)
		if !strings.Contains(env.Text, "Skipped missing paths: tests/**/*.ts") || len(missing) != 1 || missing[0] != "tests/**/*.ts" {
			t.Errorf("%s: text %q, missingPaths %v; want tests/**/*.ts in both", tc.name, env.Text, missing)
		}
	}
}

// TestFindDelimitedEntries: an entry naming several existing paths, joined
// by ';' or white space, is split as pi splits it (and as read does), with
// read's note and the split in data; a stray comma is refused with a
// suggestion that has no empty element; a comma inside a bracket class is
// no list separator.
func TestFindDelimitedEntries(t *testing.T) {
	isolateGit(t)
	root := t.TempDir()
	writeTree(t, root, map[string]string{"apps/a.txt": "x", "packages/b.txt": "x", "x,y.txt": "x", "z.txt": "x"})
	cfg := Config{Root: root}
	for _, entry := range []string{"apps/a.txt; packages/b.txt", "apps/a.txt packages/b.txt"} {
		args, _ := json.Marshal(map[string]any{"paths": []string{entry}})
		env, data := call(t, cfg, Pi, "find", string(args))
		if got := listed(data); !slices.Equal(got, []string{"apps/a.txt", "packages/b.txt"}) {
			t.Errorf("%q: lists %q (%s %q)", entry, got, env.Status, env.Text)
		}
		if !strings.Contains(env.Text, "Note: interpreted as 2 paths: apps/a.txt, packages/b.txt") {
			t.Errorf("%q: text %q lacks read's note", entry, env.Text)
		}
		splits, _ := data["splitEntries"].([]any)
		if len(splits) != 1 {
			t.Errorf("%q: splitEntries %v", entry, data["splitEntries"])
		}
	}
	for _, tc := range []struct{ tool, args string }{
		{"find", `{"paths": ["apps/a.txt,"]}`},
		{"search", `{"pattern": "x", "paths": ["apps/a.txt,"]}`},
	} {
		env, _ := call(t, cfg, Pi, tc.tool, tc.args)
		if env.Status != scout.StatusError || !strings.Contains(env.Text, `pass it as ["apps/a.txt"]`) || strings.Contains(env.Text, `""`) {
			t.Errorf("%s with a trailing comma: %s %q; want a refusal suggesting [\"apps/a.txt\"]", tc.tool, env.Status, env.Text)
		}
	}
	for _, tc := range []struct{ tool, args string }{
		{"find", `{"paths": ["x[,]y.txt"]}`},
		{"search", `{"pattern": "x", "paths": ["x[,]y.txt"]}`},
	} {
		env, data := call(t, cfg, Pi, tc.tool, tc.args)
		if got := listed(data); env.Status != scout.StatusSuccess || !slices.Equal(got, []string{"x,y.txt"}) {
			t.Errorf("%s with [,]: %s %q lists %q; want x,y.txt", tc.tool, env.Status, env.Text, got)
		}
	}
}

// TestIgnoredHintsAreFollowable: the hint on what pi find and search left
// out names what includes it, and following it does: gitignore: false for
// gitignored files, a path naming node_modules for node_modules (which
// gitignore: false does not include).
func TestIgnoredHintsAreFollowable(t *testing.T) {
	isolateGit(t)
	root := t.TempDir()
	writeTree(t, root, map[string]string{
		".git/HEAD":             "ref: refs/heads/main\n",
		".gitignore":            "*.log\n",
		"a.log":                 "needle\n",
		"node_modules/m/i.js":   "needle\n",
		"src/nothing-here.json": "{}\n",
	})
	cfg := Config{Root: root}
	for _, tc := range []struct {
		tool, args, hint string
		followed         []string // calls that follow the hint
		want             []string // what each followed call lists
	}{
		{
			"find", `{"paths": ["**/*.{log,js}"]}`, "pass gitignore: false for gitignored paths; node_modules is left out unless a path or glob names it, e.g. node_modules/**",
			[]string{`{"paths": ["**/*.{log,js}"], "gitignore": false}`, `{"paths": ["node_modules/**"]}`},
			[]string{"a.log", "node_modules/m/i.js"},
		},
		{
			"find", `{"paths": ["**/*.js"], "gitignore": false}`, "node_modules is left out unless a path or glob names it, e.g. node_modules/**",
			[]string{`{"paths": ["node_modules/**"], "gitignore": false}`},
			[]string{"node_modules/m/i.js"},
		},
		{
			"search", `{"paths": ".", "pattern": "needle"}`, "pass gitignore: false for gitignored files; node_modules is left out unless a path names it, e.g. node_modules/**",
			[]string{`{"paths": ".", "pattern": "needle", "gitignore": false}`, `{"pattern": "needle", "paths": ["node_modules/**"]}`},
			[]string{"a.log", "node_modules/m/i.js"},
		},
	} {
		env, _ := call(t, cfg, Pi, tc.tool, tc.args)
		if !strings.Contains(env.Text, "ignored ("+tc.hint+")") {
			t.Errorf("%s %s: text %q lacks the hint %q", tc.tool, tc.args, env.Text, tc.hint)
		}
		for i, args := range tc.followed {
			_, data := call(t, cfg, Pi, tc.tool, args)
			if got := listed(data); !slices.Contains(got, tc.want[i]) {
				t.Errorf("%s %s (following the hint) lists %q, want %s among them", tc.tool, args, got, tc.want[i])
			}
		}
	}
}

// TestAmplifierTilde: amplifier glob and grep read "~" in path alike.
func TestAmplifierTilde(t *testing.T) {
	home := isolateGit(t)
	writeTree(t, home, map[string]string{"proj/sub/a.txt": "needle\n"})
	cfg := Config{Root: filepath.Join(home, "proj")}
	for _, tc := range []struct{ name, args string }{
		{"glob", `{"pattern": "*.txt", "path": "~/proj/sub"}`},
		{"grep", `{"pattern": "needle", "path": "~/proj/sub"}`},
	} {
		env, data := call(t, cfg, Amplifier, tc.name, tc.args)
		if got := listed(data); env.Status != scout.StatusSuccess || !slices.Equal(got, []string{"sub/a.txt"}) {
			t.Errorf("%s: %s %q lists %q", tc.name, env.Status, env.Text, got)
		}
	}
	for _, tc := range []struct{ name, args string }{
		{"glob", `{"pattern": "*.txt", "path": "~/elsewhere"}`},
		{"grep", `{"pattern": "needle", "path": "~/elsewhere"}`},
	} {
		env, _ := call(t, cfg, Amplifier, tc.name, tc.args)
		if env.Status != scout.StatusError || env.Error.Code != scout.CodeAccessDenied {
			t.Errorf("%s outside the root: %s %q, want ACCESS_DENIED", tc.name, env.Status, env.Text)
		}
	}
}

// TestPiSearchParenNote: a pattern searched with its parentheses made
// literal says so in the text and in data, matched or not.
func TestPiSearchParenNote(t *testing.T) {
	root := t.TempDir()
	writeTree(t, root, map[string]string{"a.go": "foo(x)\n"})
	for _, tc := range []struct{ pattern, want string }{
		{"foo(", "Note: `foo(` searched as `foo\\(`: unbalanced parenthesis, so every parenthesis matches literally"},
		{"bar)", "Note: `bar)` searched as `bar\\)`: unbalanced parenthesis, so every parenthesis matches literally"},
	} {
		args, _ := json.Marshal(map[string]string{"paths": ".", "pattern": tc.pattern})
		env, data := call(t, Config{Root: root}, Pi, "search", string(args))
		rw, _ := data["patternRewrite"].(map[string]any)
		if !strings.Contains(env.Text, tc.want) || rw["from"] != tc.pattern || rw["reason"] != "unbalanced parenthesis" {
			t.Errorf("%q: text %q, patternRewrite %v", tc.pattern, env.Text, rw)
		}
	}
	env, data := call(t, Config{Root: root}, Pi, "search", `{"paths": ".", "pattern": "foo\\("}`)
	if _, ok := data["patternRewrite"]; ok || strings.Contains(env.Text, "Note:") {
		t.Errorf("a valid pattern is not rewritten: %q %v", env.Text, data)
	}
}

// lockedFS is a file system whose directory locked cannot be listed.
type lockedFS struct{ fs.FS }

func (l lockedFS) ReadDir(name string) ([]fs.DirEntry, error) {
	if name == "locked" {
		return nil, &fs.PathError{Op: "readdir", Path: name, Err: fs.ErrPermission}
	}
	return fs.ReadDir(l.FS, name)
}

// TestListingSaysUnreadable: a directory the walk cannot list may hide
// matches, so every glob tool says it left one out, with matches too.
func TestListingSaysUnreadable(t *testing.T) {
	cfg := Config{FS: lockedFS{fstest.MapFS{"a.go": {}, "locked/b.go": {}}}}
	for _, c := range []struct{ toolset, name, args string }{
		{Pi, "find", `{"paths": ["**/*"]}`},
		{Amplifier, "glob", `{"pattern": "**/*"}`},
		{Standardized, "Glob", `{"pattern": "**/*"}`},
	} {
		env := Call(context.Background(), cfg, c.toolset, c.name, []byte(c.args))
		if env.Status == "error" || !strings.Contains(env.Text, "a.go") || !strings.Contains(env.Text, "Left out 1 entry: 1 unreadable.") {
			t.Errorf("%s %s: %s %q; want a.go and the unreadable directory said", c.toolset, c.name, env.Status, env.Text)
		}
	}
}
