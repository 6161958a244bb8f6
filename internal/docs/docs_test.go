package docs_test

import (
	"bytes"
	"encoding/json"
	"flag"
	"fmt"
	"go/parser"
	"go/token"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/scoutkit/scout/internal/docs"
	"github.com/scoutkit/scout/tool"
)

var update = flag.Bool("update", false, "rewrite the embedded documentation from its sources")

// repo is the repository root, relative to this package.
const repo = "../.."

// TestUpToDate fails when an embedded file differs from what its source
// gives (README.md, the package comments, the tool definitions). Run
// `go test ./internal/docs -update` after changing one of them.
func TestUpToDate(t *testing.T) {
	want := generate(t)
	if *update {
		for name, data := range want {
			if err := os.WriteFile(filepath.FromSlash(name), data, 0o644); err != nil {
				t.Fatal(err)
			}
		}
	}
	var got []string
	err := fs.WalkDir(docs.FS(), ".", func(name string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		got = append(got, name)
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	names := make([]string, 0, len(want))
	for name := range want {
		names = append(names, name)
	}
	slices.Sort(names)
	if !slices.Equal(got, names) {
		t.Fatalf("embedded files %v, want %v: delete the extra ones or run go test ./internal/docs -update", got, names)
	}
	for _, name := range names {
		data, err := fs.ReadFile(docs.FS(), name)
		if err != nil {
			t.Fatal(err)
		}
		if *update {
			continue // the embedded copy is the one compiled before the rewrite
		}
		if !bytes.Equal(data, want[name]) {
			t.Errorf("internal/docs/%s is stale. Run: go test ./internal/docs -update", name)
		}
	}
}

// generate returns the documentation files as their sources give them.
func generate(t *testing.T) map[string][]byte {
	t.Helper()
	readme, err := os.ReadFile(filepath.Join(repo, "README.md"))
	if err != nil {
		t.Fatal(err)
	}
	var pkgs bytes.Buffer
	pkgs.WriteString("# Package documentation\n\nThe package comments of Scout's public packages.\n")
	for _, p := range []struct{ dir, path string }{
		{".", "github.com/scoutkit/scout"},
		{"format", "github.com/scoutkit/scout/format"},
		{"tool", "github.com/scoutkit/scout/tool"},
	} {
		fmt.Fprintf(&pkgs, "\n# Package %s (%s)\n\n%s", filepath.Base(p.path), p.path, demote(packageDoc(t, filepath.Join(repo, p.dir))))
	}
	var tools bytes.Buffer
	tools.WriteString("# Tool reference\n\nThe tools of every toolset, as `scout tools --toolset NAME` prints them: name, model-facing description and JSON Schema of the arguments.\n")
	for _, ts := range tool.Toolsets() {
		list, err := tool.Tools(ts)
		if err != nil {
			t.Fatal(err)
		}
		fmt.Fprintf(&tools, "\n# Toolset %s\n", ts)
		for _, tl := range list {
			var schema bytes.Buffer
			if err := json.Indent(&schema, tl.Schema, "", "  "); err != nil {
				t.Fatal(err)
			}
			fmt.Fprintf(&tools, "\n## %s/%s\n\n%s\n\nArguments (JSON Schema):\n\n```json\n%s\n```\n", ts, tl.Name, strings.TrimSpace(tl.Description), schema.String())
		}
	}
	return map[string][]byte{
		"README.md":        readme,
		"docs/packages.md": pkgs.Bytes(),
		"docs/tools.md":    tools.Bytes(),
	}
}

// packageDoc returns the package comment of the Go package in dir.
func packageDoc(t *testing.T, dir string) string {
	t.Helper()
	names, err := filepath.Glob(filepath.Join(dir, "*.go"))
	if err != nil {
		t.Fatal(err)
	}
	for _, name := range names {
		if strings.HasSuffix(name, "_test.go") {
			continue
		}
		f, err := parser.ParseFile(token.NewFileSet(), name, nil, parser.PackageClauseOnly|parser.ParseComments)
		if err != nil {
			t.Fatal(err)
		}
		if f.Doc != nil {
			return f.Doc.Text()
		}
	}
	t.Fatalf("no package comment in %s", dir)
	return ""
}

// demote turns the doc comment headings ("# Selectors") into second-level
// headings, under the package's own.
func demote(doc string) string {
	lines := strings.SplitAfter(doc, "\n")
	for i, l := range lines {
		if strings.HasPrefix(l, "# ") {
			lines[i] = "#" + l
		}
	}
	return strings.Join(lines, "")
}
