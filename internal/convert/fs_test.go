package convert

import (
	"context"
	"io/fs"
	"os"
	"path/filepath"
	"testing"
	"testing/fstest"

	"github.com/scoutkit/scout/internal/fsx"
)

// TestThroughFS converts documents opened the way read opens them, from an
// fstest.MapFS and from a real directory, so that both random-access paths
// (in place and copied into memory) are exercised.
func TestThroughFS(t *testing.T) {
	docs := map[string][]byte{
		"a/report.docx": docxOf(t, `<w:p><w:r><w:t>from docx</w:t></w:r></w:p>`),
		"b/paper.pdf":   pdfOf("from pdf"),
		"c/notes.rtf":   []byte(`{\rtf1 from rtf\par}`),
		"d/old.doc":     docOf(piece{"from doc\r", true}),
	}
	want := map[string]string{"a/report.docx": "from docx", "b/paper.pdf": "from pdf", "c/notes.rtf": "from rtf", "d/old.doc": "from doc"}
	m := fstest.MapFS{}
	dir := t.TempDir()
	for name, data := range docs {
		m[name] = &fstest.MapFile{Data: data, Mode: 0o444}
		p := filepath.Join(dir, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, data, 0o444); err != nil {
			t.Fatal(err)
		}
	}
	for fsName, fsys := range map[string]fs.FS{"MapFS": m, "TempDir": os.DirFS(dir)} {
		for name := range docs {
			t.Run(fsName+"/"+name, func(t *testing.T) {
				ra, err := fsx.OpenReaderAt(fsys, name, 1<<20)
				if err != nil {
					t.Fatal(err)
				}
				defer ra.Close()
				c, _ := For(filepath.Ext(name))
				got, err := c.Convert(context.Background(), ra, ra.Size())
				if err != nil || got != want[name] {
					t.Fatalf("got %q, %v; want %q", got, err, want[name])
				}
			})
		}
	}
	// The source files are untouched (read-only mode would make any write fail too).
	for name, data := range docs {
		b, err := os.ReadFile(filepath.Join(dir, filepath.FromSlash(name)))
		if err != nil || string(b) != string(data) {
			t.Errorf("%s changed", name)
		}
	}
}
