package tool

import (
	"testing"

	"github.com/scoutkit/scout"
)

// The patterns match headings the documentation always has: "# Scout" in
// README.md, "# Package ..." in docs/packages.md.
func TestPiSearchOMP(t *testing.T) {
	runOMP(t, []ompCase{
		{"omp:// searches every document, without anchors", "search", `{"pattern": "^# (Scout$|Package )", "paths": "omp://"}`, scout.StatusSuccess,
			[]string{"# omp://README.md\n", "1|# Scout\n", "# omp://docs/packages.md\n", "|# Package documentation"}, "¶omp://",
			`"scopePath":"omp://","matchCount":5,"fileCount":2,"files":["omp://README.md","omp://docs/packages.md"]`},
		{"a directory URL searches the documents below it", "search", `{"pattern": "^# (Scout$|Package )", "paths": ["omp://docs"]}`, scout.StatusSuccess,
			[]string{"# omp://docs/packages.md\n"}, "omp://README.md", `"scopePath":"omp://docs","matchCount":4,"fileCount":1,`},
		{"documents and workspace paths together", "search", `{"pattern": "^# (Workspace|Scout$|Package |Tool )", "paths": ["README.md", "omp://"]}`, scout.StatusSuccess,
			[]string{"README.md", "# Workspace readme", "# omp://README.md\n", "1|# Scout"}, "", `"files":["README.md","omp://README.md","omp://docs/packages.md","omp://docs/tools.md"]`},
		{"a line range on one document", "search", `{"pattern": "Scout", "paths": "omp://README.md:1-1"}`, scout.StatusSuccess,
			[]string{"# omp://README.md\n", "1|# Scout"}, "Scout is a Go library", `"scopePath":"omp://README.md","matchCount":1,`},
		{"a line range on a directory URL is refused, as on a directory", "search", `{"pattern": "Scout", "paths": "omp://docs:1-2"}`, scout.StatusError,
			[]string{"Line-range selector requires a single file: omp://docs is a directory; name one resource, e.g. omp://docs/packages.md:50-100"}, "", ""},
		{"... among other paths too (it searched the listing's lines)", "search", `{"pattern": "Scout", "paths": ["omp://docs:1-2", "README.md"]}`, scout.StatusError,
			[]string{"Line-range selector requires a single file: omp://docs is a directory; name one resource"}, "", ""},
		{"... and on the root of the documents", "search", `{"pattern": "Scout", "paths": "omp://:5"}`, scout.StatusError,
			[]string{"Line-range selector requires a single file: omp:// is a directory; name one resource, e.g. omp://README.md:50-100"}, "", ""},
		{"no globs in internal URLs", "search", `{"pattern": "x", "paths": "omp://docs/*.md"}`, scout.StatusError,
			[]string{"Glob patterns are not supported for internal URLs: omp://docs/*.md"}, "", ""},
		{"a missing document names those that exist", "search", `{"pattern": "x", "paths": ["omp://nope.md"]}`, scout.StatusError,
			[]string{"Not found: omp://nope.md", "Available: omp://README.md"}, "", ""},
	})
}
