package convert

import (
	"bufio"
	"bytes"
	"context"
	"errors"
	"io"
	"strconv"
	"sync"
	"unicode/utf16"

	"golang.org/x/text/encoding"
	"golang.org/x/text/encoding/charmap"
	"golang.org/x/text/encoding/japanese"
	"golang.org/x/text/encoding/korean"
	"golang.org/x/text/encoding/simplifiedchinese"
	"golang.org/x/text/encoding/traditionalchinese"

	"github.com/scoutkit/scout/internal/errs"
)

// maxRTFDepth bounds the nesting of groups: the state of every open group
// is kept, and no real document nests a few dozen deep.
const maxRTFDepth = 1024

// rtfSkip returns the destinations whose content is not document text,
// made on first use.
var rtfSkip = sync.OnceValue(func() map[string]bool {
	return map[string]bool{
		"fonttbl": true, "colortbl": true, "stylesheet": true, "info": true, "pict": true,
		"object": true, "fldinst": true, "themedata": true, "colorschememapping": true,
		"latentstyles": true, "datastore": true, "xmlnstbl": true, "listtable": true,
		"listoverridetable": true, "rsidtbl": true, "generator": true, "filetbl": true,
		"revtbl": true, "header": true, "headerl": true, "headerr": true, "headerf": true,
		"footer": true, "footerl": true, "footerr": true, "footerf": true, "xe": true,
		"tc": true, "bkmkstart": true, "bkmkend": true, "nonshppict": true, "private": true,
		"pgdsctbl": true, "mmathPr": true, "wgrffmtfilter": true,
	}
})

// rtfSymbols returns the control words that stand for text, made on
// first use.
var rtfSymbols = sync.OnceValue(func() map[string]string {
	return map[string]string{
		"par": "\n", "line": "\n", "sect": "\n\n", "page": "\n\n", "tab": "\t",
		"row": "\n", "nestrow": "\n",
		"emdash": "—", "endash": "–", "bullet": "•", "lquote": "‘", "rquote": "’",
		"ldblquote": "“", "rdblquote": "”", "emspace": " ", "enspace": " ", "qmspace": " ",
	}
})

type rtfState struct {
	skip    bool
	uc      int  // characters to skip after \uN
	font    int  // current font number (\fN)
	fontTbl bool // inside the font table
}

// convertRTF extracts the text of an RTF document: destinations that are
// not text (font and colour tables, pictures, field instructions, headers)
// are skipped, \uN and \'hh are decoded (the code page from \ansicpgN).
func convertRTF(ctx context.Context, r io.ReaderAt, size int64) (string, error) {
	p := rtfParser{in: bufio.NewReaderSize(io.NewSectionReader(r, 0, size), 64<<10), enc: charmap.Windows1252, st: rtfState{uc: 1}}
	for {
		c, err := p.in.ReadByte()
		if err != nil {
			return "", readErr(err)
		}
		if c != ' ' && c != '\t' && c != '\r' && c != '\n' {
			p.in.UnreadByte()
			break
		}
	}
	if head, err := p.in.Peek(5); string(head) != `{\rtf` {
		if err != nil && err != io.EOF {
			return "", err
		}
		return "", malformed("RTF", errors.New(`it does not start with {\rtf`))
	}
	if err := p.run(ctx); err != nil {
		return "", err
	}
	return p.out.result()
}

// readErr reports a failed read; the end of the file is an empty RTF.
func readErr(err error) error {
	if err == io.EOF {
		return malformed("RTF", errors.New(`it does not start with {\rtf`))
	}
	return err
}

type rtfParser struct {
	in      *bufio.Reader
	st      rtfState
	stack   []rtfState
	out     text
	enc     encoding.Encoding
	pending []byte                    // \'hh bytes not yet decoded
	skipN   int                       // characters still to skip after \uN
	newDest bool                      // just after "{": the next control word may be a destination
	high    rune                      // a high surrogate from \uN waiting for its low half
	cellSep bool                      // a table cell ended: " | " goes before the next text of the row
	fontEnc map[int]encoding.Encoding // code page of each font with a \fcharset
	defFont int                       // the font being defined in the font table
}

func (p *rtfParser) run(ctx context.Context) error {
	for n := 0; ; n++ {
		if n%65536 == 0 {
			if err := ctx.Err(); err != nil {
				return err
			}
		}
		if p.out.full() {
			break
		}
		c, err := p.in.ReadByte()
		if err == io.EOF {
			break
		}
		if err != nil {
			return err
		}
		switch c {
		case '{':
			p.flush()
			p.skipN = 0
			if len(p.stack) == maxRTFDepth {
				return errs.New(errs.TooLarge, "RTF groups nest more than %d deep", maxRTFDepth)
			}
			p.stack = append(p.stack, p.st)
			p.newDest = true
			continue
		case '}':
			p.flush()
			p.skipN = 0
			if n := len(p.stack); n > 0 {
				p.st = p.stack[n-1]
				p.stack = p.stack[:n-1]
			}
		case '\\':
			if err := p.control(); err != nil {
				return err
			}
		case '\r', '\n':
		default:
			p.char(string(c))
		}
		p.newDest = false
	}
	p.flush()
	return nil
}

// char emits literal text, honouring the skip count after \uN.
func (p *rtfParser) char(s string) {
	p.flush()
	if p.skipN > 0 {
		p.skipN--
		return
	}
	if !p.st.skip {
		p.emit(s)
	}
}

// emit writes text, putting a pending cell separator first unless the
// row ends.
func (p *rtfParser) emit(s string) {
	if p.cellSep && s != "\n" {
		p.out.WriteString(" | ")
	}
	p.cellSep = false
	p.out.WriteString(s)
}

// flush decodes pending \'hh bytes with the document's code page.
func (p *rtfParser) flush() {
	if len(p.pending) == 0 {
		return
	}
	enc := p.enc
	if e, ok := p.fontEnc[p.st.font]; ok {
		enc = e
	}
	b, err := enc.NewDecoder().Bytes(p.pending)
	if err != nil {
		b = bytes.ToValidUTF8(p.pending, []byte("\uFFFD"))
	}
	p.pending = p.pending[:0]
	if !p.st.skip {
		p.emit(string(b))
	}
}

// control reads a control symbol or word after its backslash.
func (p *rtfParser) control() error {
	c, err := p.in.ReadByte()
	if err != nil {
		return eof(err)
	}
	if !isLetter(c) {
		switch c {
		case '\'':
			if h, err := p.in.Peek(2); err == nil {
				if v, err := strconv.ParseUint(string(h), 16, 8); err == nil {
					p.in.Discard(2)
					if p.skipN > 0 {
						p.skipN--
						return nil
					}
					if len(p.pending) > outputCap {
						p.flush() // the output is full after it
					}
					p.pending = append(p.pending, byte(v))
					return nil
				}
			}
		case '*':
			p.st.skip = true
		case '~':
			p.char("\u00a0")
		case '_':
			p.char("-")
		case '\\', '{', '}':
			p.char(string(c))
		case '\r', '\n':
			p.char("\n")
		}
		return nil
	}
	// A control word: letters (no known one is longer than 32; the rest of
	// a longer one is read and dropped), an optional number of at most 11
	// characters with its sign, an optional space.
	var word, num [32]byte
	w := copy(word[:], []byte{c})
	for {
		c, err = p.in.ReadByte()
		if err != nil || !isLetter(c) {
			break
		}
		if w < len(word) {
			word[w] = c
			w++
		}
	}
	n := 0
	if err == nil && c == '-' {
		num[n], n = c, n+1
		c, err = p.in.ReadByte()
	}
	for err == nil && c >= '0' && c <= '9' && n < 11 {
		num[n], n = c, n+1
		c, err = p.in.ReadByte()
	}
	if err == nil && c != ' ' {
		p.in.UnreadByte()
	}
	if err != nil && err != io.EOF {
		return err
	}
	v := 0
	if n > 0 {
		v, _ = strconv.Atoi(string(num[:n]))
	}
	return p.word(string(word[:w]), v, n > 0)
}

// eof treats the end of the file as the end of the document.
func eof(err error) error {
	if err == io.EOF {
		return nil
	}
	return err
}

func (p *rtfParser) word(w string, num int, hasNum bool) error {
	p.flush()
	if p.newDest && rtfSkip()[w] {
		p.st.skip = true
		p.st.fontTbl = w == "fonttbl"
		return nil
	}
	switch w {
	case "deff":
		p.st.font = num
	case "f":
		if p.st.fontTbl {
			p.defFont = num
		} else {
			p.st.font = num
		}
	case "fcharset":
		if e := charsetEncoding(num); e != nil && p.st.fontTbl {
			if p.fontEnc == nil {
				p.fontEnc = map[int]encoding.Encoding{}
			}
			p.fontEnc[p.defFont] = e
		}
	case "ansicpg":
		if e := codePage(num); e != nil {
			p.enc = e
		}
	case "uc":
		p.st.uc = max(0, num)
	case "u":
		if num < 0 {
			num += 65536
		}
		p.flush()
		p.skipN = p.st.uc
		r := rune(num)
		switch {
		case r >= 0xD800 && r < 0xDC00:
			p.high = r // wait for the low half in the next \uN
			return nil
		case r >= 0xDC00 && r < 0xE000:
			r = utf16.DecodeRune(p.high, r)
		}
		p.high = 0
		if !p.st.skip {
			p.emit(string(r))
		}
	case "cell", "nestcell":
		if !p.st.skip {
			p.cellSep = true
		}
	case "bin":
		p.flush()
		if hasNum && num > 0 {
			if _, err := p.in.Discard(num); err != nil {
				return eof(err)
			}
		}
	default:
		if s, ok := rtfSymbols()[w]; ok {
			p.char(s)
		}
	}
	return nil
}

// charsetEncoding maps an RTF \fcharset number to its code page.
func charsetEncoding(n int) encoding.Encoding {
	cp := map[int]int{77: 10000, 128: 932, 129: 949, 134: 936, 136: 950, 161: 1253, 162: 1254,
		163: 1258, 177: 1255, 178: 1256, 186: 1257, 204: 1251, 222: 874, 238: 1250, 255: 437}[n]
	return codePage(cp)
}

func isLetter(c byte) bool { return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' }

// codePage returns the decoder for a Windows code page number, or nil.
func codePage(n int) encoding.Encoding {
	switch n {
	case 437:
		return charmap.CodePage437
	case 850:
		return charmap.CodePage850
	case 866:
		return charmap.CodePage866
	case 874:
		return charmap.Windows874
	case 932:
		return japanese.ShiftJIS
	case 936:
		return simplifiedchinese.GBK
	case 949:
		return korean.EUCKR
	case 950:
		return traditionalchinese.Big5
	case 1250:
		return charmap.Windows1250
	case 1251:
		return charmap.Windows1251
	case 1252:
		return charmap.Windows1252
	case 1253:
		return charmap.Windows1253
	case 1254:
		return charmap.Windows1254
	case 1255:
		return charmap.Windows1255
	case 1256:
		return charmap.Windows1256
	case 1257:
		return charmap.Windows1257
	case 1258:
		return charmap.Windows1258
	case 10000:
		return charmap.Macintosh
	}
	return nil
}
