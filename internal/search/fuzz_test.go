package search

import (
	"context"
	"errors"
	"testing"
	"testing/fstest"
	"unicode/utf8"

	"github.com/scoutkit/scout/internal/errs"
	"github.com/scoutkit/scout/internal/grep"
)

// FuzzSearch runs whole searches over a small tree with a fuzzed pattern
// and content: no panic, errors are coded, lines increase, spans lie inside
// valid UTF-8 text.
func FuzzSearch(f *testing.F) {
	f.Add("hit", "a hit\nno\r\nhit hit\n", false, 1, 1)
	f.Add("^$", "\n\n\x00\n", true, 0, 3)
	f.Add("(a|é)+", "éa\xffa\n", false, 2, 0)
	f.Add("a(", "(", true, 0, 0)
	f.Add("x{2}", "xx\nxxx", false, 5, 5)
	f.Fuzz(func(t *testing.T, pattern, content string, ignoreCase bool, before, after int) {
		tree := fstest.MapFS{
			"a.txt":   {Data: []byte(content)},
			"d/b.txt": {Data: []byte(content + "\n" + content)},
		}
		out, err := Run(context.Background(), tree, "", Request{
			Grep:        grep.Options{Pattern: pattern, IgnoreCase: ignoreCase, Before: before % 8, After: after % 8, MaxColumns: 16},
			MaxFileSize: -1, MaxFiles: 2, Budget: 50,
		})
		if err != nil {
			var e *errs.Error
			if !errors.As(err, &e) {
				t.Fatalf("error %v is not an *errs.Error", err)
			}
			return
		}
		for _, h := range out.Files {
			prev := 0
			for _, l := range h.Lines {
				if l.Number <= prev {
					t.Fatalf("%s: line %d after %d", h.Path, l.Number, prev)
				}
				prev = l.Number
				if !utf8.ValidString(l.Text) {
					t.Fatalf("%s:%d: invalid UTF-8 %q", h.Path, l.Number, l.Text)
				}
				for _, s := range l.Spans {
					if s[0] < 0 || s[0] > s[1] || s[1] > len(l.Text) {
						t.Fatalf("%s:%d: span %v outside %q", h.Path, l.Number, s, l.Text)
					}
				}
			}
		}
	})
}
