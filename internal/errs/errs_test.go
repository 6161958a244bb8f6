package errs

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
)

func TestStopped(t *testing.T) {
	canceled, cancel := context.WithCancel(context.Background())
	cancel()
	expired, cancel2 := context.WithDeadline(context.Background(), time.Now().Add(-time.Second))
	defer cancel2()
	live := context.Background()
	notFound := New(NotFound, "Path 'x' not found")
	own := New(Canceled, "SQLite query stopped")
	tests := []struct {
		name    string
		ctx     context.Context
		err     error
		code    Code
		msg     string
		sameErr bool
		reason  string
	}{
		{"nil", canceled, nil, "", "", true, "no error stays none"},
		{"bare canceled", canceled, context.Canceled, Canceled, "Read canceled: context canceled", false, "a bare context error becomes Scout's"},
		{"wrapped canceled", canceled, fmt.Errorf("read x: %w", context.Canceled), Canceled, "Read canceled: context canceled", false, "so does one wrapped by a reader"},
		{"deadline", expired, context.DeadlineExceeded, Timeout, "Read timed out: context deadline exceeded", false, "a passed deadline is a timeout"},
		{"other error while done", canceled, notFound, Canceled, "Read canceled: context canceled", false, "a failure met because the work stopped early is not reported as such"},
		{"own code", canceled, own, Canceled, "SQLite query stopped", true, "a coded cancellation keeps its message"},
		{"live ctx", live, notFound, NotFound, "Path 'x' not found", true, "an error unrelated to the context keeps its code"},
		{"inner deadline", live, context.DeadlineExceeded, Timeout, "Read timed out: context deadline exceeded", false, "a bare deadline of an inner context is coded too"},
	}
	for _, tt := range tests {
		got := Stopped(tt.ctx, "Read", tt.err)
		if tt.err == nil {
			if got != nil {
				t.Errorf("%s: %v, want nil", tt.reason, got)
			}
			continue
		}
		var e *Error
		if !errors.As(got, &e) || e.Code != tt.code || e.Message != tt.msg {
			t.Errorf("%s: got %T %v, want %s %q", tt.reason, got, got, tt.code, tt.msg)
			continue
		}
		if tt.sameErr != (got == tt.err) {
			t.Errorf("%s: returned the same error = %v, want %v", tt.reason, got == tt.err, tt.sameErr)
		}
		if tt.code == Canceled && !tt.sameErr && !errors.Is(got, context.Canceled) {
			t.Errorf("%s: the error does not wrap context.Canceled", tt.reason)
		}
	}
}

func TestEcho(t *testing.T) {
	tests := []struct{ in, want, reason string }{
		{"", "", "empty"},
		{strings.Repeat("a", MaxEcho), strings.Repeat("a", MaxEcho), "at the limit: whole"},
		{strings.Repeat("a", 5000), strings.Repeat("a", MaxEcho) + "…(5000 bytes)", "over: cut, with the length"},
		{strings.Repeat("é", 150), strings.Repeat("é", 100) + "…(300 bytes)", "cut at a character boundary (é is 2 bytes)"},
		{"a" + strings.Repeat("é", 150), "a" + strings.Repeat("é", 99) + "…(301 bytes)", "never inside a character"},
		{"x\n*1|fake", `"x\n*1|fake"`, "a name with a newline is quoted: it cannot forge a line"},
		{"b\xffc", `"b\xffc"`, "bytes that are not UTF-8 are shown escaped"},
		{"\n" + strings.Repeat("a", MaxEcho), `"\n` + strings.Repeat("a", MaxEcho-3) + "…(201 bytes)", "the quoted form is cut, with the length of the input"},
	}
	for _, tt := range tests {
		if got := Echo(tt.in); got != tt.want {
			t.Errorf("%s: Echo = %q, want %q", tt.reason, got, tt.want)
		}
	}
	// Clip only cuts: the %q that shows it escapes.
	assert.Equal(t, "x\n*1|fake", Clip("x\n*1|fake"))
	assert.Equal(t, strings.Repeat("a", MaxEcho)+"…(5000 bytes)", Clip(strings.Repeat("a", 5000)))
}

func TestCodeOf(t *testing.T) {
	tests := []struct {
		err    error
		want   Code
		reason string
	}{
		{nil, "", "no error"},
		{New(TooLarge, "x"), TooLarge, "own code"},
		{fmt.Errorf("w: %w", New(NotFound, "x")), NotFound, "wrapped own code"},
		{context.Canceled, Canceled, "context"},
		{context.DeadlineExceeded, Timeout, "deadline"},
		{fs.ErrNotExist, NotFound, "missing"},
		{fs.ErrPermission, AccessDenied, "permission"},
		{&fs.PathError{Op: "stat", Path: "x", Err: syscall.ENAMETOOLONG}, InvalidParam, "a name the OS refuses as too long is the caller's to fix"},
		{errors.New("boom"), Internal, "anything else"},
	}
	for _, tt := range tests {
		if got := CodeOf(tt.err); got != tt.want {
			t.Errorf("%s: CodeOf(%v) = %q, want %q", tt.reason, tt.err, got, tt.want)
		}
	}
}

// TestForeignErrorsQuoted: an error argument of another kind (an OS error
// naming its path) shows quoted when it holds a control character, so a
// hostile name in it cannot forge a line; an *Error's lines stay as they are.
func TestForeignErrorsQuoted(t *testing.T) {
	pe := &fs.PathError{Op: "open", Path: "a\n*1|fake", Err: fs.ErrPermission}
	tests := []struct {
		name string
		err  *Error
		want string
	}{
		{"an OS error naming a hostile path", Wrap(Internal, pe, "Cannot read: %v", pe), `Cannot read: "open a\n*1|fake: permission denied"`},
		{"the same wrapped", New(Internal, "Cannot read: %v", fmt.Errorf("listing: %w", pe)), `Cannot read: "listing: open a\n*1|fake: permission denied"`},
		{"a plain OS error", New(Internal, "Cannot read: %v", &fs.PathError{Op: "open", Path: "a b", Err: fs.ErrPermission}), "Cannot read: open a b: permission denied"},
		{"an *Error of two lines", New(NotFound, "Cannot read: %v", New(NotFound, "Not found\nAvailable: x")), "Cannot read: Not found\nAvailable: x"},
		{"an *Error wrapped", New(NotFound, "Cannot read: %v", fmt.Errorf("at x: %w", New(NotFound, "one\ntwo"))), "Cannot read: at x: one\ntwo"},
		{"a string is left to the caller", New(NotFound, "%s", "a\nb"), "a\nb"},
		{"a symlink out of the root", SymlinkOut("l\n*1|fake", nil), `Access denied: '"l\n*1|fake"' leads outside`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if !strings.Contains(tt.err.Message, tt.want) {
				t.Errorf("message %q, want it to contain %q", tt.err.Message, tt.want)
			}
		})
	}
}
