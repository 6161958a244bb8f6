// Package errs defines the coded error type that every Scout package
// returns; the root package converts it to scout.Error at its API.
package errs

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"slices"
	"strconv"
	"syscall"
	"unicode/utf8"

	"github.com/scoutkit/scout/internal/fname"
	"github.com/scoutkit/scout/internal/redact"
)

// Code is a stable, machine-readable error class.
type Code string

// The error codes: those of the Standard Envelope plus a few of Scout's own.
const (
	InvalidParam Code = "INVALID_PARAM"  // the request is malformed: fix the named field
	NotFound     Code = "NOT_FOUND"      // a path, member, table or row does not exist
	AccessDenied Code = "ACCESS_DENIED"  // the path lies outside the root
	Timeout      Code = "TIMEOUT"        // a deadline passed before any result was found
	Canceled     Code = "CANCELED"       // the caller's context was canceled
	Unsupported  Code = "UNSUPPORTED"    // the input is of a kind Scout cannot read
	TooLarge     Code = "TOO_LARGE"      // the input exceeds a documented size cap
	Internal     Code = "INTERNAL_ERROR" // anything else: an I/O failure or a bug
)

// Error is a coded error. Message is the whole model-facing text and already
// says how to fix the call.
type Error struct {
	Code    Code   // class of the failure; never empty
	Message string // one or more lines for a person or a model
	Path    string // the path concerned, if any
	Err     error  // the underlying cause, if any
}

// Error returns the Message.
func (e *Error) Error() string { return e.Message }

// Unwrap returns the underlying cause.
func (e *Error) Unwrap() error { return e.Err }

// Is reports whether target is a sentinel (an Error with only a Code) with
// the same code.
func (e *Error) Is(target error) bool {
	t, ok := target.(*Error)
	return ok && t.Message == "" && t.Code == e.Code
}

// Sprintf formats as fmt.Sprintf does, but shows an argument that is an
// error as New does, and every URL in the text with its credentials
// redacted (redact.Text).
func Sprintf(format string, args ...any) string {
	return redact.Text(fmt.Sprintf(format, safeArgs(args)...))
}

// New returns an *Error with the code and a formatted message (Sprintf:
// a URL in it is shown with its credentials redacted). An argument
// that is an error of another kind (an OS error, which names its path as it
// is) shows as fname.Quote shows a name, so that a hostile name in it cannot
// forge a line of the message; an *Error's own message is already safe.
func New(code Code, format string, args ...any) *Error {
	return &Error{Code: code, Message: Sprintf(format, args...)}
}

// NilContext returns the error of the function op ("Search", "tool.Call")
// called with a nil context.Context, which would otherwise panic deep
// inside it.
func NilContext(op string) *Error {
	return &Error{Code: InvalidParam, Message: op + " was called with a nil context.Context: pass context.Background(), or a context of your own to cancel the call or give it a deadline."}
}

// Wrap returns an *Error with the code and message that wraps cause; the
// arguments show as New shows them.
func Wrap(code Code, cause error, format string, args ...any) *Error {
	return &Error{Code: code, Message: Sprintf(format, args...), Err: cause}
}

// safeArgs returns args with each error that holds no *Error replaced by
// its text quoted as a name is (unchanged unless it holds a control
// character or bytes that are not UTF-8). args is copied only then.
func safeArgs(args []any) []any {
	var out []any
	for i, a := range args {
		e, ok := a.(error)
		if !ok || e == nil || errors.As(e, new(*Error)) {
			continue
		}
		text := e.Error()
		q := fname.Quote(text)
		if q == text {
			continue
		}
		if out == nil {
			out = slices.Clone(args)
		}
		out[i] = q
	}
	if out == nil {
		return args
	}
	return out
}

// SymlinkOut is the ACCESS_DENIED error of path p, which leads outside the
// project root through a symlink; cause may be nil.
func SymlinkOut(p string, cause error) *Error {
	return &Error{Code: AccessDenied, Path: p, Err: cause, Message: "Access denied: '" + Echo(p) + "' leads outside the project root through a symlink. Use a path inside the root."}
}

// SymlinkLoop is the INVALID_PARAM error of path p, which goes through a
// symlink loop (more symlinks than a resolution follows); cause may be nil.
func SymlinkLoop(p string, cause error) *Error {
	return &Error{Code: InvalidParam, Path: p, Err: cause, Message: "Too many levels of symlinks in '" + Echo(p) + "'."}
}

// Stopped returns the error of an operation (op: "Search", "Read") that
// ended with err while ctx was done: a CANCELED error "op canceled: context
// canceled", or TIMEOUT "op timed out: context deadline exceeded" when the
// deadline passed, wrapping ctx's error. A coded CANCELED or TIMEOUT error
// is kept as it is, and err is returned unchanged while ctx is not done, so
// that a failure unrelated to the context keeps its own code. nil stays nil.
func Stopped(ctx context.Context, op string, err error) error {
	if err == nil {
		return nil
	}
	cause := ctx.Err()
	if cause == nil {
		if c := CodeOf(err); (c != Canceled && c != Timeout) || errors.As(err, new(*Error)) {
			return err
		}
		cause = err // a context error of a context other than ctx
	}
	var e *Error
	if errors.As(err, &e) && (e.Code == Canceled || e.Code == Timeout) {
		return e
	}
	if errors.Is(cause, context.DeadlineExceeded) {
		return &Error{Code: Timeout, Message: op + " timed out: " + cause.Error(), Err: cause}
	}
	return &Error{Code: Canceled, Message: op + " canceled: " + cause.Error(), Err: cause}
}

// MaxEcho is the number of bytes of one input an error message quotes.
const MaxEcho = 200

// Echo returns s as an error message quotes it between ' ': its URLs with
// their credentials redacted (redact.Text: redacted before it is cut, so
// that no cut keeps a secret whose end it drops), as text shows
// a name (fname.Quote: in Go's quoted form when it holds a control
// character, an invisible one or bytes that are not UTF-8, so that a
// hostile file name cannot forge a line of the message), then cut as Clip
// cuts it.
func Echo(s string) string {
	return clip(fname.Quote(shown(s)), len(s))
}

// Clip returns s cut for a message that quotes it with %q (which escapes
// what Echo quotes), its URLs redacted as Echo redacts them: s itself when it is at most MaxEcho bytes long, else
// its first MaxEcho bytes (whole characters) followed by "…(N bytes)", so
// that a huge input does not make a huge reply.
func Clip(s string) string { return clip(shown(s), len(s)) }

// shown returns the input s with its credentials redacted: s as one URL
// when it starts as one (redact.URL, which finds a password with a space
// in it), then every URL in it (redact.Text).
func shown(s string) string { return redact.Text(redact.URL(s)) }

// clip cuts s, the form shown of an input of n bytes, after MaxEcho bytes.
func clip(s string, n int) string {
	if len(s) <= MaxEcho {
		return s
	}
	cut := MaxEcho
	for cut > 0 && !utf8.RuneStart(s[cut]) {
		cut--
	}
	return s[:cut] + "…(" + strconv.Itoa(n) + " bytes)"
}

// Partial is the error a source returns with the text it did produce when
// it stopped before the end: an output cap, a document page that could not
// be read. Reason says what is left out. It is no failure: the caller
// shows the text and says it is partial.
type Partial struct {
	Reason string
}

func (e *Partial) Error() string { return e.Reason }

// CodeOf returns the code of err: its own code if it is or wraps an *Error;
// Canceled or Timeout for context errors; NotFound, AccessDenied or
// InvalidParam for the matching io/fs errors (and InvalidParam for a name
// the OS refuses as too long); Internal otherwise. CodeOf(nil) is "".
func CodeOf(err error) Code {
	if err == nil {
		return ""
	}
	var e *Error
	if errors.As(err, &e) {
		return e.Code
	}
	switch {
	case errors.Is(err, context.Canceled):
		return Canceled
	case errors.Is(err, context.DeadlineExceeded):
		return Timeout
	case errors.Is(err, fs.ErrNotExist):
		return NotFound
	case errors.Is(err, fs.ErrPermission):
		return AccessDenied
	case errors.Is(err, fs.ErrInvalid), errors.Is(err, syscall.ENAMETOOLONG):
		return InvalidParam
	}
	return Internal
}
