// Package mcpserver serves a Scout toolset over the Model Context Protocol
// on a stream pair (stdio): JSON-RPC 2.0 messages, one per line. It answers
// initialize, ping, tools/list and tools/call, and stops a call when the
// client sends notifications/cancelled for it or goes away. Each tool
// returns its text as text content, the Standard Envelope as
// structuredContent (declared as every tool's outputSchema) and images
// read by `read` as image content, which alone holds their bytes (see
// tool.Config.ImagesApart); tool errors are results with isError set, so
// the model sees them. Every tool is annotated read-only and
// idempotent. Member names are case-sensitive, as JSON-RPC has them: a
// message, or params, with a known member named in another case or
// repeated is refused as an invalid request (or invalid params). A
// JSON-RPC batch (an array of messages, at most 32) is answered with one
// array when the session speaks 2025-03-26, the one revision that has
// batches, and refused otherwise. When the client closes its input, the
// requests received before are still answered, as long as the client reads
// the answers: the server gives up on one that reads none for 10 seconds.
// At most 16 calls run at once; past 4096 waiting (or 64 MiB of their
// arguments and IDs) the server reads no further message until one starts.
// Answers wait in a queue for the client to read them, so that the server
// goes on reading (cancellations among others) while the client is slow
// to; past 16 MiB of answers waiting it reads no further message until the
// client reads.
//
// The protocol surface is this small, so the package speaks it itself
// rather than through an SDK: the official Go SDK's client is the test of
// conformance, and the command starts without its dependencies.
package mcpserver

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"time"
	"unicode/utf8"

	"github.com/scoutkit/scout"
	"github.com/scoutkit/scout/internal/errs"
	"github.com/scoutkit/scout/internal/jsonobj"
	"github.com/scoutkit/scout/tool"
)

// ProtocolVersions are the MCP revisions the server speaks, newest first:
// it answers a client with the client's revision when listed, else with
// the newest. Not 2026-07-28: that revision has clients call
// server/discover rather than initialize, and when the server does not
// know the method they fall back to initialize with an older revision.
var ProtocolVersions = []string{"2025-11-25", "2025-06-18", "2025-03-26", "2024-11-05"}

// The JSON-RPC error codes the server answers with.
const (
	codeParse          = -32700
	codeInvalidRequest = -32600
	codeNoMethod       = -32601
	codeInvalidParams  = -32602
)

// MaxMessage caps one incoming message; tool arguments are far smaller.
const MaxMessage = 16 << 20

// maxCalls caps the tool calls that run at once; more wait their turn.
const maxCalls = 16

// maxQueued and maxQueuedBytes cap the tool calls waiting for their turn
// and their bytes (arguments and IDs): past either the server reads no
// further message until a call starts, so a client that sends requests
// without waiting for answers is slowed down, while one that writes a few
// thousand before it reads any answer is still served.
const (
	maxQueued      = 4096
	maxQueuedBytes = 64 << 20
)

// maxOutBytes caps the answers waiting for the client to read them (the
// one being written included), each counted with msgOverhead bytes more:
// past it, whoever answers waits, the reader of the client's messages
// included. One answer larger than the cap is written alone.
const (
	maxOutBytes = 16 << 20
	msgOverhead = 64
)

// Server serves one toolset. Its zero value is not usable: see New.
type Server struct {
	cfg     tool.Config
	toolset string
	version string
	tools   []toolDef
	stall   time.Duration // stallTimeout, shorter in tests
}

// toolDef is a tool as tools/list describes it.
type toolDef struct {
	Name         string          `json:"name"`
	Description  string          `json:"description"`
	InputSchema  json.RawMessage `json:"inputSchema"`
	OutputSchema json.RawMessage `json:"outputSchema"`
	Annotations  annotations     `json:"annotations"`
}

// envelopeSchema is the JSON Schema of every tool's structuredContent, the
// Standard Envelope (scout.Envelope); data is the tool's own result.
var envelopeSchema = json.RawMessage(`{
  "type": "object",
  "description": "The Standard Envelope of the call; its text is also the text content.",
  "properties": {
    "status": {"type": "string", "enum": ["success", "partial", "error"], "description": "success, partial (a limit, a breaker or a timeout cut the result) or error"},
    "data": {"description": "the tool's result, shaped by the tool; null on error, unless the tool keeps one (Glob's breaker error keeps aborted_reason). An image read's bytes are not in it (read's result has its metadata, no image_data): they are the image content"},
    "text": {"type": "string", "description": "the model-facing text"},
    "stats": {
      "type": "object",
      "properties": {
        "time_ms": {"type": "integer"},
        "matched": {"type": "integer"},
        "visited": {"type": "integer"},
        "skipped": {"type": "integer"},
        "files": {"type": "integer"},
        "bytes": {"type": "integer"}
      },
      "required": ["time_ms", "matched", "visited"],
      "additionalProperties": false
    },
    "context": {
      "type": "object",
      "properties": {
        "cwd": {"type": "string"},
        "params_input": {"description": "the arguments as given"},
        "path_resolved": {"type": "string"},
        "pattern_normalized": {"type": "string"},
        "backend": {
          "type": "object",
          "description": "how a content search was answered when the host configured an index (--zoekt): by the index, or by a scan and why",
          "properties": {
            "index": {"type": "boolean"},
            "endpoints": {"type": "integer"},
            "commit": {"type": "string"},
            "overlay": {"type": "integer"},
            "unindexed": {"type": "integer"},
            "fallback": {"type": "string"},
            "detail": {"type": "string"}
          },
          "required": ["index"],
          "additionalProperties": false
        }
      },
      "required": ["cwd", "params_input"],
      "additionalProperties": false
    },
    "error": {
      "type": "object",
      "properties": {
        "code": {"type": "string"},
        "message": {"type": "string"}
      },
      "required": ["code", "message"],
      "additionalProperties": false
    }
  },
  "required": ["status", "data", "text", "stats", "context"],
  "additionalProperties": false
}`)

type annotations struct {
	ReadOnlyHint    bool `json:"readOnlyHint"`
	DestructiveHint bool `json:"destructiveHint"`
	IdempotentHint  bool `json:"idempotentHint"`
	OpenWorldHint   bool `json:"openWorldHint"`
}

// New returns a server exposing the toolset's tools with cfg. When
// cfg.URLCache is nil the server gets its own cache (at most 100 pages
// and 64 MiB, least recently used dropped first), shared by its calls, so
// that paging a web page ("url:301") does not fetch it again. The server
// sets cfg.ImagesApart: the image content carries an image's bytes.
func New(cfg tool.Config, toolset, version string) (*Server, error) {
	tools, err := tool.Tools(toolset)
	if err != nil {
		return nil, err
	}
	if cfg.URLCache == nil {
		cfg.URLCache = &scout.URLCache{}
	}
	cfg.ImagesApart = true
	s := &Server{cfg: cfg, toolset: toolset, version: version, stall: stallTimeout}
	for _, t := range tools {
		// read fetches web URLs unless the host refused them
		open := t.Name == "read" && !cfg.NoWeb
		s.tools = append(s.tools, toolDef{Name: t.Name, Description: t.Description, InputSchema: t.Schema, OutputSchema: envelopeSchema,
			Annotations: annotations{ReadOnlyHint: true, IdempotentHint: true, OpenWorldHint: open}})
	}
	return s, nil
}

// Serve runs a server on the given streams as Server.Serve does, and
// closes in and out when it returns, which ends a read or a write that
// Server.Serve left going on when they are pipes.
func Serve(ctx context.Context, cfg tool.Config, toolset, version string, in io.ReadCloser, out io.WriteCloser) error {
	s, err := New(cfg, toolset, version)
	if err != nil {
		return err
	}
	defer out.Close()
	defer in.Close()
	return s.Serve(ctx, in, out)
}

// stallTimeout is how long, once the input ended, a write of answers may
// make no progress before Serve gives up on the client: see Server.Serve.
const stallTimeout = 10 * time.Second

// writePart caps one Write of an answer: a write makes progress each time
// one of its parts is written.
const writePart = 64 << 10

// deadlineWait is how long Serve waits for a read or a write it has set
// a deadline on to end.
const deadlineWait = time.Second

// Serve reads messages from in and writes the answers to out until in
// ends, then waits for the calls still running and writes their answers:
// every request received is answered, as a client that closes its end to
// shut the server down expects, while the client reads them. Once in has
// ended, a write to out that makes no progress (of 64 KiB) for 10 seconds
// is a client that reads no more: Serve then stops the calls still
// running, drops the answers not yet written and returns an error saying
// so. Before in ends, a client that does not read holds the server, as the
// package doc says, until ctx ends.
//
// When ctx is canceled Serve stops the calls still running, drops the
// answers not yet written and returns ctx's error once the calls are
// done. It returns nil when in ended and every answer was written.
//
// Serve does not wait for a read of in or a write to out that it left
// going on (the client sends nothing, or reads nothing): the goroutine
// that does it ends when the Read or Write returns, and reads or writes
// nothing more. When in has a SetReadDeadline method, or out a
// SetWriteDeadline method (an *os.File of a pipe, a net.Conn), Serve ends
// that Read or Write with a deadline, then clears the deadline. No other
// goroutine of Serve outlives it.
func (s *Server) Serve(ctx context.Context, in io.Reader, out io.Writer) error {
	c := newSession(s, ctx, out)
	defer c.cancel()
	for range maxCalls {
		c.calls.Go(c.work)
	}
	go c.writeOut()
	go func() { // the answers end with the calls
		c.calls.Wait()
		c.out.close()
	}()
	lines := make(chan []byte)
	readErr := make(chan error, 1)
	go func() { readErr <- readLines(c.ctx, in, lines, c) }()
	var err error
	reading := true
loop:
	for {
		select {
		case line := <-lines:
			if err = c.ctx.Err(); err != nil {
				break loop
			}
			c.handle(line)
		case err = <-readErr:
			reading = false
			break loop
		case <-c.ctx.Done():
			err = c.ctx.Err()
			break loop
		}
	}
	c.jobs.close() // the workers run what is queued, then end
	if errors.Is(err, io.EOF) {
		if err = c.drain(); err == nil {
			return nil
		}
	}
	c.stop()
	if reading {
		stopReading(in, readErr)
	}
	return err
}

// drain waits, once the input ended, for the calls still running and for
// every answer to be written; it gives up when ctx ends or when a write
// makes no progress for the server's stall timeout.
func (c *session) drain() error {
	tick := time.NewTicker(c.s.stall / 8)
	defer tick.Stop()
	for {
		select {
		case <-c.written:
			return nil
		case <-c.ctx.Done():
			return c.ctx.Err()
		case <-tick.C:
			if w := c.writing.Load(); w != 0 && time.Since(c.epoch)-time.Duration(w-1) >= c.s.stall {
				return fmt.Errorf("the client's input ended and a write of its answers made no progress for %v (the client reads none): the answers left are not written", c.s.stall)
			}
		}
	}
}

// stop ends a session early: it cancels the calls, drops the calls
// waiting for a worker and the answers not yet written, and waits for the
// calls to end and for the writer, unless the writer is in a write, which
// a write deadline ends when out has them.
func (c *session) stop() {
	c.cancel()
	c.jobs.drop()
	_, writing := c.out.drop()
	c.calls.Wait()
	if !writing { // the writer takes no further answer: it ends
		<-c.written
		return
	}
	d, ok := c.w.(interface{ SetWriteDeadline(time.Time) error })
	if !ok || d.SetWriteDeadline(time.Now()) != nil {
		return
	}
	select {
	case <-c.written:
	case <-time.After(deadlineWait):
	}
	d.SetWriteDeadline(time.Time{})
}

// stopReading ends a read of in still going on (its end comes on
// readErr) with a deadline, when in has them.
func stopReading(in io.Reader, readErr <-chan error) {
	select {
	case <-readErr:
		return
	default:
	}
	d, ok := in.(interface{ SetReadDeadline(time.Time) error })
	if !ok || d.SetReadDeadline(time.Now()) != nil {
		return
	}
	select {
	case <-readErr:
	case <-time.After(deadlineWait):
	}
	d.SetReadDeadline(time.Time{})
}

// readLines sends each non-empty line of in to lines until in ends or ctx
// is canceled; a line over MaxMessage is answered with a parse error.
func readLines(ctx context.Context, in io.Reader, lines chan<- []byte, c *session) error {
	r := bufio.NewReaderSize(in, 64<<10)
	for {
		line, err := readLine(r)
		if errors.Is(err, errTooLong) {
			c.fail(nil, nullID, codeParse, "message over %d MiB", MaxMessage>>20)
			continue
		}
		if len(bytes.TrimSpace(line)) > 0 {
			select {
			case lines <- line:
			case <-ctx.Done():
				return ctx.Err()
			}
		}
		if err != nil {
			return err
		}
	}
}

var errTooLong = errors.New("message too long")

// readLine reads one line without its end; over MaxMessage bytes it skips
// the rest of the line and returns errTooLong.
func readLine(r *bufio.Reader) ([]byte, error) {
	var line []byte
	for {
		part, err := r.ReadSlice('\n')
		if len(line)+len(part) > MaxMessage {
			for errors.Is(err, bufio.ErrBufferFull) {
				_, err = r.ReadSlice('\n')
			}
			if err != nil && !errors.Is(err, io.EOF) {
				return nil, err
			}
			return nil, errTooLong
		}
		line = append(line, part...)
		if !errors.Is(err, bufio.ErrBufferFull) {
			return bytes.TrimRight(line, "\r\n"), err
		}
	}
}

// session is the state of one Serve.
type session struct {
	s      *Server
	ctx    context.Context // ends with Serve
	cancel context.CancelFunc
	calls  sync.WaitGroup // the workers that run the calls
	jobs   *queue[*job]   // the calls waiting for a worker

	w       io.Writer
	out     *queue[[]byte] // the answers waiting to be written, the one being written included
	written chan struct{}  // closed when writeOut ends
	epoch   time.Time
	writing atomic.Int64 // 1 + when (since epoch) the write going on started; 0 when none

	mu      sync.Mutex
	running map[string]*call // by request ID, as idKey has it

	rev string // the revision initialize agreed on; "" before; read and set by handle only
}

// newSession returns the state of a Serve of s; its writer (writeOut) and
// workers are still to start.
func newSession(s *Server, ctx context.Context, w io.Writer) *session {
	ctx, cancel := context.WithCancel(ctx)
	return &session{
		s: s, ctx: ctx, cancel: cancel,
		jobs: newQueue[*job](ctx, maxQueued, maxQueuedBytes),
		w:    w, out: newQueue[[]byte](ctx, math.MaxInt, maxOutBytes), written: make(chan struct{}), epoch: time.Now(),
		running: map[string]*call{},
	}
}

// job is a tools/call waiting for a worker.
type job struct {
	id   json.RawMessage
	key  string // the running map's key
	name string
	args []byte
	ctx  context.Context
	r    *call
	b    *batch // the batch the call came in, or nil
}

// call is a running tools/call.
type call struct {
	cancel   context.CancelFunc
	canceled bool // by the client, which then wants no answer
}

type response struct {
	ID     json.RawMessage `json:"id"`
	Result any             `json:"result,omitempty"`
	Error  *rpcError       `json:"error,omitempty"`
}

type rpcError struct {
	Code    int    `json:"code"`
	Message string `json:"message"`
}

var nullID = json.RawMessage("null")

// send answers a request: alone, or within its batch when b is not nil.
func (c *session) send(b *batch, r response) {
	msg := encode(r)
	if b == nil {
		c.write(msg)
		return
	}
	b.mu.Lock()
	b.answers = append(b.answers, msg)
	b.mu.Unlock()
}

// encode is a response as JSON.
func encode(r response) []byte {
	b, err := json.Marshal(struct {
		JSONRPC string `json:"jsonrpc"`
		response
	}{"2.0", r})
	if err != nil {
		b, _ = json.Marshal(struct {
			JSONRPC string          `json:"jsonrpc"`
			ID      json.RawMessage `json:"id"`
			Error   rpcError        `json:"error"`
		}{"2.0", r.ID, rpcError{Code: -32603, Message: err.Error()}})
	}
	return b
}

// write queues one message, a line, for writeOut, counted with
// msgOverhead bytes more; it waits while maxOutBytes are queued, unless
// ctx has ended. Once Serve stops, a message is dropped.
func (c *session) write(msg []byte) {
	msg = append(msg, '\n')
	c.out.push(msg, len(msg)+msgOverhead)
}

// writeOut writes the queued messages in order, each in parts of at most
// writePart bytes, until Serve stops or no message is left after the
// calls ended. Once a write fails (a client that went away, which the
// reader notices) the messages left are dropped: the stream may end in
// the middle of one.
func (c *session) writeOut() {
	defer close(c.written)
	failed := false
	for {
		msg, cost, ok := c.out.pop()
		if !ok {
			return
		}
		for p := msg; len(p) > 0 && !failed; {
			n := min(len(p), writePart)
			c.writing.Store(int64(time.Since(c.epoch)) + 1)
			_, err := c.w.Write(p[:n])
			c.writing.Store(0)
			failed = err != nil
			p = p[n:]
		}
		c.out.release(cost)
	}
}

func (c *session) fail(b *batch, id json.RawMessage, code int, format string, a ...any) {
	c.send(b, response{ID: id, Error: &rpcError{Code: code, Message: fmt.Sprintf(format, a...)}})
}

// batch gathers the answers to the requests of a JSON-RPC batch, which
// are written together, as one array, once every request is answered.
type batch struct {
	mu      sync.Mutex
	pending int      // the batch's calls still to answer, and 1 while it is read
	answers [][]byte // encoded
}

// done marks one of the batch's calls, or its reading, done; the last
// writes the answers, unless there are none (notifications only, or calls
// canceled).
func (c *session) done(b *batch) {
	b.mu.Lock()
	b.pending--
	last, answers := b.pending == 0, b.answers
	b.mu.Unlock()
	if last && len(answers) > 0 {
		c.write(append(append([]byte{'['}, bytes.Join(answers, []byte{','})...), ']'))
	}
}

// contentLength starts the header of a message framed as in the Language
// Server Protocol, which MCP's stdio transport does not use.
const contentLength = "Content-Length:"

// handle answers one line (not empty).
func (c *session) handle(line []byte) {
	// A byte order mark, which a JSON parser may ignore, is ignored.
	line = bytes.TrimSpace(jsonobj.TrimBOM(line))
	if len(line) == 0 {
		return
	}
	if !utf8.Valid(line) {
		// Bad bytes become U+FFFD, as the decoder makes them in strings,
		// so that no answer echoes them (in an ID or the arguments).
		line = bytes.ToValidUTF8(line, []byte("\uFFFD"))
	}
	switch {
	case len(line) >= len(contentLength) && strings.EqualFold(string(line[:len(contentLength)]), contentLength):
		c.fail(nil, nullID, codeParse, "not a JSON-RPC message: a header; send each message as one line of JSON, with no Content-Length header")
	case !json.Valid(line):
		c.fail(nil, nullID, codeParse, "not a JSON-RPC message: %s", syntaxError(line))
	case line[0] == '[':
		c.handleBatch(line)
	default:
		c.handleMessage(line, nil)
	}
}

// syntaxError says why line, in UTF-8 and not JSON, is not. encoding/json
// names a character out of ASCII by its first byte ('ï' for U+FFFD,
// which bytes not in UTF-8 became): it is named whole, with its offset.
func syntaxError(line []byte) string {
	err := json.Unmarshal(line, new(any))
	var se *json.SyntaxError
	if errors.As(err, &se) && se.Offset > 0 && se.Offset <= int64(len(line)) {
		if r, _ := utf8.DecodeRune(line[se.Offset-1:]); r >= utf8.RuneSelf {
			return fmt.Sprintf("invalid character %q (%U) at byte %d", r, r, se.Offset-1)
		}
	}
	return err.Error()
}

// batchRevision is the one revision with JSON-RPC batches: 2025-06-18
// removed them.
const batchRevision = "2025-03-26"

// maxBatch caps the messages of a batch, whose answers are held until the
// last is ready.
const maxBatch = 32

// handleBatch answers a JSON-RPC batch (valid JSON) when the session
// speaks the revision that has them, else refuses it.
func (c *session) handleBatch(line []byte) {
	n := 0
	jsonobj.Elements(line, func([]byte) bool { n++; return true })
	switch {
	case c.rev != batchRevision:
		in := "before initialize"
		if c.rev != "" {
			in = "in revision " + c.rev
		}
		c.fail(nil, nullID, codeInvalidRequest, "batches are not supported %s (only %s has them): send one JSON-RPC message per line", in, batchRevision)
		return
	case n == 0:
		c.fail(nil, nullID, codeInvalidRequest, "an empty batch: send at least one message in it")
		return
	case n > maxBatch:
		c.fail(nil, nullID, codeInvalidRequest, "a batch of %d messages: send at most %d in one", n, maxBatch)
		return
	}
	b := &batch{pending: 1}
	jsonobj.Elements(line, func(msg []byte) bool {
		c.handleMessage(msg, b)
		return true
	})
	c.done(b)
}

// handleMessage answers one message (valid JSON, in UTF-8), alone or
// within the batch b.
func (c *session) handleMessage(line []byte, b *batch) {
	if line[0] != '{' {
		c.fail(b, nullID, codeInvalidRequest, "not a JSON-RPC 2.0 request: a message is a JSON object, got %s", jsonobj.Kind(line))
		return
	}
	// A request when it has an ID, else a notification; a message with an
	// ID and a result or an error but no method (names in any case) is a
	// client's answer, which the server never asks for. An ID alone is a
	// request without its method, answered so that the client does not
	// wait. Other members are ignored.
	v, err := readMembers(line, "jsonrpc", "id", "method", "params", "result", "error")
	id, params := v[1], v[3]
	answer := v[2] == nil && id != nil && (v[4] != nil || v[5] != nil)
	if err != nil { // a name in another case, or repeated
		answer = !hasMember(line, "method") && hasMember(line, "id") && (hasMember(line, "result") || hasMember(line, "error"))
	}
	if answer {
		return
	}
	var version, method string
	if err == nil {
		version, err = stringMember("jsonrpc", v[0])
	}
	if err == nil {
		method, err = stringMember("method", v[2])
	}
	switch {
	case err != nil:
		c.fail(b, answerID(id), codeInvalidRequest, "not a JSON-RPC 2.0 request: %v", err)
		return
	case version != "2.0" || method == "":
		c.fail(b, answerID(id), codeInvalidRequest, `not a JSON-RPC 2.0 request: it needs "jsonrpc": "2.0" and a method`)
		return
	case id == nil:
		c.notify(method, params)
		return
	case !validID(id):
		c.fail(b, nullID, codeInvalidRequest, "a request ID is a string or a number")
		return
	}
	switch method {
	case "initialize":
		if b != nil {
			c.fail(b, id, codeInvalidRequest, "initialize must not be part of a batch: send it alone")
			return
		}
		v, err := readParams(params, false, "protocolVersion", "capabilities", "clientInfo", "_meta")
		var asked string
		if err == nil {
			asked, err = stringMember("protocolVersion", v[0])
		}
		if err != nil {
			c.fail(b, id, codeInvalidParams, "initialize params: %v; send %s", err, initializeParams)
			return
		}
		rev := ProtocolVersions[0]
		if slices.Contains(ProtocolVersions, asked) {
			rev = asked
		}
		c.rev = rev
		c.send(b, response{ID: id, Result: map[string]any{
			"protocolVersion": rev,
			"capabilities":    map[string]any{"tools": map[string]any{"listChanged": false}},
			"serverInfo":      map[string]any{"name": "scout", "title": "Scout file tools", "version": c.s.version},
		}})
	case "ping":
		if _, err := readParams(params, false, "_meta"); err != nil {
			c.fail(b, id, codeInvalidParams, "ping params: %v; send none or {}", err)
			return
		}
		c.send(b, response{ID: id, Result: struct{}{}})
	case "tools/list":
		v, err := readParams(params, false, "cursor", "_meta")
		var cursor string
		if err == nil {
			cursor, err = stringMember("cursor", v[0])
		}
		if err == nil && cursor != "" {
			// Every tool is on the first page, which has no nextCursor.
			err = fmt.Errorf("cursor %q is not one this server gave: the first page lists every tool, with no nextCursor", errs.Clip(cursor))
		}
		if err != nil {
			c.fail(b, id, codeInvalidParams, "tools/list params: %v; send no cursor", err)
			return
		}
		c.send(b, response{ID: id, Result: map[string]any{"tools": c.s.tools}})
	case "tools/call":
		c.startCall(b, id, params)
	default:
		c.fail(b, id, codeNoMethod, "method %q not found: this server offers initialize, ping, tools/list and tools/call", errs.Clip(method))
	}
}

// readParams returns the values of the members of a request's params
// named as names, as readMembers does, or an error saying what is wrong:
// params that are no object, or that are absent or null when required
// (else they read as {}).
func readParams(params []byte, required bool, names ...string) ([][]byte, error) {
	switch {
	case params == nil || string(params) == "null":
		if required {
			return nil, errors.New("they are missing")
		}
		return make([][]byte, len(names)), nil
	case params[0] != '{':
		return nil, fmt.Errorf("they must be an object, got %s", jsonobj.Kind(params))
	}
	return readMembers(params, names...)
}

// validID reports whether id is a string or a number.
func validID(id json.RawMessage) bool {
	return len(id) > 0 && (id[0] == '"' || id[0] == '-' || '0' <= id[0] && id[0] <= '9')
}

// answerID is the ID to answer a bad message with: its own when valid,
// else null.
func answerID(id json.RawMessage) json.RawMessage {
	if id = bytes.TrimSpace(id); validID(id) {
		return id
	}
	return nullID
}

// notify handles a notification: notifications/cancelled stops a call;
// the others need nothing.
func (c *session) notify(method string, params []byte) {
	if method != "notifications/cancelled" {
		return
	}
	v, err := readParams(params, true, "requestId", "reason", "_meta")
	if err != nil || v[0] == nil {
		return
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	if !validID(v[0]) {
		return
	}
	if r := c.running[idKey(v[0])]; r != nil {
		r.canceled = true
		r.cancel()
	}
}

// initializeParams and callParams are the params of initialize and
// tools/call, as their errors show them.
const (
	initializeParams = `{"protocolVersion": VERSION, "capabilities": {...}, "clientInfo": {"name": NAME, "version": VERSION}}`
	callParams       = `{"name": TOOL, "arguments": {...}}`
)

// startCall queues a tools/call for a worker; it waits while the queue is
// full.
func (c *session) startCall(b *batch, id json.RawMessage, params json.RawMessage) {
	id = bytes.Clone(id) // the job's copies hold no line
	v, err := readParams(params, true, "name", "arguments", "_meta")
	var name string
	if err == nil {
		name, err = stringMember("name", v[0])
	}
	if err != nil {
		c.fail(b, id, codeInvalidParams, "tools/call params: %v; send %s", err, callParams)
		return
	}
	if !slices.ContainsFunc(c.s.tools, func(t toolDef) bool { return t.Name == name }) {
		names := make([]string, len(c.s.tools))
		for i, t := range c.s.tools {
			names[i] = t.Name
		}
		c.fail(b, id, codeInvalidParams, "unknown tool %q: the %s toolset has %v", errs.Clip(name), c.s.toolset, names)
		return
	}
	args := bytes.Clone(v[1])
	if len(args) == 0 {
		args = []byte("{}") // no arguments: the tool names the ones it needs
	}
	ctx, cancel := context.WithCancel(c.ctx)
	r := &call{cancel: cancel}
	key := idKey(id)
	c.mu.Lock()
	if c.running[key] != nil {
		c.mu.Unlock()
		cancel()
		// Answered with a null ID: the running call's answer is still to come.
		c.fail(b, nullID, codeInvalidRequest, "request ID %s is already in use by a running call", id)
		return
	}
	c.running[key] = r
	c.mu.Unlock()
	if b != nil {
		b.mu.Lock()
		b.pending++
		b.mu.Unlock()
	}
	// The job's bytes, its ID's and the key's included: a client's
	// calls with long IDs and no arguments hold as much.
	j := &job{id: id, key: key, name: name, args: args, ctx: ctx, r: r, b: b}
	if !c.jobs.push(j, len(id)+len(key)+len(args)) {
		cancel()
	}
}

// work runs queued calls, one at a time, until the queue is closed and
// empty, or dropped.
func (c *session) work() {
	for {
		j, cost, ok := c.jobs.pop()
		if !ok {
			return
		}
		c.jobs.release(cost)
		c.run(j)
	}
}

// run runs one call and answers it, unless the client canceled it.
func (c *session) run(j *job) {
	defer j.r.cancel()
	env := tool.Call(j.ctx, c.s.cfg, c.s.toolset, j.name, j.args)
	c.mu.Lock()
	delete(c.running, j.key)
	canceled := j.r.canceled
	c.mu.Unlock()
	if !canceled {
		c.send(j.b, response{ID: j.id, Result: result(env)})
	}
	if j.b != nil {
		c.done(j.b)
	}
}

// toolResult is an MCP tool result.
type toolResult struct {
	Content           []any           `json:"content"`
	StructuredContent *scout.Envelope `json:"structuredContent"`
	IsError           bool            `json:"isError"`
}

type textContent struct {
	Type string `json:"type"` // "text"
	Text string `json:"text"`
}

type imageContent struct {
	Type     string `json:"type"` // "image"
	Data     []byte `json:"data"` // base64 in JSON
	MIMEType string `json:"mimeType"`
}

// result turns an Envelope into an MCP tool result.
func result(env *scout.Envelope) toolResult {
	res := toolResult{
		Content:           []any{textContent{Type: "text", Text: env.Text}},
		StructuredContent: env,
		IsError:           env.Status == scout.StatusError,
	}
	for _, img := range env.Images {
		res.Content = append(res.Content, imageContent{Type: "image", Data: img.Data, MIMEType: img.MIME})
	}
	return res
}
