package tool

import (
	"context"
	"encoding/json"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"testing/fstest"

	"github.com/scoutkit/scout"
	"github.com/scoutkit/scout/internal/testfs"
)

// rgFilesTree is a git work tree whose .rgignore files re-include what
// .gitignore and .ignore exclude and exclude what they keep.
var rgFilesTree = fstest.MapFS{
	".git/HEAD":           {Data: []byte("ref: refs/heads/main\n")},
	".gitignore":          {Data: []byte("gen/\n*.log\nign/\n")},
	".ignore":             {Data: []byte("notes.go\n")},
	".rgignore":           {Data: []byte("!gen/\n!keep.log\nsecret.go\n!notes.go\n")},
	"gen/out.go":          {Data: []byte("x\n")},
	"a.log":               {Data: []byte("x\n")},
	"keep.log":            {Data: []byte("x\n")},
	"secret.go":           {Data: []byte("x\n")},
	"notes.go":            {Data: []byte("x\n")},
	"main.go":             {Data: []byte("x\n")},
	"sub/a.go":            {Data: []byte("x\n")},
	"sub/b.txt":           {Data: []byte("x\n")},
	"sub/.rgignore":       {Data: []byte("*.tmp\n")},
	"sub/c.tmp":           {Data: []byte("x\n")},
	"sub/.ignore":         {Data: []byte("!*.tmp\n")},
	"sub/deep/d.go":       {Data: []byte("x\n")},
	"sub/deep/sub/e.go":   {Data: []byte("x\n")},
	"sub/sub/f.go":        {Data: []byte("x\n")},
	"other/sub/g.go":      {Data: []byte("x\n")},
	"other/sub/deep/h.go": {Data: []byte("x\n")},
	".hid.go":             {Data: []byte("x\n")},
	".hdir/i.go":          {Data: []byte("x\n")},
	".hdir/j.txt":         {Data: []byte("x\n")},
	"gen/k.txt":           {Data: []byte("x\n")},
	"ign/l.go":            {Data: []byte("x\n")},
	"ign/m.txt":           {Data: []byte("x\n")},
}

// TestAmpGrepRgFiles runs amplifier grep's files mode as Amplifier runs
// ripgrep (rg --files-with-matches [--glob GLOB] PATTERN PATH, from the
// project root) and compares the files: .rgignore is honoured with its
// precedence, and a glob with '/' matches the path from the root, as rg
// prints it, whatever path is. The expectations are pinned, so that the
// test says what rg does where rg is not installed; where it is, rg must
// agree with them.
func TestAmpGrepRgFiles(t *testing.T) {
	dir := testfs.WriteDir(t, rgFilesTree)
	abs := func(p string) string { return filepath.Join(dir, p) }
	cases := []struct {
		path, glob string
		want       []string
	}{
		{"", "", []string{"gen/k.txt", "gen/out.go", "keep.log", "main.go", "notes.go", "other/sub/deep/h.go", "other/sub/g.go", "sub/a.go", "sub/b.txt", "sub/deep/d.go", "sub/deep/sub/e.go", "sub/sub/f.go"}},
		{"", "*.go", []string{".hid.go", "gen/out.go", "main.go", "notes.go", "other/sub/deep/h.go", "other/sub/g.go", "secret.go", "sub/a.go", "sub/deep/d.go", "sub/deep/sub/e.go", "sub/sub/f.go"}},
		{"", "sub/*.go", []string{"sub/a.go"}},
		{"", "sub/**/*.go", []string{"sub/a.go", "sub/deep/d.go", "sub/deep/sub/e.go", "sub/sub/f.go"}},
		{"", "**/sub/*.go", []string{"other/sub/g.go", "sub/a.go", "sub/deep/sub/e.go", "sub/sub/f.go"}},
		{"", "/sub/*.go", []string{"sub/a.go"}},
		{"", "gen/*.go", []string{"gen/out.go"}},
		{"sub", "", []string{"sub/a.go", "sub/b.txt", "sub/deep/d.go", "sub/deep/sub/e.go", "sub/sub/f.go"}},
		{"sub", "*.go", []string{"sub/a.go", "sub/deep/d.go", "sub/deep/sub/e.go", "sub/sub/f.go"}},
		{"sub", "sub/*.go", []string{"sub/a.go"}},
		{"sub", "deep/*.go", nil},
		{"sub", "sub/deep/*.go", []string{"sub/deep/d.go"}},
		{"sub", "**/deep/*.go", []string{"sub/deep/d.go"}},
		{"sub", "!sub/deep/**", []string{"sub/a.go", "sub/b.txt", "sub/sub/f.go"}},
		{"sub", "!deep/**", []string{"sub/a.go", "sub/b.txt", "sub/deep/d.go", "sub/deep/sub/e.go", "sub/sub/f.go"}},
		{"sub/deep", "sub/deep/*.go", []string{"sub/deep/d.go"}},
		{"sub/deep", "sub/*.go", nil},
		{"./sub", "sub/*.go", []string{"sub/a.go"}},
		{"other", "sub/*.go", nil},
		{"other", "other/sub/*.go", []string{"other/sub/g.go"}},
		{abs("sub"), "sub/*.go", []string{"sub/a.go"}},
		{abs("sub"), "deep/*.go", nil},
		{"", "ign", nil},
		{"", "{ign,ign/*}", []string{"ign/l.go", "ign/m.txt"}},
		{"", "!gen", []string{"keep.log", "main.go", "notes.go", "other/sub/deep/h.go", "other/sub/g.go", "sub/a.go", "sub/b.txt", "sub/deep/d.go", "sub/deep/sub/e.go", "sub/sub/f.go"}},
		{"", "!*.txt", []string{"gen/out.go", "keep.log", "main.go", "notes.go", "other/sub/deep/h.go", "other/sub/g.go", "sub/a.go", "sub/deep/d.go", "sub/deep/sub/e.go", "sub/sub/f.go"}},
		{"", ".hdir/*.go", nil},
		{"", "{.hdir,*.go}", []string{".hdir/i.go", ".hid.go", "gen/out.go", "main.go", "notes.go", "other/sub/deep/h.go", "other/sub/g.go", "secret.go", "sub/a.go", "sub/deep/d.go", "sub/deep/sub/e.go", "sub/sub/f.go"}},
		{"", "!sub/**", []string{"gen/k.txt", "gen/out.go", "keep.log", "main.go", "notes.go", "other/sub/deep/h.go", "other/sub/g.go"}},
	}
	rg, rgErr := exec.LookPath("rg")
	for _, c := range cases {
		in := map[string]any{"pattern": "x", "head_limit": 0}
		if c.path != "" {
			in["path"] = c.path
		}
		if c.glob != "" {
			in["glob"] = c.glob
		}
		args, _ := json.Marshal(in)
		env := Call(context.Background(), Config{Root: dir}, Amplifier, "grep", args)
		if env.Status != scout.StatusSuccess {
			t.Errorf("%s: %s %q", args, env.Status, env.Text)
			continue
		}
		var got []string
		for _, f := range env.Data.(ampFilesData).Files {
			got = append(got, strings.TrimPrefix(f, dir+"/"))
		}
		if !slices.Equal(got, c.want) {
			t.Errorf("%s: got %q, want %q", args, got, c.want)
		}
		if rgErr != nil {
			continue
		}
		cmd := []string{"--no-config", "--files-with-matches", "--sort", "path"}
		if c.glob != "" {
			cmd = append(cmd, "--glob", c.glob)
		}
		p := c.path
		if p == "" {
			p = "."
		}
		cmd = append(cmd, "x", p)
		run := exec.Command(rg, cmd...)
		run.Dir = dir
		out, _ := run.Output() // exit status 1: no match
		var want []string
		for _, l := range strings.Split(strings.TrimSpace(string(out)), "\n") {
			if l != "" {
				want = append(want, strings.TrimPrefix(strings.TrimPrefix(l, dir+"/"), "./"))
			}
		}
		if !slices.Equal(want, c.want) {
			t.Errorf("rg %q: %q, the test wants %q", cmd, want, c.want)
		}
	}
}
