package tool

import (
	"archive/tar"
	"bytes"
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
	"github.com/scoutkit/scout/internal/testfs"
)

// outsideText is the content of the files outside the root: no Envelope
// may ever hold it.
const outsideText = "0u7s1d3-c0nt3nt of a file outside the root"

// hostileTree is a project root whose links lead out, beside an outside
// directory, built as a real directory (with links by absolute path too)
// and as an fstest.MapFS (whose links lead out by "..").
type hostileTree struct {
	name string
	cfg  Config
	abs  string // the absolute path of the outside directory, "" for the MapFS
}

func hostileArchives(t *testing.T) (zipData, tarData []byte) {
	t.Helper()
	// A symbolic link member (a zip's holds its target as its bytes) is
	// refused, never followed, as a tar's is.
	zipData = testfs.Zip(
		testfs.Member{Name: "ok.txt", Body: "inside member\n"},
		testfs.Member{Name: "../../slip.txt", Body: "slipped member\n"},
		testfs.Member{Name: "/abs.txt", Body: "absolute member\n"},
		testfs.Member{Name: "link_secret", Link: "../outside/secret.txt"},
	)
	var tb bytes.Buffer
	tw := tar.NewWriter(&tb)
	for _, h := range []*tar.Header{
		{Name: "ok.txt", Typeflag: tar.TypeReg, Size: 14, Mode: 0o644},
		{Name: "../../slip.txt", Typeflag: tar.TypeReg, Size: 15, Mode: 0o644},
		{Name: "sym_secret", Typeflag: tar.TypeSymlink, Linkname: "../../outside/secret.txt"},
		{Name: "sym_abs", Typeflag: tar.TypeSymlink, Linkname: "/etc/passwd"},
		{Name: "hard_secret", Typeflag: tar.TypeLink, Linkname: "../outside/secret.txt"},
	} {
		if err := tw.WriteHeader(h); err != nil {
			t.Fatal(err)
		}
		switch h.Size {
		case 14:
			tw.Write([]byte("inside member\n"))
		case 15:
			tw.Write([]byte("slipped member\n"))
		}
	}
	if err := tw.Close(); err != nil {
		t.Fatal(err)
	}
	return zipData, tb.Bytes()
}

func hostileTrees(t *testing.T) []hostileTree {
	t.Helper()
	zipData, tarData := hostileArchives(t)
	files := map[string]string{"a.txt": "inside text\n", "sub/b.go": "package sub // inside\n", "evil.zip": string(zipData), "evil.tar": string(tarData)}
	links := map[string]string{
		"ln_file":   "../outside/secret.txt",
		"ln_dir":    "../outside",
		"ln_tricky": "sub/../../outside/secret.txt",
		"ln_etc":    "/etc",
		"ln_loop1":  "ln_loop2",
		"ln_loop2":  "ln_loop1",
	}

	base := t.TempDir()
	root, outside := filepath.Join(base, "root"), filepath.Join(base, "outside")
	for p, body := range files {
		writeTestFile(t, filepath.Join(root, p), body)
	}
	writeTestFile(t, filepath.Join(outside, "secret.txt"), outsideText+"\n")
	writeTestFile(t, filepath.Join(outside, "two.go"), outsideText+"\n")
	links["ln_abs"] = filepath.Join(outside, "secret.txt")
	for p, target := range links {
		if err := os.Symlink(target, filepath.Join(root, p)); err != nil {
			t.Fatal(err)
		}
	}

	m := fstest.MapFS{}
	for p, body := range files {
		m[p] = &fstest.MapFile{Data: []byte(body), Mode: 0o644}
	}
	for p, target := range links {
		// fstest.MapFS follows a symlink loop until its stack overflows
		// (MapFS.Stat has no hop limit): Scout never asks it to.
		if p != "ln_abs" {
			m[p] = &fstest.MapFile{Data: []byte(target), Mode: fs.ModeSymlink | 0o777}
		}
	}
	return []hostileTree{{"OS", Config{Root: root}, outside}, {"MapFS", Config{FS: m}, ""}}
}

func writeTestFile(t *testing.T, p, body string) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(p, []byte(body), 0o644); err != nil {
		t.Fatal(err)
	}
}

// pathCall calls each tool that takes a path with p as that path.
var pathCalls = []struct {
	toolset, name string
	args          func(p string) map[string]any
}{
	{Pi, "read", func(p string) map[string]any { return map[string]any{"path": p} }},
	{Pi, "search", func(p string) map[string]any { return map[string]any{"pattern": "d3-c0n|inside", "paths": []string{p}} }},
	{Pi, "find", func(p string) map[string]any { return map[string]any{"paths": []string{p}} }},
	{Amplifier, "grep", func(p string) map[string]any {
		return map[string]any{"pattern": "d3-c0n|inside", "path": p, "output_mode": "content"}
	}},
	{Amplifier, "glob", func(p string) map[string]any { return map[string]any{"pattern": "**/*", "path": p} }},
	{Standardized, "Glob", func(p string) map[string]any { return map[string]any{"pattern": "**/*", "path": p} }},
}

func callJSON(t *testing.T, cfg Config, toolset, name string, args map[string]any) (*scout.Envelope, string) {
	t.Helper()
	in, err := json.Marshal(args)
	if err != nil {
		t.Fatal(err)
	}
	env := Call(context.Background(), cfg, toolset, name, in)
	out, err := json.Marshal(env)
	if err != nil {
		t.Fatal(err)
	}
	return env, string(out)
}

// TestHostilePaths passes paths that lead out of the root (by "..", an
// absolute path, "~", a symlink, a file:// URL), paths with a NUL, and
// percent-encoded paths, as the path of every tool that takes one: each is
// refused with the code that says why, and no Envelope holds a byte of the
// files outside. Percent signs are no encoding: such a path names the file
// of that name.
func TestHostilePaths(t *testing.T) {
	const (
		denied   = scout.CodeAccessDenied
		notFound = scout.CodeNotFound
		invalid  = scout.CodeInvalidParam
	)
	for _, tr := range hostileTrees(t) {
		home := tr.abs
		if home == "" {
			home = "/nonexistent-scout-home"
		}
		t.Setenv("HOME", home) // "~" is the outside directory
		tests := []struct {
			path   string
			codes  []scout.Code // the codes a tool may answer
			osOnly bool
			reason string
		}{
			{"../outside/secret.txt", []scout.Code{denied}, false, "'..' above the root"},
			{"sub/../../outside/secret.txt", []scout.Code{denied}, false, "'..' through a directory"},
			{"./../outside", []scout.Code{denied}, false, "'..' after '.'"},
			{filepath.Join(tr.abs, "secret.txt"), []scout.Code{denied}, true, "an absolute path outside"},
			{"/etc/passwd", []scout.Code{denied}, false, "an absolute system path"},
			{"file:///etc/passwd", []scout.Code{denied}, false, "a file:// URL outside"},
			{"~/secret.txt", []scout.Code{denied}, false, "'~' is the home directory, outside the root"},
			{"~", []scout.Code{denied}, false, "'~' alone"},
			{"ln_file", []scout.Code{denied}, false, "a relative symlink out"},
			{"ln_abs", []scout.Code{denied}, true, "an absolute symlink out"},
			{"ln_dir", []scout.Code{denied}, false, "a symlinked directory out"},
			{"ln_dir/secret.txt", []scout.Code{denied}, false, "a path through a symlinked directory"},
			{"ln_etc/passwd", []scout.Code{denied}, false, "a path through a symlink to /etc"},
			{"ln_tricky", []scout.Code{denied}, false, "a symlink whose target climbs through a directory"},
			{"ln_loop1", []scout.Code{invalid}, false, "a symlink loop"},
			{"a.txt\x00../../outside/secret.txt", []scout.Code{invalid}, false, "a NUL byte"},
			{"%2e%2e/outside/secret.txt", []scout.Code{notFound}, false, "percent signs are no encoding"},
			{"..%2foutside%2fsecret.txt", []scout.Code{notFound}, false, "an encoded slash is no slash"},
			{`..\outside\secret.txt`, []scout.Code{denied, notFound}, false, "backslashes: a separator (pi's rule) or part of a name"},
		}
		for _, tt := range tests {
			if tt.osOnly && tr.abs == "" {
				continue
			}
			codes := tt.codes
			for _, c := range pathCalls {
				env, out := callJSON(t, tr.cfg, c.toolset, c.name, c.args(tt.path))
				if strings.Contains(out, "0u7s1d3-c0nt3nt") {
					t.Errorf("%s %s/%s %q (%s): the Envelope holds outside content:\n%s", tr.name, c.toolset, c.name, tt.path, tt.reason, out)
				}
				if env.Status != scout.StatusError || env.Error == nil || !slices.Contains(codes, env.Error.Code) {
					t.Errorf("%s %s/%s %q (%s): %s %+v, want an error %v", tr.name, c.toolset, c.name, tt.path, tt.reason, env.Status, env.Error, codes)
				}
			}
		}
		// Walking the root lists the links, never what they lead to.
		for _, c := range []struct {
			toolset, name string
			args          map[string]any
		}{
			{Pi, "search", map[string]any{"pattern": "d3-c0n|inside", "paths": "."}},
			{Pi, "find", map[string]any{"paths": []string{"**/*"}}},
			{Amplifier, "grep", map[string]any{"pattern": "d3-c0n|inside", "output_mode": "content"}},
			{Amplifier, "glob", map[string]any{"pattern": "**/*"}},
			{Standardized, "Glob", map[string]any{"pattern": "**/*", "include_hidden": true}},
			{Pi, "read", map[string]any{"path": "."}},
		} {
			env, out := callJSON(t, tr.cfg, c.toolset, c.name, c.args)
			if env.Status == scout.StatusError || strings.Contains(out, "0u7s1d3-c0nt3nt") || strings.Contains(out, "secret.txt\"") || strings.Contains(out, "two.go") {
				t.Errorf("%s %s/%s of the root: %s, or it shows what a link leads to:\n%s", tr.name, c.toolset, c.name, env.Status, out)
			}
		}
	}
}

// TestHostileArchiveMembers reads and searches archive members that name
// a place outside the archive (zip slip), links out of it (tar symbolic
// and hard links) and a zip symbolic link: none is followed, none yields
// outside bytes, and each is refused or read as its own stored bytes.
func TestHostileArchiveMembers(t *testing.T) {
	for _, tr := range hostileTrees(t) {
		tests := []struct {
			toolset, name string
			args          map[string]any
			code          scout.Code // "" for a success
			text          string     // in the text
		}{
			{Pi, "read", map[string]any{"path": "evil.zip:../../slip.txt"}, scout.CodeInvalidParam, "contains '..'"},
			{Pi, "read", map[string]any{"path": "evil.tar:../../slip.txt"}, scout.CodeInvalidParam, "contains '..'"},
			{Pi, "read", map[string]any{"path": "evil.tar:sym_secret"}, scout.CodeUnsupported, "links are not followed"},
			{Pi, "read", map[string]any{"path": "evil.tar:sym_abs"}, scout.CodeUnsupported, "links are not followed"},
			{Pi, "read", map[string]any{"path": "evil.tar:hard_secret"}, scout.CodeUnsupported, "is a link to '../outside/secret.txt'"},
			{Pi, "read", map[string]any{"path": "evil.zip:link_secret"}, scout.CodeUnsupported, "is a link to '../outside/secret.txt', outside the archive; links are not followed"},
			{Pi, "read", map[string]any{"path": "evil.zip"}, "", "ok.txt"},
			{Pi, "search", map[string]any{"pattern": "member|d3-c0n|root:", "paths": []string{"evil.zip"}}, "", "inside member"},
			{Pi, "search", map[string]any{"pattern": "member|d3-c0n|root:", "paths": []string{"evil.tar"}}, "", "inside member"},
			{Pi, "search", map[string]any{"pattern": "x", "paths": []string{"evil.tar:../../slip.txt"}}, scout.CodeInvalidParam, "contains '..'"},
			{Amplifier, "grep", map[string]any{"pattern": "member|d3-c0n|root:", "path": "evil.tar", "output_mode": "content"}, "", "inside member"},
			{Amplifier, "grep", map[string]any{"pattern": "x", "path": "evil.tar:sym_secret"}, scout.CodeUnsupported, "links are not followed"},
		}
		for _, tt := range tests {
			env, out := callJSON(t, tr.cfg, tt.toolset, tt.name, tt.args)
			if strings.Contains(out, "0u7s1d3-c0nt3nt") || strings.Contains(out, "slipped member") || strings.Contains(out, "root:x:") {
				t.Errorf("%s %s %v: the Envelope holds bytes from outside the archive or a slipped member:\n%s", tr.name, tt.name, tt.args, out)
			}
			if tt.code == "" {
				if env.Status == scout.StatusError || !strings.Contains(env.Text, tt.text) {
					t.Errorf("%s %s %v: %s %q, want a result containing %q", tr.name, tt.name, tt.args, env.Status, env.Text, tt.text)
				}
				continue
			}
			if env.Error == nil || env.Error.Code != tt.code || !strings.Contains(env.Text, tt.text) {
				t.Errorf("%s %s %v: %+v %q, want %s containing %q", tr.name, tt.name, tt.args, env.Error, env.Text, tt.code, tt.text)
			}
		}
	}
}
