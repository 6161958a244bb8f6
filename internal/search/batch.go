package search

import (
	"sync"
	"sync/atomic"
)

// batch is a run of consecutive files of an ordered scan, searched by one
// worker. The producer fills it until it is full, the consumer reaches it
// or (see scan) a worker waits for work: then it is closed, and whoever
// closed it hands it to the workers. outs[i] is the outcome of files[i],
// set when done is closed.
type batch struct {
	mu     sync.Mutex // guards files and closed until closed
	closed bool
	files  []file
	outs   []outcome
	done   chan struct{}
}

// add appends f unless b is closed, and reports whether it did.
func (b *batch) add(f file) bool {
	b.mu.Lock()
	defer b.mu.Unlock()
	if b.closed {
		return false
	}
	b.files = append(b.files, f)
	return true
}

// full reports whether b holds as many files as it may; only the producer
// calls it.
func (b *batch) full() bool {
	return len(b.files) == cap(b.files)
}

// close closes b and hands it to the workers, unless it is closed
// already. The hand-off happens under b's lock, so that a producer that
// finds b closed knows it is in jobs.
func (b *batch) close(jobs chan<- *batch) {
	b.mu.Lock()
	defer b.mu.Unlock()
	if !b.closed {
		b.closed = true
		b.outs = make([]outcome, len(b.files))
		jobs <- b // workers always drain jobs
	}
}

// Batch sizes. A file of a source tree takes microseconds to search, as
// long as handing it to a worker and waking that worker and the consumer
// take when each file goes alone; a batch pays that once for all its
// files. A batch holds at most maxBatchFiles files, and fewer when the
// files searched so far average over batchBytes/maxBatchFiles, so that a
// tree of large files is still spread over the workers a file at a time.
// Below that, the files in flight are kept to about half as many as fn
// has taken so far, so that a scan that stops early (a page) searches
// little past its end: batches start at one file.
const (
	maxBatchFiles = 32
	batchBytes    = 512 << 10
)

// batcher sizes the batches of a scan with a window of window batches.
// next is called by the producer, searched by the workers, took by the
// consumer.
type batcher struct {
	window              int
	bytes, files, taken atomic.Int64
}

// next returns a new batch holding f, with room for the next size.
func (bt *batcher) next(f file) *batch {
	n := min(max(int(bt.taken.Load())/(2*bt.window), 1), bt.limit())
	b := &batch{files: make([]file, 1, n), done: make(chan struct{})}
	b.files[0] = f
	return b
}

// limit is the largest batch: maxBatchFiles, fewer when the files
// searched so far average over batchBytes/maxBatchFiles.
func (bt *batcher) limit() int {
	n, b := bt.files.Load(), bt.bytes.Load()
	if n == 0 || b == 0 {
		return maxBatchFiles
	}
	return int(min(max(batchBytes*n/b, 1), maxBatchFiles))
}

// searched counts n files of bytes in all.
func (bt *batcher) searched(bytes, n int64) {
	if n > 0 {
		bt.bytes.Add(bytes)
		bt.files.Add(n)
	}
}

// took counts n files passed to fn.
func (bt *batcher) took(n int) {
	bt.taken.Add(int64(n))
}
