//go:build cgo

package treesitter

import (
	"sync"
	"unsafe"

	sitter "github.com/tree-sitter/go-tree-sitter"
	tsc "github.com/tree-sitter/tree-sitter-c/bindings/go"
	tscpp "github.com/tree-sitter/tree-sitter-cpp/bindings/go"
	tsjava "github.com/tree-sitter/tree-sitter-java/bindings/go"
	tsjs "github.com/tree-sitter/tree-sitter-javascript/bindings/go"
	tspython "github.com/tree-sitter/tree-sitter-python/bindings/go"
	tsrust "github.com/tree-sitter/tree-sitter-rust/bindings/go"
	tsts "github.com/tree-sitter/tree-sitter-typescript/bindings/go"
)

// Block is a function body in 1-based lines. A braced body runs from the
// line of its `{` (Open) to the line of its `}` (Close); an indented
// (Python) body is Open..Close, the lines after its header and docstring.
type Block struct {
	Open, Close int
	Braced      bool
}

type grammar struct {
	language func() unsafe.Pointer
	funcs    map[string]bool // node kinds whose "body" field is a function body
	indented bool            // bodies are indentation blocks (Python)
}

func kinds(names ...string) map[string]bool {
	m := make(map[string]bool, len(names))
	for _, n := range names {
		m[n] = true
	}
	return m
}

// grammars returns the grammars by language, made on first use.
var grammars = sync.OnceValue(func() map[string]grammar {
	jsFuncs := kinds("function_declaration", "function_expression", "generator_function_declaration",
		"generator_function", "arrow_function", "method_definition")
	return map[string]grammar{
		"python":     {tspython.Language, kinds("function_definition"), true},
		"javascript": {tsjs.Language, jsFuncs, false},
		"typescript": {tsts.LanguageTypescript, jsFuncs, false},
		"tsx":        {tsts.LanguageTSX, jsFuncs, false},
		"rust":       {tsrust.Language, kinds("function_item"), false},
		"java":       {tsjava.Language, kinds("method_declaration", "constructor_declaration", "compact_constructor_declaration"), false},
		"c":          {tsc.Language, kinds("function_definition"), false},
		"cpp":        {tscpp.Language, kinds("function_definition"), false},
	}
})

// Languages lists the language names Blocks accepts.
func Languages() []string {
	out := make([]string, 0, len(grammars()))
	for l := range grammars() {
		out = append(out, l)
	}
	return out
}

// Blocks returns the outermost function bodies of src in language lang,
// and false when lang is unknown. Like the editors that use tree-sitter,
// it tolerates syntax errors (macros in C, newer syntax than the grammar):
// a function whose subtree holds an error is skipped, since its extent
// may be wrong, and the rest of the file is still summarised.
func Blocks(lang string, src []byte) ([]Block, bool) {
	g, ok := grammars()[lang]
	if !ok {
		return nil, false
	}
	useLibcAllocator()
	p := sitter.NewParser()
	defer p.Close()
	if err := p.SetLanguage(sitter.NewLanguage(g.language())); err != nil {
		return nil, false
	}
	tree := p.Parse(src, nil)
	if tree == nil {
		return nil, false
	}
	defer tree.Close()
	c := tree.RootNode().Walk()
	defer c.Close()
	var blocks []Block
	for {
		n := c.Node()
		descend := true
		if g.funcs[n.Kind()] && !n.HasError() {
			if body := n.ChildByFieldName("body"); body != nil {
				if b, ok := bodyBlock(n, body, g.indented); ok {
					blocks = append(blocks, b)
					descend = false
				}
			}
		}
		if descend && c.GotoFirstChild() {
			continue
		}
		for !c.GotoNextSibling() {
			if !c.GotoParent() {
				return blocks, true
			}
		}
	}
}

// bodyBlock returns the block of body, the body of fn; false when it is
// not a block (an arrow function's expression) or starts on fn's line.
func bodyBlock(fn, body *sitter.Node, indented bool) (Block, bool) {
	start, end := body.StartPosition(), body.EndPosition()
	if !indented {
		n := body.ChildCount()
		if n < 2 || body.Child(0).Kind() != "{" || body.Child(n-1).Kind() != "}" {
			return Block{}, false
		}
		return Block{Open: int(start.Row) + 1, Close: int(end.Row) + 1, Braced: true}, true
	}
	open := int(start.Row) + 1
	if first := body.NamedChild(0); first != nil && first.Kind() == "expression_statement" {
		if s := first.NamedChild(0); s != nil && s.Kind() == "string" && first.EndPosition().Row >= start.Row {
			open = int(first.EndPosition().Row) + 2 // keep the docstring
		}
	}
	last := int(end.Row) + 1
	if end.Column == 0 && end.Row > start.Row {
		last-- // the block ends at the start of the next line
	}
	if open <= int(fn.StartPosition().Row)+1 || open > last {
		return Block{}, false
	}
	return Block{Open: open, Close: last}, true
}
