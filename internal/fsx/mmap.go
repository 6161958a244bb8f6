package fsx

import "errors"

// Mapping is the contents of a regular file mapped into memory, read-only
// (see Map). It is not safe for concurrent use.
type Mapping struct {
	// Data is the file's contents: as many bytes as the file had when it
	// was opened.
	Data    []byte
	dropped int      // Data[:dropped] is released
	file    *rawFile // the file mapped, for Shrunk
}

// ErrNoMap is the error of Map for a file it does not map.
var ErrNoMap = errors.New("file not mapped")

// dropStep is the granularity of Mapping.Drop: the resident pages of a
// mapping read front to back stay under this plus what is being read.
const dropStep = 4 << 20

// Map maps f, a file opened by OpenRegular, into memory, read-only. It
// maps, on Linux, the files of the OS FS of OpenDir that lie on a local
// file system (a read of a mapping of a network or FUSE file system may
// block its thread where the Go scheduler cannot see it). For any other
// file, an empty one or one too large for the address space it fails with
// ErrNoMap, and the caller reads f instead. f must stay open while the
// mapping is read (Shrunk examines it), and the mapping must be closed.
//
// A file that shrinks while it is mapped reads as zeros from its new end
// to the end of that page, and a read of Data past that page, or of a file
// whose storage fails, raises SIGBUS: read Data on a goroutine that has
// called debug.SetPanicOnFault(true), recover the panic, and once done
// ask Shrunk whether the zeros were read.
func Map(f Regular) (*Mapping, error) {
	if f.Size() <= 0 || int64(int(f.Size())) != f.Size() {
		return nil, ErrNoMap
	}
	return mapRegular(f)
}

// Drop tells that Data[:off] will not be read again: its pages are
// released from the process's memory (the page cache keeps them) a few MiB
// at a time, so that a front-to-back read holds few of them at once.
func (m *Mapping) Drop(off int) {
	off -= off % dropStep
	if off-m.dropped < dropStep {
		return
	}
	m.release(m.Data[m.dropped:off])
	m.dropped = off
}

// Anon returns n bytes of zeroed memory outside the Go heap: an anonymous
// mapping, on Linux, whose pages the first touch brings in (no clearing
// of memory the collector reused, no collector work for the allocation).
// It returns nil where there is none (another system, n <= 0, or the
// mapping failed): the caller allocates instead. The memory must be given
// back with FreeAnon, after which no slice of it may be used.
func Anon(n int) []byte {
	if n <= 0 {
		return nil
	}
	return anon(n)
}
