package scout_test

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"strings"
	"testing"
	"testing/fstest"

	"github.com/scoutkit/scout"
)

// cancelFS cancels a context when a file of a given name is opened, so
// that a call is canceled in the middle of its work.
type cancelFS struct {
	fs.FS
	trigger string
	cancel  context.CancelFunc
}

func (c cancelFS) Open(name string) (fs.File, error) {
	if name == c.trigger {
		c.cancel()
	}
	return c.FS.Open(name)
}

func cancelTree() fstest.MapFS {
	tree := archiveTree()
	for i := range 50 {
		tree[fmt.Sprintf("deep/d%02d/f.go", i)] = &fstest.MapFile{Data: []byte("// hit\n")}
	}
	return tree
}

// TestCanceled: a call canceled before or during its work fails with
// Scout's CANCELED error, never a bare context.Canceled, whatever the work
// (a directory walk, a search, a read of a zip or a tgz, a find): a
// canceled .tgz read is CANCELED too, not context.Canceled.
func TestCanceled(t *testing.T) {
	calls := []struct {
		name, trigger string // trigger: the file whose opening cancels the call
		call          func(ctx context.Context, ws scout.Workspace) error
	}{
		{"search walk", "deep/d10", func(ctx context.Context, ws scout.Workspace) error {
			_, err := (&scout.Searcher{Workspace: ws, Workers: 1}).Search(ctx, scout.SearchRequest{Pattern: "hit", Paths: []string{"deep"}, MaxMatches: -1, MaxFiles: -1})
			return err
		}},
		{"search walk page", "deep/d10", func(ctx context.Context, ws scout.Workspace) error {
			_, err := (&scout.Searcher{Workspace: ws, Workers: 1}).Search(ctx, scout.SearchRequest{Pattern: "hit", Paths: []string{"deep"}})
			return err
		}},
		{"search tgz", "pkg.tgz", func(ctx context.Context, ws scout.Workspace) error {
			_, err := (&scout.Searcher{Workspace: ws}).Search(ctx, scout.SearchRequest{Pattern: "hit", Paths: []string{"pkg.tgz"}})
			return err
		}},
		{"search zip", "dist/a.zip", func(ctx context.Context, ws scout.Workspace) error {
			_, err := (&scout.Searcher{Workspace: ws}).Search(ctx, scout.SearchRequest{Pattern: "hit", Paths: []string{"dist/a.zip", "src"}})
			return err
		}},
		{"search tgz member", "pkg.tgz", func(ctx context.Context, ws scout.Workspace) error {
			_, err := (&scout.Searcher{Workspace: ws}).Search(ctx, scout.SearchRequest{Pattern: "hit", Paths: []string{"pkg.tgz:lib/y.go"}})
			return err
		}},
		{"read tgz member", "pkg.tgz", func(ctx context.Context, ws scout.Workspace) error {
			_, err := (&scout.Reader{Workspace: ws}).Read(ctx, scout.ReadRequest{Path: "pkg.tgz:lib/y.go"})
			return err
		}},
		{"read tgz listing", "pkg.tgz", func(ctx context.Context, ws scout.Workspace) error {
			_, err := (&scout.Reader{Workspace: ws}).Read(ctx, scout.ReadRequest{Path: "pkg.tgz"})
			return err
		}},
		{"read zip member", "dist/a.zip", func(ctx context.Context, ws scout.Workspace) error {
			_, err := (&scout.Reader{Workspace: ws}).Read(ctx, scout.ReadRequest{Path: "dist/a.zip:src/x.ts"})
			return err
		}},
		{"read directory", "deep/d10", func(ctx context.Context, ws scout.Workspace) error {
			_, err := (&scout.Reader{Workspace: ws}).Read(ctx, scout.ReadRequest{Path: "deep"})
			return err
		}},
		{"find", "deep/d10", func(ctx context.Context, ws scout.Workspace) error {
			_, err := (&scout.Finder{Workspace: ws}).Find(ctx, scout.FindRequest{Patterns: []string{"deep/**/*.go"}})
			return err
		}},
	}
	check := func(t *testing.T, err error, mayFinish bool) {
		t.Helper()
		if err == nil && mayFinish {
			return
		}
		var e *scout.Error
		if !errors.As(err, &e) || e.Code != scout.CodeCanceled || !errors.Is(err, scout.CodeCanceled) || !errors.Is(err, context.Canceled) || !strings.Contains(e.Message, "canceled") {
			t.Errorf("got %T %v, want a *scout.Error CANCELED wrapping context.Canceled", err, err)
		}
	}
	for _, c := range calls {
		t.Run(c.name, func(t *testing.T) {
			ctx, cancel := context.WithCancel(context.Background())
			cancel()
			check(t, c.call(ctx, scout.Workspace{FS: cancelTree()}), false)

			// Canceled while it works: the call may still finish with its
			// result, but an error must be Scout's.
			ctx, cancel = context.WithCancel(context.Background())
			defer cancel()
			check(t, c.call(ctx, scout.Workspace{FS: cancelFS{cancelTree(), c.trigger, cancel}}), true)
		})
	}
}
