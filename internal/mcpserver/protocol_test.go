package mcpserver

import (
	"bufio"
	"encoding/json"
	"fmt"
	"io"
	"io/fs"
	"runtime"
	"strings"
	"sync"
	"testing"
	"time"
	"unicode/utf8"

	"github.com/stretchr/testify/assert"

	"github.com/scoutkit/scout/tool"
)

// wire is a raw connection to a server: lines in, parsed messages out.
type wire struct {
	t   *testing.T
	in  io.Writer
	out *bufio.Reader
}

func dial(t *testing.T, cfg tool.Config, toolset string) *wire {
	t.Helper()
	r, w := serve(t, cfg, toolset)
	return &wire{t: t, in: w, out: bufio.NewReader(r)}
}

func (w *wire) send(line string) {
	w.t.Helper()
	if _, err := io.WriteString(w.in, line+"\n"); err != nil {
		w.t.Fatal(err)
	}
}

// next reads the next message the server writes, which must be UTF-8 and
// no batch.
func (w *wire) next() map[string]any {
	w.t.Helper()
	var m map[string]any
	if err := json.Unmarshal(w.nextLine(), &m); err != nil {
		w.t.Fatal(err)
	}
	if m["jsonrpc"] != "2.0" {
		w.t.Errorf("message %v lacks jsonrpc 2.0", m)
	}
	return m
}

// nextLine reads the next line the server writes, which must be UTF-8.
func (w *wire) nextLine() []byte {
	w.t.Helper()
	type msg struct {
		line []byte
		err  error
	}
	ch := make(chan msg, 1)
	go func() {
		line, err := w.out.ReadBytes('\n')
		if err == nil && !utf8.Valid(line) {
			err = fmt.Errorf("answer %q is not UTF-8", line)
		}
		ch <- msg{line, err}
	}()
	select {
	case r := <-ch:
		if r.err != nil {
			w.t.Fatal(r.err)
		}
		return r.line
	case <-time.After(10 * time.Second):
		w.t.Fatal("no answer in 10 s")
		return nil
	}
}

// errCode is the code of an error answer, 0 for a result.
func errCode(m map[string]any) int {
	e, ok := m["error"].(map[string]any)
	if !ok {
		return 0
	}
	n, _ := e["code"].(float64)
	return int(n)
}

// TestProtocol sends each message and a ping after it: the answer (or
// none, for notifications and the client's own answers) comes before the
// ping's.
func TestProtocol(t *testing.T) {
	tests := []struct {
		name, line string
		code       int    // the error code answered; 0 for a result, -1 for no answer
		id         any    // the ID answered
		want       string // in the answer's JSON
	}{
		{"not JSON", `{"jsonrpc": "2.0", "id": 1, "method"`, codeParse, nil, "not a JSON-RPC message"},
		// encoding/json names the character by its first byte ('ï').
		{"bytes not in UTF-8 outside a string", "\xff{\"jsonrpc\": \"2.0\", \"id\": 1, \"method\": \"ping\"}", codeParse, nil, "not a JSON-RPC message: invalid character '\uFFFD' (U+FFFD) at byte 0"},
		{"a character out of ASCII outside a string", `{"jsonrpc": "2.0", "id": 1, "method": "ping"}é`, codeParse, nil, `not a JSON-RPC message: invalid character 'é' (U+00E9) at byte 45`},
		{"an ASCII character outside a string", `{"jsonrpc": "2.0", "id": 1, "method": "ping"}x`, codeParse, nil, `not a JSON-RPC message: invalid character 'x' after top-level value`},
		{"a batch before initialize", `[{"jsonrpc": "2.0", "id": 1, "method": "ping"}]`, codeInvalidRequest, nil, "batches are not supported before initialize (only 2025-03-26 has them): send one JSON-RPC message per line"},
		{"a batch after white space", ` [{"jsonrpc": "2.0", "id": 1, "method": "ping"}]`, codeInvalidRequest, nil, "batches are not supported"},
		{"a batch that is not JSON", `[{"jsonrpc": "2.0", "id": 1, "method": "ping"}`, codeParse, nil, "not a JSON-RPC message"},
		{"JSON that is not an object", `1`, codeInvalidRequest, nil, "not a JSON-RPC 2.0 request: a message is a JSON object, got number"},
		{"a member of the wrong type: answered with the ID", `{"jsonrpc": "2.0", "id": 12, "method": 1}`, codeInvalidRequest, 12.0, `not a JSON-RPC 2.0 request: member \"method\" must be a string, got number`},
		{"a jsonrpc number: answered with the ID", `{"jsonrpc": 2.0, "id": "j", "method": "ping"}`, codeInvalidRequest, "j", `not a JSON-RPC 2.0 request: member \"jsonrpc\" must be a string, got number`},
		{"an object ID without jsonrpc is not echoed", `{"id": {"a": 1}, "method": "ping"}`, codeInvalidRequest, nil, `\"jsonrpc\": \"2.0\"`},
		{"an ID not in UTF-8 is answered in UTF-8", "{\"jsonrpc\": \"2.0\", \"id\": \"\xff\", \"method\": \"ping\"}", 0, "\uFFFD", `"result":{}`},
		{"no jsonrpc member", `{"id": 2, "method": "ping"}`, codeInvalidRequest, 2.0, `\"jsonrpc\": \"2.0\"`},
		{"an object ID", `{"jsonrpc": "2.0", "id": {"a": 1}, "method": "ping"}`, codeInvalidRequest, nil, "string or a number"},
		{"a null ID", `{"jsonrpc": "2.0", "id": null, "method": "ping"}`, codeInvalidRequest, nil, "string or a number"},
		{"a byte order mark is ignored", "\uFEFF{\"jsonrpc\": \"2.0\", \"id\": 17, \"method\": \"ping\"}", 0, 17.0, `"result":{}`},
		{"a line of only a byte order mark is blank", "\uFEFF ", -1, nil, ""},
		{"a Content-Length header", "Content-Length: 46", codeParse, nil, "send each message as one line of JSON, with no Content-Length header"},
		{"a Content-Length header in any case", "content-length:46", codeParse, nil, "with no Content-Length header"},
		{"an unknown method", `{"jsonrpc": "2.0", "id": "x", "method": "resources/list"}`, codeNoMethod, "x", "tools/call"},
		{"an unknown notification", `{"jsonrpc": "2.0", "method": "notifications/roots/list_changed"}`, -1, nil, ""},
		{"the client's answer", `{"jsonrpc": "2.0", "id": 7, "result": {}}`, -1, nil, ""},
		{"the client's error answer", `{"jsonrpc": "2.0", "id": 50, "error": {"code": -32601, "message": "no"}}`, -1, nil, ""},
		// An ID without a method, a result or an error is a request the
		// client waits on: it was taken for an answer and dropped.
		{"an ID and nothing else", `{"jsonrpc": "2.0", "id": 47}`, codeInvalidRequest, 47.0, `not a JSON-RPC 2.0 request: it needs \"jsonrpc\": \"2.0\" and a method`},
		{"an ID and params without a method", `{"jsonrpc": "2.0", "id": "p48", "params": {}}`, codeInvalidRequest, "p48", `and a method`},
		{"an ID and a null method", `{"jsonrpc": "2.0", "id": 49, "method": null}`, codeInvalidRequest, 49.0, `and a method`},
		{"ping", `{"jsonrpc": "2.0", "id": 3, "method": "ping"}`, 0, 3.0, `"result":{}`},
		{"ping with a progress token", `{"jsonrpc": "2.0", "id": 51, "method": "ping", "params": {"_meta": {"progressToken": "t"}}}`, 0, 51.0, `"result":{}`},
		{"ping params that are a string", `{"jsonrpc": "2.0", "id": 52, "method": "ping", "params": "x"}`, codeInvalidParams, 52.0, `ping params: they must be an object, got string; send none or {}`},
		{"tools/list", `{"jsonrpc": "2.0", "id": 53, "method": "tools/list", "params": {"_meta": {"progressToken": 1}}}`, 0, 53.0, `"name":"search"`},
		{"tools/list with a null or empty cursor: the first page", `{"jsonrpc": "2.0", "id": 54, "method": "tools/list", "params": {"cursor": ""}}`, 0, 54.0, `"name":"search"`},
		// An invalid cursor SHOULD be Invalid params (pagination): the
		// server gives none, so any is unknown; the whole list came back.
		{"tools/list with a cursor", `{"jsonrpc": "2.0", "id": 55, "method": "tools/list", "params": {"cursor": "2"}}`, codeInvalidParams, 55.0, `tools/list params: cursor \"2\" is not one this server gave: the first page lists every tool, with no nextCursor; send no cursor`},
		{"tools/list with a cursor that is no string", `{"jsonrpc": "2.0", "id": 56, "method": "tools/list", "params": {"cursor": 2}}`, codeInvalidParams, 56.0, `member \"cursor\" must be a string, got number`},
		{"tools/list params that are an array", `{"jsonrpc": "2.0", "id": 57, "method": "tools/list", "params": []}`, codeInvalidParams, 57.0, `tools/list params: they must be an object, got array`},
		{"an older revision is spoken", `{"jsonrpc": "2.0", "id": 4, "method": "initialize", "params": {"protocolVersion": "2025-03-26", "capabilities": {}, "clientInfo": {"name": "c", "version": "1"}}}`, 0, 4.0, `"protocolVersion":"2025-03-26"`},
		{"2026-07-28 is not negotiated by initialize", `{"jsonrpc": "2.0", "id": 13, "method": "initialize", "params": {"protocolVersion": "2026-07-28"}}`, 0, 13.0, `"protocolVersion":"2025-11-25"`},
		{"an unknown revision gets the newest", `{"jsonrpc": "2.0", "id": 5, "method": "initialize", "params": {"protocolVersion": "1999-01-01"}}`, 0, 5.0, `"protocolVersion":"` + ProtocolVersions[0] + `"`},
		{"server info", `{"jsonrpc": "2.0", "id": 6, "method": "initialize", "params": {}}`, 0, 6.0, `"serverInfo":{"name":"scout","title":"Scout file tools","version":"test"}`},
		{"an unknown tool", `{"jsonrpc": "2.0", "id": 8, "method": "tools/call", "params": {"name": "grep", "arguments": {}}}`, codeInvalidParams, 8.0, `unknown tool \"grep\"`},
		{"tools/call without params", `{"jsonrpc": "2.0", "id": 9, "method": "tools/call"}`, codeInvalidParams, 9.0, `tools/call params: they are missing; send {\"name\": TOOL, \"arguments\": {...}}`},
		// The errors of params that are not an object named the Go types
		// the server decodes into ("struct { Name string ...").
		{"tools/call with null params", `{"jsonrpc": "2.0", "id": 14, "method": "tools/call", "params": null}`, codeInvalidParams, 14.0, `tools/call params: they are missing; send {\"name\": TOOL`},
		{"tools/call with params that are not an object", `{"jsonrpc": "2.0", "id": 15, "method": "tools/call", "params": ["read", {}]}`, codeInvalidParams, 15.0, `tools/call params: they must be an object, got array; send {\"name\": TOOL, \"arguments\": {...}}`},
		{"tools/call with a name that is not a string", `{"jsonrpc": "2.0", "id": 16, "method": "tools/call", "params": {"name": 5}}`, codeInvalidParams, 16.0, `tools/call params: member \"name\" must be a string, got number; send {\"name\": TOOL`},
		// Member names are case-sensitive, and a member is sent once: a
		// message that another reader could take for another request is
		// refused rather than guessed at.
		{"a method in another case", `{"jsonrpc": "2.0", "id": 20, "Method": "ping"}`, codeInvalidRequest, 20.0, `not a JSON-RPC 2.0 request: member \"Method\" has the wrong case: names are case-sensitive (\"method\")`},
		{"jsonrpc in another case", `{"JSONRPC": "2.0", "id": 21, "method": "ping"}`, codeInvalidRequest, 21.0, `member \"JSONRPC\" has the wrong case: names are case-sensitive (\"jsonrpc\")`},
		{"params in another case", `{"jsonrpc": "2.0", "id": 22, "method": "ping", "PARAMS": {}}`, codeInvalidRequest, 22.0, `member \"PARAMS\" has the wrong case`},
		{"params with a long s", `{"jsonrpc": "2.0", "id": 23, "method": "ping", "paramſ": {}}`, codeInvalidRequest, 23.0, `member \"paramſ\" has the wrong case: names are case-sensitive (\"params\")`},
		{"an ID in another case: answered with a null ID", `{"jsonrpc": "2.0", "ID": 24, "method": "ping"}`, codeInvalidRequest, nil, `member \"ID\" has the wrong case: names are case-sensitive (\"id\")`},
		{"a repeated method", `{"jsonrpc": "2.0", "id": 25, "method": "ping", "method": "tools/list"}`, codeInvalidRequest, 25.0, `not a JSON-RPC 2.0 request: member \"method\" is repeated: send it once`},
		{"a repeated ID: answered with a null ID", `{"jsonrpc": "2.0", "id": 26, "id": 27, "method": "ping"}`, codeInvalidRequest, nil, `member \"id\" is repeated`},
		{"a repeated member in another case", `{"jsonrpc": "2.0", "id": 28, "method": "ping", "Method": "tools/list"}`, codeInvalidRequest, 28.0, `member \"Method\" has the wrong case`},
		{"a notification with a member in another case is an invalid request", `{"jsonrpc": "2.0", "Method": "notifications/initialized"}`, codeInvalidRequest, nil, `member \"Method\" has the wrong case`},
		{"a name escaped is the same name", `{"jsonrpc": "2.0", "id": 29, "\u006dethod": "ping"}`, 0, 29.0, `"result":{}`},
		{"unknown members are allowed, repeated too", `{"jsonrpc": "2.0", "id": 30, "method": "ping", "extra": 1, "extra": [2], "Extra": 3}`, 0, 30.0, `"result":{}`},
		{"JSON null", `null`, codeInvalidRequest, nil, "a message is a JSON object, got null"},
		{"a client's answer in another case", `{"jsonrpc": "2.0", "id": 31, "Result": {}}`, -1, nil, ""},
		{"a client's answer with an ID in another case", `{"jsonrpc": "2.0", "Id": 32, "error": {"code": 1, "message": "x"}}`, -1, nil, ""},
		{"a tool name in another case", `{"jsonrpc": "2.0", "id": 33, "method": "tools/call", "params": {"Name": "find", "arguments": {}}}`, codeInvalidParams, 33.0, `tools/call params: member \"Name\" has the wrong case: names are case-sensitive (\"name\"); send {\"name\": TOOL`},
		{"arguments in another case", `{"jsonrpc": "2.0", "id": 34, "method": "tools/call", "params": {"name": "find", "Arguments": {"paths": ["*.go"]}}}`, codeInvalidParams, 34.0, `member \"Arguments\" has the wrong case: names are case-sensitive (\"arguments\")`},
		{"a repeated tool name", `{"jsonrpc": "2.0", "id": 35, "method": "tools/call", "params": {"name": "read", "arguments": {}, "name": "find"}}`, codeInvalidParams, 35.0, `tools/call params: member \"name\" is repeated: send it once; send {\"name\": TOOL`},
		{"a repeated arguments", `{"jsonrpc": "2.0", "id": 36, "method": "tools/call", "params": {"name": "find", "arguments": {"paths": ["*.go"]}, "arguments": {}}}`, codeInvalidParams, 36.0, `member \"arguments\" is repeated`},
		{"unknown params members are allowed", `{"jsonrpc": "2.0", "id": 37, "method": "tools/call", "params": {"name": "find", "arguments": {"paths": ["*.go"]}, "_meta": {"progressToken": 1}, "task": {}}}`, 0, 37.0, `a.go`},
		{"a protocol version in another case", `{"jsonrpc": "2.0", "id": 38, "method": "initialize", "params": {"ProtocolVersion": "2025-03-26", "capabilities": {}, "clientInfo": {"name": "c", "version": "1"}}}`, codeInvalidParams, 38.0, `initialize params: member \"ProtocolVersion\" has the wrong case: names are case-sensitive (\"protocolVersion\"); send {\"protocolVersion\": VERSION`},
		{"a repeated protocol version", `{"jsonrpc": "2.0", "id": 39, "method": "initialize", "params": {"protocolVersion": "2025-03-26", "protocolVersion": "2025-06-18"}}`, codeInvalidParams, 39.0, `member \"protocolVersion\" is repeated`},
		{"clientInfo in another case", `{"jsonrpc": "2.0", "id": 40, "method": "initialize", "params": {"protocolVersion": "2025-03-26", "clientinfo": {}}}`, codeInvalidParams, 40.0, `member \"clientinfo\" has the wrong case`},
		// initialize params that are no object are refused as tools/call's
		// are; absent or null, they ask for no revision.
		{"initialize params that are an array", `{"jsonrpc": "2.0", "id": 41, "method": "initialize", "params": ["2025-03-26"]}`, codeInvalidParams, 41.0, `initialize params: they must be an object, got array; send {\"protocolVersion\": VERSION, \"capabilities\": {...}, \"clientInfo\": {\"name\": NAME, \"version\": VERSION}}`},
		{"initialize params that are a string", `{"jsonrpc": "2.0", "id": 42, "method": "initialize", "params": "2025-03-26"}`, codeInvalidParams, 42.0, `initialize params: they must be an object, got string`},
		{"initialize params that are a number", `{"jsonrpc": "2.0", "id": 43, "method": "initialize", "params": 2025}`, codeInvalidParams, 43.0, `initialize params: they must be an object, got number`},
		{"a protocol version that is no string", `{"jsonrpc": "2.0", "id": 44, "method": "initialize", "params": {"protocolVersion": 2025}}`, codeInvalidParams, 44.0, `initialize params: member \"protocolVersion\" must be a string, got number`},
		{"initialize without params", `{"jsonrpc": "2.0", "id": 45, "method": "initialize"}`, 0, 45.0, `"protocolVersion":"` + ProtocolVersions[0] + `"`},
		{"initialize with null params", `{"jsonrpc": "2.0", "id": 46, "method": "initialize", "params": null}`, 0, 46.0, `"protocolVersion":"` + ProtocolVersions[0] + `"`},
		{"no arguments: the tool names what it needs", `{"jsonrpc": "2.0", "id": 10, "method": "tools/call", "params": {"name": "find"}}`, 0, 10.0, `"isError":true`},
		{"a call", `{"jsonrpc": "2.0", "id": 11, "method": "tools/call", "params": {"name": "find", "arguments": {"paths": ["*.go"]}}}`, 0, 11.0, `a.go`},
		// Long names are quoted cut, not whole.
		{"a long unknown method", `{"jsonrpc": "2.0", "id": 58, "method": "` + strings.Repeat("m", 100000) + `"}`, codeNoMethod, 58.0, `mmm` + "…" + `(100000 bytes)\" not found: this server offers`},
		{"a long unknown tool", `{"jsonrpc": "2.0", "id": 59, "method": "tools/call", "params": {"name": "` + strings.Repeat("t", 100000) + `"}}`, codeInvalidParams, 59.0, `ttt` + "…" + `(100000 bytes)\": the pi toolset has`},
		{"a long cursor", `{"jsonrpc": "2.0", "id": 60, "method": "tools/list", "params": {"cursor": "` + strings.Repeat("c", 100000) + `"}}`, codeInvalidParams, 60.0, `ccc` + "…" + `(100000 bytes)\" is not one`},
	}
	w := dial(t, tool.Config{FS: fixture(t)}, tool.Pi)
	for _, tt := range tests {
		w.send(tt.line)
		w.send(`{"jsonrpc": "2.0", "id": "after", "method": "ping"}`)
		m := w.next()
		if tt.code == -1 {
			if m["id"] != "after" {
				t.Errorf("%s: answered %v, want no answer", tt.name, m)
			}
			continue
		}
		// A tool call answers from its own goroutine, maybe after the ping.
		if other := w.next(); m["id"] == "after" {
			m = other
		}
		b, _ := json.Marshal(m)
		if errCode(m) != tt.code || m["id"] != tt.id || !strings.Contains(string(b), tt.want) {
			t.Errorf("%s: answered %s\nwant code %d, ID %v and %q", tt.name, b, tt.code, tt.id, tt.want)
		}
	}
}

// TestProtocolCancel: a call the client cancels gets no answer, and the
// server goes on serving.
func TestProtocolCancel(t *testing.T) {
	cfg := tool.Config{FS: &slowFS{FS: fixture(t)}}
	w := dial(t, cfg, tool.Pi)
	w.send(`{"jsonrpc": "2.0", "id": 1, "method": "tools/call", "params": {"name": "search", "arguments": {"paths": ".", "pattern": "x"}}}`)
	w.send(`{"jsonrpc": "2.0", "method": "notifications/cancelled", "params": {"requestId": 1, "reason": "user"}}`)
	w.send(`{"jsonrpc": "2.0", "id": 2, "method": "ping"}`)
	if m := w.next(); m["id"] != 2.0 {
		t.Fatalf("answered %v first, want the ping's answer only", m)
	}
	w.send(`{"jsonrpc": "2.0", "id": 3, "method": "ping"}`)
	if m := w.next(); m["id"] != 3.0 {
		t.Fatalf("answered %v, want the second ping's answer (no answer for the canceled call)", m)
	}
}

// TestProtocolCancelCaseSensitive: a cancellation whose requestId is
// named in another case cancels nothing: the call is answered.
func TestProtocolCancelCaseSensitive(t *testing.T) {
	w, open := gatedDial(t)
	w.send(`{"jsonrpc": "2.0", "id": 1, "method": "tools/call", "params": {"name": "read", "arguments": {"path": "a.go"}}}`)
	w.send(`{"jsonrpc": "2.0", "method": "notifications/cancelled", "params": {"requestID": 1}}`)
	w.send(`{"jsonrpc": "2.0", "id": 2, "method": "ping"}`)
	if m := w.next(); m["id"] != 2.0 {
		t.Fatalf("answered %v, want the ping's answer", m)
	}
	open()
	if m := w.next(); m["id"] != 1.0 || errCode(m) != 0 {
		t.Fatalf("answered %v, want the call's result", m)
	}
}

// TestProtocolLongMessage: a message over MaxMessage is refused, and the
// next one is read.
func TestProtocolLongMessage(t *testing.T) {
	w := dial(t, tool.Config{FS: fixture(t)}, tool.Pi)
	long := `{"jsonrpc": "2.0", "id": 1, "method": "ping", "params": {"pad": "` + strings.Repeat("x", MaxMessage) + `"}}` + "\n"
	go func() {
		// Not w.send: t.Fatal must not be called outside the test's goroutine.
		if _, err := io.WriteString(w.in, long); err != nil {
			t.Errorf("writing the long message: %v", err)
		}
	}()
	m := w.next()
	if errCode(m) != codeParse || m["id"] != nil {
		t.Fatalf("answered %v, want a parse error", m)
	}
	w.send(`{"jsonrpc": "2.0", "id": 2, "method": "ping"}`)
	if m := w.next(); m["id"] != 2.0 {
		t.Fatalf("answered %v, want the ping's answer", m)
	}
}

// gatedDial dials a pi server whose files open only once open is called
// (at the end of the test at the latest).
func gatedDial(t *testing.T) (w *wire, open func()) {
	gate := make(chan struct{})
	w = dial(t, tool.Config{FS: gateFS{fixture(t), gate}}, tool.Pi)
	open = sync.OnceFunc(func() { close(gate) })
	t.Cleanup(open)
	return w, open
}

// gateFS blocks every Open until open is closed.
type gateFS struct {
	fs.FS
	open chan struct{}
}

func (g gateFS) Open(name string) (fs.File, error) {
	<-g.open
	return g.FS.Open(name)
}

// TestProtocolDuplicateID: a request reusing the ID of a running call is
// refused with a null ID, and the running call's answer still comes.
func TestProtocolDuplicateID(t *testing.T) {
	w, open := gatedDial(t)
	call := `{"jsonrpc": "2.0", "id": 1, "method": "tools/call", "params": {"name": "read", "arguments": {"path": "a.go"}}}`
	w.send(call)
	w.send(call)
	if m := w.next(); errCode(m) != codeInvalidRequest || m["id"] != nil {
		t.Fatalf("answered %v, want an invalid request with a null ID", m)
	}
	open()
	if m := w.next(); errCode(m) != 0 || m["id"] != 1.0 {
		t.Fatalf("answered %v, want the running call's result", m)
	}
}

// TestProtocolPipelined: a client that writes many calls before it reads
// any answer gets them all, and the calls waiting for their turn cost no
// goroutine each (100,000 pipelined searches grew the server past 460 MB
// and on).
func TestProtocolPipelined(t *testing.T) {
	gate := make(chan struct{})
	w := dial(t, tool.Config{FS: gateFS{fixture(t), gate}}, tool.Pi)
	const n = 2000
	base := runtime.NumGoroutine()
	written := make(chan struct{})
	go func() {
		for i := range n {
			fmt.Fprintf(w.in, `{"jsonrpc": "2.0", "id": %d, "method": "tools/call", "params": {"name": "read", "arguments": {"path": "a.go"}}}`+"\n", i)
		}
		close(written)
	}()
	// Wait until the server has taken the calls (the running ones wait at
	// the gate).
	most, still := 0, 0
	for still < 20 {
		time.Sleep(10 * time.Millisecond)
		if g := runtime.NumGoroutine() - base; g > most {
			most, still = g, 0
		} else {
			still++
		}
	}
	if most > maxCalls+10 { // the workers may start after base was taken
		t.Errorf("%d goroutines more with %d calls sent and none answered, want at most %d", most, n, maxCalls+10)
	}
	close(gate)
	select {
	case <-written:
	case <-time.After(10 * time.Second):
		t.Fatal("the server stopped reading before the client read any answer")
	}
	seen := map[float64]bool{}
	for range n {
		seen[w.next()["id"].(float64)] = true
	}
	if len(seen) != n {
		t.Errorf("%d distinct answers of %d", len(seen), n)
	}
}

// TestProtocolBatch: revision 2025-03-26 has JSON-RPC batches ("MUST
// support receiving" them; 2025-06-18 removed them): a session that speaks
// it gets one array of the answers to a batch's requests, none for its
// notifications and the client's answers, and nothing at all when no
// answer is due; an empty batch, a batch over maxBatch and a batch in any
// other revision get a single error.
func TestProtocolBatch(t *testing.T) {
	ping := func(id string) string { return `{"jsonrpc": "2.0", "id": ` + id + `, "method": "ping"}` }
	pings := make([]string, maxBatch+1)
	for i := range pings {
		pings[i] = ping(fmt.Sprint(100 + i))
	}
	tests := []struct {
		name, rev, line string
		// want is the answer: a single error's code and message (code
		// set), an array of answers, each as its ID in JSON and its code
		// (batch set), or none (neither).
		code  int
		msg   string
		batch []string
	}{
		{"2025-06-18 has no batches", "2025-06-18", "[" + ping("1") + "]", codeInvalidRequest, "batches are not supported in revision 2025-06-18 (only 2025-03-26 has them): send one JSON-RPC message per line", nil},
		{"2025-11-25 has no batches", "2025-11-25", "[" + ping("1") + "]", codeInvalidRequest, "in revision 2025-11-25", nil},
		{"2024-11-05 has no batches", "2024-11-05", "[" + ping("1") + "]", codeInvalidRequest, "in revision 2024-11-05", nil},
		{"requests and a notification", "2025-03-26", "[" + ping("1") + `, {"jsonrpc": "2.0", "method": "notifications/initialized"}, ` + ping(`"s"`) + "]", 0, "", []string{`1 0`, `"s" 0`}},
		{"notifications only: no answer", "2025-03-26", `[{"jsonrpc": "2.0", "method": "notifications/initialized"}, {"jsonrpc": "2.0", "method": "notifications/cancelled", "params": {"requestId": 9}}]`, 0, "", nil},
		{"the client's answers only: no answer", "2025-03-26", `[{"jsonrpc": "2.0", "id": 1, "result": {}}]`, 0, "", nil},
		{"bad messages are answered in the array", "2025-03-26", `[1, {"jsonrpc": "2.0", "id": 2, "method": "nope"}, [], {"jsonrpc": "2.0", "id": 3}]`, 0, "", []string{`null -32600`, `2 -32601`, `null -32600`, `3 -32600`}},
		{"tool calls are answered in the array", "2025-03-26", `[{"jsonrpc": "2.0", "id": 4, "method": "tools/call", "params": {"name": "find", "arguments": {"paths": ["*.go"]}}}, {"jsonrpc": "2.0", "id": 5, "method": "tools/call", "params": {"name": "read", "arguments": {"path": "a.go"}}}, ` + ping("6") + `, {"jsonrpc": "2.0", "id": 7, "method": "tools/call", "params": {"name": "nope"}}]`, 0, "", []string{`4 0`, `5 0`, `6 0`, `7 -32602`}},
		{"initialize must not be in a batch", "2025-03-26", `[{"jsonrpc": "2.0", "id": 8, "method": "initialize", "params": {"protocolVersion": "2025-03-26"}}, ` + ping("9") + "]", 0, "", []string{`8 -32600`, `9 0`}},
		{"an empty batch", "2025-03-26", `[]`, codeInvalidRequest, "an empty batch", nil},
		{"a batch over maxBatch", "2025-03-26", "[" + strings.Join(pings, ",") + "]", codeInvalidRequest, fmt.Sprintf("a batch of %d messages: send at most %d in one", maxBatch+1, maxBatch), nil},
		{"a batch of maxBatch", "2025-03-26", "[" + strings.Join(pings[:maxBatch], ",") + "]", 0, "", func() (ids []string) {
			for i := range maxBatch {
				ids = append(ids, fmt.Sprint(100+i, " 0"))
			}
			return ids
		}()},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			w := dial(t, tool.Config{FS: fixture(t)}, tool.Pi)
			w.send(`{"jsonrpc": "2.0", "id": 0, "method": "initialize", "params": {"protocolVersion": "` + tt.rev + `"}}`)
			if m := w.next(); m["result"].(map[string]any)["protocolVersion"] != tt.rev {
				t.Fatalf("initialize answered %v", m)
			}
			w.send(tt.line)
			w.send(ping(`"after"`))
			line := w.nextLine()
			afterFirst := tt.batch != nil && strings.Contains(string(line), `"id":"after"`)
			if afterFirst { // the batch waited for its calls
				line = w.nextLine()
			}
			switch {
			case tt.code != 0:
				var m map[string]any
				if err := json.Unmarshal(line, &m); err != nil || errCode(m) != tt.code || m["id"] != nil || !strings.Contains(m["error"].(map[string]any)["message"].(string), tt.msg) {
					t.Fatalf("answered %s, want one error %d with a null ID and %q", line, tt.code, tt.msg)
				}
			case tt.batch != nil:
				var answers []map[string]json.RawMessage
				if err := json.Unmarshal(line, &answers); err != nil {
					t.Fatalf("answered %s, want an array: %v", line, err)
				}
				var got []string
				for _, a := range answers {
					var m map[string]any
					b, _ := json.Marshal(a)
					json.Unmarshal(b, &m)
					if m["jsonrpc"] != "2.0" || (a["result"] == nil) == (a["error"] == nil) {
						t.Errorf("answer %s: no jsonrpc 2.0, or not one of result and error", b)
					}
					got = append(got, fmt.Sprint(string(a["id"]), " ", errCode(m)))
				}
				assert.ElementsMatch(t, tt.batch, got)
				if afterFirst {
					return
				}
			default:
				if !strings.Contains(string(line), `"id":"after"`) {
					t.Fatalf("answered %s, want no answer", line)
				}
				return
			}
			if m := w.next(); m["id"] != "after" {
				t.Fatalf("answered %v, want the ping's answer", m)
			}
		})
	}
}

// TestProtocolBatchCancel: a batch's call that the client cancels has no
// answer in the array; when it was the batch's only request, nothing is
// written.
func TestProtocolBatchCancel(t *testing.T) {
	for _, withPing := range []bool{false, true} {
		w, open := gatedDial(t)
		w.send(`{"jsonrpc": "2.0", "id": 0, "method": "initialize", "params": {"protocolVersion": "2025-03-26"}}`)
		w.next()
		batch := `[{"jsonrpc": "2.0", "id": 1, "method": "tools/call", "params": {"name": "read", "arguments": {"path": "a.go"}}}`
		if withPing {
			batch += `, {"jsonrpc": "2.0", "id": 2, "method": "ping"}`
		}
		// Written at once: the batch's answer may come before the ping's
		// (the cancel reached the call while it waited for a worker) or
		// after it (a worker held the call until the gate opens).
		go io.WriteString(w.in, batch+"]\n"+
			`{"jsonrpc": "2.0", "method": "notifications/cancelled", "params": {"requestId": 1}}`+"\n"+
			`{"jsonrpc": "2.0", "id": 3, "method": "ping"}`+"\n")
		ping3 := `{"jsonrpc":"2.0","id":3,"result":{}}`
		var got []string
		for len(got) == 0 || got[len(got)-1] != ping3 {
			got = append(got, strings.TrimSpace(string(w.nextLine())))
			if len(got) > 2 {
				t.Fatalf("answered %q, want the ping's answer", got)
			}
		}
		open()
		// The rest of the output, once the input ends: the server has
		// then answered every request.
		w.send(`{"jsonrpc": "2.0", "id": 4, "method": "ping"}`)
		w.in.(io.Closer).Close()
		rest, err := io.ReadAll(w.out)
		if err != nil {
			t.Fatal(err)
		}
		got = append(got, strings.Fields(string(rest))...)
		want := []string{ping3, `{"jsonrpc":"2.0","id":4,"result":{}}`}
		if withPing {
			want = append(want, `[{"jsonrpc":"2.0","id":2,"result":{}}]`)
		}
		assert.ElementsMatch(t, want, got, "with ping %v", withPing)
	}
}

// TestProtocolEcho: an answer's ID is the request's, byte for byte (a
// number past float64's precision, a fraction, an exponent, a string
// with escapes), and initialize answers each revision the server speaks
// with that revision.
func TestProtocolEcho(t *testing.T) {
	w := dial(t, tool.Config{FS: fixture(t)}, tool.Pi)
	for _, id := range []string{`12345678901234567890123`, `1.5`, `-0`, `1e400`, `"1"`, `"\u0041\n"`, `""`} {
		w.send(`{"jsonrpc": "2.0", "id": ` + id + `, "method": "ping"}`)
		if line, want := strings.TrimSpace(string(w.nextLine())), `{"jsonrpc":"2.0","id":`+id+`,"result":{}}`; line != want {
			t.Errorf("answered %s, want %s", line, want)
		}
	}
	for _, rev := range ProtocolVersions {
		w.send(`{"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {"protocolVersion": "` + rev + `", "capabilities": {}, "clientInfo": {"name": "c", "version": "1"}}}`)
		res, _ := w.next()["result"].(map[string]any)
		if res["protocolVersion"] != rev || res["capabilities"] == nil || res["serverInfo"] == nil {
			t.Errorf("initialize with %s answered %v", rev, res)
		}
	}
}
