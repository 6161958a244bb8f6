package archive

import (
	"context"
	"errors"
	"io"
	"io/fs"
	"strings"
	"testing"
	"time"

	"github.com/scoutkit/scout/internal/errs"
	"github.com/scoutkit/scout/internal/testfs"
)

// synthTar is an fs.FS of one tar file, "m.tar", of n empty members
// f0000000.txt, f0000001.txt, ..., generated as it is read: a tar of a
// million members without half a gigabyte in memory or on disk.
type synthTar struct{ n int64 }

func (s synthTar) Open(name string) (fs.File, error) {
	if name != "m.tar" {
		return nil, &fs.PathError{Op: "open", Path: name, Err: fs.ErrNotExist}
	}
	return &synthFile{n: s.n, size: (s.n + 2) * 512}, nil
}

type synthFile struct {
	n, size, off int64
}

func (f *synthFile) Stat() (fs.FileInfo, error) { return synthInfo{f.size}, nil }
func (f *synthFile) Close() error               { return nil }

func (f *synthFile) Read(p []byte) (int, error) {
	n, err := f.ReadAt(p, f.off)
	f.off += int64(n)
	return n, err
}

// header is the header block of member 0 with its checksum field blank,
// and headerSum the sum of its bytes: member i differs from it only in the
// seven digits of its name, so its checksum is headerSum plus theirs.
var header, headerSum = func() ([512]byte, int) {
	var b [512]byte
	copy(b[:], "f0000000.txt")
	copy(b[100:], "0000644\x00")     // mode
	copy(b[124:], "00000000000\x00") // size
	copy(b[136:], "00000000000\x00") // mtime
	copy(b[148:], "        ")        // the checksum counts its field as spaces
	b[156] = '0'                     // a regular file
	copy(b[257:], "ustar\x0000")     // magic, version
	sum := 0
	for _, c := range b {
		sum += int(c)
	}
	return b, sum
}()

// ReadAt fills p with the blocks at off: member headers, then the two
// zero blocks that end a tar.
func (f *synthFile) ReadAt(p []byte, off int64) (int, error) {
	n := 0
	var block [512]byte
	for n < len(p) && off < f.size {
		i, in := off/512, off%512
		if i < f.n {
			block = header
			sum := headerSum
			for k, v := 7, i; k >= 1; k, v = k-1, v/10 {
				block[k] = byte('0' + v%10)
				sum += int(v % 10)
			}
			for k, v := 153, sum; k >= 148; k, v = k-1, v/8 { // six octal digits, NUL, space
				block[k] = byte('0' + v%8)
			}
			block[154], block[155] = 0, ' '
		} else {
			block = [512]byte{}
		}
		c := copy(p[n:], block[in:])
		n, off = n+c, off+int64(c)
	}
	if n < len(p) {
		return n, io.EOF
	}
	return n, nil
}

type synthInfo struct{ size int64 }

func (i synthInfo) Name() string       { return "m.tar" }
func (i synthInfo) Size() int64        { return i.size }
func (i synthInfo) Mode() fs.FileMode  { return 0o644 }
func (i synthInfo) ModTime() time.Time { return time.Time{} }
func (i synthInfo) IsDir() bool        { return false }
func (i synthInfo) Sys() any           { return nil }

// TestMillionEntryTar lists, walks and looks up members of a tar of a
// million members: each stops at the entry cap with TOO_LARGE, in bounded
// memory; a tar at the cap is read whole.
func TestMillionEntryTar(t *testing.T) {
	if testing.Short() {
		t.Skip("reads 200,000 tar headers")
	}
	ctx := context.Background()
	open := func(n int64) *Archive {
		a, err := Open(ctx, synthTar{n}, "m.tar", Limits{})
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { a.Close() })
		return a
	}
	a := open(1_000_000)
	var err error
	grew := testfs.HeapPeak(func() { _, err = a.Walk(ctx, "", func(Entry, io.Reader, error) error { return nil }) })
	if errs.CodeOf(err) != errs.TooLarge || !strings.Contains(err.Error(), "more than 200000 entries") {
		t.Errorf("Walk: %v, want TOO_LARGE at 200000 entries", err)
	}
	if grew > 64<<20 {
		t.Errorf("Walk grew the heap by %d MiB", grew>>20)
	}
	grew = testfs.HeapPeak(func() { _, err = a.Lookup(ctx, "f0999999.txt") })
	if errs.CodeOf(err) != errs.TooLarge || grew > 128<<20 {
		t.Errorf("Lookup: %v, heap +%d MiB; want TOO_LARGE in bounded memory", err, grew>>20)
	}

	// At the cap, every member is walked.
	n := 0
	_, err = open(DefaultMaxEntries).Walk(ctx, "", func(e Entry, _ io.Reader, err error) error {
		if err != nil {
			return err
		}
		n++
		return nil
	})
	if err != nil || n != DefaultMaxEntries {
		t.Errorf("a tar of %d members: walked %d, %v", DefaultMaxEntries, n, err)
	}

	// A cancel stops the walk.
	cctx, cancel := context.WithCancel(ctx)
	_, err = open(1_000_000).Walk(cctx, "", func(e Entry, _ io.Reader, _ error) error {
		if e.Name == "f0001000.txt" {
			cancel()
		}
		return nil
	})
	if !errors.Is(err, context.Canceled) && errs.CodeOf(err) != errs.Canceled {
		t.Errorf("a canceled walk: %v", err)
	}
}
