package tool

import (
	"fmt"
	"slices"
	"testing"
	"testing/fstest"

	"github.com/stretchr/testify/assert"
)

// TestAmpGlobCapped: past the 100-match cap, data says so (total_files,
// results_capped), so a host need not read the text; under it, data has
// the contract's four keys only.
func TestAmpGlobCapped(t *testing.T) {
	tree := fstest.MapFS{}
	for i := range 130 {
		tree[fmt.Sprintf("src/f%03d.py", i)] = &fstest.MapFile{Data: []byte("x\n")}
	}
	tests := []struct {
		pattern, status string
		count, total    float64 // total is 0 when data has no total_files
	}{
		{"**/*.py", "partial", 100, 130},
		{"src/f00*.py", "success", 10, 0},
	}
	for _, tt := range tests {
		env, data := call(t, Config{FS: tree}, Amplifier, "glob", `{"pattern":"`+tt.pattern+`"}`)
		assert.Equal(t, tt.status, string(env.Status), tt.pattern)
		assert.Equal(t, tt.count, data["count"], tt.pattern)
		keys := []string{"base_path", "count", "matches", "pattern"}
		if tt.total > 0 {
			assert.Equal(t, tt.total, data["total_files"], tt.pattern)
			assert.Equal(t, true, data["results_capped"], tt.pattern)
			keys = append(keys, "results_capped", "total_files")
			slices.Sort(keys)
		}
		got := make([]string, 0, len(data))
		for k := range data {
			got = append(got, k)
		}
		slices.Sort(got)
		assert.Equal(t, keys, got, tt.pattern)
	}
}
