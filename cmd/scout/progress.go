package main

import (
	"fmt"
	"io"
	"os"
	"sync"
	"sync/atomic"
	"time"

	"github.com/scoutkit/scout/internal/dirtree"
)

// isTerminal reports whether w is a terminal; tests replace it.
var isTerminal = func(w io.Writer) bool {
	f, ok := w.(*os.File)
	return ok && terminalFd(f.Fd())
}

// Progress is shown after progressDelay, then every progressEvery.
var (
	progressDelay = 300 * time.Millisecond
	progressEvery = 100 * time.Millisecond
)

// progress shows how long work goes, on one line of stderr that it
// rewrites, when stderr is a terminal; otherwise it shows nothing. Its
// methods are safe on a nil *progress (no display) and from any goroutine.
type progress struct {
	w      io.Writer
	status func(elapsed time.Duration) string
	start  time.Time

	files, bytes atomic.Int64 // what a search counts (see add)

	mu    sync.Mutex
	shown bool // the line is on the screen
	done  chan struct{}
	wg    sync.WaitGroup
}

// startProgress starts a display of status on stderr, or returns nil when
// stderr is not a terminal.
func startProgress(stderr io.Writer, status func(p *progress, elapsed time.Duration) string) *progress {
	if !isTerminal(stderr) {
		return nil
	}
	p := &progress{w: stderr, start: time.Now(), done: make(chan struct{})}
	p.status = func(d time.Duration) string { return status(p, d) }
	p.wg.Go(func() {
		t := time.NewTimer(progressDelay)
		defer t.Stop()
		for {
			select {
			case <-p.done:
				return
			case <-t.C:
				p.draw()
				t.Reset(progressEvery)
			}
		}
	})
	return p
}

// searchStatus is a search's progress line.
func searchStatus(p *progress, d time.Duration) string {
	return fmt.Sprintf("searched %d files, %s, %.1f s", p.files.Load(), dirtree.FormatBytes(p.bytes.Load()), d.Seconds())
}

// add counts a file searched (scout.SearchRequest.Progress).
func (p *progress) add(size int64) {
	if p != nil {
		p.files.Add(1)
		p.bytes.Add(size)
	}
}

func (p *progress) draw() {
	p.mu.Lock()
	defer p.mu.Unlock()
	fmt.Fprintf(p.w, "\r\x1b[K%s", p.status(time.Since(p.start)))
	p.shown = true
}

// clear takes the line off the screen, before other output; the next tick
// draws it again.
func (p *progress) clear() {
	if p == nil {
		return
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.shown {
		io.WriteString(p.w, "\r\x1b[K")
		p.shown = false
	}
}

// stop ends the display and clears its line.
func (p *progress) stop() {
	if p == nil {
		return
	}
	close(p.done)
	p.wg.Wait()
	p.clear()
}
