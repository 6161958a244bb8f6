//go:build cgo

package summary

import "github.com/scoutkit/scout/internal/summary/treesitter"

// With cgo, the tree-sitter languages join Go.
func init() { addBackends = addTreeSitter }

func addTreeSitter(backends map[string]func(src []byte) ([]block, bool)) {
	for _, lang := range treesitter.Languages() {
		backends[lang] = func(src []byte) ([]block, bool) {
			found, ok := treesitter.Blocks(lang, src)
			if !ok {
				return nil, false
			}
			blocks := make([]block, len(found))
			for i, b := range found {
				blocks[i] = block{open: b.Open, close: b.Close, braced: b.Braced}
			}
			return blocks, true
		}
	}
}
