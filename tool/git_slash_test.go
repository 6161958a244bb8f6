package tool

import (
	"context"
	"io/fs"
	"maps"
	"testing"
	"testing/fstest"
	"time"

	"github.com/stretchr/testify/assert"

	"github.com/scoutkit/scout"
	"github.com/scoutkit/scout/internal/testfs"
)

// gitSlashTree is a work tree with its .git and directories for globs that
// end in '/'.
var gitSlashTree = fstest.MapFS{
	".git/HEAD":            {Data: []byte("ref: refs/heads/main\n")},
	".git/config":          {Data: []byte("[core]\n\tbare = false\n")},
	".git/hooks/pre-push":  {Data: []byte("#!/bin/sh\n")},
	"src/a/x.go":           {Data: []byte("package a // core\n")},
	"src/b/testdata/t.txt": {Data: []byte("core\n")},
	"src/c.go":             {Data: []byte("package src\n")},
	"README":               {Data: []byte("readme\n"), ModTime: testfs.Epoch},
	// Directories newest first: a, b, then testdata.
	"src/a":          {Mode: fs.ModeDir | 0o755, ModTime: testfs.Epoch.Add(3 * time.Hour)},
	"src/b":          {Mode: fs.ModeDir | 0o755, ModTime: testfs.Epoch.Add(2 * time.Hour)},
	"src/b/testdata": {Mode: fs.ModeDir | 0o755, ModTime: testfs.Epoch.Add(time.Hour)},
}

// TestToolsetsGitAndTrailingSlash: in every toolset, a find never lists
// .git nor what lies below it, even when the walk would start there, and
// an empty result says so (only when the request names .git); a search
// walks no .git either, but searches a file in it named as a path. A glob
// that ends in '/' lists directories only, or, in a search, the files
// below them; the standardized Glob, which lists files only, refuses one
// and says what to write instead.
func TestToolsetsGitAndTrailingSlash(t *testing.T) {
	tests := []struct {
		toolset string
		tool    string
		args    string
		status  scout.Status
		text    string
	}{
		{Pi, "find", `{"paths":[".git/*"]}`, scout.StatusSuccess, "No files found matching pattern\nLeft out 1 entry: 1 ignored (.git is never listed)."},
		{Pi, "find", `{"paths":[".git"]}`, scout.StatusSuccess, "No files found matching pattern\nLeft out 1 entry: 1 ignored (.git is never listed)."},
		{Pi, "find", `{"paths":[".git/hooks/*"]}`, scout.StatusSuccess, "No files found matching pattern\nLeft out 1 entry: 1 ignored (.git is never listed)."},
		{Pi, "find", `{"paths":["**/.git/**"]}`, scout.StatusSuccess, "No files found matching pattern\nLeft out 1 entry: 1 ignored (.git is never listed)."},
		{Pi, "find", `{"paths":["*.nothing"]}`, scout.StatusSuccess, "No files found matching pattern"},
		{Pi, "find", `{"paths":[".git/config"]}`, scout.StatusSuccess, ".git/config"},
		{Pi, "find", `{"paths":["src/*/"]}`, scout.StatusSuccess, "# src/\na/\nb/"},
		{Pi, "find", `{"paths":["**/testdata/"]}`, scout.StatusSuccess, "# src/b/\ntestdata/"},
		{Pi, "find", `{"paths":["src/*/","README"]}`, scout.StatusSuccess, "# src/\na/\nb/\n\nREADME"},
		{Pi, "read", `{"path":".git"}`, scout.StatusError, "Cannot list '.git': .git is never listed; read a file in it by its path, e.g. '.git/config'."},
		{Pi, "read", `{"path":".git/hooks"}`, scout.StatusError, "Cannot list '.git/hooks': .git is never listed; read a file in it by its path, e.g. '.git/config'."},
		{Pi, "search", `{"pattern":"core","paths":[".git"]}`, scout.StatusSuccess, "No matches found\nNot searched: 1 ignored (.git is never searched, only a file in it named as a path)."},
		{Pi, "search", `{"pattern":"core","paths":[".git/*"]}`, scout.StatusSuccess, "No matches found\nNot searched: 1 ignored (.git is never searched, only a file in it named as a path)."},
		{Pi, "search", `{"pattern":"bare","paths":[".git/config"]}`, scout.StatusSuccess, "¶.git/config#679D\n1:[core]\n*2:\tbare = false"},
		{Pi, "search", `{"pattern":"nothing","paths":["src"]}`, scout.StatusSuccess, "No matches found"},
		{Pi, "search", `{"pattern":"core","paths":["src/*/"]}`, scout.StatusSuccess, "# src/a/x.go#6297\n*1:package a // core\n\n# src/b/testdata/t.txt#B0EF\n*1:core"},
		{Amplifier, "glob", `{"pattern":"*","path":".git"}`, scout.StatusSuccess, "No files found matching '*' in '.git'\nLeft out 1 entry: 1 ignored (.git is never listed)."},
		{Amplifier, "glob", `{"pattern":".git/*"}`, scout.StatusSuccess, "No files found matching '.git/*' in '.'\nLeft out 1 entry: 1 ignored (.git is never listed)."},
		{Amplifier, "glob", `{"pattern":"src/*/"}`, scout.StatusSuccess, "src/a/\nsrc/b/"},
		{Amplifier, "glob", `{"pattern":"**/testdata/","type":"dir"}`, scout.StatusSuccess, "src/b/testdata/"},
		{Amplifier, "grep", `{"pattern":"core","path":".git"}`, scout.StatusSuccess, "No matches found\nNot searched: 1 ignored (.git is never searched, only a file in it named as a path)."},
		{Amplifier, "grep", `{"pattern":"core","glob":"src/*/"}`, scout.StatusSuccess, "No matches found\nGlob 'src/*/' left no file to search under '.' (a glob selects files by their paths, and one that ends in '/' matches directories only: use 'src/*/**' for the files below those directories)."},
		{Amplifier, "grep", `{"pattern":"core","glob":"testdata/"}`, scout.StatusSuccess, "No matches found\nGlob 'testdata/' left no file to search under '.' (a glob selects files by their paths, and one that ends in '/' matches directories only: use '**/testdata/**' for the files below those directories)."},
		{Amplifier, "grep", `{"pattern":"core","glob":"src/*/**"}`, scout.StatusSuccess, "src/a/x.go\nsrc/b/testdata/t.txt"},
		{Amplifier, "grep", `{"pattern":"core","glob":"**/testdata/**"}`, scout.StatusSuccess, "src/b/testdata/t.txt"},
		{Amplifier, "grep", `{"pattern":"bare","path":".git/config"}`, scout.StatusSuccess, ".git/config"},
		{Standardized, "Glob", `{"pattern":"*","path":".git"}`, scout.StatusSuccess, "No files found matching '*' in '.git'\n(Scanned 0 items in Nms)\nLeft out 1 entry: 1 ignored (.git is never listed)."},
		{Standardized, "Glob", `{"pattern":".git/*"}`, scout.StatusSuccess, "No files found matching '.git/*' in '.'\n(Scanned 3 items in Nms)\nLeft out 1 entry: 1 ignored (.git is never listed)."},
		{Standardized, "Glob", `{"pattern":"*.nothing"}`, scout.StatusSuccess, "No files found matching '*.nothing' in '.'\n(Scanned 3 items in Nms)"},
		{Standardized, "Glob", `{"pattern":"src/*/"}`, scout.StatusError, "Pattern 'src/*/' ends in '/', so it matches directories only, and Glob lists files: use 'src/*/**' for the files below those directories."},
		{Standardized, "Glob", `{"pattern":"{src/*/,*.go}"}`, scout.StatusError, "Pattern '{src/*/,*.go}' has an alternative ending in '/', which matches directories only, and Glob lists files: end it in '/**' for the files below those directories."},
		{Standardized, "Glob", `{"pattern":"src/*/**"}`, scout.StatusSuccess, "Found 2 files matching 'src/*/**' in '.'\n(Scanned 9 items in Nms)\n\nsrc/a/x.go\nsrc/b/testdata/t.txt"},
	}
	for _, tr := range testfs.Trees(t, gitSlashTree) {
		cfg := Config{FS: tr.FS, Root: tr.Root}
		for _, tt := range tests {
			env := Call(context.Background(), cfg, tt.toolset, tt.tool, []byte(tt.args))
			assert.Equal(t, tt.status, env.Status, "%s %s %s %s", tr.Name, tt.toolset, tt.tool, tt.args)
			assert.Equal(t, tt.text, testfs.UntimedText(env.Text), "%s %s %s %s", tr.Name, tt.toolset, tt.tool, tt.args)
			if tt.status == scout.StatusError {
				assert.Equal(t, scout.CodeInvalidParam, env.Error.Code, "%s %s %s", tr.Name, tt.tool, tt.args)
			}
		}
	}
}

// TestToolsetsGitLink: a symlink to .git given as the path of a find or a
// search is that .git: nothing is listed or searched, and the text says
// why as it does for .git itself.
func TestToolsetsGitLink(t *testing.T) {
	m := maps.Clone(gitSlashTree)
	m["g"] = &fstest.MapFile{Data: []byte(".git"), Mode: fs.ModeSymlink}
	tests := []struct {
		toolset, tool, args, text string
	}{
		{Pi, "find", `{"paths":["g/*"]}`, "No files found matching pattern\nLeft out 1 entry: 1 ignored (.git is never listed)."},
		{Pi, "find", `{"paths":["g"]}`, "No files found matching pattern\nLeft out 1 entry: 1 ignored (.git is never listed)."},
		{Pi, "search", `{"pattern":"core","paths":["g"]}`, "No matches found\nNot searched: 1 ignored (.git is never searched, only a file in it named as a path)."},
		{Pi, "search", `{"pattern":"core","paths":["g/*"]}`, "No matches found\nNot searched: 1 ignored (.git is never searched, only a file in it named as a path)."},
		{Amplifier, "glob", `{"pattern":"*","path":"g"}`, "No files found matching '*' in 'g'\nLeft out 1 entry: 1 ignored (.git is never listed)."},
		{Amplifier, "grep", `{"pattern":"core","path":"g"}`, "No matches found\nNot searched: 1 ignored (.git is never searched, only a file in it named as a path)."},
		{Standardized, "Glob", `{"pattern":"*","path":"g"}`, "No files found matching '*' in 'g'\n(Scanned 0 items in Nms)\nLeft out 1 entry: 1 ignored (.git is never listed)."},
	}
	for _, tr := range testfs.Trees(t, m) {
		cfg := Config{FS: tr.FS, Root: tr.Root}
		for _, tt := range tests {
			env := Call(context.Background(), cfg, tt.toolset, tt.tool, []byte(tt.args))
			assert.Equal(t, scout.StatusSuccess, env.Status, "%s %s %s %s", tr.Name, tt.toolset, tt.tool, tt.args)
			assert.Equal(t, tt.text, testfs.UntimedText(env.Text), "%s %s %s %s", tr.Name, tt.toolset, tt.tool, tt.args)
		}
	}
}

// TestBareGlobErrorAsWritten: a glob's error quotes it as the caller wrote
// it, not as the find or the search rewrote it ("**/[z-a]") nor as the
// union of several paths, in every toolset.
func TestBareGlobErrorAsWritten(t *testing.T) {
	const reversed = ": the range 'z-a' is reversed — write it as 'a-z'"
	tests := []struct {
		toolset, tool, args, glob string
	}{
		{Pi, "find", `{"paths":["[z-a]"]}`, "[z-a]"},
		{Pi, "find", `{"paths":["src/[z-a]"]}`, "src/[z-a]"},
		{Pi, "find", `{"paths":["[z-a]","*.go"]}`, "[z-a]"},
		{Pi, "find", `{"paths":["README","src/*/[z-a]"]}`, "src/*/[z-a]"},
		{Pi, "search", `{"pattern":"x","paths":["[z-a]"]}`, "[z-a]"},
		{Pi, "search", `{"pattern":"x","paths":["src/[z-a]","README"]}`, "src/[z-a]"},
		{Amplifier, "glob", `{"pattern":"[z-a]"}`, "[z-a]"},
		{Amplifier, "grep", `{"pattern":"x","path":"[z-a]"}`, "[z-a]"},
		{Amplifier, "grep", `{"pattern":"x","glob":"[z-a]"}`, "[z-a]"},
		{Standardized, "Glob", `{"pattern":"[z-a]"}`, "[z-a]"},
	}
	for _, tr := range testfs.Trees(t, gitSlashTree) {
		cfg := Config{FS: tr.FS, Root: tr.Root}
		for _, tt := range tests {
			env := Call(context.Background(), cfg, tt.toolset, tt.tool, []byte(tt.args))
			assert.Equal(t, scout.StatusError, env.Status, "%s %s %s %s", tr.Name, tt.toolset, tt.tool, tt.args)
			assert.Equal(t, "Invalid glob '"+tt.glob+"'"+reversed, env.Text, "%s %s %s %s", tr.Name, tt.toolset, tt.tool, tt.args)
		}
	}
	f := scout.Finder{Workspace: scout.Workspace{FS: gitSlashTree}}
	_, err := f.Find(context.Background(), scout.FindRequest{Base: "src", Patterns: []string{"*.go", "[z-a]"}})
	assert.EqualError(t, err, "Invalid glob '[z-a]'"+reversed)
}
