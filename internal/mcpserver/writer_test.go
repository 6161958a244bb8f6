package mcpserver

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/scoutkit/scout/tool"
)

// stalled starts Serve with an output the client does not read until it
// calls its read function.
func stalled(t *testing.T, cfg tool.Config) (in *io.PipeWriter, read func() *bufio.Reader, done <-chan error) {
	t.Helper()
	s, err := New(cfg, tool.Pi, "test")
	if err != nil {
		t.Fatal(err)
	}
	clientIn, clientOut, done := start(context.Background(), s)
	t.Cleanup(func() {
		clientOut.Close()
		go io.Copy(io.Discard, clientIn)
		waitServe(t, done, nil)
	})
	return clientOut, func() *bufio.Reader { return bufio.NewReader(clientIn) }, done
}

// sendAll writes lines in the background and reports whether the server
// read them all within d.
func sendAll(in io.Writer, d time.Duration, lines ...string) bool {
	sent := make(chan struct{})
	go func() {
		for _, l := range lines {
			if _, err := io.WriteString(in, l+"\n"); err != nil {
				return
			}
		}
		close(sent)
	}()
	select {
	case <-sent:
		return true
	case <-time.After(d):
		return false
	}
}

// TestReadsWhileClientDoesNotRead: a client that does not read the
// server's answers yet (its end of a pipe with no buffer) does not stop
// the server reading: a cancellation sent after pings still stops its
// call, and the answers come in order once the client reads.
func TestReadsWhileClientDoesNotRead(t *testing.T) {
	gate := make(chan struct{})
	in, read, _ := stalled(t, tool.Config{FS: gateFS{fixture(t), gate}})
	open := sync.OnceFunc(func() { close(gate) })
	t.Cleanup(open)
	ping := func(id string) string { return `{"jsonrpc": "2.0", "id": "` + id + `", "method": "ping"}` }
	if !sendAll(in, 5*time.Second,
		`{"jsonrpc": "2.0", "id": 1, "method": "tools/call", "params": {"name": "read", "arguments": {"path": "a.go"}}}`,
		ping("a"), ping("b"),
		`{"jsonrpc": "2.0", "method": "notifications/cancelled", "params": {"requestId": 1}}`,
		ping("c"), ping("d"), ping("e")) {
		t.Fatal("the server stopped reading while its answers to pings waited for the client")
	}
	open()
	in.Close()
	w := &wire{t: t, out: read()}
	for _, id := range []string{"a", "b", "c", "d", "e"} {
		if m := w.next(); m["id"] != id {
			t.Fatalf("answered %v, want the ping %s's answer", m, id)
		}
	}
	if rest, _ := io.ReadAll(w.out); len(rest) > 0 {
		t.Errorf("answered %s after the pings, want nothing (the call was canceled)", rest)
	}
}

// TestAnswerBacklogBound: the answers waiting for a client that does not
// read are bounded: past maxOutBytes of them the server reads no further
// message until the client reads; then every request is answered, in
// order.
func TestAnswerBacklogBound(t *testing.T) {
	in, read, _ := stalled(t, tool.Config{FS: fixture(t)})
	s, _ := New(tool.Config{FS: fixture(t)}, tool.Pi, "test")
	size := len(encode(response{ID: json.RawMessage("1000"), Result: map[string]any{"tools": s.tools}})) + 1 + msgOverhead
	var sent atomic.Int64
	go func() {
		for i := 0; ; i++ {
			if _, err := fmt.Fprintf(in, `{"jsonrpc": "2.0", "id": %d, "method": "tools/list"}`+"\n", i); err != nil {
				return
			}
			sent.Add(1)
		}
	}()
	n, still := int64(-1), 0
	for deadline := time.Now().Add(30 * time.Second); still < 5; time.Sleep(200 * time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatalf("the server read %d requests and goes on reading", sent.Load())
		}
		if m := sent.Load(); m != n {
			n, still = m, 0
		} else {
			still++
		}
	}
	// Held: the queue, the answer being written, the one waiting for
	// room, and the line the reader holds.
	if most := int64(maxOutBytes/size + 4); n > most || n < most-8 {
		t.Errorf("the server read %d requests of %d-byte answers before it stopped, want about %d (%d MiB)", n, size, most, maxOutBytes>>20)
	}
	w := &wire{t: t, out: read()}
	for i := range n + 1 {
		if m := w.next(); m["id"] != float64(i) {
			t.Fatalf("answered %v, want %d", m["id"], i)
		}
	}
}
