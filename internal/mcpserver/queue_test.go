package mcpserver

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"strings"
	"sync/atomic"
	"testing"
	"time"

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

// TestQueuedIDBytes: the bytes of the calls waiting for a worker count
// their IDs: calls with long IDs and no arguments stop the server reading
// past maxQueuedBytes as long arguments do (4,096 calls with 16 MiB IDs
// held 128 GiB).
func TestQueuedIDBytes(t *testing.T) {
	w, open := gatedDial(t)
	defer open()
	const idLen, n = 2 << 20, 100
	id := `"` + strings.Repeat("i", idLen-2) + `"`
	var sent atomic.Int64
	go func() {
		for i := range n {
			if _, err := fmt.Fprintf(w.in, `{"jsonrpc": "2.0", "id": %s%d", "method": "tools/call", "params": {"name": "read", "arguments": {"path": "a.go"}}}`+"\n", id[:idLen-1], i); err != nil {
				return
			}
			sent.Add(1)
		}
	}()
	m, still := int64(-1), 0
	for deadline := time.Now().Add(60 * time.Second); still < 5; time.Sleep(200 * time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatalf("the server read %d calls and goes on reading", sent.Load())
		}
		if k := sent.Load(); k != m {
			m, still = k, 0
		} else {
			still++
		}
	}
	// Running: maxCalls; waiting: a call costs its ID twice (as sent and
	// as its key); held: the one waiting for room and the line read.
	if most := int64(maxCalls + maxQueuedBytes/(2*idLen) + 2); m > most {
		t.Errorf("the server read %d calls with %d-byte IDs before it stopped, want at most %d", m, idLen, most)
	}
}

// TestQueue: a push waits while the queue holds maxLen values or has no
// room for the value's cost, until a taker releases one, ctx ends or the
// queue is dropped; a value over maxCost goes alone; pop takes the values
// in order, and what is left once the queue is closed.
func TestQueue(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	q := newQueue[int](ctx, 3, 10)
	pushed := func(v, cost int) <-chan bool {
		ch := make(chan bool, 1)
		go func() { ch <- q.push(v, cost) }()
		return ch
	}
	waits := func(ch <-chan bool, why string) {
		t.Helper()
		select {
		case <-ch:
			t.Fatalf("the push did not wait: %s", why)
		case <-time.After(50 * time.Millisecond):
		}
	}
	done := func(ch <-chan bool, want bool, why string) {
		t.Helper()
		select {
		case ok := <-ch:
			if ok != want {
				t.Fatalf("push returned %v, want %v: %s", ok, want, why)
			}
		case <-time.After(5 * time.Second):
			t.Fatalf("the push still waits: %s", why)
		}
	}
	pop := func(want int) int {
		t.Helper()
		v, cost, ok := q.pop()
		if !ok || v != want {
			t.Fatalf("pop = %d, %v; want %d", v, ok, want)
		}
		return cost
	}
	done(pushed(1, 20), true, "a value over maxCost goes alone")
	ch := pushed(2, 1)
	waits(ch, "no room for its cost")
	c1 := pop(1)
	waits(ch, "value 1 is taken, not released")
	q.release(c1)
	done(ch, true, "value 1 released")
	done(pushed(3, 1), true, "room")
	done(pushed(4, 1), true, "room")
	ch = pushed(5, 1)
	waits(ch, "three values held")
	c2 := pop(2)
	waits(ch, "value 2 is taken, not released")
	q.release(c2)
	done(ch, true, "value 2 released")
	ch = pushed(6, 1)
	waits(ch, "three values held")
	cancel()
	done(ch, true, "ctx ended: pushed all the same")
	q.close()
	done(pushed(7, 1), false, "closed")
	for _, v := range []int{3, 4, 5, 6} {
		q.release(pop(v))
	}
	if _, _, ok := q.pop(); ok {
		t.Fatal("pop took a value from a closed, empty queue")
	}

	q = newQueue[int](context.Background(), 1, 10)
	done(pushed(1, 1), true, "room")
	ch = pushed(2, 1)
	waits(ch, "full")
	if n, held := q.drop(); n != 1 || held {
		t.Fatalf("drop = %d, %v; want 1 value dropped, none held", n, held)
	}
	done(ch, false, "dropped")
	if _, _, ok := q.pop(); ok {
		t.Fatal("pop took a value from a dropped queue")
	}
}
