package api

import (
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// publicDirs are the directories of the public packages, relative to api/.
var publicDirs = []string{"..", "../format", "../tool"}

func TestExportedNamesDocumented(t *testing.T) {
	for _, dir := range publicDirs {
		missing, err := undocumented(dir)
		if err != nil {
			t.Fatal(err)
		}
		checkGaps(t, dir, missing)
	}
}

// TestPackageDocSections: doc.go keeps the sections the package's users
// look for.
func TestPackageDocSections(t *testing.T) {
	f, err := parser.ParseFile(token.NewFileSet(), "../doc.go", nil, parser.ParseComments|parser.PackageClauseOnly)
	if err != nil {
		t.Fatal(err)
	}
	doc := f.Doc.Text()
	for _, s := range []string{"File systems", "Paths and coordinates", "Selectors", "Limits and truncation", "Errors", "Output formats"} {
		if !strings.Contains(doc, "\n# "+s+"\n") {
			t.Errorf("doc.go has no section %q", "# "+s)
		}
	}
}

// checkGaps fails on each undocumented name of dir ("file:line name") that
// knownGaps does not list, and on each listed name that is documented now.
func checkGaps(t *testing.T, dir string, missing []string) {
	t.Helper()
	gaps := knownGaps[dir]
	for _, m := range missing {
		if !slices.Contains(gaps, m[strings.IndexByte(m, ' ')+1:]) {
			t.Errorf("%s: exported %s has no doc comment", dir, m)
		}
	}
	for _, g := range gaps {
		if !slices.ContainsFunc(missing, func(m string) bool { return strings.HasSuffix(m, " "+g) }) {
			t.Errorf("%s: %s is documented now (or gone): remove it from knownGaps", dir, g)
		}
	}
}

// knownGaps are the exported names, by package directory, allowed to have
// no doc comment. It is empty: every exported name is documented. A name
// may be listed only while it is being documented; the test fails on a new
// undocumented name and on a listed name that has been documented.
var knownGaps = map[string][]string{}

// checker collects the undocumented exported names of one package.
type checker struct {
	fset    *token.FileSet
	missing []string // "file:line name"
}

func (c *checker) report(pos token.Pos, what string) {
	p := c.fset.Position(pos)
	c.missing = append(c.missing, fmt.Sprintf("%s:%d %s", filepath.Base(p.Filename), p.Line, what))
}

// undocumented lists the exported names of the package in dir (test files
// left out) that have no doc comment.
func undocumented(dir string) ([]string, error) {
	entries, err := os.ReadDir(dir)
	if err != nil {
		return nil, err
	}
	c := &checker{fset: token.NewFileSet()}
	for _, e := range entries {
		name := e.Name()
		if e.IsDir() || !strings.HasSuffix(name, ".go") || strings.HasSuffix(name, "_test.go") {
			continue
		}
		f, err := parser.ParseFile(c.fset, filepath.Join(dir, name), nil, parser.ParseComments|parser.SkipObjectResolution)
		if err != nil {
			return nil, err
		}
		for _, d := range f.Decls {
			switch d := d.(type) {
			case *ast.FuncDecl:
				c.funcDecl(d)
			case *ast.GenDecl:
				c.genDecl(d)
			}
		}
	}
	slices.Sort(c.missing)
	return c.missing, nil
}

func (c *checker) funcDecl(d *ast.FuncDecl) {
	if !d.Name.IsExported() || d.Doc != nil {
		return
	}
	if d.Recv == nil {
		c.report(d.Pos(), "func "+d.Name.Name)
		return
	}
	if recv := recvType(d.Recv.List[0].Type); ast.IsExported(recv) {
		c.report(d.Pos(), "method "+recv+"."+d.Name.Name)
	}
}

// genDecl reports undocumented exported types, constants and variables,
// and the fields and methods of exported types. The doc comment of a
// parenthesised group documents its members; a line comment documents a
// value or a field.
func (c *checker) genDecl(d *ast.GenDecl) {
	for _, s := range d.Specs {
		switch s := s.(type) {
		case *ast.TypeSpec:
			if !s.Name.IsExported() {
				continue
			}
			doc := s.Doc
			if doc == nil && !d.Lparen.IsValid() {
				doc = d.Doc
			}
			if doc == nil && s.Comment == nil && d.Doc == nil {
				c.report(s.Pos(), "type "+s.Name.Name)
			}
			c.members(s, doc.Text())
		case *ast.ValueSpec:
			for _, n := range s.Names {
				if n.IsExported() && s.Doc == nil && s.Comment == nil && d.Doc == nil {
					c.report(n.Pos(), d.Tok.String()+" "+n.Name)
				}
			}
		}
	}
}

// members reports the undocumented exported fields of a struct and methods
// of an interface. Fields on consecutive lines under one comment ("Before
// and After are ...") share it; a member the type's doc names as a word
// ("a half-open range [Start, End)") is documented there; embedded fields
// are documented by their type.
func (c *checker) members(s *ast.TypeSpec, typeDoc string) {
	var list *ast.FieldList
	switch t := s.Type.(type) {
	case *ast.StructType:
		list = t.Fields
	case *ast.InterfaceType:
		list = t.Methods
	default:
		return
	}
	documented := false
	prevLine := -1
	for _, f := range list.List {
		line := c.fset.Position(f.Pos()).Line
		switch {
		case f.Doc != nil || f.Comment != nil:
			documented = true
		case line != prevLine+1:
			documented = false
		}
		prevLine = c.fset.Position(f.End()).Line
		for _, n := range f.Names {
			if n.IsExported() && !documented && !mentions(typeDoc, n.Name) {
				c.report(n.Pos(), s.Name.Name+"."+n.Name)
			}
		}
	}
}

// mentions reports whether doc has name as a whole word.
func mentions(doc, name string) bool {
	for i := strings.Index(doc, name); i >= 0; {
		end := i + len(name)
		if (i == 0 || !isWordByte(doc[i-1])) && (end == len(doc) || !isWordByte(doc[end])) {
			return true
		}
		j := strings.Index(doc[end:], name)
		if j < 0 {
			return false
		}
		i = end + j
	}
	return false
}

func isWordByte(b byte) bool {
	return b == '_' || '0' <= b && b <= '9' || 'a' <= b && b <= 'z' || 'A' <= b && b <= 'Z'
}

// recvType is the name of a receiver's type, without '*' and type
// parameters.
func recvType(e ast.Expr) string {
	switch t := e.(type) {
	case *ast.StarExpr:
		return recvType(t.X)
	case *ast.IndexExpr:
		return recvType(t.X)
	case *ast.IndexListExpr:
		return recvType(t.X)
	case *ast.Ident:
		return t.Name
	}
	return ""
}

// TestUndocumentedFinds keeps the checker honest: each row is a
// declaration it must flag or accept.
func TestUndocumentedFinds(t *testing.T) {
	tests := []struct {
		src    string
		want   []string
		reason string
	}{
		{"func F() {}", []string{"func F"}, "an undocumented function"},
		{"// F does.\nfunc F() {}\nfunc g() {}", nil, "documented, and unexported"},
		{"type T int\nfunc (T) M() {}\nfunc (*t) N() {}\ntype t int", []string{"method T.M", "type T"}, "methods of exported types only"},
		{"// G is a group.\nconst (\n\tA = 1\n\tB = 2\n)", nil, "a group's doc documents its members"},
		{"const (\n\t// A is.\n\tA = 1\n\tB = 2 // B is.\n\tC = 3\n)", []string{"const C"}, "values in an undocumented group"},
		{"// S is.\ntype S struct {\n\t// A and B are.\n\tA int\n\tB int\n\n\tC int\n\td int\n\tE int // E is.\n}", []string{"S.C"}, "fields: shared comments stop at a blank line"},
		{"// I is.\ntype I interface {\n\tM()\n\t// N does.\n\tN()\n}", []string{"I.M"}, "interface methods"},
		{"// R is [Start, End]; Ends is not End.\ntype R struct {\n\tStart, End int\n\tEnd2 int\n}", []string{"R.End2"}, "members named in the type's doc, as whole words"},
		{"// Fetcher fetches.\ntype Fetcher interface {\n\tFetch()\n}", []string{"Fetcher.Fetch"}, "a name inside a longer word does not count"},
		{"// S is.\ntype S struct {\n\tio.Reader\n}", nil, "embedded fields"},
		{"type (\n\t// A is.\n\tA int\n\tB = A\n)", []string{"type B"}, "types in a group"},
		{"func (x *G[K]) M() {}\n// G is.\ntype G[K any] struct{}", []string{"method G.M"}, "generic receivers"},
	}
	for _, tt := range tests {
		dir := t.TempDir()
		if err := os.WriteFile(filepath.Join(dir, "p.go"), []byte("package p\n\n"+tt.src+"\n"), 0o644); err != nil {
			t.Fatal(err)
		}
		// A test file is never checked.
		if err := os.WriteFile(filepath.Join(dir, "p_test.go"), []byte("package p\n\nfunc Undocumented() {}\n"), 0o644); err != nil {
			t.Fatal(err)
		}
		got, err := undocumented(dir)
		if err != nil {
			t.Fatal(err)
		}
		var names []string
		for _, g := range got {
			names = append(names, g[strings.IndexByte(g, ' ')+1:])
		}
		slices.Sort(names)
		if !slices.Equal(names, tt.want) {
			t.Errorf("%s: got %q, want %q", tt.reason, names, tt.want)
		}
	}
}
