// Command cshim builds Scout as a C shared library for other languages:
//
//	go build -buildmode=c-shared -o libscout.so ./cshim
//
// The ABI is JSON in, JSON out. Every string returned must be released with
// scout_free. All functions are safe to call from many threads at once.
//
//	char *scout_call(char *toolset, char *name, char *args, char *root);
//	void  scout_free(char *p);
//	char *scout_version(void);
//	int   scout_abi_version(void);
//
// (the declarations libscout.h holds; Scout never writes to the strings
// passed in.)
package main

/*
#include <stdlib.h>
*/
import "C"

import (
	"context"
	"encoding/json"
	"errors"
	"io/fs"
	"os"
	"unicode/utf8"
	"unsafe"

	"github.com/scoutkit/scout"
	"github.com/scoutkit/scout/internal/errs"
	"github.com/scoutkit/scout/tool"
)

// abiVersion changes only when a signature or the meaning of an argument
// changes; new tools and fields keep it.
const abiVersion = 1

const version = "0.1.0"

// scout_call runs one tool and returns its Standard Envelope as JSON. A NULL
// or empty toolset means "pi"; NULL or empty arguments mean {}; a NULL or
// empty root means the current directory. NULL for the tool, a string that
// is not UTF-8 and a root that is not a directory give an error Envelope.
// It never returns NULL.
//
//export scout_call
func scout_call(toolset, name, args, root *C.char) (out *C.char) {
	defer func() {
		if r := recover(); r != nil {
			out = envelopeJSON(scout.ErrorEnvelope(errs.New(errs.Internal, "Internal error in scout_call: %v", r), nil))
		}
	}()
	ts, err := goString("toolset", toolset, true)
	if err != nil {
		return envelopeJSON(scout.ErrorEnvelope(err, nil))
	}
	n, err := goString("tool", name, false)
	if err != nil {
		return envelopeJSON(scout.ErrorEnvelope(err, nil))
	}
	a, err := goString("json_args", args, true)
	if err != nil {
		return envelopeJSON(scout.ErrorEnvelope(err, nil))
	}
	r, err := goString("root", root, true)
	if err == nil {
		err = checkRoot(r)
	}
	if err != nil {
		return envelopeJSON(scout.ErrorEnvelope(err, json.RawMessage(a)))
	}
	return envelopeJSON(tool.Call(context.Background(), tool.Config{Root: r}, ts, n, []byte(a)))
}

// checkRoot reports a root that is not an existing directory before the
// tool runs, so that the host's mistake is not mistaken for the model's
// (the tool would first complain about the arguments). "" is the current
// directory.
func checkRoot(root string) error {
	if root == "" {
		return nil
	}
	st, err := os.Stat(root)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return errs.Wrap(errs.NotFound, err, "root '%s' does not exist: pass an existing directory, or NULL for the current directory.", root)
	case errors.Is(err, fs.ErrPermission):
		return errs.Wrap(errs.AccessDenied, err, "root '%s' cannot be read: %v.", root, err)
	case err != nil:
		return errs.Wrap(errs.InvalidParam, err, "root '%s' cannot be used: %v.", root, err)
	case !st.IsDir():
		return errs.New(errs.InvalidParam, "root '%s' is not a directory: pass the project's directory.", root)
	}
	return nil
}

// goString converts a C string, refusing NULL (unless optional) and
// invalid UTF-8.
func goString(field string, p *C.char, optional bool) (string, error) {
	if p == nil {
		if optional {
			return "", nil
		}
		return "", errs.New(errs.InvalidParam, "%s is NULL: pass a NUL-terminated UTF-8 string.", field)
	}
	s := C.GoString(p)
	if !utf8.ValidString(s) {
		return "", errs.New(errs.InvalidParam, "%s is not valid UTF-8: pass a NUL-terminated UTF-8 string.", field)
	}
	return s, nil
}

// envelopeJSON encodes env for C. When env cannot be encoded (a result
// holding a value JSON has no form for), the caller gets an INTERNAL_ERROR
// Envelope saying so, which always encodes: it has no data.
func envelopeJSON(env *scout.Envelope) *C.char {
	b, err := json.Marshal(env)
	if err != nil {
		e := scout.ErrorEnvelope(errs.Wrap(errs.Internal, err, "Internal error: the result cannot be encoded as JSON: %v. This is a bug in Scout; please report it with the arguments.", err), env.Context.ParamsInput)
		b, _ = json.Marshal(e)
	}
	return C.CString(string(b))
}

// scout_free releases a string returned by Scout. NULL is ignored.
//
//export scout_free
func scout_free(p *C.char) {
	if p != nil {
		C.free(unsafe.Pointer(p))
	}
}

// scout_version returns Scout's version; release it with scout_free.
//
//export scout_version
func scout_version() *C.char { return C.CString(version) }

// scout_abi_version returns the ABI version.
//
//export scout_abi_version
func scout_abi_version() C.int { return abiVersion }

func main() {}
