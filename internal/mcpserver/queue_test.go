package mcpserver

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"testing"

	"github.com/scoutkit/scout/tool"
)

// TestQueuedCancel: calls waiting for a worker that the client cancels
// are never answered, the others are, and the input's end drains the
// queue before Serve returns.
func TestQueuedCancel(t *testing.T) {
	gate := make(chan struct{})
	s, err := New(tool.Config{FS: gateFS{fixture(t), gate}}, tool.Pi, "test")
	if err != nil {
		t.Fatal(err)
	}
	clientIn, clientOut, done := start(context.Background(), s)
	w := &wire{t: t, in: clientOut, out: bufio.NewReader(clientIn)}
	const n = maxCalls + 14
	for i := 1; i <= n; i++ {
		w.send(fmt.Sprintf(`{"jsonrpc": "2.0", "id": %d, "method": "tools/call", "params": {"name": "read", "arguments": {"path": "a.go"}}}`, i))
	}
	canceled := map[float64]bool{}
	for i := n - 8; i <= n-2; i++ { // queued: the first maxCalls wait at the gate
		canceled[float64(i)] = true
		w.send(fmt.Sprintf(`{"jsonrpc": "2.0", "method": "notifications/cancelled", "params": {"requestId": %d}}`, i))
	}
	w.send(`{"jsonrpc": "2.0", "id": "p", "method": "ping"}`)
	if m := w.next(); m["id"] != "p" {
		t.Fatalf("answered %v before the ping", m)
	}
	close(gate)
	clientOut.Close()
	got := map[float64]bool{}
	for {
		line, err := w.out.ReadBytes('\n')
		if err != nil {
			break
		}
		var m map[string]any
		if err := json.Unmarshal(line, &m); err != nil {
			t.Fatal(err)
		}
		id := m["id"].(float64)
		if got[id] || canceled[id] {
			t.Errorf("call %v answered twice or after its cancel", id)
		}
		got[id] = true
	}
	if len(got) != n-len(canceled) {
		t.Errorf("%d answers, want %d", len(got), n-len(canceled))
	}
	waitServe(t, done, nil)
}

// TestQueuedStop: a Serve whose ctx ends while calls wait for a worker
// returns, the running ones stopped and the waiting ones run canceled.
func TestQueuedStop(t *testing.T) {
	s, err := New(tool.Config{FS: &slowFS{FS: fixture(t)}}, tool.Pi, "test")
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	clientIn, clientOut, done := start(ctx, s)
	go io.Copy(io.Discard, clientIn)
	for i := range 200 {
		fmt.Fprintf(clientOut, `{"jsonrpc": "2.0", "id": %d, "method": "tools/call", "params": {"name": "search", "arguments": {"paths": ".", "pattern": "x"}}}`+"\n", i)
	}
	cancel()
	waitServe(t, done, context.Canceled)
}
