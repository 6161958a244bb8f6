package api

import (
	"bytes"
	"flag"
	"fmt"
	"go/ast"
	"go/parser"
	"go/printer"
	"go/token"
	"os"
	"path"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
)

var update = flag.Bool("update", false, "rewrite api/aliases.txt")

const modulePath = "github.com/scoutkit/scout"

// TestAliasedTypes guards what apidiff cannot see. The public packages
// alias types defined in internal packages (scout.ReadResult =
// read.Result), and apidiff compares such types by name only, so a field
// removed from read.Result would pass check.sh. aliases.txt lists the
// exported fields (with their JSON tags) and methods of every aliased
// type; the test fails when a listed line is gone (a field or method
// removed, retyped or renamed on the wire) and logs new lines.
// `go test ./api -update` rewrites the file after an intended change.
func TestAliasedTypes(t *testing.T) {
	got, err := aliasLines("..", publicDirs)
	if err != nil {
		t.Fatal(err)
	}
	if len(got) == 0 {
		t.Fatal("no aliased internal types found: the parser is broken")
	}
	const file = "aliases.txt"
	if *update {
		if err := os.WriteFile(file, []byte(strings.Join(got, "\n")+"\n"), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	data, err := os.ReadFile(file)
	if err != nil {
		t.Fatalf("%v: run go test ./api -update", err)
	}
	want := strings.Split(strings.TrimSuffix(string(data), "\n"), "\n")
	for _, w := range want {
		if !slices.Contains(got, w) {
			t.Errorf("incompatible change: %q is gone (if intended, run go test ./api -update)", w)
		}
	}
	for _, g := range got {
		if !slices.Contains(want, g) {
			t.Logf("new: %q (compatible; refresh with go test ./api -update)", g)
		}
	}
}

// alias is a public name for a type of an internal package.
type alias struct {
	public string // "scout.ReadResult"
	dir    string // the internal package's directory
	name   string // the type's name there, "Result"
}

// aliasLines returns the sorted listing of the aliased types of the
// packages in dirs; moduleRoot is the module's directory.
func aliasLines(moduleRoot string, dirs []string) ([]string, error) {
	var aliases []alias
	for _, dir := range dirs {
		a, err := findAliases(moduleRoot, dir)
		if err != nil {
			return nil, err
		}
		aliases = append(aliases, a...)
	}
	var lines []string
	for _, a := range aliases {
		l, err := describe(a)
		if err != nil {
			return nil, err
		}
		lines = append(lines, l...)
	}
	slices.Sort(lines)
	return lines, nil
}

// parseDir parses the non-test Go files of dir.
func parseDir(dir string) ([]*ast.File, error) {
	entries, err := os.ReadDir(dir)
	if err != nil {
		return nil, err
	}
	var files []*ast.File
	for _, e := range entries {
		n := e.Name()
		if e.IsDir() || !strings.HasSuffix(n, ".go") || strings.HasSuffix(n, "_test.go") {
			continue
		}
		f, err := parser.ParseFile(token.NewFileSet(), filepath.Join(dir, n), nil, parser.SkipObjectResolution)
		if err != nil {
			return nil, err
		}
		files = append(files, f)
	}
	return files, nil
}

// findAliases returns the exported aliases of dir's package whose target
// lies in an internal package of the module in moduleRoot.
func findAliases(moduleRoot, dir string) ([]alias, error) {
	files, err := parseDir(dir)
	if err != nil {
		return nil, err
	}
	var out []alias
	for _, f := range files {
		imports := map[string]string{} // name in the file -> import path
		for _, im := range f.Imports {
			p, _ := strconv.Unquote(im.Path.Value)
			name := path.Base(p)
			if im.Name != nil {
				name = im.Name.Name
			}
			imports[name] = p
		}
		for _, d := range f.Decls {
			g, ok := d.(*ast.GenDecl)
			if !ok || g.Tok != token.TYPE {
				continue
			}
			for _, s := range g.Specs {
				ts := s.(*ast.TypeSpec)
				sel, ok := ts.Type.(*ast.SelectorExpr)
				if !ts.Assign.IsValid() || !ts.Name.IsExported() || !ok {
					continue
				}
				x, ok := sel.X.(*ast.Ident)
				p := imports[x.Name]
				if !ok || !strings.HasPrefix(p, modulePath+"/") || !strings.Contains(p, "/internal/") {
					continue
				}
				out = append(out, alias{
					public: f.Name.Name + "." + ts.Name.Name,
					dir:    filepath.Join(moduleRoot, filepath.FromSlash(strings.TrimPrefix(p, modulePath+"/"))),
					name:   sel.Sel.Name,
				})
			}
		}
	}
	return out, nil
}

// describe lists an aliased type: its kind, then one line per exported
// field and method, each prefixed with the public name.
func describe(a alias) ([]string, error) {
	files, err := parseDir(a.dir)
	if err != nil {
		return nil, err
	}
	var lines []string
	found := false
	for _, f := range files {
		for _, d := range f.Decls {
			switch d := d.(type) {
			case *ast.GenDecl:
				for _, s := range d.Specs {
					if ts, ok := s.(*ast.TypeSpec); ok && ts.Name.Name == a.name {
						found = true
						lines = append(lines, typeLines(a.public, ts)...)
					}
				}
			case *ast.FuncDecl:
				if d.Recv != nil && d.Name.IsExported() && recvType(d.Recv.List[0].Type) == a.name {
					lines = append(lines, fmt.Sprintf("%s method %s%s", a.public, d.Name.Name, signature(d.Type)))
				}
			}
		}
	}
	if !found {
		return nil, fmt.Errorf("%s: type %s not found in %s", a.public, a.name, a.dir)
	}
	return lines, nil
}

func typeLines(public string, ts *ast.TypeSpec) []string {
	var lines []string
	switch t := ts.Type.(type) {
	case *ast.StructType:
		lines = append(lines, public+" struct")
		for _, f := range t.Fields.List {
			tag := ""
			if f.Tag != nil {
				tag = " " + f.Tag.Value
			}
			if len(f.Names) == 0 {
				lines = append(lines, fmt.Sprintf("%s embeds %s%s", public, expr(f.Type), tag))
			}
			for _, n := range f.Names {
				if n.IsExported() {
					lines = append(lines, fmt.Sprintf("%s field %s %s%s", public, n.Name, expr(f.Type), tag))
				}
			}
		}
	case *ast.InterfaceType:
		lines = append(lines, public+" interface")
		for _, m := range t.Methods.List {
			for _, n := range m.Names {
				lines = append(lines, fmt.Sprintf("%s method %s%s", public, n.Name, signature(m.Type.(*ast.FuncType))))
			}
		}
	default:
		lines = append(lines, fmt.Sprintf("%s type %s", public, expr(ts.Type)))
	}
	return lines
}

// signature prints a method's parameters and results without their names,
// which callers do not depend on: "(int, string) error".
func signature(ft *ast.FuncType) string {
	unnamed := func(l *ast.FieldList) *ast.FieldList {
		if l == nil {
			return nil
		}
		out := &ast.FieldList{}
		for _, f := range l.List {
			for range max(len(f.Names), 1) {
				out.List = append(out.List, &ast.Field{Type: f.Type})
			}
		}
		return out
	}
	return strings.TrimPrefix(expr(&ast.FuncType{Params: unnamed(ft.Params), Results: unnamed(ft.Results)}), "func")
}

// expr prints a type expression on one line, with single spaces, so that
// the listing does not change when gofmt realigns a declaration.
func expr(e ast.Expr) string {
	var b bytes.Buffer
	printer.Fprint(&b, token.NewFileSet(), e)
	return strings.Join(strings.Fields(b.String()), " ")
}

// TestAliasLines keeps the listing honest on a package written for it.
func TestAliasLines(t *testing.T) {
	root := t.TempDir()
	write := func(name, src string) {
		p := filepath.Join(root, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(src), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	write("internal/q/q.go", `package q

type T struct {
	A     int    `+"`json:\"a\"`"+`
	b     int
	C, D  string
	Inner
}

type Inner struct{}

type K string

type I interface{ M(x, y int) error }

func (t *T) Get() (n int, err error) { return t.A, nil }
func (t *T) set()              {}
`)
	write("p/p.go", `package p

import (
	"fmt"

	qq "`+modulePath+`/internal/q"
)

type (
	R  = qq.T
	RK = qq.K
	RI = qq.I
	r  = qq.T
	S  = fmt.Stringer
)
`)
	aliases, err := findAliases(root, filepath.Join(root, "p"))
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, a := range aliases {
		names = append(names, a.public+"="+a.name)
	}
	if want := []string{"p.R=T", "p.RK=K", "p.RI=I"}; !slices.Equal(names, want) {
		t.Errorf("aliases %q, want %q (exported, internal targets only)", names, want)
	}
	lines, err := aliasLines(root, []string{filepath.Join(root, "p")})
	if err != nil {
		t.Fatal(err)
	}
	want := []string{
		"p.R struct",
		"p.R field A int `json:\"a\"`",
		"p.R field C string",
		"p.R field D string",
		"p.R embeds Inner",
		"p.R method Get() (int, error)",
		"p.RK type string",
		"p.RI interface",
		"p.RI method M(int, int) error",
	}
	slices.Sort(want)
	if !slices.Equal(lines, want) {
		t.Errorf("lines:\n%s\nwant:\n%s", strings.Join(lines, "\n"), strings.Join(want, "\n"))
	}
}
