// Command cshim builds Scout as a C shared library for other languages:
//
//	go build -buildmode=c-shared -o libscout.so ./cshim
//
// The ABI is JSON in, JSON out. Every string returned must be released with
// scout_free. All functions are safe to call from many threads at once.
//
//	char *scout_call(const char *toolset, const char *name, const char *args, const char *root);
//	char *scout_call_opts(const char *toolset, const char *name, const char *args, const char *root, const char *options);
//	char *scout_cancel(long long call_id);
//	void  scout_free(char *p);
//	char *scout_version(void);
//	int   scout_abi_version(void);
//
// (libscout.h spells const char as scout_cchar, the one way cgo can put
// const in an exported signature.) Web pages read through the library are cached once per
// process (at most 100 pages and 64 MiB, least recently used dropped
// first), so paging a URL ("https://example.com:301") does not fetch it
// again.
package main

/*
// libscout: Scout's read-only file tools (search, read, find, ...) for C,
// C++ and every language with a C FFI. ABI version 2 (scout_abi_version).
//
// JSON in, JSON out. Every char* returned is a NUL-terminated UTF-8 JSON
// text (or the version string) that the caller releases with scout_free;
// none is ever NULL. Every input is a scout_cchar*, that is a const char*:
// Scout never writes to the strings passed in, and C++ may pass string
// literals. (Version 2 first declared them char*; const changes no call,
// so the ABI version stays 2.) Every function is safe to call from many
// threads at once.
//
// char *scout_call(toolset, tool, json_args, root)
//   Runs one tool and returns its Standard Envelope:
//   {"status": "success"|"partial"|"error", "data", "text", "stats",
//    "context", "error": {"code", "message"} (only on error)}.
//   toolset: "pi" (search, read, find; NULL or "" means "pi"),
//   "amplifier" (grep, glob) or "standardized" (Glob).
//   json_args: the tool's arguments as a JSON object (NULL or "" means {};
//   at most 16 MiB).
//   root: the project directory (NULL or "" means the current directory).
//   NULL for the tool, a string that is not UTF-8, a root that is not a
//   directory and any bad argument give an error Envelope, never a crash.
//
// char *scout_call_opts(toolset, tool, json_args, root, options)
//   scout_call with the host's settings, a JSON object (NULL or "" = {};
//   at most 64 KiB):
//     "style": "hashline" (default) | "numbered" | "plain"
//                           line style of search and read text: N:text
//                           under ¶path#TAG or "# path#TAG" headings,
//                           N|text, or plain (N|text in search, the text
//                           alone in read)
//     "context_before": N   pi search lines before a match (default 1, 0 none)
//     "context_after": N    pi search lines after a match (default 3, 0 none)
//     "read_limit": N       pi read default line limit (default 300, max 3000)
//     "no_web": true        read refuses web URLs (default false)
//     "allow_private_network": true   read fetches URLs of loopback,
//                           private, link-local and cloud metadata
//                           addresses (default false: refused)
//     "zoekt": {"urls": ["http://127.0.0.1:6070"], "repo": "name"}
//                           search asks these zoekt webservers, holding an
//                           index of the root's repository, where their
//                           index can answer (repo: the repository's name
//                           in the index, default the root's base name)
//     "timeout_ms": N       end the call with a TIMEOUT error after N ms
//                           (default 0: no limit; so is one over 292 years)
//     "call_id": N          a positive integer naming the running call for
//                           scout_cancel; unique among running calls
//                           (default 0: none, the call cannot be canceled)
//   An unknown option (names are case-sensitive), a repeated one or a bad
//   value is an error Envelope naming it.
//
// char *scout_cancel(long long call_id)
//   Cancels the running call started with that call_id; the call then
//   returns a CANCELED error Envelope (or its normal result, when it was
//   already finishing). Returns a success Envelope, an INVALID_PARAM
//   error Envelope when call_id is 0 or negative (ids are positive), or a
//   NOT_FOUND error Envelope when no running call has the id (not started
//   yet, or already returned).
//
// void scout_free(char *p)      releases a returned string; NULL is ignored.
//   Free each string once, and only strings Scout returned: as with free,
//   anything else is undefined.
// char *scout_version(void)     Scout's version (free it).
// int scout_abi_version(void)   the ABI version.
//
// Web pages read through the library are cached once per process (at most
// 100 pages and 64 MiB, least recently used dropped first): paging a URL
// ("https://example.com:301") does not fetch it again.
#include <stdlib.h>

// scout_cchar is a character of an input string, which Scout only reads.
typedef const char scout_cchar;
*/
import "C"

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"math"
	"os"
	"reflect"
	"strings"
	"sync"
	"time"
	"unicode/utf8"
	"unsafe"

	"github.com/scoutkit/scout"
	"github.com/scoutkit/scout/format"
	"github.com/scoutkit/scout/internal/envelope"
	"github.com/scoutkit/scout/internal/errs"
	"github.com/scoutkit/scout/internal/jsonobj"
	"github.com/scoutkit/scout/internal/mcpserver"
	"github.com/scoutkit/scout/internal/pitext"
	"github.com/scoutkit/scout/tool"
)

// abiVersion changes only when a call or the meaning of an argument
// changes; new tools, fields and options keep it, and so did making the
// inputs const. 2 added scout_call_opts and scout_cancel.
const abiVersion = 2

const version = "0.1.0"

// urlCache is the process's web page cache, shared by every call.
var urlCache = &scout.URLCache{}

// scout_call runs one tool and returns its Standard Envelope as JSON. A NULL
// or empty toolset means "pi"; NULL or empty arguments mean {}; a NULL or
// empty root means the current directory. NULL for the tool, a string that
// is not UTF-8 and a root that is not a directory give an error Envelope.
// It never returns NULL. It is scout_call_opts with no options.
//
//export scout_call
func scout_call(toolset, name, args, root *C.scout_cchar) *C.char {
	return cString(guard("scout_call", func() []byte { return callC(toolset, name, args, root, nil) }))
}

// scout_call_opts is scout_call with the host's settings, a JSON object
// (NULL or empty means {}): style, context_before, context_after,
// read_limit, no_web, allow_private_network, zoekt, timeout_ms and
// call_id, as the C preamble above (the header) describes. An unknown
// option or a value of the wrong type or range is an error Envelope naming
// it. It never returns NULL.
//
//export scout_call_opts
func scout_call_opts(toolset, name, args, root, options *C.scout_cchar) *C.char {
	return cString(guard("scout_call_opts", func() []byte { return callC(toolset, name, args, root, options) }))
}

// scout_cancel cancels the running call that scout_call_opts started with
// this call_id and returns an Envelope: success once the call is told to
// stop (it then returns its CANCELED error Envelope), an INVALID_PARAM
// error for an id of 0 or less (ids are positive), a NOT_FOUND error
// when no running call has the id (it has not started, or has returned).
// It never returns NULL.
//
//export scout_cancel
func scout_cancel(callID C.longlong) *C.char {
	return cString(guard("scout_cancel", func() []byte { return envelopeJSON(cancelCall(int64(callID))) }))
}

// callC converts the C strings, runs the call and returns its Envelope as
// JSON.
func callC(toolset, name, args, root, options *C.scout_cchar) []byte {
	var ins [5]string
	for i, s := range []struct {
		field    string
		p        *C.scout_cchar
		optional bool
	}{{"toolset", toolset, true}, {"tool", name, false}, {"json_args", args, true}, {"root", root, true}, {"options", options, true}} {
		v, err := goString(s.field, s.p, s.optional)
		if err != nil {
			params := json.RawMessage(nil)
			if i > 2 { // the arguments were read: show them
				params = json.RawMessage(skipBOM(ins[2]))
			}
			return envelopeJSON(envelope.Error(err, params))
		}
		ins[i] = v
	}
	return envelopeJSON(call(ins[0], ins[1], ins[2], ins[3], ins[4]))
}

// call runs one tool for a C caller, with the strings converted.
func call(toolset, name, args, root, options string) *scout.Envelope {
	if len(args) > mcpserver.MaxMessage {
		return envelope.Error(errs.New(errs.InvalidParam, "json_args is %d bytes, over the limit of %d MiB: pass a smaller arguments object.", len(args), mcpserver.MaxMessage>>20), nil)
	}
	params := json.RawMessage(skipBOM(args)) // tool.Call skips the BOM itself
	if len(options) > maxOptions {
		return envelope.Error(errs.New(errs.InvalidParam, "options is %d bytes, over the limit of %d KiB: pass a smaller options object.", len(options), maxOptions>>10), params)
	}
	opts, err := parseOptions(options)
	if err == nil {
		err = checkRoot(root)
	}
	if err != nil {
		return envelope.Error(err, params)
	}
	cfg := tool.Config{Root: root, Style: opts.Style, ContextBefore: opts.before(), ContextAfter: opts.after()}
	if opts.ReadLimit != nil {
		cfg.ReadLimit = *opts.ReadLimit
	}
	cfg.NoWeb = opts.NoWeb
	cfg.AllowPrivateNetwork = opts.AllowPrivate
	cfg.URLCache = urlCache
	if err := opts.Zoekt.apply(&cfg); err != nil {
		return envelope.Error(err, params)
	}
	ctx := context.Background()
	// A timeout past time.Duration's range (292 years) is no limit: the
	// product would wrap to a deadline already passed.
	if opts.TimeoutMS > 0 && opts.TimeoutMS <= math.MaxInt64/int64(time.Millisecond) {
		var cancel context.CancelFunc
		ctx, cancel = context.WithTimeout(ctx, time.Duration(opts.TimeoutMS)*time.Millisecond)
		defer cancel()
	}
	if opts.CallID != 0 {
		var done func()
		ctx, done, err = running.start(ctx, opts.CallID)
		if err != nil {
			return envelope.Error(err, params)
		}
		defer done()
	}
	return tool.Call(ctx, cfg, toolset, name, []byte(args))
}

// skipBOM drops a byte order mark before the JSON text s (after white
// space, if any), as a JSON parser may and as scout mcp does before a
// message.
func skipBOM(s string) string {
	return string(jsonobj.TrimBOM([]byte(s)))
}

// options are scout_call_opts's settings; nil and zero fields keep the
// defaults.
type options struct {
	Style         string       `json:"style"`
	ContextBefore *int         `json:"context_before"`
	ContextAfter  *int         `json:"context_after"`
	ReadLimit     *int         `json:"read_limit"`
	NoWeb         bool         `json:"no_web"`
	AllowPrivate  bool         `json:"allow_private_network"`
	TimeoutMS     int64        `json:"timeout_ms"`
	CallID        int64        `json:"call_id"`
	Zoekt         *zoektOption `json:"zoekt"`
}

// maxOptions caps the options object: its longest form, a zoekt option
// with many URLs, is far smaller.
const maxOptions = 64 << 10

const optionNames = "style, context_before, context_after, read_limit, no_web, allow_private_network, timeout_ms, call_id, zoekt"

// parseOptions decodes and checks the options object ("" is {}).
func parseOptions(s string) (*options, error) {
	o := &options{}
	raw := bytes.TrimSpace([]byte(skipBOM(s)))
	if len(raw) == 0 {
		return o, nil
	}
	if !json.Valid(raw) || raw[0] != '{' {
		return nil, errs.New(errs.InvalidParam, "options must be a JSON object, e.g. {\"style\": \"plain\", \"call_id\": 7}; valid options: %s.", optionNames)
	}
	if err := checkNames(raw, "", reflect.TypeFor[options]()); err != nil {
		return nil, err
	}
	d := json.NewDecoder(bytes.NewReader(raw))
	d.DisallowUnknownFields()
	if err := d.Decode(o); err != nil {
		var te *json.UnmarshalTypeError
		if errors.As(err, &te) {
			return nil, errs.Wrap(errs.InvalidParam, err, "option '%s' must be %s, got %s.", te.Field, optionKind(te.Type.String()), te.Value)
		}
		return nil, errs.Wrap(errs.InvalidParam, err, "options: %s; valid options: %s.", errs.Clip(err.Error()), optionNames)
	}
	switch {
	case o.Style != "" && o.Style != format.StyleHashline && o.Style != format.StyleNumbered && o.Style != format.StylePlain:
		return nil, errs.New(errs.InvalidParam, "option 'style' must be \"hashline\", \"numbered\" or \"plain\", got %q.", errs.Clip(o.Style))
	case o.ContextBefore != nil && *o.ContextBefore < 0, o.ContextAfter != nil && *o.ContextAfter < 0:
		return nil, errs.New(errs.InvalidParam, "options 'context_before' and 'context_after' must be 0 or more.")
	case o.ReadLimit != nil && *o.ReadLimit < 1:
		return nil, errs.New(errs.InvalidParam, "option 'read_limit' must be at least 1, got %d.", *o.ReadLimit)
	case o.TimeoutMS < 0:
		return nil, errs.New(errs.InvalidParam, "option 'timeout_ms' must be 0 (no limit) or more, got %d.", o.TimeoutMS)
	case o.CallID < 0:
		return nil, errs.New(errs.InvalidParam, "option 'call_id' must be a positive integer, got %d.", o.CallID)
	}
	return o, nil
}

// checkNames refuses a member of obj (a valid JSON object) or of an
// object inside it that is not named exactly as a field of the struct typ
// (encoding/json would take "Style" for "style") or that is repeated
// (encoding/json would keep the last). prefix names obj ("zoekt.") in the
// error; an unknown name is left to the decoder, which lists the valid
// ones.
func checkNames(obj []byte, prefix string, typ reflect.Type) error {
	fields := map[string]reflect.Type{}
	for i := range typ.NumField() {
		name, _, _ := strings.Cut(typ.Field(i).Tag.Get("json"), ",")
		fields[name] = typ.Field(i).Type
	}
	seen := map[string]bool{}
	var err error
	jsonobj.Each(obj, func(n, v []byte) bool {
		name := string(n)
		ft, known := fields[name]
		switch {
		case seen[name]:
			err = errs.New(errs.InvalidParam, "option '%s' is given more than once: pass each option once.", errs.Echo(prefix+name))
		case !known:
			for f := range fields {
				if strings.EqualFold(f, name) {
					err = errs.New(errs.InvalidParam, "unknown option '%s%s': option names are case-sensitive; pass it as '%s%s'.", prefix, name, prefix, f)
				}
			}
		case ft.Kind() == reflect.Pointer && ft.Elem().Kind() == reflect.Struct && len(v) > 0 && v[0] == '{':
			err = checkNames(v, prefix+name+".", ft.Elem())
		}
		seen[name] = true
		return err == nil
	})
	return err
}

func optionKind(goType string) string {
	switch goType {
	case "string":
		return "a string"
	case "bool":
		return "true or false"
	case "[]string":
		return "a list of strings"
	case "main.zoektOption":
		return `an object {"urls": [...], "repo": "..."}`
	}
	return "an integer"
}

// before and after map the options' context lines to tool.Config, where 0
// is the default and a negative value none.
func (o *options) before() int { return contextLines(o.ContextBefore) }
func (o *options) after() int  { return contextLines(o.ContextAfter) }

func contextLines(p *int) int {
	if p == nil {
		return 0
	}
	return pitext.ContextSetting(*p)
}

// calls are the running calls that have a call_id.
type calls struct {
	mu sync.Mutex
	m  map[int64]context.CancelFunc
}

var running = &calls{m: map[int64]context.CancelFunc{}}

// start registers a running call; done unregisters it.
func (c *calls) start(ctx context.Context, id int64) (context.Context, func(), error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if _, ok := c.m[id]; ok {
		return nil, nil, errs.New(errs.InvalidParam, "call_id %d is already used by a running call: give each running call its own id.", id)
	}
	ctx, cancel := context.WithCancel(ctx)
	c.m[id] = cancel
	return ctx, func() {
		c.mu.Lock()
		delete(c.m, id)
		c.mu.Unlock()
		cancel()
	}, nil
}

// cancelCall cancels the running call id.
func cancelCall(id int64) *scout.Envelope {
	params, _ := json.Marshal(map[string]int64{"call_id": id})
	if id <= 0 {
		// No call can have it: call_id 0 means none, and a negative one
		// is refused.
		return envelope.Error(errs.New(errs.InvalidParam, "call_id %d names no call: call ids are positive integers; pass the call_id option given to scout_call_opts (a call without one, or with 0, cannot be canceled).", id), params)
	}
	running.mu.Lock()
	cancel, ok := running.m[id]
	running.mu.Unlock()
	if !ok {
		return envelope.Error(errs.New(errs.NotFound, "No running call has call_id %d: it has not started yet or has already returned.", id), params)
	}
	cancel()
	return &scout.Envelope{
		Status:  scout.StatusSuccess,
		Data:    map[string]any{"call_id": id, "canceled": true},
		Text:    fmt.Sprintf("Call %d canceled.", id),
		Context: scout.EnvelopeContext{Cwd: ".", ParamsInput: params},
	}
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
	// The root is quoted once, cut when long (an error of the system
	// quotes it whole).
	cause, echo := err, errs.Echo(root)
	var pe *fs.PathError
	if errors.As(err, &pe) {
		cause = pe.Err
	}
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return errs.Wrap(errs.NotFound, err, "root '%s' does not exist: pass an existing directory, or NULL for the current directory.", echo)
	case errors.Is(err, fs.ErrPermission):
		return errs.Wrap(errs.AccessDenied, err, "root '%s' cannot be read: %v.", echo, cause)
	case err != nil:
		return errs.Wrap(errs.InvalidParam, err, "root '%s' cannot be used: %v.", echo, cause)
	case !st.IsDir():
		return errs.New(errs.InvalidParam, "root '%s' is not a directory: pass the project's directory.", echo)
	}
	return nil
}

// goString converts a C string, refusing NULL (unless optional) and
// invalid UTF-8.
func goString(field string, p *C.scout_cchar, optional bool) (string, error) {
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

// envelopeJSON encodes env. When env cannot be encoded (a result holding a
// value JSON has no form for), the caller gets an INTERNAL_ERROR Envelope
// saying so, which always encodes: it has no data.
func envelopeJSON(env *scout.Envelope) []byte {
	b, err := json.Marshal(env)
	if err != nil {
		e := envelope.Error(errs.Wrap(errs.Internal, err, "Internal error: the result cannot be encoded as JSON: %v. This is a bug in Scout; please report it with the arguments.", err), env.Context.ParamsInput)
		b, _ = json.Marshal(e)
	}
	return b
}

// cString copies b to a C string the caller frees with scout_free.
func cString(b []byte) *C.char { return C.CString(string(b)) }

// guard returns f's Envelope JSON, or an INTERNAL_ERROR Envelope when f
// panics: a bug in Scout must not crash the host (fn names the function).
func guard(fn string, f func() []byte) (out []byte) {
	defer func() {
		if r := recover(); r != nil {
			out = envelopeJSON(envelope.Error(errs.New(errs.Internal, "Internal error in %s: %v. This is a bug in Scout; please report it with the arguments.", fn, r), nil))
		}
	}()
	return f()
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
