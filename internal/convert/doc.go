package convert

import (
	"context"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"strings"
	"unicode/utf16"

	"github.com/richardlehane/mscfb"
	"golang.org/x/text/encoding/charmap"
)

// maxStream is the largest OLE stream read into memory.
const maxStream = 256 << 20

// FIB offsets (MS-DOC 2.5.1): FibBase, then csw and FibRgW97, cslw and
// FibRgLw97, cbRgFcLcb and FibRgFcLcb97.
const (
	fibIdent         = 0xA5EC
	fibFlagEncrypted = 0x0100
	fibFlagTable1    = 0x0200 // fWhichTblStm: the table stream is 1Table
	fibMinSize       = 154    // through cbRgFcLcb
	fcClxIndex       = 66     // index of fcClx in FibRgFcLcb97, in uint32s
	maxPieces        = 1 << 20
)

// convertDOC extracts the main text of a Word 97-2003 document by
// following the piece table (the CLX in the table stream) into the
// WordDocument stream. Paragraph marks become line breaks, table cells
// tabs, table rows line breaks; field codes are dropped and field results
// kept.
func convertDOC(ctx context.Context, r io.ReaderAt, size int64) (string, error) {
	if c, ok := mislabelled(r, size); ok {
		return c(ctx, r, size)
	}
	streams, err := oleStreams(r, size, "WordDocument", "0Table", "1Table")
	if err != nil {
		return "", malformed("DOC", err)
	}
	wd := streams["WordDocument"]
	if wd == nil {
		return "", malformed("DOC", errors.New("no WordDocument stream"))
	}
	if len(wd) < fibMinSize || binary.LittleEndian.Uint16(wd) != fibIdent {
		return "", malformed("DOC", errors.New("the WordDocument stream has no Word 97 file information block"))
	}
	flags := binary.LittleEndian.Uint16(wd[0x0A:])
	if flags&fibFlagEncrypted != 0 {
		return "", malformed("DOC", errors.New("the document is encrypted"))
	}
	table := streams["0Table"]
	if flags&fibFlagTable1 != 0 {
		table = streams["1Table"]
	}
	ccpText, clx, err := fibFields(wd, table)
	if err != nil {
		return "", malformed("DOC", err)
	}
	chars, err := pieceText(ctx, wd, clx, ccpText)
	if err != nil {
		return "", err
	}
	return docText(chars)
}

// oleStreams reads the named streams of a compound file of the given
// size; a stream cannot be larger than the file that holds it.
func oleStreams(r io.ReaderAt, size int64, names ...string) (map[string][]byte, error) {
	if err := checkCFBPaths(r, size); err != nil {
		return nil, err
	}
	doc, err := mscfb.New(r)
	if err != nil {
		return nil, err
	}
	want := map[string]bool{}
	for _, n := range names {
		want[n] = true
	}
	out := map[string][]byte{}
	for _, f := range doc.File {
		if !want[f.Name] || out[f.Name] != nil || len(f.Path) > 0 {
			continue
		}
		if f.Size > maxStream || f.Size > size {
			return nil, fmt.Errorf("stream %s claims %d bytes in a %d-byte file", f.Name, f.Size, size)
		}
		b, err := io.ReadAll(io.NewSectionReader(f, 0, f.Size))
		if err != nil {
			return nil, fmt.Errorf("stream %s: %w", f.Name, err)
		}
		out[f.Name] = b
	}
	return out, nil
}

// fibFields returns ccpText and the CLX bytes.
func fibFields(wd, table []byte) (int, []byte, error) {
	le := binary.LittleEndian
	csw := int(le.Uint16(wd[32:]))
	off := 34 + csw*2
	if off+2 > len(wd) {
		return 0, nil, errors.New("truncated file information block")
	}
	cslw := int(le.Uint16(wd[off:]))
	lw := off + 2
	if cslw < 4 || lw+cslw*4+2 > len(wd) {
		return 0, nil, errors.New("truncated file information block")
	}
	ccpText := int(int32(le.Uint32(wd[lw+3*4:])))
	off = lw + cslw*4
	cb := int(le.Uint16(wd[off:]))
	blob := off + 2
	if cb <= fcClxIndex/2 || blob+(fcClxIndex+2)*4 > len(wd) {
		return 0, nil, errors.New("the file information block has no piece table (Word 6/95 documents are not supported)")
	}
	fcClx := int64(le.Uint32(wd[blob+fcClxIndex*4:]))
	lcbClx := int64(le.Uint32(wd[blob+(fcClxIndex+1)*4:]))
	if table == nil {
		return 0, nil, errors.New("the table stream is missing")
	}
	if lcbClx == 0 || fcClx+lcbClx > int64(len(table)) {
		return 0, nil, errors.New("the piece table lies outside the table stream")
	}
	return ccpText, table[fcClx : fcClx+lcbClx], nil
}

// pieceText decodes the characters of the pieces up to ccpText (all
// pieces when ccpText is not positive).
func pieceText(ctx context.Context, wd, clx []byte, ccpText int) ([]rune, error) {
	le := binary.LittleEndian
	// Skip the Prc entries (0x01, cbGrpprl, grpprl) to the Pcdt (0x02).
	i := 0
	for i < len(clx) && clx[i] == 0x01 {
		if i+3 > len(clx) {
			return nil, malformed("DOC", errors.New("truncated piece table"))
		}
		i += 3 + int(le.Uint16(clx[i+1:]))
	}
	if i+5 > len(clx) || clx[i] != 0x02 {
		return nil, malformed("DOC", errors.New("no piece table in the CLX"))
	}
	lcb := int(le.Uint32(clx[i+1:]))
	plc := clx[i+5:]
	if lcb > len(plc) || lcb < 16 || (lcb-4)%12 != 0 {
		return nil, malformed("DOC", errors.New("bad piece table size"))
	}
	n := (lcb - 4) / 12
	if n > maxPieces {
		return nil, malformed("DOC", errors.New("too many pieces"))
	}
	pcd := plc[(n+1)*4:]
	var out []rune
	dec := charmap.Windows1252
	for k := range n {
		if k%1024 == 0 {
			if err := ctx.Err(); err != nil {
				return nil, err
			}
		}
		cpStart, cpEnd := int(le.Uint32(plc[k*4:])), int(le.Uint32(plc[(k+1)*4:]))
		if ccpText > 0 && cpStart >= ccpText {
			break
		}
		if ccpText > 0 && cpEnd > ccpText {
			cpEnd = ccpText
		}
		count := cpEnd - cpStart
		if count <= 0 {
			continue
		}
		if len(out)+count > outputCap {
			count = outputCap - len(out)
		}
		fc := le.Uint32(pcd[k*8+2:])
		if fc&0x40000000 != 0 {
			start := int(fc&0x3FFFFFFF) / 2
			if start+count > len(wd) || start < 0 {
				return nil, malformed("DOC", fmt.Errorf("piece %d lies outside the document stream", k))
			}
			for _, c := range wd[start : start+count] {
				out = append(out, dec.DecodeByte(c))
			}
		} else {
			start := int(fc)
			if start+2*count > len(wd) || start < 0 {
				return nil, malformed("DOC", fmt.Errorf("piece %d lies outside the document stream", k))
			}
			u := make([]uint16, count)
			for j := range u {
				u[j] = le.Uint16(wd[start+2*j:])
			}
			out = append(out, utf16.Decode(u)...)
		}
		if len(out) >= outputCap {
			break
		}
	}
	return out, nil
}

// docText maps Word's special characters to text.
func docText(chars []rune) (string, error) {
	var b text
	// Field nesting: true for a field whose result is being shown.
	var fields []bool
	showing := func() bool {
		for _, f := range fields {
			if !f {
				return false
			}
		}
		return true
	}
	for i, c := range chars {
		switch c {
		case 0x13: // field begin: its code follows
			fields = append(fields, false)
			continue
		case 0x14: // field separator: its result follows
			if n := len(fields); n > 0 {
				fields[n-1] = true
			}
			continue
		case 0x15: // field end
			if n := len(fields); n > 0 {
				fields = fields[:n-1]
			}
			continue
		}
		if !showing() {
			continue
		}
		switch c {
		case '\r', 0x0B:
			b.WriteByte('\n')
		case 0x0C:
			b.WriteString("\n\n")
		case 0x07:
			// A cell mark; a second one right after it ends the row.
			if i > 0 && chars[i-1] == 0x07 {
				b.WriteByte('\n')
			} else if i+1 < len(chars) && chars[i+1] == 0x07 {
				continue
			} else {
				b.WriteByte('\t')
			}
		case 0x1E:
			b.WriteByte('-')
		case '\t':
			b.WriteByte('\t')
		default:
			if c >= 0x20 {
				b.WriteRune(c)
			}
		}
	}
	s := tidy(strings.ReplaceAll(b.String(), "\t\n", "\n"))
	if b.full() {
		return s, outputCut()
	}
	return s, nil
}
