package read

import (
	"context"
	"strings"
	"testing"
	"testing/fstest"

	"github.com/scoutkit/scout/internal/errs"
	"github.com/scoutkit/scout/internal/testfs"
)

// TestNotDatabase: a table or a query of a file (or archive member) named
// like a database that is not one says so and how to read the file,
// rather than that the path is not found; the file itself, and its line
// selectors, read as text, and a file whose name holds the table wins.
func TestNotDatabase(t *testing.T) {
	fsys := fstest.MapFS{
		"fake.db":           {Data: []byte("hello\nworld\n")},
		"real.db:users":     {Data: []byte("a file named so\n")},
		"real.db":           {Data: []byte("text\n")},
		"dir.db/f.txt":      {Data: []byte("x\n")},
		"a.zip":             {Data: testfs.Zip(testfs.Member{Name: "fake.db", Body: "hello\nworld\n"})},
		"sub/nested.sqlite": {Data: []byte("not sqlite\n")},
	}
	errCases := []struct{ path, db string }{
		{"fake.db:users", "fake.db"},
		{"fake.db:users:3", "fake.db"},
		{"fake.db:users?limit=5", "fake.db"},
		{"fake.db?q=SELECT 1", "fake.db"},
		{"sub/nested.sqlite:t", "sub/nested.sqlite"},
		{"a.zip:fake.db:users", "a.zip:fake.db"},
		{"a.zip:fake.db?q=SELECT 1", "a.zip:fake.db"},
	}
	for _, tt := range errCases {
		_, err := Run(context.Background(), &Config{FS: fsys}, tt.path)
		if errs.CodeOf(err) != errs.Unsupported {
			t.Errorf("%s: error %v, want UNSUPPORTED", tt.path, err)
			continue
		}
		msg := err.Error()
		for _, want := range []string{"Cannot read '" + tt.path + "'", "'" + tt.db + "' is not a SQLite database", "Read '" + tt.db + "' to see the file as it is"} {
			if !strings.Contains(msg, want) {
				t.Errorf("%s: error %q lacks %q", tt.path, msg, want)
			}
		}
	}
	textCases := []struct{ path, first string }{
		{"fake.db", "hello"},
		{"fake.db:2", "world"},
		{"real.db:users", "a file named so"},
		{"a.zip:fake.db:2", "world"},
	}
	for _, tt := range textCases {
		res, err := Run(context.Background(), &Config{FS: fsys}, tt.path)
		if err != nil {
			t.Errorf("%s: %v", tt.path, err)
			continue
		}
		if res.Kind != KindText || len(res.Blocks) != 1 || res.Blocks[0].Lines[0].Text != tt.first {
			t.Errorf("%s: kind %v blocks %+v, want text from %q", tt.path, res.Kind, res.Blocks, tt.first)
		}
	}
	// A directory named like a database is no database file: its missing
	// "table" is a missing path.
	if _, err := Run(context.Background(), &Config{FS: fsys}, "dir.db:users"); errs.CodeOf(err) != errs.NotFound {
		t.Errorf("dir.db:users: error %v, want NOT_FOUND", err)
	}
}
