package scout

import "github.com/scoutkit/scout/internal/errs"

// Code is a stable, machine-readable error class. It survives JSON, the cgo
// shim and MCP unchanged, so hosts can branch on it.
type Code = errs.Code

// The error codes. The first five are those of the Standard Envelope.
const (
	CodeInvalidParam = errs.InvalidParam // the request is malformed: fix the named field
	CodeNotFound     = errs.NotFound     // a path, member, table or row does not exist
	CodeAccessDenied = errs.AccessDenied // the path lies outside the root
	CodeTimeout      = errs.Timeout      // a deadline passed before any result was found
	CodeInternal     = errs.Internal     // an I/O failure or a bug
	CodeCanceled     = errs.Canceled     // the caller's context was canceled
	CodeUnsupported  = errs.Unsupported  // the input is of a kind Scout cannot read
	CodeTooLarge     = errs.TooLarge     // the input exceeds a documented size cap
)

// Error is the error type of every Scout call: a Code and the model-facing
// Message, which already says how to fix the call. Per-file failures are
// not errors; they are counted in results.
//
// errors.Is(err, scout.ErrNotFound) and the other sentinels compare codes,
// so a caller never has to match message text.
type Error = errs.Error

// Sentinels for errors.Is. Each carries only a code.
var (
	ErrInvalidParam = &Error{Code: CodeInvalidParam}
	ErrNotFound     = &Error{Code: CodeNotFound}
	ErrAccessDenied = &Error{Code: CodeAccessDenied}
	ErrTimeout      = &Error{Code: CodeTimeout}
	ErrCanceled     = &Error{Code: CodeCanceled}
	ErrUnsupported  = &Error{Code: CodeUnsupported}
	ErrTooLarge     = &Error{Code: CodeTooLarge}
	ErrInternal     = &Error{Code: CodeInternal}
)

// CodeOf returns the code of err: its own code if it is or wraps an *Error,
// CodeCanceled or CodeTimeout for context errors, CodeNotFound for
// fs.ErrNotExist, and CodeInternal otherwise. CodeOf(nil) is "".
func CodeOf(err error) Code { return errs.CodeOf(err) }
