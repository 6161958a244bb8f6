package convert

import (
	"context"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"os"

	"github.com/pbnjay/grate/xls"
)

// mergedMarks are the strings grate puts in the continuation cells of a
// merged range.
var mergedMarks = map[string]bool{"→": true, "⇥": true, "↓": true, "⤓": true}

// convertXLS renders each sheet of a BIFF8 workbook like convertXLSX.
//
// grate opens workbooks by file name only, so the bytes are copied to a
// private temporary file that is removed before returning.
func convertXLS(ctx context.Context, r io.ReaderAt, size int64) (string, error) {
	if c, ok := mislabelled(r, size); ok {
		return c(ctx, r, size)
	}
	if err := checkXLS(r, size); err != nil {
		return "", err
	}
	tmp, err := os.CreateTemp("", "scout-*.xls")
	if err != nil {
		return "", fmt.Errorf("cannot create a temporary copy: %w", err)
	}
	defer os.Remove(tmp.Name())
	_, err = io.Copy(tmp, io.NewSectionReader(r, 0, size))
	if cerr := tmp.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		return "", fmt.Errorf("cannot create a temporary copy: %w", err)
	}
	wb, err := xls.Open(tmp.Name())
	if err != nil {
		return "", malformed("XLS", err)
	}
	defer wb.Close()
	names, err := wb.List()
	if err != nil {
		return "", malformed("XLS", err)
	}
	var out text
	for _, name := range names {
		sheet, err := wb.Get(name)
		if err != nil {
			return "", malformed("XLS", fmt.Errorf("sheet %q: %w", name, err))
		}
		var rows [][]string
		size := 0
		for n := 0; sheet.Next() && size <= MaxOutput; n++ {
			if n%1024 == 0 {
				if err := ctx.Err(); err != nil {
					return "", err
				}
			}
			row := sheet.Strings()
			for i, c := range row {
				if mergedMarks[c] {
					row[i] = ""
				}
				size += len(c) + 3
			}
			rows = append(rows, row)
		}
		if err := sheet.Err(); err != nil {
			return "", malformed("XLS", fmt.Errorf("sheet %q: %w", name, err))
		}
		writeSheet(&out, name, rows)
		if out.full() {
			break
		}
	}
	return out.result(), nil
}

// maxCells caps the cells of one sheet: grate allocates the whole grid
// that a sheet's DIMENSIONS record announces.
const maxCells = 1 << 21

// BIFF8 record types checked before grate reads the workbook.
const (
	recFilePass   = 0x002F
	recDimensions = 0x0200
)

// checkXLS refuses workbooks that grate would mishandle: no Workbook
// stream, encryption, or a sheet whose announced size would take
// gigabytes to allocate.
func checkXLS(r io.ReaderAt, size int64) error {
	if err := checkCFBHeader(r, size); err != nil {
		return malformed("XLS", err)
	}
	streams, err := oleStreams(r, "Workbook")
	if err != nil {
		return malformed("XLS", err)
	}
	wb := streams["Workbook"]
	if wb == nil {
		return malformed("XLS", errors.New("no Workbook stream (Excel 5/95 workbooks are not supported)"))
	}
	le := binary.LittleEndian
	for off := 0; off+4 <= len(wb); {
		typ, n := le.Uint16(wb[off:]), int(le.Uint16(wb[off+2:]))
		data := wb[off+4 : min(off+4+n, len(wb))]
		switch typ {
		case recFilePass:
			return malformed("XLS", errors.New("the workbook is encrypted"))
		case recDimensions:
			if len(data) >= 12 {
				rows, cols := le.Uint32(data[4:]), uint32(le.Uint16(data[10:]))
				if rows > 0x10000 || cols > 0x100 || uint64(rows)*uint64(cols) > maxCells {
					return malformed("XLS", fmt.Errorf("a sheet announces %d rows x %d columns, more than the %d cells read", rows, cols, maxCells))
				}
			}
		}
		off += 4 + n
	}
	return nil
}

// checkCFBHeader checks what grate's own compound-file reader trusts: the
// sector sizes, the FAT, mini FAT and DIFAT sector counts and chain, and
// the sizes of the first directory entries. A lie in any of them makes it
// allocate without bound or loop forever.
func checkCFBHeader(r io.ReaderAt, size int64) error {
	const (
		endOfChain = 0xFFFFFFFE
		freeSect   = 0xFFFFFFFF
	)
	h := make([]byte, 512)
	if _, err := r.ReadAt(h, 0); err != nil {
		return errors.New("shorter than a compound-file header")
	}
	le := binary.LittleEndian
	shift := le.Uint16(h[0x1E:])
	if (shift != 9 && shift != 12) || le.Uint16(h[0x20:]) != 6 {
		return errors.New("unsupported sector sizes")
	}
	sectors := size >> shift
	fat, miniFAT, difat := int64(le.Uint32(h[0x2C:])), int64(le.Uint32(h[0x40:])), int64(le.Uint32(h[0x48:]))
	if fat > sectors || miniFAT > sectors || difat > sectors {
		return fmt.Errorf("the header claims more sectors than the %d-byte file holds", size)
	}
	sector := func(sid uint32) ([]byte, error) {
		b := make([]byte, 1<<shift)
		if _, err := r.ReadAt(b, (int64(sid)+1)<<shift); err != nil {
			return nil, fmt.Errorf("sector %d lies outside the file", sid)
		}
		return b, nil
	}
	// The DIFAT chain must end within its announced length.
	sid := le.Uint32(h[0x44:])
	for n := int64(0); difat > 0 && sid != endOfChain && sid != freeSect; n++ {
		if n >= difat {
			return errors.New("the DIFAT chain is longer than announced (a loop?)")
		}
		b, err := sector(sid)
		if err != nil {
			return err
		}
		sid = le.Uint32(b[len(b)-4:])
	}
	// grate reads the first four directory entries and trusts their sizes.
	dir, err := sector(le.Uint32(h[0x30:]))
	if err != nil {
		return err
	}
	for i := 0; i < 4 && (i+1)*128 <= len(dir); i++ {
		e := dir[i*128 : (i+1)*128]
		n := le.Uint64(e[120:])
		if le.Uint16(h[0x1A:]) == 3 {
			n &= 0xFFFFFFFF // version 3 ignores the high half
		}
		if typ := e[66]; (typ == 2 || typ == 5) && n > uint64(size) {
			return fmt.Errorf("directory entry %d claims %d bytes in a %d-byte file", i, n, size)
		}
	}
	return nil
}
