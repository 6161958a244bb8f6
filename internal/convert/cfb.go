package convert

import (
	"encoding/binary"
	"io"

	"github.com/scoutkit/scout/internal/errs"
)

// maxCFBPaths bounds the names the compound file reader copies into the
// paths of a file's directory entries. It gives each storage's children a
// path of their own, copied from their parent's and one name longer, so a
// chain of n storages each inside the one before (or one storage inside
// itself, which it walks until it has made as many calls as there are
// entries) costs n²/2 names: 8,000 entries, a 1 MB file, took 515 MB and
// 7 s. Real documents nest a few storages deep.
const maxCFBPaths = 1 << 20

// The compound file's special sector and entry numbers.
const (
	cfbEndOfChain = 0xFFFFFFFE
	cfbNoStream   = 0xFFFFFFFF
)

// checkCFBPaths reads the directory of the compound file in r as the
// reader does and refuses one whose entries' paths would hold more than
// maxCFBPaths names, by walking the directory tree as the reader walks it
// and counting. A file whose directory cannot be read is passed: the
// reader refuses it before it makes any path.
func checkCFBPaths(r io.ReaderAt, size int64) error {
	entries, ok := cfbDirectory(r, size)
	if !ok {
		return nil
	}
	n := len(entries)
	calls, names := 0, 0
	var walk func(i uint32, depth int)
	walk = func(i uint32, depth int) {
		// The reader's calls: one past its count of entries, or to an
		// entry that is not there, returns at once (with an error), and
		// its caller goes on with the next child and sibling.
		if calls++; calls > n || int64(i) >= int64(n) || names > maxCFBPaths {
			return
		}
		e := entries[i]
		if e.left != cfbNoStream {
			walk(e.left, depth)
		}
		if e.child != cfbNoStream {
			d := depth
			if i > 0 { // the root's children share its empty path
				d++
				names += d
			}
			walk(e.child, d)
		}
		if e.right != cfbNoStream {
			walk(e.right, depth)
		}
	}
	walk(0, 0)
	if names > maxCFBPaths {
		return errs.New(errs.TooLarge, "its storages nest too deep: the paths of its %d directory entries would hold more than %d names", n, maxCFBPaths)
	}
	return nil
}

// cfbEntry is the tree links of a directory entry.
type cfbEntry struct{ left, right, child uint32 }

// cfbDirectory returns the directory entries of the compound file in r,
// read from the sectors the reader reads them from; ok is false where it
// would fail to read them.
func cfbDirectory(r io.ReaderAt, size int64) (entries []cfbEntry, ok bool) {
	le := binary.LittleEndian
	var h [512]byte
	if _, err := r.ReadAt(h[:], 0); err != nil || le.Uint64(h[:]) != 0xE11AB1A1E011CFD0 {
		return nil, false
	}
	shift := le.Uint16(h[0x1E:])
	if shift != 9 && shift != 12 {
		return nil, false
	}
	ss := int64(1) << shift
	sectors := size / ss // a chain longer than twice this has a cycle, which the reader refuses
	read := func(sn uint32, n int64) ([]byte, bool) {
		b := make([]byte, n)
		_, err := r.ReadAt(b, (int64(sn)+1)*ss)
		return b, err == nil
	}
	// the FAT's sectors: 109 in the header, then the DIFAT's
	fat := make([]uint32, 0, 109)
	for i := range 109 {
		fat = append(fat, le.Uint32(h[0x4C+4*i:]))
	}
	per := ss/4 - 1
	loc := le.Uint32(h[0x44:])
	for i := int64(0); i < int64(le.Uint32(h[0x48:])); i++ {
		if i > 2*sectors {
			return nil, false
		}
		b, ok := read(loc, ss)
		if !ok {
			return nil, false
		}
		for j := range per {
			fat = append(fat, le.Uint32(b[4*j:]))
		}
		loc = le.Uint32(b[4*per:])
	}
	next := func(sn uint32) (uint32, bool) {
		idx := int64(sn) / (ss / 4)
		if idx >= int64(len(fat)) {
			return 0, false
		}
		b := make([]byte, 4)
		if _, err := r.ReadAt(b, (int64(fat[idx])+1)*ss+int64(sn)%(ss/4)*4); err != nil {
			return 0, false
		}
		return le.Uint32(b), true
	}
	for sn, steps := le.Uint32(h[0x30:]), int64(0); sn != cfbEndOfChain; steps++ {
		if steps > 2*sectors {
			return nil, false
		}
		b, ok := read(sn, ss)
		if !ok {
			return nil, false
		}
		for e := b; len(e) >= 128; e = e[128:] {
			entries = append(entries, cfbEntry{left: le.Uint32(e[68:]), right: le.Uint32(e[72:]), child: le.Uint32(e[76:])})
		}
		if sn, ok = next(sn); !ok {
			return nil, false
		}
	}
	return entries, len(entries) > 0
}
