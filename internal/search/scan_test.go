package search

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"runtime"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"testing/fstest"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/scoutkit/scout/internal/grep"
	"github.com/scoutkit/scout/internal/hashline"
	"github.com/scoutkit/scout/internal/testfs"
	"github.com/scoutkit/scout/internal/textio"
)

// scanTree makes n files of every kind scan tells apart: matching, not
// matching, binary, over the size cap (16 bytes), a symlink, a FIFO and a
// file gone since it was listed (unreadable).
func scanTree(n int) (fstest.MapFS, []file) {
	tree := fstest.MapFS{}
	var files []file
	for i := range n {
		p := fmt.Sprintf("d/f%05d", i)
		mf := &fstest.MapFile{}
		switch i % 8 {
		case 0, 1:
			mf.Data = []byte("hit\nmiss\nhit\n")
		case 2:
			mf.Data = []byte("miss\n")
		case 3:
			mf.Data = []byte("hit\x00\n")
		case 4:
			mf.Data = []byte(strings.Repeat("hit\n", 8))
		case 5:
			mf.Mode = fs.ModeSymlink
		case 6:
			mf.Mode = fs.ModeNamedPipe
		}
		if i%8 != 7 {
			tree[p] = mf
		}
		files = append(files, file{path: p, mode: mf.Mode.Type()})
	}
	return tree, files
}

// summary is what fn is given for one file, in a comparable form.
func summary(f file, o outcome) string {
	if o.res != nil {
		return fmt.Sprintf("%s: %d lines, %d bytes", f.path, o.res.MatchLines, o.size)
	}
	return fmt.Sprintf("%s: %s %v", f.path, o.skip, o.err)
}

// TestScanOrdered checks that the batched scan gives fn every file in the
// order produced, with the outcome a plain search of each file in turn
// gives, and that it stops at once when fn returns false, for numbers of
// files below, at and far above a batch and a window.
func TestScanOrdered(t *testing.T) {
	m, err := grep.Compile(grep.Options{Pattern: "hit"})
	require.NoError(t, err)
	const maxSize = 16
	for _, n := range []int{0, 1, 7, 33, 2000} {
		tree, files := scanTree(n)
		var want []string
		sc := m.NewScanner()
		for _, f := range files {
			want = append(want, summary(f, searchOne(context.Background(), tree, sc, nil, &f, perFile{maxSize: maxSize})))
		}
		for _, workers := range []int{1, 3, 16} {
			for _, stop := range []int{-1, 0, 1, 40, 1500} {
				name := fmt.Sprintf("%d files, %d workers, stop after %d", n, workers, stop)
				var got []string
				err := scan(context.Background(), tree, produce(files, nil), m, perFile{maxSize: maxSize}, workers, func(f file, o outcome) bool {
					got = append(got, summary(f, o))
					return len(got) != stop+1
				})
				require.NoError(t, err, name)
				w := want
				if stop >= 0 && stop+1 < len(w) {
					w = w[:stop+1]
				}
				assert.Equal(t, w, got, name)
			}
		}
	}
}

// TestScanCanceled checks that a scan of an endless stream of files ends
// with ctx's error when ctx is canceled, calling fn no more.
func TestScanCanceled(t *testing.T) {
	m, err := grep.Compile(grep.Options{Pattern: "hit"})
	require.NoError(t, err)
	tree := fstest.MapFS{"a": {Data: []byte("hit\n")}}
	endless := func(ctx context.Context, emit func(file) error) error {
		for {
			if err := emit(file{path: "a"}); err != nil {
				return err
			}
		}
	}
	for _, workers := range []int{1, 4} {
		ctx, cancel := context.WithCancel(context.Background())
		calls := 0
		err := scan(ctx, tree, endless, m, perFile{maxSize: -1}, workers, func(f file, o outcome) bool {
			if calls++; calls == 1000 {
				cancel()
			}
			return true
		})
		cancel()
		assert.ErrorIs(t, err, context.Canceled, "%d workers", workers)
		assert.Equal(t, 1000, calls, "%d workers: fn called after the cancel", workers)
	}
}

// TestScanDoesNotWaitForFullBatch checks that fn gets each file while the
// batch that holds it is still open: the producer here emits a file only
// once fn has taken the one before, as a walk of a slow file system, or
// one directory at a time, may. A scan that waited for a batch to fill
// before searching it would never finish.
func TestScanDoesNotWaitForFullBatch(t *testing.T) {
	m, err := grep.Compile(grep.Options{Pattern: "hit"})
	require.NoError(t, err)
	tree, files := scanTree(500)
	taken := make(chan struct{}, 1)
	lockstep := func(ctx context.Context, emit func(file) error) error {
		for _, f := range files {
			if err := emit(f); err != nil {
				return err
			}
			select {
			case <-taken:
			case <-ctx.Done():
				return ctx.Err()
			}
		}
		return nil
	}
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	n := 0
	err = scan(ctx, tree, lockstep, m, perFile{maxSize: -1}, 2, func(f file, o outcome) bool {
		n++
		taken <- struct{}{}
		return true
	})
	require.NoError(t, err, "the scan waited for a batch to fill")
	assert.Equal(t, len(files), n)
}

// TestBatchSizes checks how big the next batch may be: one file before fn
// has taken any, about half as many files in flight as fn took, at most
// maxBatchFiles, and fewer for large files.
func TestBatchSizes(t *testing.T) {
	tests := []struct {
		window              int
		taken, files, bytes int64
		want                int
	}{
		{window: 10, want: 1},
		{window: 10, taken: 19, want: 1},
		{window: 10, taken: 80, files: 80, bytes: 80 << 10, want: 4},
		{window: 10, taken: 1e6, files: 1e6, bytes: 1e6 << 10, want: maxBatchFiles},
		{window: 10, taken: 1e6, files: 100, bytes: 100 * (batchBytes / 4), want: 4},
		{window: 10, taken: 1e6, files: 100, bytes: 100 << 30, want: 1},
	}
	for _, tt := range tests {
		bt := batcher{window: tt.window}
		bt.took(int(tt.taken))
		bt.searched(tt.bytes, tt.files)
		b := bt.next(file{path: "x"})
		assert.Equal(t, tt.want, cap(b.files), "%+v", tt)
		assert.Equal(t, []file{{path: "x"}}, b.files)
	}
}

// TestScanProduceError checks that scan returns the producer's own error
// once the files produced before it are through.
func TestScanProduceError(t *testing.T) {
	m, err := grep.Compile(grep.Options{Pattern: "hit"})
	require.NoError(t, err)
	tree, files := scanTree(100)
	boom := errors.New("boom")
	n := 0
	err = scan(context.Background(), tree, func(ctx context.Context, emit func(file) error) error {
		for _, f := range files {
			if err := emit(f); err != nil {
				return err
			}
		}
		return boom
	}, m, perFile{maxSize: -1}, 3, func(f file, o outcome) bool {
		n++
		return true
	})
	assert.ErrorIs(t, err, boom)
	assert.Equal(t, len(files), n, "files produced before the error reach fn")
}

// countFS counts the opens of each file of an FS and the bytes read, by
// Read and by ReadAt (readAt, nil: no count); a Stat or a ReadDir does not
// count. It
// is safe for concurrent use.
type countFS struct {
	fs.FS
	mu                  sync.Mutex
	opens, read, readAt map[string]int
}

func (c *countFS) Stat(name string) (fs.FileInfo, error) { return fs.Stat(c.FS, name) }

func (c *countFS) ReadDir(name string) ([]fs.DirEntry, error) { return fs.ReadDir(c.FS, name) }

func (c *countFS) Open(name string) (fs.File, error) {
	f, err := c.FS.Open(name)
	if err != nil {
		return nil, err
	}
	c.mu.Lock()
	c.opens[name]++
	c.mu.Unlock()
	return &countFile{File: f, c: c, name: name}, nil
}

type countFile struct {
	fs.File
	c    *countFS
	name string
}

func (f *countFile) Read(p []byte) (int, error) {
	n, err := f.File.Read(p)
	f.c.mu.Lock()
	f.c.read[f.name] += n
	f.c.mu.Unlock()
	return n, err
}

func (f *countFile) ReadAt(p []byte, off int64) (int, error) {
	n, err := f.File.(io.ReaderAt).ReadAt(p, off)
	f.c.mu.Lock()
	if f.c.readAt != nil {
		f.c.readAt[f.name] += n
	}
	f.c.mu.Unlock()
	return n, err
}

// TestSearchOneTagReadsOnce: a worker that tags a matching file read in
// pieces (over 128 KiB) hashes the pieces the search reads, and reads on
// after a search that stopped early, so that the file is opened once and
// read once, but for the text before a first match past its first piece,
// read again from the open file. Over a MapFS and a temp dir.
func TestSearchOneTagReadsOnce(t *testing.T) {
	lines := func(line string, size int) []byte {
		return bytes.Repeat([]byte(line), size/len(line)+1)[:size]
	}
	tree := fstest.MapFS{
		"small.txt":  {Data: []byte("a hit \r\nb\n")},
		"pieces.txt": {Data: lines("a hit \r\nsome text\t\n", 5<<19)},
		"sparse.txt": {Data: append([]byte("a hit\n"), lines("some text  \r\n", 3<<20)...)},
		"bom.txt":    {Data: append([]byte("\xEF\xBB\xBF"), lines("hit \t\r\n", 2<<20)...)},
		"late.txt":   {Data: append(lines("some text\r\n", 2<<20), "a hit\n"...)},
	}
	for _, dir := range []bool{false, true} {
		fsys := fs.FS(tree)
		if dir {
			fsys = os.DirFS(testfs.WriteDir(t, tree))
		}
		for _, perFileMax := range []int{0, 1, 20} {
			m, err := grep.Compile(grep.Options{Pattern: "hit", MaxMatchesPerFile: perFileMax})
			require.NoError(t, err)
			sc := m.NewScanner()
			for name, f := range tree {
				c := &countFS{FS: fsys, opens: map[string]int{}, read: map[string]int{}, readAt: map[string]int{}}
				o := searchOne(context.Background(), c, sc, nil, &file{path: name}, perFile{maxSize: -1, tags: true})
				require.NotNil(t, o.res, "%s: %v", name, o.err)
				what := fmt.Sprintf("%s, dir %v, %d a file", name, dir, perFileMax)
				assert.Equal(t, hashline.Tag(f.Data), o.tag, what)
				assert.Equal(t, 1, c.opens[name], what)
				assert.Equal(t, len(f.Data), c.read[name], what)
				if name == "late.txt" {
					assert.Positive(t, c.readAt[name], what)
					assert.LessOrEqual(t, c.readAt[name], 2<<20, what, "only the text before the match is read again")
				} else {
					assert.Zero(t, c.readAt[name], what)
				}
			}
		}
	}
}

// TestSearchOneTagPieces: the tag a worker computes as the search reads a
// file is the tag of the whole file (what fileTag reads), for files around
// the 128 KiB pieces a search reads (one read up to 128 KiB, pieces
// after), whose first match lies in the first piece, across its end, past
// it or in the last, or that have none; with CRLF, lone CR and trailing
// blanks, a UTF-8 byte-order mark, a NUL past the binary window (before or
// after the match) or in it, and UTF-16, whose tag is its decoded text's
// (read's), hashed as it is decoded. Every file is opened and read once,
// and only the text before a first match that lies past the first piece
// of a file not decoded is read again, from the open file; one without a
// match gets no tag and costs no read again.
func TestSearchOneTagPieces(t *testing.T) {
	const piece = 128 << 10 // grep's read size
	fill := func(line string, size int) []byte {
		return bytes.Repeat([]byte(line), size/len(line)+1)[:size]
	}
	utf16 := func(s string) string {
		var b strings.Builder
		for _, c := range []byte(s) {
			b.WriteByte(c)
			b.WriteByte(0)
		}
		return b.String()
	}
	// A kind makes a file of size bytes with "hit" at at (< 0: none).
	type kind struct {
		name    string
		make    func(size, at int) []byte
		binary  func(size, at int) bool // the search leaves it out as binary
		decoded bool                    // UTF-16: its text is decoded, nothing read again
		line    bool                    // one line (no LF): read whole, nothing dropped
	}
	with := func(head, line, hit string, nul int) func(size, at int) []byte {
		return func(size, at int) []byte {
			b := append([]byte(head), fill(line, size-len(head))...)
			if at >= 0 {
				at = min(max(at, len(head)), size-len(hit))
				if len(hit) > 3 {
					at &^= 1 // UTF-16: an even offset
				}
				copy(b[at:], hit)
			}
			if nul >= 0 && nul < size {
				b[nul] = 0
			}
			return b
		}
	}
	never := func(int, int) bool { return false }
	kinds := []kind{
		{name: "LF", make: with("", "some text\n", "hit", -1), binary: never},
		{name: "CRLF and blanks", make: with("", "some text \t\r\n", "hit", -1), binary: never},
		{name: "lone CR", make: with("", "some text  \r", "hit", -1), binary: never, line: true},
		{name: "BOM", make: with("\xEF\xBB\xBF", "some text\t\r\n", "hit", -1), binary: never},
		{name: "NUL past the window", make: with("", "some text\r\n", "hit", 100<<10),
			binary: func(size, at int) bool { return size > 100<<10 && (at < 0 || at > 100<<10) }},
		{name: "NUL in the window", make: with("", "some text\n", "hit", 1000), binary: func(int, int) bool { return true }},
		{name: "UTF-16", make: with("\xFF\xFE", utf16("some text\r\n"), utf16("hit"), -1), binary: never, decoded: true},
	}
	sizes := []int{60 << 10, piece - 1, piece, piece + 1, 2*piece - 1, 2 * piece, 2*piece + 1, 300<<10 + 5}
	for _, dir := range []bool{false, true} {
		for _, perFileMax := range []int{0, 1} {
			m, err := grep.Compile(grep.Options{Pattern: "hit", MaxMatchesPerFile: perFileMax})
			require.NoError(t, err)
			sc := m.NewScanner()
			for _, k := range kinds {
				tree := fstest.MapFS{}
				for _, size := range sizes {
					for _, at := range []int{-1, 0, 5000, piece - 2, piece + 10, 2*piece - 1, size - 3} {
						if at+3 <= size {
							tree[fmt.Sprintf("%d-%d", size, at)] = &fstest.MapFile{Data: k.make(size, at)}
						}
					}
				}
				fsys := fs.FS(tree)
				if dir {
					fsys = os.DirFS(testfs.WriteDir(t, tree))
				}
				for name, f := range tree {
					var size, at int
					fmt.Sscanf(name, "%d-%d", &size, &at)
					what := fmt.Sprintf("%s %s, dir %v, %d a file", k.name, name, dir, perFileMax)
					c := &countFS{FS: fsys, opens: map[string]int{}, read: map[string]int{}, readAt: map[string]int{}}
					o := searchOne(context.Background(), c, sc, nil, &file{path: name}, perFile{maxSize: -1, tags: true})
					if k.binary(size, at) {
						assert.Nil(t, o.res, what)
						assert.Equal(t, 1, c.opens[name], what)
						continue
					}
					require.NotNil(t, o.res, "%s: %v", what, o.err)
					want := ""
					if at >= 0 {
						require.Positive(t, o.res.MatchLines, what)
						want = hashline.Tag(f.Data)
						if k.decoded {
							text, err := io.ReadAll(textio.Decode(bytes.NewReader(f.Data), textio.UTF16LE))
							require.NoError(t, err)
							want = hashline.Tag(text)
						}
					} else {
						require.Zero(t, o.res.MatchLines, what)
					}
					assert.Equal(t, want, o.tag, what)
					assert.Equal(t, 1, c.opens[name], what)
					assert.Equal(t, len(f.Data), c.read[name], what)
					if k.decoded || k.line || at < piece-3 || size <= piece {
						assert.Zero(t, c.readAt[name], what, "nothing dropped before the match")
					} else {
						assert.Positive(t, c.readAt[name], what)
						assert.LessOrEqual(t, c.readAt[name], at, what, "only the text before the match is read again")
					}
				}
			}
		}
	}
}

// TestFileTagIsSearchTag: fileTag, which tags a file the search did not
// (searched before a page began, say), gives the tag a worker computes
// from the text the search reads: less a UTF-8 byte-order mark and a
// second one, decoded from UTF-16 or UTF-32; none for a text over
// hashline.MaxTagBytes once decoded.
func TestFileTagIsSearchTag(t *testing.T) {
	le := testfs.UTF16LE
	bom := "\xEF\xBB\xBF"
	text := "a hit  \r\nb\t\n\rc"
	tree := fstest.MapFS{
		"utf8":      {Data: []byte(text)},
		"bom":       {Data: []byte(bom + text)},
		"bom2":      {Data: []byte(bom + bom + text)},
		"le":        {Data: []byte(le(text))},
		"le-bom2":   {Data: []byte("\xFF\xFE" + le(text))},
		"be":        {Data: []byte("\xFE\xFF\x00h\x00i\x00t\x00 \x00\r\x00\n")},
		"le32":      {Data: []byte("\xFF\xFE\x00\x00h\x00\x00\x00i\x00\x00\x00t\x00\x00\x00\r\x00\x00\x00")},
		"le-pieces": {Data: []byte(le(strings.Repeat("some text \r\n", 40_000) + "hit\n"))},
		// 3.5 MiB of UTF-16, 4.8 MiB once decoded (U+4E16 is 3 bytes in
		// UTF-8): no tag.
		"le-wide": {Data: []byte("\xFF\xFE" + strings.Repeat(strings.Repeat("\x16\x4E", 28)+"h\x00i\x00t\x00\n\x00", 7<<19/64))},
	}
	m, err := grep.Compile(grep.Options{Pattern: "hit"})
	require.NoError(t, err)
	for name := range tree {
		o := searchOne(context.Background(), tree, m.NewScanner(), nil, &file{path: name}, perFile{maxSize: -1, tags: true})
		require.NotNil(t, o.res, name)
		require.Positive(t, o.res.MatchLines, name)
		require.True(t, o.tagged, name)
		assert.Equal(t, o.tag, fileTag(tree, name), name)
		assert.Equal(t, name == "le-wide", o.tag == "", name)
	}
	assert.NotEqual(t, hashline.Tag(tree["le"].Data), fileTag(tree, "le"), "the decoded text's tag, not the bytes'")
	assert.Equal(t, hashline.Tag([]byte(text)), fileTag(tree, "bom2"))
}

// inFlightFS counts the files open at once.
type inFlightFS struct {
	fs.FS
	n, most atomic.Int32
}

func (c *inFlightFS) Open(name string) (fs.File, error) {
	f, err := c.FS.Open(name)
	if err != nil {
		return nil, err
	}
	if st, err := f.Stat(); err == nil && st.Mode().IsRegular() {
		n := c.n.Add(1)
		for m := c.most.Load(); n > m && !c.most.CompareAndSwap(m, n); m = c.most.Load() {
		}
		time.Sleep(50 * time.Microsecond) // let another open overlap, if any may
		return &inFlightFile{File: f, c: c}, nil
	}
	return f, nil
}

type inFlightFile struct {
	fs.File
	c *inFlightFS
}

func (f *inFlightFile) Close() error {
	f.c.n.Add(-1)
	return f.File.Close()
}

// TestWorkersBoundFilesOpen: Workers is the number of files searched at
// once, also by a search that reads every file, whose helpers (which take
// files from busy walkers on more than two processors by default) it
// leaves out.
func TestWorkersBoundFilesOpen(t *testing.T) {
	m := fstest.MapFS{}
	for i := range 200 {
		m[fmt.Sprintf("d%d/f%03d.txt", i%3, i)] = &fstest.MapFile{Data: []byte("a needle\n")}
	}
	for _, c := range []struct{ procs, workers, most int }{{1, 1, 1}, {2, 1, 1}, {2, 2, 2}, {4, 1, 1}, {4, 3, 3}} {
		prev := runtime.GOMAXPROCS(c.procs)
		fsys := &inFlightFS{FS: m}
		_, err := Run(context.Background(), fsys, "", Request{Paths: []string{"."}, Grep: grep.Options{Pattern: "needle", CountOnly: true},
			PerFile: 20, PerFileOne: 20, MaxFileSize: -1, MaxFiles: -1, Budget: -1, Workers: c.workers})
		runtime.GOMAXPROCS(prev)
		require.NoError(t, err)
		assert.LessOrEqual(t, int(fsys.most.Load()), c.most, "%d processors, %d workers", c.procs, c.workers)
	}
}
