package main

import (
	"bytes"
	"encoding/json"
	"io/fs"
	"maps"
	"strings"
	"testing"
	"testing/fstest"

	"github.com/scoutkit/scout"
	"github.com/scoutkit/scout/internal/testfs"
)

// FuzzCLI runs any command line (arguments separated by NUL, mixed flags,
// attached values, "--", odd values) over a small tree: it must not
// panic, must exit 0, 1 or 2, a usage error (2) printing "scout CMD:" and
// the pointer to -h on stderr and nothing on stdout, a failure (1)
// printing "scout CMD:" on stderr, and must write nothing. Command lines
// that could leave the tree or reach the network (--root, --zoekt, a URL)
// are left out.
func FuzzCLI(f *testing.F) {
	root := testfs.WriteDir(f, fstest.MapFS{
		"a.txt":    {Data: []byte("one\nTwo\nthree\n")},
		"src/a.go": {Data: []byte("package a\n\nfunc A() {}\n")},
		".hidden":  {Data: []byte("two\n")},
		"bin":      {Data: []byte("\x00\xfftwo")},
		"out":      {Data: []byte("/etc"), Mode: fs.ModeSymlink},
	})
	before := testfs.TreeState(f, root)
	for _, s := range []string{
		"search\x00two", "search\x00-C0\x00-il\x00two\x00a.txt", "search\x00-gb.txt\x00-tgo\x00x", "search\x00--\x00-C0", "search\x00-A\x00-2\x00x",
		"search\x00-m1\x00-U\x00t.o\x00--sort\x00path", "search\x00--max-filesize\x009G\x00x", "search\x00-c\x00-l\x00(", "search\x00-C=1\x00x",
		"read\x00a.txt:2", "read\x00src\x00--read-limit\x003", "read\x00--style=\x00a.txt", "read\x00bin", "read\x00-h",
		"find\x00**/*.go", "find\x00--limit\x00500\x00*", "find\x00--timeout\x00NaN\x00*", "find\x00*\x00",
		"call\x00read\x00{\"path\":\"a.txt\"}", "call\x00--toolset\x00amplifier\x00grep\x00{\"pattern\":\"two\"}", "call\x00find\x00{bad",
		"tools\x00--toolset=", "version\x00x", "nope", "-h", "mcp\x00--style\x00",
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, line string) {
		args := strings.Split(line, "\x00")
		l := strings.ToLower(line)
		for _, risky := range []string{"root", "zoekt", "http", "www", "://", "/"} {
			if strings.Contains(l, risky) && (risky != "/" || strings.Contains(l, "..") || strings.Contains(l, "/dev") || strings.Contains(l, "/proc")) {
				t.Skip("could leave the tree or reach the network")
			}
		}
		if len(args) > 0 && args[0] != "" && args[0][0] != '-' {
			args = append([]string{args[0], "--root", root}, args[1:]...)
		}
		var out, errb bytes.Buffer
		code := run(args, strings.NewReader(""), &out, &errb)
		cmd := ""
		if len(args) > 0 {
			cmd = args[0]
		}
		prefix := "scout " + cmd + ": "
		known := false
		for _, c := range commands {
			known = known || c.name == cmd
		}
		switch {
		case code == 2 && known:
			if out.Len() != 0 || !strings.HasPrefix(errb.String(), prefix) || !strings.Contains(errb.String(), "Run 'scout "+cmd+" -h' for its flags.") {
				t.Fatalf("%q: usage error with stdout %q, stderr %q", args, out.String(), errb.String())
			}
		case code == 1 && cmd == "call":
			var env scout.Envelope
			if err := json.Unmarshal(out.Bytes(), &env); err != nil || env.Status != scout.StatusError || env.Error == nil {
				t.Fatalf("%q: failure without an error Envelope: stdout %q, stderr %q", args, out.String(), errb.String())
			}
		case code == 1:
			if !strings.HasPrefix(errb.String(), prefix) && !strings.HasPrefix(errb.String(), "scout: ") {
				t.Fatalf("%q: failure with stderr %q", args, errb.String())
			}
		case code == 0 || code == 2:
		default:
			t.Fatalf("%q: exit %d, stderr %q", args, code, errb.String())
		}
		if strings.Contains(out.String()+errb.String(), "This is a bug in Scout") {
			t.Fatalf("%q: an internal error: stdout %q, stderr %q", args, out.String(), errb.String())
		}
		if after := testfs.TreeState(t, root); !maps.Equal(before, after) {
			t.Fatalf("%q: the tree changed:\nbefore %v\nafter  %v", args, before, after)
		}
	})
}
