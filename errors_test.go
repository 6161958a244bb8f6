package scout_test

import (
	"context"
	"errors"
	"io/fs"
	"testing"
	"testing/fstest"

	"github.com/scoutkit/scout"
)

// deniedResolver fails every resolution with the host's own *scout.Error.
type deniedResolver struct{}

func (deniedResolver) Resolve(context.Context, string) (*scout.Resource, error) {
	return nil, &scout.Error{Code: scout.CodeAccessDenied, Message: "vault is locked"}
}

// brokenResolver fails every resolution with a plain error, as a host's
// hook may.
type brokenResolver struct{}

func (brokenResolver) Resolve(context.Context, string) (*scout.Resource, error) {
	return nil, errors.New("vault offline")
}

// brokenOps fails every discovery with a plain error.
type brokenOps struct{}

func (brokenOps) Exists(context.Context, string) (bool, error) { return true, nil }
func (brokenOps) Glob(context.Context, string, string, scout.GlobOptions) ([]string, error) {
	return nil, errors.New("remote offline")
}

// lockedDirFS is an fs.FS with no optional abilities whose directory
// "locked" cannot be opened.
type lockedDirFS struct{ m fstest.MapFS }

func (f lockedDirFS) Open(name string) (fs.File, error) {
	if name == "locked" {
		return nil, &fs.PathError{Op: "open", Path: name, Err: fs.ErrPermission}
	}
	return f.m.Open(name)
}

// TestErrorsArePublic checks that every entry point returns *scout.Error,
// matched by errors.Is against its Code, whether the failure was found by an
// engine or returned by a host hook.
func TestErrorsArePublic(t *testing.T) {
	ws := scout.Workspace{FS: fstest.MapFS{"a.txt": {Data: []byte("x\n")}}}
	hooks := map[string]scout.Resolver{"vault": deniedResolver{}}
	ctx := context.Background()
	tests := []struct {
		name   string
		call   func() error
		code   scout.Code
		reason string
	}{
		{"search", func() error {
			_, err := (&scout.Searcher{Workspace: ws}).Search(ctx, scout.SearchRequest{Pattern: "("})
			return err
		}, scout.CodeInvalidParam, "a bad pattern found by the engine"},
		{"search lines", func() error {
			_, err := (&scout.Searcher{Workspace: ws}).Search(ctx, scout.SearchRequest{Pattern: "x", Paths: []string{"a.txt"}, Lines: []scout.Range{{Start: 5, End: 2}}})
			return err
		}, scout.CodeInvalidParam, "a range whose end comes before its start (it found nothing)"},
		{"search mode", func() error {
			_, err := (&scout.Searcher{Workspace: ws}).Search(ctx, scout.SearchRequest{Pattern: "x", Mode: scout.SearchCount + 1})
			return err
		}, scout.CodeInvalidParam, "a Mode that names no mode (it was read as content)"},
		{"stream", func() error {
			for _, err := range (&scout.Searcher{Workspace: ws}).Stream(ctx, scout.SearchRequest{Pattern: "x", Paths: []string{"nope"}}) {
				return err
			}
			return nil
		}, scout.CodeNotFound, "a missing path, yielded"},
		{"find", func() error {
			_, err := (&scout.Finder{Workspace: ws}).Find(ctx, scout.FindRequest{Patterns: []string{"nope/*.go"}})
			return err
		}, scout.CodeNotFound, "a missing base"},
		{"read", func() error {
			_, err := (&scout.Reader{Workspace: ws}).Read(ctx, scout.ReadRequest{Path: "a.txt:0"})
			return err
		}, scout.CodeInvalidParam, "a bad selector"},
		{"parse selector", func() error {
			_, err := scout.ParseSelector("5-3")
			return err
		}, scout.CodeInvalidParam, "an end before the start"},
		{"root", func() error {
			_, err := (&scout.Finder{Workspace: scout.Workspace{Root: "/nonexistent/scout-root"}}).Find(ctx, scout.FindRequest{})
			return err
		}, scout.CodeNotFound, "a root that cannot be opened"},
		{"host resolver", func() error {
			_, err := (&scout.Reader{Workspace: ws, Resolvers: hooks}).Read(ctx, scout.ReadRequest{Path: "vault://key"})
			return err
		}, scout.CodeAccessDenied, "a host's *scout.Error keeps its code through the engine"},
		{"find unreadable base", func() error {
			locked := lockedDirFS{fstest.MapFS{"locked/a.go": {Data: []byte("x\n")}}}
			_, err := (&scout.Finder{Workspace: scout.Workspace{FS: locked}}).Find(ctx, scout.FindRequest{Patterns: []string{"locked/*.go"}})
			return err
		}, scout.CodeAccessDenied, "a named directory that cannot be opened (a raw *fs.PathError escaped)"},
		{"find host operations", func() error {
			_, err := (&scout.Finder{Operations: brokenOps{}}).Find(ctx, scout.FindRequest{Patterns: []string{"*.go"}})
			return err
		}, scout.CodeInternal, "a host's plain error from FindOperations (it was returned as it was)"},
		{"read host plain error", func() error {
			_, err := (&scout.Reader{Workspace: ws, Resolvers: map[string]scout.Resolver{"vault": brokenResolver{}}}).Read(ctx, scout.ReadRequest{Path: "vault://key"})
			return err
		}, scout.CodeInternal, "a host resolver's plain error"},
		{"search host plain error", func() error {
			_, err := (&scout.Searcher{Workspace: ws, Resolvers: map[string]scout.Resolver{"vault": brokenResolver{}}}).Search(ctx, scout.SearchRequest{Pattern: "x", Paths: []string{"vault://key"}})
			return err
		}, scout.CodeInternal, "a host resolver's plain error"},
		{"canceled", func() error {
			c, cancel := context.WithCancel(ctx)
			cancel()
			_, err := (&scout.Searcher{Workspace: ws}).Search(c, scout.SearchRequest{Pattern: "x"})
			return err
		}, scout.CodeCanceled, "a canceled context"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			err := tt.call()
			var e *scout.Error
			if !errors.As(err, &e) {
				t.Fatalf("%s: %T %v is not a *scout.Error", tt.reason, err, err)
			}
			if e.Code != tt.code || !errors.Is(err, tt.code) || scout.CodeOf(err) != tt.code {
				t.Errorf("%s: code %s, want %s matched by errors.Is and CodeOf", tt.reason, e.Code, tt.code)
			}
			if other := scout.CodeInternal; tt.code != other && errors.Is(err, other) {
				t.Errorf("%s: errors.Is matches another code", tt.reason)
			}
		})
	}
}

func TestCodeOf(t *testing.T) {
	tests := []struct {
		err    error
		want   scout.Code
		reason string
	}{
		{nil, "", "no error, no code"},
		{context.Canceled, scout.CodeCanceled, "a bare context error"},
		{context.DeadlineExceeded, scout.CodeTimeout, "a bare deadline"},
		{errors.New("boom"), scout.CodeInternal, "anything else"},
		{&scout.Error{Code: scout.CodeTooLarge, Message: "big"}, scout.CodeTooLarge, "an *Error's own code"},
	}
	for _, tt := range tests {
		if got := scout.CodeOf(tt.err); got != tt.want {
			t.Errorf("%s: CodeOf(%v) = %q, want %q", tt.reason, tt.err, got, tt.want)
		}
	}
	if scout.CodeNotFound.Error() != "NOT_FOUND" {
		t.Errorf("a Code's error text is the code: %q", scout.CodeNotFound.Error())
	}
}
