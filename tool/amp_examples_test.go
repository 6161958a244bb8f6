package tool

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"testing"
	"testing/fstest"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/scoutkit/scout"
	"github.com/scoutkit/scout/internal/testfs"
)

// TestAmpGrepContractExamples runs the practical examples of amplifier
// grep's contract over one tree, on fstest.MapFS and a temporary directory,
// and pins their data: ripgrep's type and glob filters ("**/*.py" matches
// top-level files too; a hidden directory is left out), -i, the count of
// matching lines per file with its sum, -C's context (each result with its
// own window, is_match on the result's line), and a second page found with
// offset, head_limit and total_matches. A page of more than three results
// is compared by its first and last.
func TestAmpGrepContractExamples(t *testing.T) {
	var js strings.Builder
	for i := 1; i <= 60; i++ {
		fmt.Fprintf(&js, "function f%d() {}\n", i)
	}
	tree := fstest.MapFS{
		"src/main.py":        {Data: []byte("import os\nfrom sys import argv\n\nclass Session:\n    def execute(self):\n        # TODO: run\n        return 1\n\nclass Other: pass\n")},
		"src/util.py":        {Data: []byte("import re\n# fixme later\ndef execute_all():\n    pass\n")},
		"src/err.py":         {Data: []byte("error here\n")},
		"tests/test_main.py": {Data: []byte("from src import main\n# xxx note\n")},
		"tests/a.test.py":    {Data: []byte("error here\n")},
		"tests/b.spec.py":    {Data: []byte("error here\n")},
		"docs/guide.md":      {Data: []byte("AmplifierSession usage\n")},
		"README.md":          {Data: []byte("AmplifierSession\n")},
		"web/app.js":         {Data: []byte(js.String())},
		".hidden/x.py":       {Data: []byte("class Hidden:\n# TODO hidden\n")},
	}
	dir := testfs.WriteDir(t, tree)
	tests := []struct {
		name, args string
		status     scout.Status
		want       string
	}{
		{
			"find all Python classes",
			`{"pattern":"^class \\w+","type":"py","output_mode":"content","head_limit":20}`, scout.StatusSuccess,
			`{"pattern":"^class \\w+","output_mode":"content","total_matches":2,"matches_count":2,"results":[{"file":"src/main.py","line_number":4,"content":"class Session:"},{"file":"src/main.py","line_number":9,"content":"class Other: pass"}]}`,
		},
		{
			"find TODOs in code",
			`{"pattern":"TODO|FIXME|XXX","-i":true,"output_mode":"content","glob":"**/*.py"}`, scout.StatusSuccess,
			`{"pattern":"TODO|FIXME|XXX","output_mode":"content","total_matches":3,"matches_count":3,"results":[{"file":"src/main.py","line_number":6,"content":"        # TODO: run"},{"file":"src/util.py","line_number":2,"content":"# fixme later"},{"file":"tests/test_main.py","line_number":2,"content":"# xxx note"}]}`,
		},
		{
			"count imports per file",
			`{"pattern":"^import |^from ","type":"py","output_mode":"count"}`, scout.StatusSuccess,
			`{"pattern":"^import |^from ","output_mode":"count","total_matches":4,"matches_count":4,"counts":{"src/main.py":2,"src/util.py":1,"tests/test_main.py":1}}`,
		},
		{
			"find files containing specific text",
			`{"pattern":"AmplifierSession","output_mode":"files_with_matches","glob":"**/*.md"}`, scout.StatusSuccess,
			`{"pattern":"AmplifierSession","output_mode":"files_with_matches","total_matches":2,"matches_count":2,"files":["README.md","docs/guide.md"]}`,
		},
		{
			"search with context",
			`{"pattern":"def execute","type":"py","output_mode":"content","-C":3,"head_limit":5}`, scout.StatusSuccess,
			`{"pattern":"def execute","output_mode":"content","total_matches":2,"matches_count":2,"results":[{"file":"src/main.py","line_number":5,"content":"    def execute(self):","context":[{"line_number":2,"content":"from sys import argv","is_match":false},{"line_number":3,"content":"","is_match":false},{"line_number":4,"content":"class Session:","is_match":false},{"line_number":5,"content":"    def execute(self):","is_match":true},{"line_number":6,"content":"        # TODO: run","is_match":false},{"line_number":7,"content":"        return 1","is_match":false},{"line_number":8,"content":"","is_match":false}]},{"file":"src/util.py","line_number":3,"content":"def execute_all():","context":[{"line_number":1,"content":"import re","is_match":false},{"line_number":2,"content":"# fixme later","is_match":false},{"line_number":3,"content":"def execute_all():","is_match":true},{"line_number":4,"content":"    pass","is_match":false}]}]}`,
		},
		{
			"pagination, first page",
			`{"pattern":"function","type":"js","output_mode":"content","head_limit":50,"offset":0}`, scout.StatusPartial,
			`{"pattern":"function","output_mode":"content","total_matches":60,"matches_count":50,"results":[{"file":"web/app.js","line_number":1,"content":"function f1() {}"},{"file":"web/app.js","line_number":50,"content":"function f50() {}"}]}`,
		},
		{
			"pagination, second page",
			`{"pattern":"function","type":"js","output_mode":"content","head_limit":50,"offset":50}`, scout.StatusSuccess,
			`{"pattern":"function","output_mode":"content","total_matches":60,"matches_count":10,"results":[{"file":"web/app.js","line_number":51,"content":"function f51() {}"},{"file":"web/app.js","line_number":60,"content":"function f60() {}"}]}`,
		},
		{
			"type: optimized",
			`{"pattern":"error","type":"py"}`, scout.StatusSuccess,
			`{"pattern":"error","output_mode":"files_with_matches","total_matches":3,"matches_count":3,"files":["src/err.py","tests/a.test.py","tests/b.spec.py"]}`,
		},
		{
			"glob: custom pattern",
			`{"pattern":"error","glob":"**/*.{test.py,spec.py}"}`, scout.StatusSuccess,
			`{"pattern":"error","output_mode":"files_with_matches","total_matches":2,"matches_count":2,"files":["tests/a.test.py","tests/b.spec.py"]}`,
		},
	}
	for _, tt := range tests {
		for _, cfg := range []Config{{FS: tree}, {Root: dir}} {
			env := Call(context.Background(), cfg, Amplifier, "grep", []byte(tt.args))
			require.Equal(t, tt.status, env.Status, "%s: %s", tt.name, env.Text)
			b, err := json.Marshal(env.Data)
			require.NoError(t, err)
			var got map[string]any
			require.NoError(t, json.Unmarshal(b, &got))
			if r, ok := got["results"].([]any); ok && len(r) > 3 {
				got["results"] = []any{r[0], r[len(r)-1]}
			}
			var want map[string]any
			require.NoError(t, json.Unmarshal([]byte(tt.want), &want), tt.name)
			assert.Equal(t, want, got, tt.name)
		}
	}
}
