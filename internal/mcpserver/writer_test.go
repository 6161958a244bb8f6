package mcpserver

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"runtime"
	"strings"
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

// blockedWriter's Write blocks until free is called (at the end of the
// test at the latest), and reports on writing that one started.
type blockedWriter struct {
	writing  chan struct{}
	released chan struct{}
	free     func()
}

func newBlockedWriter(t *testing.T) *blockedWriter {
	w := &blockedWriter{writing: make(chan struct{}, 1), released: make(chan struct{})}
	w.free = sync.OnceFunc(func() { close(w.released) })
	t.Cleanup(w.free)
	return w
}

func (w *blockedWriter) Write(p []byte) (int, error) {
	select {
	case w.writing <- struct{}{}:
	default:
	}
	<-w.released
	return 0, io.ErrClosedPipe
}

// slowWriter takes delay over each Write.
type slowWriter struct {
	delay time.Duration
	mu    sync.Mutex
	b     bytes.Buffer
}

func (w *slowWriter) Write(p []byte) (int, error) {
	time.Sleep(w.delay)
	w.mu.Lock()
	defer w.mu.Unlock()
	return w.b.Write(p)
}

// goroutinesBack fails t unless the goroutines are back to at most n
// within 5 s.
func goroutinesBack(t *testing.T, n int, why string) {
	t.Helper()
	for deadline := time.Now().Add(5 * time.Second); runtime.NumGoroutine() > n; time.Sleep(10 * time.Millisecond) {
		if time.Now().After(deadline) {
			buf := make([]byte, 1<<20)
			t.Fatalf("%s: %d goroutines, want at most %d:\n%s", why, runtime.NumGoroutine(), n, buf[:runtime.Stack(buf, true)])
		}
	}
}

// serveOn runs s.Serve on in and out in the background; done has its
// result.
func serveOn(ctx context.Context, s *Server, in io.Reader, out io.Writer) <-chan error {
	done := make(chan error, 1)
	go func() { done <- s.Serve(ctx, in, out) }()
	return done
}

// TestServeStopsWithWriterBlocked: a client that reads none of its
// answers does not hold Serve once ctx ends, nor, once its input ended,
// past the stall timeout: Serve returns, and leaves only the goroutine
// blocked in the writer's Write, which ends with it doing nothing more
// (Serve waited on it forever).
func TestServeStopsWithWriterBlocked(t *testing.T) {
	for _, eof := range []bool{false, true} {
		t.Run(fmt.Sprint("eof ", eof), func(t *testing.T) {
			s, err := New(tool.Config{FS: fixture(t)}, tool.Pi, "test")
			if err != nil {
				t.Fatal(err)
			}
			s.stall = 200 * time.Millisecond
			if !eof {
				s.stall = time.Hour // ctx alone ends Serve
			}
			out := newBlockedWriter(t)
			clientIn, in := io.Pipe()
			defer clientIn.Close()
			base := runtime.NumGoroutine()
			ctx, cancel := context.WithCancel(context.Background())
			defer cancel()
			done := serveOn(ctx, s, clientIn, out)
			for i := range 3 {
				fmt.Fprintf(in, `{"jsonrpc": "2.0", "id": %d, "method": "tools/list"}`+"\n", i)
			}
			<-out.writing
			start := time.Now()
			want := error(context.Canceled)
			if eof {
				in.Close()
				want = nil
			} else {
				cancel()
			}
			select {
			case err := <-done:
				if eof && (err == nil || !strings.Contains(err.Error(), "made no progress for 200ms")) {
					t.Errorf("Serve returned %v, want an error saying the client reads no answer", err)
				}
				if !eof && err != want {
					t.Errorf("Serve returned %v, want %v", err, want)
				}
			case <-time.After(5 * time.Second):
				t.Fatal("Serve still runs 5 s after its input ended or its ctx was canceled, its writer blocked")
			}
			// With ctx, within the 5 s above (a loaded machine may take a
			// second), long before the stall timeout; at EOF, not before it.
			if d := time.Since(start); eof && d < s.stall {
				t.Errorf("Serve returned after %v at EOF, want after the stall timeout", d)
			}
			clientIn.Close() // ends the read left (an io.Pipe has no deadlines)
			goroutinesBack(t, base+1, "Serve returned: the writer blocked in Write is left")
			out.free()
			goroutinesBack(t, base, "the Write returned")
		})
	}
}

// TestServeFlushesSlowWriter: once the input ended, a client that reads
// slowly (no write takes the stall timeout, all of them together far
// more) gets every answer, and Serve returns nil. A write takes 40 ms, a
// 25th of the stall timeout, however late a loaded machine wakes the
// writer (at a fifth, one woken 160 ms late stalled).
func TestServeFlushesSlowWriter(t *testing.T) {
	s, err := New(tool.Config{FS: fixture(t)}, tool.Pi, "test")
	if err != nil {
		t.Fatal(err)
	}
	s.stall = time.Second
	const n = 80
	var lines strings.Builder
	for i := range n {
		fmt.Fprintf(&lines, `{"jsonrpc": "2.0", "id": %d, "method": "tools/list"}`+"\n", i)
	}
	out := &slowWriter{delay: 40 * time.Millisecond}
	start := time.Now()
	if err := <-serveOn(context.Background(), s, strings.NewReader(lines.String()), out); err != nil {
		t.Fatalf("Serve returned %v, want nil", err)
	}
	if d := time.Since(start); d < 3*s.stall {
		t.Fatalf("Serve took %v: the test wants the writes to take far more than the stall timeout", d)
	}
	w := &wire{t: t, out: bufio.NewReader(&out.b)}
	for i := range n {
		if m := w.next(); m["id"] != float64(i) {
			t.Fatalf("answered %v, want %d", m["id"], i)
		}
	}
}

// TestServeDeadlines: when the client neither sends nor reads and its
// streams are pipes (*os.File), Serve ends the read and the write it
// leaves with deadlines, so that none of its goroutines is left, and
// clears them.
func TestServeDeadlines(t *testing.T) {
	for _, eof := range []bool{false, true} {
		t.Run(fmt.Sprint("eof ", eof), func(t *testing.T) {
			s, err := New(tool.Config{FS: fixture(t)}, tool.Pi, "test")
			if err != nil {
				t.Fatal(err)
			}
			s.stall = 200 * time.Millisecond
			serverIn, in, err := os.Pipe()
			if err != nil {
				t.Fatal(err)
			}
			defer serverIn.Close()
			defer in.Close()
			clientIn, out, err := os.Pipe()
			if err != nil {
				t.Fatal(err)
			}
			defer clientIn.Close()
			defer out.Close()
			base := runtime.NumGoroutine()
			ctx, cancel := context.WithCancel(context.Background())
			defer cancel()
			done := serveOn(ctx, s, serverIn, out)
			for i := range 40 { // more answers than the pipe holds
				fmt.Fprintf(in, `{"jsonrpc": "2.0", "id": %d, "method": "tools/list"}`+"\n", i)
			}
			if eof {
				in.Close()
			} else {
				time.Sleep(300 * time.Millisecond) // the answers fill the pipe
				cancel()
			}
			select {
			case <-done:
			case <-time.After(5 * time.Second):
				t.Fatal("Serve still runs 5 s after its input ended or its ctx was canceled")
			}
			goroutinesBack(t, base, "Serve returned")
			// The deadlines are cleared: the streams work.
			go io.Copy(io.Discard, clientIn)
			if _, err := out.Write([]byte("\n")); err != nil {
				t.Errorf("a write after Serve: %v", err)
			}
			if !eof {
				in.Write([]byte("x"))
				if _, err := serverIn.Read(make([]byte, 1)); err != nil {
					t.Errorf("a read after Serve: %v", err)
				}
			}
		})
	}
}
