package main

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestRun(t *testing.T) {
	root := t.TempDir()
	files := map[string]string{
		"cmd/app/main.go": "package main\n\nimport \"fmt\"\n\nfunc main() {\n\tfmt.Println(\"hi\")\n}\n",
		"lib/lib.go":      "package lib\n\nfunc Helper() int { return 1 }\n",
		"README.md":       "# not Go\n",
	}
	for name, data := range files {
		p := filepath.Join(root, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(data), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	var out bytes.Buffer
	if err := run(context.Background(), &out, root, `func main\(`); err != nil {
		t.Fatal(err)
	}
	got := out.String()
	for _, want := range []string{
		"== find **/*.go: 2 of 2",     // both Go files, not the Markdown
		"lib.go",                      // listed by find
		"*5|func main() {",            // the matching line, plain style
		"== read cmd/app/main.go:5+5", // the selector built from the match
		"6|\tfmt.Println(\"hi\")",     // a line read by the selector
	} {
		if !strings.Contains(got, want) {
			t.Errorf("output lacks %q:\n%s", want, got)
		}
	}

	if err := run(context.Background(), &out, filepath.Join(root, "missing"), "x"); err == nil {
		t.Error("a root that does not exist gave no error")
	}
}
