package scout

import (
	"context"
	"errors"

	"github.com/scoutkit/scout/internal/errs"
	"github.com/scoutkit/scout/internal/redact"
)

// Code is a stable, machine-readable error class. It survives JSON, the cgo
// shim and MCP unchanged, so hosts can branch on it.
//
// A Code is also an error target: errors.Is(err, scout.CodeNotFound)
// reports whether err is or wraps an *Error of that code (as
// errors.Is(err, syscall.ENOENT) does for an errno).
type Code string

// The error codes. The first five are those of the Standard Envelope.
const (
	CodeInvalidParam Code = "INVALID_PARAM"  // the request is malformed: fix the named field
	CodeNotFound     Code = "NOT_FOUND"      // a path, member, table or row does not exist
	CodeAccessDenied Code = "ACCESS_DENIED"  // the path lies outside the root
	CodeTimeout      Code = "TIMEOUT"        // the context's deadline passed, or a time limit of Scout's own (a fetch, a query, a breaker that found nothing)
	CodeInternal     Code = "INTERNAL_ERROR" // an I/O failure or a bug
	CodeCanceled     Code = "CANCELED"       // the caller's context was canceled
	CodeUnsupported  Code = "UNSUPPORTED"    // the input is of a kind Scout cannot read
	CodeTooLarge     Code = "TOO_LARGE"      // the input exceeds a documented size cap
)

// Error returns the code itself, e.g. "NOT_FOUND".
func (c Code) Error() string { return string(c) }

// Error is the error type of every Scout call: a Code and the model-facing
// Message, which already says how to fix the call. Per-file failures are
// not errors; they are counted in results. It is also the error member of
// an Envelope, whose JSON holds the code and the message.
type Error struct {
	Code    Code   `json:"code"`    // the class of the failure; never ""
	Message string `json:"message"` // one or more lines for a person or a model
	Path    string `json:"-"`       // the path concerned; "" when none
	Err     error  `json:"-"`       // the underlying cause; nil when none
}

// Error returns the Message.
func (e *Error) Error() string { return e.Message }

// Unwrap returns the underlying cause.
func (e *Error) Unwrap() error { return e.Err }

// Is reports whether target is the Code of e, so that errors.Is compares
// codes and a caller never has to match message text.
func (e *Error) Is(target error) bool {
	c, ok := target.(Code)
	return ok && c == e.Code
}

// CodeOf returns the code of err: its own code if it is or wraps an *Error,
// CodeCanceled or CodeTimeout for context errors, CodeNotFound for
// fs.ErrNotExist, CodeAccessDenied for fs.ErrPermission, CodeInvalidParam
// for fs.ErrInvalid, and CodeInternal otherwise. CodeOf(nil) is "".
func CodeOf(err error) Code {
	if e, ok := errors.AsType[*Error](err); ok {
		return e.Code
	}
	return Code(errs.CodeOf(err))
}

// nilContext returns the error of the operation op ("Search", "Read",
// "Find") called with a nil ctx, which would otherwise panic deep inside
// it; nil when ctx is set.
func nilContext(ctx context.Context, op string) error {
	if ctx != nil {
		return nil
	}
	return exportErr(errs.NilContext(op))
}

// contextLines returns the error of negative context lines (Before,
// After) of a search or a read; nil when both are 0 or more.
func contextLines(before, after int) error {
	if before < 0 || after < 0 {
		return &Error{Code: CodeInvalidParam, Message: "Context lines (Before, After) must be 0 or more"}
	}
	return nil
}

// fail returns the error of the operation op ("Search", "Read", "Find")
// that ended with err: a CodeCanceled or CodeTimeout *Error when ctx is
// done, and an internal error as an *Error.
func fail(ctx context.Context, op string, err error) error {
	return exportErr(errs.Stopped(ctx, op, err))
}

// exportErr returns err as an *Error: an internal coded error converted, a
// host's *Error as it is, and any other error (an I/O failure, a host
// hook's plain error) wrapped with the code CodeOf gives it and its text as
// the Message, so that every call's error is an *Error. Its Message and
// Path show every URL with its credentials redacted (redact.Text): a
// host's error may quote the URL it was given.
func exportErr(err error) error {
	if err == nil {
		return nil
	}
	switch e := err.(type) {
	case *Error:
		if m, p := redact.Text(e.Message), redact.Text(e.Path); m != e.Message || p != e.Path {
			return &Error{Code: e.Code, Message: m, Path: p, Err: e.Err}
		}
		return err
	case *errs.Error:
		return &Error{Code: Code(e.Code), Message: redact.Text(e.Message), Path: redact.Text(e.Path), Err: e.Err}
	}
	return &Error{Code: CodeOf(err), Message: redact.Text(err.Error()), Err: err}
}

// hostErr converts an *Error a host returned (from a Resolver, a
// Converter, FindOperations, ...) to the internal coded error, so that the
// engines see its code; any other error is returned as it is.
func hostErr(err error) error {
	if e, ok := err.(*Error); ok {
		return &errs.Error{Code: errs.Code(e.Code), Message: e.Message, Path: e.Path, Err: e.Err}
	}
	return err
}
