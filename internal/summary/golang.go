package summary

import (
	"go/ast"
	"go/parser"
	"go/token"
)

// goBlocks returns the bodies of the functions and function literals of a
// Go file, outermost only; false when the file does not parse.
func goBlocks(src []byte) ([]block, bool) {
	fset := token.NewFileSet()
	f, err := parser.ParseFile(fset, "", src, parser.SkipObjectResolution)
	if err != nil {
		return nil, false
	}
	var blocks []block
	add := func(body *ast.BlockStmt) {
		// Unadjusted positions: //line directives must not move the ranges.
		blocks = append(blocks, block{
			open:   fset.PositionFor(body.Lbrace, false).Line,
			close:  fset.PositionFor(body.Rbrace, false).Line,
			braced: true,
		})
	}
	ast.Inspect(f, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.FuncDecl:
			if n.Body != nil {
				add(n.Body)
			}
			return false
		case *ast.FuncLit:
			add(n.Body)
			return false
		}
		return true
	})
	return blocks, true
}
