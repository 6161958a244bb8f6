package tool

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"testing"
	"testing/fstest"

	"github.com/scoutkit/scout"
	"github.com/scoutkit/scout/internal/testfs"
)

// TestPiReadContract pins the exact text of the pi read notices whose
// wording the contract gives and no golden case shows: the continuation
// and beyond-end notices of in-memory sources (archive entries, notebooks),
// archive listings and entries, and a document that cannot be converted.
func TestPiReadContract(t *testing.T) {
	var lines strings.Builder
	for i := 1; i <= 30; i++ {
		fmt.Fprintf(&lines, "n%02d\n", i)
	}
	nb := `{"cells":[{"cell_type":"markdown","source":["# T\n","text"]},{"cell_type":"code","source":"a = 1\nb = 2"},{"cell_type":"raw","source":[]}]}`
	m := fstest.MapFS{
		"a.zip": {Data: testfs.Zip(
			testfs.Member{Name: "src/"},
			testfs.Member{Name: "src/n.txt", Body: lines.String()},
			testfs.Member{Name: "src/empty.txt"},
			testfs.Member{Name: "src/bin.dat", Body: "\x00\x01\x02"},
			testfs.Member{Name: "top.txt", Body: "hi\n"},
		)},
		"nb.ipynb": {Data: []byte(nb)},
		"bad.pdf":  {Data: []byte("%PDF-1.4\nnot really\n")},
		"bad.docx": {Data: []byte("PK\x03\x04 broken")},
	}
	tests := []struct {
		path   string
		status scout.Status
		text   string // the whole text, or its start when it ends in "…"
		reason string
	}{
		{"a.zip", scout.StatusSuccess, "src/\ntop.txt (3B)", "an archive root lists its children, a file with its size"},
		{"a.zip:src", scout.StatusSuccess, "bin.dat (3B)\nempty.txt\nn.txt (120B)", "sorted by name; no size for an empty file"},
		{"a.zip:src/n.txt:5-6", scout.StatusSuccess,
			"¶a.zip:src/n.txt#A720\n4:n04\n5:n05\n6:n06\n7:n07\n8:n08\n9:n09\n\n[21 more lines in archive entry. Use :10 to continue]",
			"an entry's range is widened 1 before and 3 after; the notice names the archive entry"},
		{"a.zip:src/n.txt:40", scout.StatusSuccess,
			"Line 40 is beyond end of archive entry (30 lines total). Use :1 to read from the start, or :30 to read the last line.",
			"a start past the end of an entry is explained, not an error"},
		{"a.zip:src/empty.txt", scout.StatusSuccess, "¶a.zip:src/empty.txt#5D05\n(empty archive entry)", "an empty entry says so"},
		{"a.zip:src/bin.dat", scout.StatusSuccess, "[Cannot read binary archive entry 'src/bin.dat' (3B)]", "a binary entry is a notice, not an error"},
		{"a.zip:nope.txt", scout.StatusError, "Path 'a.zip:nope.txt' not found inside archive", "a missing member names the whole read path"},
		{"nb.ipynb:2-3", scout.StatusSuccess,
			"¶nb.ipynb#4FB1\n1:# %% [markdown] cell:0\n2:# T\n3:text\n4:# %% [code] cell:1\n5:a = 1\n6:b = 2\n\n[1 more lines in notebook. Use :7 to continue]",
			"a notebook's range pages its cells' text; the notice names the notebook"},
		{"nb.ipynb:9", scout.StatusSuccess,
			"Line 9 is beyond end of notebook (7 lines total). Use :1 to read from the start, or :7 to read the last line.",
			"a start past the end of a notebook"},
		{"bad.pdf", scout.StatusSuccess, "[Cannot read .pdf file: bad.pdf: not a valid PDF document…", "a failed conversion is a notice, not an error, naming the extension as the contract words it"},
		{"bad.docx", scout.StatusSuccess, "[Cannot read .docx file: bad.docx: not a valid DOCX document…", "the same for every converted extension"},
	}
	for _, tr := range testfs.Trees(t, m) {
		cfg := Config{FS: tr.FS, Root: tr.Root}
		for _, tt := range tests {
			t.Run(tt.path+"/"+tr.Name, func(t *testing.T) {
				args, _ := json.Marshal(map[string]string{"path": tt.path})
				env := Call(context.Background(), cfg, Pi, "read", args)
				want, prefix := strings.CutSuffix(tt.text, "…")
				if env.Status != tt.status || prefix && !strings.HasPrefix(env.Text, want) || !prefix && env.Text != want {
					t.Fatalf("%s %q,\nwant %s %q (%s)", env.Status, env.Text, tt.status, tt.text, tt.reason)
				}
			})
		}
	}
}
