//go:build cgo

package treesitter

import (
	"slices"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
)

func TestBlocks(t *testing.T) {
	tests := []struct {
		lang, src string
		want      []Block
		ok        bool
		reason    string
	}{
		{"python", "def f():\n    a = 1\n    b = 2\n", []Block{{2, 3, false}}, true, "an indented body"},
		{"python", "def f():\n    \"\"\"Doc.\"\"\"\n    a = 1\n", []Block{{3, 3, false}}, true, "the docstring is kept"},
		{"python", "def f():\n    \"\"\"Only a docstring.\"\"\"\n", nil, true, "a docstring-only body has nothing to elide"},
		{"python", "def f(): return 1\n", nil, true, "a body on the def line is kept"},
		{"python", "class C:\n    def m(self):\n        pass\n\n    x = 1\n", []Block{{3, 3, false}}, true, "methods, not class bodies"},
		{"python", "def f(:\n    a = 1\n    b = 2\n", nil, true, "a function holding a syntax error is skipped"},
		{"c", "int x = ;\nint f(void) {\n  return 0;\n}\n", []Block{{2, 4, true}}, true, "an error outside a function does not stop the others"},
		{"javascript", "const f = (x) => x + 1;\nfunction g() {\n  return 1;\n}\n", []Block{{2, 4, true}}, true,
			"an expression-bodied arrow has no block"},
		{"javascript", "function outer() {\n  function inner() {\n    return 1;\n  }\n}\n", []Block{{1, 5, true}}, true,
			"outermost bodies only"},
		{"typescript", "abstract class A {\n  abstract m(): void;\n  n(): number {\n    return 1;\n  }\n}\n", []Block{{3, 5, true}}, true,
			"an abstract method has no body"},
		{"tsx", "const A = () => {\n  return <div />;\n};\n", []Block{{1, 3, true}}, true, "JSX in TSX"},
		{"rust", "trait T {\n    fn a(&self);\n    fn b(&self) -> i32 {\n        1\n    }\n}\n", []Block{{3, 5, true}}, true,
			"trait: a default method has a body, a declaration does not"},
		{"java", "class A {\n  A() {\n    x = 1;\n  }\n  void m() {}\n}\n", []Block{{2, 4, true}, {5, 5, true}}, true,
			"constructors and methods"},
		{"c", "int f(void)\n{\n  return 0;\n}\n", []Block{{2, 4, true}}, true, "an Allman brace opens the block"},
		{"cpp", "namespace n {\nint f() {\n  return 0;\n}\n}\n", []Block{{2, 4, true}}, true, "a function inside a namespace"},
		{"cobol", "IDENTIFICATION DIVISION.", nil, false, "an unknown language"},
	}
	for _, tt := range tests {
		got, ok := Blocks(tt.lang, []byte(tt.src))
		assert.Equal(t, tt.ok, ok, "%s (%s)", tt.reason, tt.lang)
		assert.Equal(t, tt.want, got, "%s (%s)", tt.reason, tt.lang)
	}
}

func TestLanguages(t *testing.T) {
	got := Languages()
	slices.Sort(got)
	want := []string{"c", "cpp", "java", "javascript", "python", "rust", "tsx", "typescript"}
	assert.Equal(t, want, got)
}

// FuzzBlocks checks that tree-sitter input of any shape never panics and
// that every block is ordered and inside the text.
func FuzzBlocks(f *testing.F) {
	f.Add("python", "def f():\n    a = 1\n")
	f.Add("javascript", "function f() {\n  return 1;\n}\n")
	f.Add("cpp", "int f() {\n}\n")
	f.Add("c", "int f(void)\n{\n  return 0;\n}\n")
	f.Add("java", "class A {\n  A() {\n    x = 1;\n  }\n  void m() {}\n}\n")
	f.Add("rust", "trait T {\n    fn a(&self);\n    fn b(&self) -> i32 {\n        1\n    }\n}\n")
	f.Add("typescript", "abstract class A {\n  abstract m(): void;\n  n(): number {\n    return 1;\n  }\n}\n")
	f.Add("tsx", "const A = () => {\n  return <div>{[<b key={1} />]}</div>;\n};\n")
	// deep nesting and an unclosed body
	f.Add("c", "int f(void) {\n"+strings.Repeat("{\n", 500)+strings.Repeat("}\n", 499))
	py := "def f():\n"
	for i := 1; i <= 100; i++ {
		py += strings.Repeat("  ", i) + "if x:\n"
	}
	f.Add("python", py+strings.Repeat("  ", 101)+"pass\n")
	f.Fuzz(func(t *testing.T, lang, src string) {
		blocks, ok := Blocks(lang, []byte(src))
		if !ok {
			return
		}
		lines := 1
		for _, c := range src {
			if c == '\n' {
				lines++
			}
		}
		for _, b := range blocks {
			if b.Open < 1 || b.Close < b.Open || b.Close > lines {
				t.Fatalf("block %+v outside 1..%d", b, lines)
			}
		}
	})
}
