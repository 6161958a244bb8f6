package main

import (
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
	"testing/fstest"

	"github.com/scoutkit/scout/internal/testfs"
)

// buildLib builds libscout.so and libscout.h into a temp dir and returns
// it with the C compiler cgo uses, or skips the test when cgo or the
// compiler is missing.
func buildLib(t *testing.T) (dir, cc string) {
	t.Helper()
	if runtime.GOOS == "windows" {
		t.Skip("the C example uses pthreads and the test links a .so/.dylib")
	}
	out, err := exec.Command("go", "env", "CGO_ENABLED").Output()
	if err != nil || strings.TrimSpace(string(out)) != "1" {
		t.Skip("cgo is disabled: the shim cannot be built")
	}
	cc = "cc"
	if env, _ := exec.Command("go", "env", "CC").Output(); len(strings.TrimSpace(string(env))) > 0 {
		cc = strings.Fields(string(env))[0]
	}
	if _, err := exec.LookPath(cc); err != nil {
		t.Skipf("no C compiler (%s): the shim cannot be built", cc)
	}
	dir = t.TempDir()
	if out, err := exec.Command("go", "build", "-buildmode=c-shared", "-o", filepath.Join(dir, libName()), ".").CombinedOutput(); err != nil {
		t.Fatalf("go build -buildmode=c-shared: %v\n%s", err, out)
	}
	return dir, cc
}

// libName is the shared library's file name, as the C linker looks for
// it with -lscout.
func libName() string {
	if runtime.GOOS == "darwin" {
		return "libscout.dylib"
	}
	return "libscout.so"
}

// exampleTree is the project the examples search: Go files for find, a
// Markdown file for the concurrent calls.
func exampleTree(t *testing.T) string {
	return testfs.WriteDir(t, fstest.MapFS{
		"main.go":      {Data: []byte("package main\n")},
		"lib/lib.go":   {Data: []byte("package lib\n")},
		"README.md":    {Data: []byte("# example\n")},
		"docs/note.md": {Data: []byte("a note\n")},
	})
}

func TestExamples(t *testing.T) {
	lib, cc := buildLib(t)
	root := exampleTree(t)
	header, err := os.ReadFile(filepath.Join(lib, "libscout.h"))
	if err != nil {
		t.Fatalf("the build did not write libscout.h: %v", err)
	}
	// The ABI the README and the examples document.
	for _, decl := range []string{
		"extern char* scout_call(char* toolset, char* name, char* args, char* root);",
		"extern void scout_free(char* p);",
		"extern char* scout_version(void);",
		"extern int scout_abi_version(void);",
	} {
		if !strings.Contains(string(header), decl) {
			t.Errorf("libscout.h lacks %q", decl)
		}
	}

	t.Run("python", func(t *testing.T) {
		py, err := exec.LookPath("python3")
		if err != nil {
			t.Skip("python3 is not installed")
		}
		cmd := exec.Command(py, filepath.Join("..", "examples", "python", "scout.py"), "--lib", filepath.Join(lib, libName()), root)
		out, err := cmd.CombinedOutput()
		if err != nil || !strings.Contains(string(out), "python example: ok") {
			t.Fatalf("python example: %v\n%s", err, out)
		}
		for _, want := range []string{"main.go", "not valid UTF-8", "tool is NULL", "100 concurrent calls: ok"} {
			if !strings.Contains(string(out), want) {
				t.Errorf("python output lacks %q:\n%s", want, out)
			}
		}
	})

	t.Run("c", func(t *testing.T) {
		bin := filepath.Join(lib, "scout-c")
		build := exec.Command(cc, "-Wall", "-Werror", "-o", bin, filepath.Join("..", "examples", "c", "main.c"),
			"-I"+lib, "-L"+lib, "-lscout", "-lpthread", "-Wl,-rpath,"+lib)
		if out, err := build.CombinedOutput(); err != nil {
			t.Fatalf("cc: %v\n%s", err, out)
		}
		out, err := exec.Command(bin, root).CombinedOutput()
		if err != nil || !strings.Contains(string(out), "c example: ok") {
			t.Fatalf("c example: %v\n%s", err, out)
		}
		for _, want := range []string{"main.go", "ok   non-UTF-8 arguments", "ok   root that does not exist", "ok   100 concurrent calls"} {
			if !strings.Contains(string(out), want) {
				t.Errorf("c output lacks %q:\n%s", want, out)
			}
		}
	})
}
