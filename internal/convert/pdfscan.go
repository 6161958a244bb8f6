package convert

import (
	"bufio"
	"bytes"
	"compress/zlib"
	"context"
	"errors"
	"fmt"
	"io"
	"strconv"

	"github.com/scoutkit/scout/internal/errs"
)

// The PDF library builds every object it parses in memory at some 16 times
// the bytes it takes, and sizes some tables from numbers in the file
// without a bound. Before a document or a content stream reaches it, its
// syntax is scanned against these bounds; what passes cannot grow the
// library's memory beyond a few tens of MiB.
const (
	maxPDFObjects = 1 << 21 // objects in the cross-reference table (/Size, subsections, /Index)
	maxObjStm     = 1 << 20 // objects announced by one object stream (/N)
	maxPDFEntries = 1 << 18 // entries of one array or dictionary
	maxPDFColumns = 1 << 20 // predictor columns (/Columns)
	maxXrefWidth  = 64      // bytes of one cross-reference stream entry (/W)
	maxObjStmData = 64 << 20
	maxOperands   = 1 << 16 // operands of a content stream between two operators
	maxPDFToken   = 4 << 20 // bytes of one token, and of the operands between two operators
	maxPDFDicts   = 64      // dictionaries a content stream or CMap has begun and not ended
)

// pdfTok is a token of PDF syntax, read as the library's lexer reads it.
type pdfTok struct {
	kind byte   // one of the tok* kinds
	text []byte // a name (decoded), keyword or number: its first 64 bytes
	size int    // bytes the token takes in the stream
	open bool   // a hex string the stream ends inside
}

const (
	tokEOF     = iota
	tokNumber  // an integer or a real
	tokName    // /Name
	tokString  // (literal) or <hex>
	tokKeyword // anything else, true and false included
	tokOpen    // [ or <<
	tokClose   // ] or >>
	tokBrace   // { or }, keywords to the library
	tokBad     // a delimiter the library refuses: ) or a single >
)

// pdfLexer reads pdfToks from a stream.
type pdfLexer struct {
	r   *bufio.Reader
	off int64 // bytes read
	err error // the read error that ended the stream, io.EOF at its end
	buf []byte
}

// newPDFLexer reads r through a buffer of size bytes (pdfBuffer or
// smallPDFBuffer).
func newPDFLexer(r io.Reader, size int) *pdfLexer {
	return &pdfLexer{r: bufio.NewReaderSize(r, size), buf: make([]byte, 0, 64)}
}

// The read buffers of a lexer: for a whole stream, and for a few tokens at
// each of many places in a file.
const (
	pdfBuffer      = 64 << 10
	smallPDFBuffer = 512
)

func (l *pdfLexer) byte() (byte, bool) {
	c, err := l.r.ReadByte()
	if err != nil {
		l.err = err
		return 0, false
	}
	l.off++
	return c, true
}

func (l *pdfLexer) unread() {
	l.r.UnreadByte()
	l.off--
}

func isPDFSpace(c byte) bool {
	return c == 0 || c == '\t' || c == '\n' || c == '\f' || c == '\r' || c == ' '
}

func isPDFDelim(c byte) bool {
	switch c {
	case '<', '>', '(', ')', '[', ']', '{', '}', '/', '%':
		return true
	}
	return false
}

// next returns the next token; tokEOF when the stream ends (l.err says
// whether it ended in a read error).
func (l *pdfLexer) next() pdfTok {
	c, ok := l.byte()
	for ok && (isPDFSpace(c) || c == '%') {
		if c == '%' {
			for ok && c != '\r' && c != '\n' {
				c, ok = l.byte()
			}
		}
		if ok {
			c, ok = l.byte()
		}
	}
	if !ok {
		return pdfTok{kind: tokEOF}
	}
	start := l.off - 1
	switch c {
	case '<':
		if d, ok := l.byte(); ok {
			if d == '<' {
				return pdfTok{kind: tokOpen, size: 2}
			}
			l.unread()
		}
		for {
			d, ok := l.byte()
			if !ok {
				return pdfTok{kind: tokString, size: int(l.off - start), open: true}
			}
			if d == '>' {
				return pdfTok{kind: tokString, size: int(l.off - start)}
			}
		}
	case '(':
		for depth := 1; depth > 0; {
			d, ok := l.byte()
			if !ok {
				break
			}
			switch d {
			case '\\':
				l.byte()
			case '(':
				depth++
			case ')':
				depth--
			}
		}
		return pdfTok{kind: tokString, size: int(l.off - start)}
	case '[':
		return pdfTok{kind: tokOpen, size: 1}
	case ']':
		return pdfTok{kind: tokClose, size: 1}
	case '{', '}':
		return pdfTok{kind: tokBrace, size: 1}
	case '>':
		if d, ok := l.byte(); ok {
			if d == '>' {
				return pdfTok{kind: tokClose, size: 2}
			}
			l.unread()
		}
		return pdfTok{kind: tokBad, size: 1}
	case ')':
		return pdfTok{kind: tokBad, size: 1}
	case '/':
		t := pdfTok{kind: tokName}
		l.buf = l.buf[:0]
		for {
			d, ok := l.byte()
			if !ok {
				break
			}
			if isPDFDelim(d) || isPDFSpace(d) {
				l.unread()
				break
			}
			if d == '#' {
				h, _ := l.byte()
				g, _ := l.byte()
				d = byte(unhexPDF(h)<<4 | unhexPDF(g))
			}
			if len(l.buf) < cap(l.buf) {
				l.buf = append(l.buf, d)
			}
		}
		t.text, t.size = l.buf, int(l.off-start)
		return t
	}
	l.buf = append(l.buf[:0], c)
	for {
		d, ok := l.byte()
		if !ok {
			break
		}
		if isPDFDelim(d) || isPDFSpace(d) {
			l.unread()
			break
		}
		if len(l.buf) < cap(l.buf) {
			l.buf = append(l.buf, d)
		}
	}
	t := pdfTok{kind: tokKeyword, text: l.buf, size: int(l.off - start)}
	if isPDFNumber(t.text) {
		t.kind = tokNumber
	}
	return t
}

func unhexPDF(c byte) int {
	switch {
	case '0' <= c && c <= '9':
		return int(c - '0')
	case 'a' <= c && c <= 'f':
		return int(c-'a') + 10
	case 'A' <= c && c <= 'F':
		return int(c-'A') + 10
	}
	return 0
}

// isPDFNumber reports an integer or a real: a sign, digits and at most one
// point.
func isPDFNumber(b []byte) bool {
	if len(b) > 0 && (b[0] == '+' || b[0] == '-') {
		b = b[1:]
	}
	digits, points := 0, 0
	for _, c := range b {
		switch {
		case c >= '0' && c <= '9':
			digits++
		case c == '.':
			points++
		default:
			return false
		}
	}
	return digits > 0 && points <= 1
}

// intValue returns an integer token's value; ok is false for a real or an
// integer out of range (which the library refuses).
func (t pdfTok) intValue() (int64, bool) {
	if t.kind != tokNumber || bytes.IndexByte(t.text, '.') >= 0 {
		return 0, false
	}
	v, err := strconv.ParseInt(string(t.text), 10, 64)
	return v, err == nil
}

func (t pdfTok) is(kw string) bool { return t.kind == tokKeyword && string(t.text) == kw }

// tooLarge reports a PDF over one of the scan's bounds.
func tooLarge(format string, a ...any) error {
	return errs.New(errs.TooLarge, "the PDF is over Scout's bounds: "+format, a...)
}

// scanContent checks a content stream before the library interprets it:
// every hex string is closed (the library's lexer loops forever on one left
// open at the end), no token is longer than maxPDFToken, and, with
// operands, between two operators at most maxOperands operands of at most
// maxPDFToken bytes in all are pushed (the library keeps them all until the
// next operator). Tokens inside arrays and dictionaries count as operands.
// After "begin" a keyword may name a value, so none ends the operands any
// more; at most maxPDFDicts dictionaries are begun and not ended (the
// library looks every keyword up in each of them).
func scanContent(ctx context.Context, r io.Reader, operands bool) error {
	l := newPDFLexer(r, pdfBuffer)
	run, runBytes, depth := 0, 0, 0
	dicts, open := false, 0
	for n := 0; ; n++ {
		if n%4096 == 0 {
			if err := ctx.Err(); err != nil {
				return err
			}
		}
		t := l.next()
		switch {
		case t.is("begin"):
			if dicts, open = true, open+1; open > maxPDFDicts {
				return fmt.Errorf("more than %d dictionaries begun and not ended", maxPDFDicts)
			}
		case t.is("end") && open > 0:
			open--
		}
		switch {
		case t.kind == tokEOF:
			if l.err != io.EOF {
				return l.err
			}
			return nil
		case t.open:
			return errors.New("unterminated hex string")
		case t.size > maxPDFToken:
			return fmt.Errorf("a token of more than %d MiB", maxPDFToken>>20)
		case t.kind == tokKeyword && !isPDFOperand(t.text) && !dicts:
			if depth > 0 {
				depth = 0 // the library drops the array or dictionary a keyword breaks
			} else {
				run, runBytes = 0, 0
			}
			continue
		case t.kind == tokBrace || t.kind == tokBad:
			continue
		case t.kind == tokOpen:
			depth++
		case t.kind == tokClose && depth > 0:
			depth--
		}
		run++
		runBytes += t.size
		if operands && (run > maxOperands || runBytes > maxPDFToken) {
			return fmt.Errorf("more than %d operands or %d MiB between two operators", maxOperands, maxPDFToken>>20)
		}
	}
}

// isPDFOperand reports the keywords the library's interpreter pushes as
// values (null, true, false) or handles itself without taking the operands
// (the PostScript dictionary operators of CMaps).
func isPDFOperand(kw []byte) bool {
	switch string(kw) {
	case "null", "true", "false", "dict", "currentdict", "begin", "end", "def", "pop":
		return true
	}
	return false
}

// pdfFrame is an open array or dictionary of the file scan.
type pdfFrame struct {
	dict    bool
	entries int
	wantKey bool   // a dictionary's next token is a key
	key     string // a dictionary's last key
	of      string // the key an array is the value of ("W", "Index", "Filter")
	xref    bool   // /Type /XRef
	objStm  bool   // /Type /ObjStm
	filter  string // /Filter: the one filter's name, "" for none, "?" for others
	width   int64  // the sum of the numbers of /W
	index   []int64
	names   int    // names in an array
	name    string // the last of them
}

// pdfScan checks the syntax of a whole PDF against the bounds above:
// cross-reference sections and streams, object streams (inflated and
// scanned; those in encrypted files, or with filters other than Flate,
// cannot be and are left to the library), and every array and dictionary
// outside streams. Stream data is skipped.
type pdfScan struct {
	ctx    context.Context
	r      io.ReaderAt
	frames []*pdfFrame
	closed *pdfFrame // the dictionary that just closed at the top level
	n      int
}

// scanPDF scans the size bytes of r; see pdfScan.
func scanPDF(ctx context.Context, r io.ReaderAt, size int64) error {
	s := &pdfScan{ctx: ctx, r: r}
	return s.run(newPDFLexer(io.NewSectionReader(r, 0, size), pdfBuffer), 0, true)
}

// run scans the tokens of l, which start at offset base in the file; top
// is false inside an object stream.
func (s *pdfScan) run(l *pdfLexer, base int64, top bool) error {
	s.frames, s.closed = s.frames[:0], nil
	for {
		if s.n++; s.n%4096 == 0 {
			if err := s.ctx.Err(); err != nil {
				return err
			}
		}
		t := l.next()
		if t.kind == tokEOF {
			if l.err != io.EOF {
				return l.err
			}
			return nil
		}
		closed := s.closed
		s.closed = nil
		if top && len(s.frames) == 0 && t.kind == tokKeyword {
			switch string(t.text) {
			case "stream":
				if err := s.stream(l, base, closed); err != nil {
					return err
				}
				continue
			case "xref":
				if err := s.xrefTable(l); err != nil {
					return err
				}
				continue
			}
		}
		if err := s.token(t); err != nil {
			return err
		}
	}
}

// token takes one token outside stream data.
func (s *pdfScan) token(t pdfTok) error {
	var top *pdfFrame
	if len(s.frames) > 0 {
		top = s.frames[len(s.frames)-1]
	}
	switch t.kind {
	case tokKeyword:
		switch string(t.text) {
		case "R", "null", "true", "false":
		default:
			// The library stops parsing an object at a keyword inside it.
			s.frames = s.frames[:0]
			return nil
		}
	case tokClose:
		if top == nil {
			return nil
		}
		s.frames = s.frames[:len(s.frames)-1]
		if top.dict {
			if err := top.check(); err != nil {
				return err
			}
			if len(s.frames) == 0 {
				s.closed = top
			}
		}
		if len(s.frames) > 0 {
			s.frames[len(s.frames)-1].value(top, pdfTok{})
		}
		return nil
	}
	if top == nil {
		if t.kind == tokOpen {
			s.frames = append(s.frames, &pdfFrame{dict: t.size == 2, wantKey: true})
		}
		return nil
	}
	if top.entries++; top.entries > maxPDFEntries {
		return tooLarge("an array or dictionary has more than %d entries", maxPDFEntries)
	}
	if t.kind == tokOpen {
		if len(s.frames) >= 1000 { // the library's own depth limit
			s.frames = s.frames[:0]
			return nil
		}
		f := &pdfFrame{dict: t.size == 2, wantKey: true}
		if top.dict && !top.wantKey {
			f.of = top.key
		}
		s.frames = append(s.frames, f)
		return nil
	}
	if top.dict && top.wantKey {
		if t.kind == tokName {
			top.key, top.wantKey = string(t.text), false
		}
		return nil // a number or R here is the rest of an indirect reference
	}
	return top.value(nil, t)
}

// value takes a value of the frame: the token t, or the container c that
// just closed.
func (f *pdfFrame) value(c *pdfFrame, t pdfTok) error {
	if f.dict {
		f.wantKey = true
		if c != nil {
			switch f.key {
			case "W":
				f.width = c.width
			case "Filter":
				f.filter = "?"
				if c.names == 1 && c.entries == 1 {
					f.filter = c.name
				}
			}
			return nil
		}
		switch f.key {
		case "Type":
			f.xref = f.xref || string(t.text) == "XRef" && t.kind == tokName
			f.objStm = f.objStm || string(t.text) == "ObjStm" && t.kind == tokName
		case "Filter":
			f.filter = "?"
			if t.kind == tokName {
				f.filter = string(t.text)
			}
		case "Size", "N", "Columns":
			v, ok := t.intValue()
			if !ok {
				return nil
			}
			switch {
			case f.key == "Size" && (v < 0 || v > maxPDFObjects):
				return tooLarge("/Size %d is over %d objects", v, maxPDFObjects)
			case f.key == "N" && (v < 0 || v > maxObjStm):
				return tooLarge("/N %d is over %d", v, maxObjStm)
			case f.key == "Columns" && (v < 0 || v > maxPDFColumns):
				return tooLarge("/Columns %d is over %d", v, maxPDFColumns)
			}
		}
		return nil
	}
	// An element of an array that is the value of a key of its parent.
	if t.kind == tokName {
		f.names++
		f.name = string(t.text)
	}
	if c != nil || t.kind != tokNumber {
		return nil
	}
	v, ok := t.intValue()
	if !ok {
		return nil
	}
	switch f.of {
	case "W":
		f.width += max(v, 0)
	case "Index":
		if f.index = append(f.index, v); len(f.index) == 2 {
			start, count := f.index[0], f.index[1]
			if start < 0 || count < 0 || start+count > maxPDFObjects {
				return tooLarge("/Index %d %d reaches past %d objects", start, count, maxPDFObjects)
			}
			f.index = f.index[:0]
		}
	}
	return nil
}

// check takes a dictionary that closed: a cross-reference stream's /W.
func (f *pdfFrame) check() error {
	if f.xref && f.width > maxXrefWidth {
		return tooLarge("/W asks for entries of %d bytes", f.width)
	}
	return nil
}

// xrefTable checks the subsections of a cross-reference table ("start
// count" lines, each followed by count entries of three tokens): the
// library sizes its table by start+count.
func (s *pdfScan) xrefTable(l *pdfLexer) error {
	for {
		t := l.next()
		start, ok := t.intValue()
		if !ok {
			if t.kind != tokEOF {
				s.token(t)
			}
			return nil
		}
		count, ok := l.next().intValue()
		if !ok {
			return nil
		}
		if start < 0 || count < 0 || start+count > maxPDFObjects {
			return tooLarge("a cross-reference subsection reaches object %d, over %d", start+count, maxPDFObjects)
		}
		for i := int64(0); i < 3*count; i++ {
			if t := l.next(); t.kind == tokEOF || t.is("trailer") {
				return nil
			}
		}
	}
}

// stream skips the data of a stream to its "endstream", scanning it first
// when the dictionary before it (d) announces an object stream.
func (s *pdfScan) stream(l *pdfLexer, base int64, d *pdfFrame) error {
	// The data starts after the end of the line of "stream".
	if c, ok := l.byte(); ok && c == '\r' {
		c, ok = l.byte()
		if ok && c != '\n' {
			l.unread()
		}
	} else if ok && c != '\n' {
		l.unread()
	}
	start := base + l.off
	n, err := skipTo(l, []byte("endstream"))
	if err != nil || d == nil || !d.objStm {
		return err
	}
	var rd io.Reader = io.NewSectionReader(s.r, start, n)
	switch d.filter {
	case "":
	case "FlateDecode":
		z, err := zlib.NewReader(rd)
		if err != nil {
			return nil // encrypted, or broken: the library reads it, or fails
		}
		rd = z
	default:
		return nil
	}
	inner := &pdfScan{ctx: s.ctx, r: s.r, n: s.n}
	il := newPDFLexer(io.LimitReader(rd, maxObjStmData+1), pdfBuffer)
	if err := inner.run(il, 0, false); err != nil {
		if errs.CodeOf(err) == errs.TooLarge || s.ctx.Err() != nil {
			return err
		}
		return nil // broken data: the library fails on it too
	}
	if il.off > maxObjStmData {
		return tooLarge("an object stream inflates to more than %d MiB", maxObjStmData>>20)
	}
	s.n = inner.n
	return nil
}

// skipTo reads l up to and including the next occurrence of sep and
// returns how many bytes came before it; at the end of the stream, all
// that was left.
func skipTo(l *pdfLexer, sep []byte) (int64, error) {
	var n int64
	for {
		buf, err := l.r.Peek(l.r.Size())
		if i := bytes.Index(buf, sep); i >= 0 {
			l.r.Discard(i + len(sep))
			l.off += int64(i + len(sep))
			return n + int64(i), nil
		}
		if err != nil {
			if err != io.EOF {
				return 0, err
			}
			l.r.Discard(len(buf))
			l.off += int64(len(buf))
			return n + int64(len(buf)), nil
		}
		k := len(buf) - (len(sep) - 1) // keep what may start sep
		l.r.Discard(k)
		l.off += int64(k)
		n += int64(k)
	}
}
