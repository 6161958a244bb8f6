package convert

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"math"
	"reflect"
	"strings"
	"sync"

	"github.com/ledongthuc/pdf"

	"github.com/scoutkit/scout/internal/dirtree"
	"github.com/scoutkit/scout/internal/errs"
)

// convertPDF extracts the text of each page; pages are separated by a blank
// line. Glyphs are laid out from their positions: a new line when the
// baseline moves, a blank line for a paragraph gap, and a space where the
// horizontal gap between glyphs is wider than a fifth of the font size (PDF
// producers often position words instead of writing spaces). A PDF without
// a text layer (scanned images) gives an error that says so rather than an
// empty text. A page that cannot be read is left out and named in a
// *errs.Partial error with the text of the others.
func convertPDF(ctx context.Context, r io.ReaderAt, size int64) (string, error) {
	head := make([]byte, 8)
	if n, _ := r.ReadAt(head, 0); bytes.HasPrefix(head[:n], []byte("%PDF-")) {
		if err := scanPDF(ctx, r, size); err != nil {
			return "", refused(ctx, err)
		}
	}
	if err := checkPrev(ctx, r, size); err != nil {
		return "", refused(ctx, err)
	}
	rd, err := pdf.NewReader(r, size)
	if err != nil {
		if strings.Contains(err.Error(), "encrypted") {
			return "", malformed("PDF", errors.New("the file is encrypted"))
		}
		return "", malformed("PDF", err)
	}
	if err := checkXref(ctx, r, size, rd); err != nil {
		return "", refused(ctx, err)
	}
	var out text
	var failed []string
	pages := 0
	var work int64
	err = pdfPages(ctx, rd.Trailer().Key("Root").Key("Pages"), func(p pdfPage) error {
		if out.full() {
			return errFull
		}
		pages++
		s, err := pageText(ctx, p, &work)
		if err != nil {
			if ce := ctx.Err(); ce != nil {
				return ce
			}
			if errors.Is(err, errPDFWork) {
				pages--
				return err
			}
			failed = append(failed, fmt.Sprintf("page %d (%v)", pages, err))
			return nil
		}
		if s != "" {
			out.WriteString(s + "\n\n")
		}
		return nil
	})
	var why []string // what is left out
	if err != nil && err != errFull {
		if ctx.Err() != nil || out.Len() == 0 {
			return "", err
		}
		why = append(why, "the pages after page "+fmt.Sprint(pages)+" are not read: "+err.Error())
	}
	res, cut := out.result()
	switch {
	case res == "" && len(failed) > 0:
		return "", malformed("PDF", errors.New(failed[0]))
	case res == "":
		return "", malformed("PDF", errors.New("no text layer found (scanned images need OCR)"))
	case len(failed) > 0:
		why = append([]string{pdfFailures(failed, pages)}, why...)
	}
	if cut != nil {
		why = append(why, cut.Error())
	}
	if len(why) == 0 {
		return res, nil
	}
	return res, &errs.Partial{Reason: strings.Join(why, "; ")}
}

// refused returns the error of a check that refused a PDF before the
// library reads it: as it is when ctx ended or the file is over a bound
// (TOO_LARGE), else the file is malformed.
func refused(ctx context.Context, err error) error {
	if errs.CodeOf(err) == errs.TooLarge || ctx.Err() != nil {
		return err
	}
	return malformed("PDF", err)
}

// errFull stops the page walk once the output is full.
var errFull = errors.New("output full")

// pdfFailures describes the pages left out: the first three, then a count.
func pdfFailures(failed []string, pages int) string {
	shown := failed[:min(len(failed), 3)]
	s := fmt.Sprintf("%d of %d pages could not be read and are left out: %s", len(failed), pages, strings.Join(shown, "; "))
	if len(failed) > len(shown) {
		s += fmt.Sprintf("; and %d more", len(failed)-len(shown))
	}
	return s
}

// Bounds of the page tree walk.
const (
	maxPDFNodes = 1 << 20
	maxPDFDepth = 64
)

// pdfPage is a page and the resources it draws with: its own, or those
// it inherits from the nearest node above it in the page tree that has
// some.
type pdfPage struct {
	pdf.Page
	res pdf.Value
}

// fonts returns the names of the page's fonts.
func (p pdfPage) fonts() []string { return p.res.Key("Font").Keys() }

// font returns the page's font name.
func (p pdfPage) font(name string) pdf.Font { return pdf.Font{V: p.res.Key("Font").Key(name)} }

// pdfPages calls fn with each page of the page tree in order, stopping at
// its first error. The library's own lookup (Reader.Page) loops forever on
// a tree that contains itself; this walk is bounded in depth and in nodes
// visited, and holds no page beyond the one fn reads. It passes each page
// the resources it inherits, found on the way down: the library's lookup
// (Page.Resources) reads the page's /Parent chain again for each page and
// each font, so that a tree of one node over 4,000 pages read its 4,000
// kids 4,000 times over (15 s; 20,000 pages in 1.9 MB ran to the
// deadline), and loops on a chain that does.
func pdfPages(ctx context.Context, root pdf.Value, fn func(pdfPage) error) error {
	visited := 0
	var walk func(v, res pdf.Value, depth int) error
	walk = func(v, res pdf.Value, depth int) error {
		if visited++; visited > maxPDFNodes {
			return malformed("PDF", errors.New("the page tree has too many nodes (a cycle?)"))
		}
		if visited%1024 == 0 {
			if err := ctx.Err(); err != nil {
				return err
			}
		}
		if depth > maxPDFDepth {
			return malformed("PDF", errors.New("the page tree is nested too deep (a cycle?)"))
		}
		if r := v.Key("Resources"); r.Kind() == pdf.Dict {
			res = r
		}
		kids := v.Key("Kids")
		switch {
		case v.Key("Type").Name() == "Pages" || kids.Kind() == pdf.Array:
			for i := 0; i < kids.Len(); i++ {
				if err := walk(kids.Index(i), res, depth+1); err != nil {
					return err
				}
			}
		case v.Kind() == pdf.Dict:
			return fn(pdfPage{pdf.Page{V: v}, res})
		}
		return nil
	}
	return walk(root, pdf.Value{}, 0)
}

// xrefFields are the indexes of the library's unexported cross-reference
// table in its Reader and, in an entry, of inStream (bool), of stream's
// object number (uint32) and of offset (int64); nil when the library's
// types are not as expected. They are looked up on first use.
var xrefFields = sync.OnceValue(func() []int {
	table, ok := reflect.TypeFor[pdf.Reader]().FieldByName("xref")
	if !ok || table.Type.Kind() != reflect.Slice {
		return nil
	}
	e := table.Type.Elem()
	in, ok1 := e.FieldByName("inStream")
	st, ok2 := e.FieldByName("stream")
	off, ok3 := e.FieldByName("offset")
	if !ok1 || !ok2 || !ok3 || in.Type.Kind() != reflect.Bool || st.Type.Kind() != reflect.Struct || off.Type.Kind() != reflect.Int64 {
		return nil
	}
	id, ok := st.Type.FieldByName("id")
	if !ok || id.Type.Kind() != reflect.Uint32 {
		return nil
	}
	return []int{table.Index[0], in.Index[0], st.Index[0], id.Index[0], off.Index[0]}
})

// checkXref refuses two shapes of object streams that the library follows
// without a bound: an object stored in an object stream that is itself
// stored in one, which the library resolves by recursing along the chain,
// without end on a cycle, until the stack overflow kills the process (the
// format forbids it: a stream is never a compressed object); and a cycle
// of /Extends, which it searches for the object forever. The table is not
// exported; it is read through reflect.
func checkXref(ctx context.Context, r io.ReaderAt, size int64, rd *pdf.Reader) error {
	xrefFields := xrefFields()
	if xrefFields == nil {
		return errors.New("the PDF library's cross-reference table cannot be checked")
	}
	table := reflect.ValueOf(rd).Elem().Field(xrefFields[0])
	n := table.Len()
	inStream := func(i int) bool { return table.Index(i).Field(xrefFields[1]).Bool() }
	// state: 1 while on the /Extends chain being followed, 2 once checked
	state := make([]byte, n)
	for i := range n {
		if !inStream(i) {
			continue
		}
		s := int(table.Index(i).Field(xrefFields[2]).Field(xrefFields[3]).Uint())
		if s < n && inStream(s) {
			return fmt.Errorf("object %d is stored in object stream %d, which is itself stored in an object stream", i, s)
		}
		var chain []int
		for cur := s; cur < n && state[cur] != 2; {
			if state[cur] == 1 {
				return fmt.Errorf("the /Extends entries of object stream %d lead back to object stream %d", s, cur)
			}
			state[cur] = 1
			chain = append(chain, cur)
			if inStream(cur) {
				break
			}
			next, err := extendsOf(ctx, r, size, table.Index(cur).Field(xrefFields[4]).Int())
			if err != nil || next < 0 {
				return err
			}
			cur = int(min(next, int64(n)))
		}
		for _, c := range chain {
			state[c] = 2
		}
	}
	return nil
}

// extendsOf returns the object number that the /Extends entry of the
// dictionary of the object at off ("id gen obj << ... >>") refers to; -1
// when it has none.
func extendsOf(ctx context.Context, r io.ReaderAt, size, off int64) (int64, error) {
	if off <= 0 || off >= size {
		return -1, nil
	}
	l := newPDFLexer(io.NewSectionReader(r, off, size-off), smallPDFBuffer)
	l.next()
	l.next()
	l.next()
	return dictInt(ctx, l, "Extends")
}

// checkPrev refuses a file whose chain of cross-reference sections, from
// the last startxref through the /Prev entry of each section's trailer,
// comes back to a section already read: the library reads such a chain
// forever. The sections are found as the library finds them, and the
// cycle by Brent's method, in constant memory however long the chain.
func checkPrev(ctx context.Context, r io.ReaderAt, size int64) error {
	const endChunk = 100 // the library looks for startxref in the last 100 bytes
	buf := make([]byte, endChunk)
	r.ReadAt(buf, size-endChunk)
	buf = bytes.TrimRight(buf, "\r\n\t ")
	i := -1
	for end := len(buf); ; {
		i = bytes.LastIndex(buf[:end], []byte("startxref"))
		if i <= 0 || i+len("startxref") >= len(buf) {
			return nil
		}
		if c, d := buf[i-1], buf[i+len("startxref")]; (c == '\n' || c == '\r') && (d == '\n' || d == '\r') {
			break
		}
		end = i
	}
	pos := size - endChunk + int64(i)
	l := newPDFLexer(io.NewSectionReader(r, pos, size-pos), smallPDFBuffer)
	l.next()
	off, ok := l.next().intValue()
	if !ok {
		return nil
	}
	tortoise, power, steps := off, 1, 0
	for n := 1; ; n++ {
		if n%4096 == 0 {
			if err := ctx.Err(); err != nil {
				return err
			}
		}
		next, err := prevSection(ctx, r, size, off)
		if err != nil || next < 0 {
			return err
		}
		if next == tortoise {
			return fmt.Errorf("the /Prev entries of the cross-reference sections lead back to the section at byte %d", next)
		}
		if steps++; steps == power {
			tortoise, power, steps = next, power*2, 0
		}
		off = next
	}
}

// prevSection returns the /Prev of the cross-reference section at off, a
// table and its trailer or a cross-reference stream; -1 when it has none
// or there is no section there.
func prevSection(ctx context.Context, r io.ReaderAt, size, off int64) (int64, error) {
	if off < 0 || off >= size {
		return -1, nil
	}
	l := newPDFLexer(io.NewSectionReader(r, off, size-off), smallPDFBuffer)
	t := l.next()
	if t.is("xref") {
		// the table: numbers and the keywords n and f, up to "trailer"
		for k := 0; ; k++ {
			if k%4096 == 4095 {
				if err := ctx.Err(); err != nil {
					return 0, err
				}
			}
			t = l.next()
			if t.is("trailer") {
				break
			}
			if t.kind != tokNumber && !t.is("n") && !t.is("f") {
				return -1, nil
			}
		}
	} else {
		l.next()
		l.next()
	}
	return dictInt(ctx, l, "Prev")
}

// dictInt reads the rest of a dictionary whose "<<" l has read and
// returns the number after its key (at its own level, the last if the key
// repeats, the first number of a reference); -1 when there is none.
func dictInt(ctx context.Context, l *pdfLexer, key string) (int64, error) {
	if t := l.next(); t.kind != tokOpen || t.size != 2 {
		return -1, nil
	}
	found, after := int64(-1), false
	for depth, k := 1, 0; depth > 0; k++ {
		if k%4096 == 4095 {
			if err := ctx.Err(); err != nil {
				return 0, err
			}
		}
		t := l.next()
		switch t.kind {
		case tokEOF:
			return found, nil
		case tokOpen:
			depth++
		case tokClose:
			depth--
		}
		if v, ok := t.intValue(); ok && after && depth == 1 {
			found = v
		}
		after = depth == 1 && t.kind == tokName && string(t.text) == key
	}
	return found, nil
}

// pdfAbort carries ctx's error out of the interpreter, which has no other
// way to stop.
type pdfAbort struct{ err error }

// pageText checks the streams of one page, adding their bytes to *work,
// and lays out its glyphs.
func pageText(ctx context.Context, p pdfPage, work *int64) (s string, err error) {
	defer func() {
		if r := recover(); r != nil {
			if a, ok := r.(pdfAbort); ok {
				s, err = "", a.err
				return
			}
			s, err = "", fmt.Errorf("bad content stream (%v)", r)
		}
	}()
	if err := checkStreams(ctx, p, work); err != nil {
		return "", err
	}
	var l pdfLayout
	interpretPage(ctx, p, l.add)
	return strings.TrimSpace(l.b.String()), nil
}

// pdfLayout lays glyphs out as lines of text as they are drawn.
type pdfLayout struct {
	b                  text
	lineY, endX, size  float64
	started, lastSpace bool
}

// add lays out one glyph: its text, font size, position and width.
func (l *pdfLayout) add(s string, fontSize, x, y, w float64) {
	if s == "" || s == "\n" {
		return
	}
	fs := math.Max(fontSize, 1)
	if l.started {
		switch dy := l.lineY - y; {
		case math.Abs(dy) > 0.6*math.Max(fs, l.size):
			l.b.WriteByte('\n')
			if dy > 2*math.Max(fs, l.size) {
				l.b.WriteByte('\n')
			}
			l.lineY, l.lastSpace = y, true
		case x-l.endX > 0.2*fs && !l.lastSpace && s != " ":
			l.b.WriteByte(' ')
		}
	} else {
		l.lineY, l.started = y, true
	}
	l.b.WriteString(s)
	l.endX, l.size = x+w, fs
	l.lastSpace = s == " "
}

// maxContent caps the decoded content of one page, and maxCMap a font's
// ToUnicode map, which the library parses without the operand bounds
// (a CMap defines names that push values).
const (
	maxContent = 64 << 20
	maxCMap    = 2 << 20
)

// maxPDFWork bounds the bytes of content and ToUnicode streams that one
// conversion scans and interprets, some 15 MB a second: pages that share
// a stream read it each time, and a file of 120 KB whose 20,000 pages
// draw one stream of 1.2 MB ran until the deadline. A variable so that
// the tests lower it.
var maxPDFWork int64 = 256 << 20

// errPDFWork is the cause of the error that stops the pages at maxPDFWork.
var errPDFWork = errors.New("over maxPDFWork")

// checkStreams refuses a page whose content or ToUnicode streams are over
// the bounds of scanContent or the sizes above, adding their bytes to
// *work; errPDFWork once *work is over maxPDFWork.
func checkStreams(ctx context.Context, p pdfPage, work *int64) error {
	n, err := scanStream(ctx, p.V.Key("Contents"), maxContent, true)
	if *work += n; err != nil {
		return fmt.Errorf("content stream: %w", err)
	}
	for _, name := range p.fonts() {
		n, err := scanStream(ctx, p.font(name).V.Key("ToUnicode"), maxCMap, false)
		if *work += n; err != nil {
			return fmt.Errorf("font %s: ToUnicode: %w", name, err)
		}
	}
	if *work > maxPDFWork {
		return errs.Wrap(errs.TooLarge, errPDFWork, "the pages draw more than %s of content streams and font maps in all (a stream that pages share counts for each)", dirtree.FormatBytes(maxPDFWork))
	}
	return nil
}

// scanStream checks a stream, or an array of streams read as one, with
// scanContent (operands: with its operand bounds) and its size against
// limit, and returns the bytes it read.
func scanStream(ctx context.Context, v pdf.Value, limit int64, operands bool) (int64, error) {
	var rd io.Reader
	switch v.Kind() {
	case pdf.Stream:
		rd = v.Reader()
	case pdf.Array:
		var rs []io.Reader
		for i := 0; i < v.Len(); i++ {
			if v.Index(i).Kind() == pdf.Stream {
				rs = append(rs, v.Index(i).Reader())
			}
		}
		rd = io.MultiReader(rs...)
	default:
		return 0, nil
	}
	cr := &countReader{r: io.LimitReader(rd, limit+1)}
	if err := scanContent(ctx, cr, operands); err != nil {
		return cr.n, err
	}
	if cr.n > limit {
		return cr.n, fmt.Errorf("more than %d MiB", limit>>20)
	}
	return cr.n, nil
}

// countReader counts the bytes read through it.
type countReader struct {
	r io.Reader
	n int64
}

func (c *countReader) Read(b []byte) (int, error) {
	n, err := c.r.Read(b)
	c.n += int64(n)
	return n, err
}
