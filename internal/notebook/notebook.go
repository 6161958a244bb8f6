// Package notebook renders a Jupyter notebook (.ipynb) as editable text:
// one `# %% [code|markdown|raw] cell:N` header per cell, followed by the
// cell's source. Outputs, execution counts and metadata are hidden.
//
// nbformat 4 (cells at the top level) and nbformat 3 (cells inside
// worksheets, code in "input", heading cells) are read. A source may be a
// string or an array of strings, which are concatenated as they are.
package notebook

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/scoutkit/scout/internal/dirtree"
	"github.com/scoutkit/scout/internal/errs"
	"github.com/scoutkit/scout/internal/jsonobj"
)

// MaxBytes is the largest notebook file Render accepts. Outputs such as
// embedded images make notebooks large, so the cap is well above the text
// a model can use; the caller should check the size before reading.
const MaxBytes = 64 << 20

// MaxCellBytes is the largest source of a single cell.
const MaxCellBytes = 1 << 20

// MaxOutput is the most text Render returns: the cells past it are left
// out and reported. A notebook of many small cells renders to a header of
// some 25 bytes per cell, several times its size in JSON.
const MaxOutput = 16 << 20

// inputCap and outputCap are MaxBytes and MaxOutput, the bounds Render
// applies; the tests lower them to reach them with small notebooks.
var inputCap, outputCap = MaxBytes, MaxOutput

// rawHint ends every error: :raw reads the file as plain text.
const rawHint = "read the file with the :raw selector to see it as plain text"

type cell struct {
	Type   string     `json:"cell_type"`
	Source sourceText `json:"source"`
	Input  sourceText `json:"input"` // nbformat 3 code cells
}

// Render returns the text of the notebook that r holds: each cell as
// `# %% [type] cell:i` (i counts from 0), a newline and its source; an
// empty cell is its header alone; cells are joined with "\n". A notebook
// without cells renders as "". The notebook is decoded one cell at a time
// and ctx is checked every 1024 cells. Past MaxOutput bytes of text the
// rest is left out: the text comes with an *errs.Partial that says from
// which cell. Any other error, an *errs.Error, says what is wrong:
// TooLarge for a file or cell over the caps, Unsupported for text that is
// not a notebook, Canceled or Timeout for ctx.
func Render(ctx context.Context, r io.Reader) (string, error) {
	lr := &limitReader{r: r, n: int64(inputCap)}
	nb := &renderer{ctx: ctx, d: json.NewDecoder(&shallowReader{r: lr})}
	text, err := nb.run()
	if err != nil {
		var e *errs.Error
		var p *errs.Partial
		switch {
		case lr.over:
			return "", errs.New(errs.TooLarge, "notebook is over the %s limit; %s", size(inputCap), rawHint)
		case errors.As(err, &e), errors.As(err, &p):
		case ctx.Err() != nil:
			return "", errs.Wrap(errs.CodeOf(ctx.Err()), ctx.Err(), "notebook rendering stopped: %v", ctx.Err())
		default:
			err = errs.Wrap(errs.Unsupported, err, "notebook is not valid JSON (%s); %s", jsonProblem(lr.read, nb.at, err), rawHint)
		}
		if p == nil {
			return "", err
		}
	}
	return text, err
}

// renderer is one Render in progress.
type renderer struct {
	ctx context.Context
	d   *json.Decoder
	b   chunks
	n   int   // cells rendered
	at  int64 // where the token or value read last starts
	c   cell  // the cell being decoded, kept from one cell to the next
	num []byte
}

// chunks is the text rendered, held in chunks of up to chunkSize bytes and
// joined once at the end: a strings.Builder grows a large buffer by a
// quarter at a time, and its copies took 97 MiB to reach MaxOutput.
type chunks struct {
	full [][]byte // chunks of chunkSize bytes
	cur  []byte
	n    int // bytes in all
}

const chunkSize = 1 << 20

func (c *chunks) Write(p []byte)       { write(c, p) }
func (c *chunks) WriteString(s string) { write(c, s) }

func (c *chunks) writeByte(b byte) {
	c.room(1)
	c.cur = append(c.cur, b)
	c.n++
}

// room starts a new chunk when the current one is full, and makes room
// for n more bytes in it, up to chunkSize: the first chunk doubles from
// 512 bytes (appends grow by a quarter past 256).
func (c *chunks) room(n int) {
	if len(c.cur) == chunkSize {
		c.full = append(c.full, c.cur)
		c.cur = make([]byte, 0, chunkSize)
	}
	if n = min(n, chunkSize-len(c.cur)); n > cap(c.cur)-len(c.cur) {
		cur := make([]byte, len(c.cur), min(max(2*cap(c.cur), len(c.cur)+n, 512), chunkSize))
		copy(cur, c.cur)
		c.cur = cur
	}
}

func write[T string | []byte](c *chunks, p T) {
	c.n += len(p)
	for len(p) > 0 {
		c.room(len(p))
		k := min(len(p), chunkSize-len(c.cur))
		c.cur = append(c.cur, p[:k]...)
		p = p[k:]
	}
}

func (c *chunks) Len() int { return c.n }
func (c *chunks) Reset()   { *c = chunks{} }

func (c *chunks) String() string {
	var b strings.Builder
	b.Grow(c.n)
	for _, p := range c.full {
		b.Write(p)
	}
	b.Write(c.cur)
	return b.String()
}

// token reads the next token, noting where it starts.
func (nb *renderer) token() (json.Token, error) {
	nb.at = nb.d.InputOffset()
	return nb.d.Token()
}

// decode reads the next value into v, noting where it starts.
func (nb *renderer) decode(v any) error {
	nb.at = nb.d.InputOffset()
	return nb.d.Decode(v)
}

// run reads the top-level object: "cells" (nbformat 4) wins over
// "worksheets" (nbformat 3), whichever comes first in the file.
func (nb *renderer) run() (string, error) {
	if err := nb.object(""); err != nil {
		return "", err
	}
	found, v4 := false, false
	for nb.d.More() {
		tok, err := nb.token()
		if err != nil {
			return "", err
		}
		switch key, _ := tok.(string); {
		case key == "cells" && !v4, key == "worksheets" && !v4:
			var ok bool
			if ok, err = nb.array(key); err != nil || !ok {
				break // null: as if it were absent
			}
			found = true
			if key == "cells" {
				nb.b.Reset()
				nb.n, v4 = 0, true
				err = nb.cells()
			} else {
				err = nb.worksheets()
			}
		default:
			err = nb.skip()
		}
		if err != nil {
			return nb.b.String(), err
		}
	}
	if !found {
		return "", errs.New(errs.Unsupported, `notebook has no "cells" array (nbformat 4) or "worksheets" (nbformat 3); %s`, rawHint)
	}
	return nb.b.String(), nil
}

// array reads the start of the value of field key: true for an array,
// false for null, an error for anything else.
func (nb *renderer) array(key string) (bool, error) {
	off := nb.d.InputOffset()
	tok, err := nb.token()
	switch {
	case err != nil:
		return false, err
	case tok == nil:
		return false, nil
	case tok == json.Delim('['):
		return true, nil
	}
	return false, errs.New(errs.Unsupported, "notebook is not valid JSON (field %q holds a JSON %s at byte %d, not an array); %s", key, jsonKind(tok), off, rawHint)
}

// object reads the start of an object: the top level or a worksheet.
func (nb *renderer) object(what string) error {
	off := nb.d.InputOffset()
	tok, err := nb.token()
	if err != nil || tok == json.Delim('{') {
		return err
	}
	if what == "" {
		return errs.New(errs.Unsupported, "notebook is not valid JSON (the top level is a JSON %s, not an object); %s", jsonKind(tok), rawHint)
	}
	return errs.New(errs.Unsupported, "notebook is not valid JSON (%s at byte %d is a JSON %s, not an object); %s", what, off, jsonKind(tok), rawHint)
}

// skip reads a value that is not rendered.
func (nb *renderer) skip() error {
	return nb.decode(&skipped{})
}

// skipped decodes a JSON value into nothing, without the copy that a
// json.RawMessage of it would be.
type skipped struct{}

func (*skipped) UnmarshalJSON([]byte) error { return nil }

// worksheets renders the cells of each worksheet of nbformat 3, in an
// array whose "[" is read.
func (nb *renderer) worksheets() error {
	for nb.d.More() {
		if err := nb.object("a worksheet"); err != nil {
			return err
		}
		for nb.d.More() {
			tok, err := nb.token()
			if err != nil {
				return err
			}
			var ok bool
			if tok != "cells" {
				err = nb.skip()
			} else if ok, err = nb.array("cells"); ok {
				err = nb.cells()
			}
			if err != nil {
				return err
			}
		}
		if _, err := nb.token(); err != nil { // }
			return err
		}
	}
	_, err := nb.token() // ]
	return err
}

// cells renders the cells of an array whose "[" is read, numbering on
// from nb.n.
func (nb *renderer) cells() error {
	for nb.d.More() {
		if nb.n%1024 == 0 {
			if err := nb.ctx.Err(); err != nil {
				return err
			}
		}
		if nb.b.Len() >= outputCap {
			return &errs.Partial{Reason: fmt.Sprintf("the notebook renders to more than %s of text: cells from %d on are not shown (read the file with :raw and a line range to see them as JSON)", size(outputCap), nb.n)}
		}
		off := nb.d.InputOffset()
		nb.c = cell{}
		if err := nb.decode(&nb.c); err != nil {
			var typ *json.UnmarshalTypeError
			if errors.As(err, &typ) {
				return errs.Wrap(errs.Unsupported, err, "notebook is not valid JSON (cell %d at byte %d is a JSON %s, not an object); %s", nb.n, off, typ.Value, rawHint)
			}
			return err
		}
		if err := nb.cell(&nb.c); err != nil {
			return err
		}
	}
	_, err := nb.token() // ]
	return err
}

// cell renders one cell.
func (nb *renderer) cell(c *cell) error {
	i := nb.n
	nb.n++
	src := c.Source
	if c.Type == "code" && c.Input.set {
		src = c.Input
	}
	if src.err != nil {
		return errs.Wrap(errs.Unsupported, src.err, "notebook cell %d: %v; %s", i, src.err, rawHint)
	}
	if src.size > MaxCellBytes {
		return errs.New(errs.TooLarge, "notebook cell %d is %s, over the %s per-cell limit; %s",
			i, size(src.size), size(MaxCellBytes), rawHint)
	}
	text := src.text
	typ := cellType(c.Type)
	nb.num = strconv.AppendInt(nb.num[:0], int64(i), 10)
	if i > 0 {
		nb.b.writeByte('\n')
	}
	nb.b.WriteString("# %% [")
	nb.b.WriteString(typ)
	nb.b.WriteString("] cell:")
	nb.b.Write(nb.num)
	if text != "" {
		nb.b.writeByte('\n')
		nb.b.WriteString(text)
	}
	return nil
}

// limitReader reads at most n bytes of r; past them it fails (over).
type limitReader struct {
	r    io.Reader
	n    int64
	read int64 // bytes read, for error offsets
	over bool
}

var errOver = errors.New("over the size limit")

func (l *limitReader) Read(p []byte) (int, error) {
	if l.read >= l.n {
		if k, _ := l.r.Read(p[:min(len(p), 1)]); k > 0 {
			l.over = true
			return 0, errOver
		}
		return 0, io.EOF
	}
	if int64(len(p)) > l.n-l.read {
		p = p[:l.n-l.read]
	}
	k, err := l.r.Read(p)
	l.read += int64(k)
	return k, err
}

// keepDepth is the nesting of the JSON that the decoder sees: a cell's
// source lies at depth 4 (nbformat 3: 6), so what lies deeper is never
// rendered, only skipped.
const keepDepth = 64

// shallowReader hands the decoder a notebook with each value nested
// deeper than keepDepth replaced by 0 and spaces, as long as it was, so
// that error offsets stay the file's: encoding/json refuses any value
// nested over 10,000 levels, which a valid output or metadata may be. A
// value so replaced is checked only for ending: its strings closed and its
// brackets balanced.
type shallowReader struct {
	r        io.Reader
	depth    int  // the nesting at the next byte
	str, esc bool // in a string; after its backslash
}

func (s *shallowReader) Read(p []byte) (int, error) {
	n, err := s.r.Read(p)
	for i, c := range p[:n] {
		deep := s.depth > keepDepth
		switch {
		case s.esc:
			s.esc = false
		case s.str:
			s.esc, s.str = c == '\\', c != '"'
		case c == '"':
			s.str = true
		case c == '[' || c == '{':
			if s.depth++; s.depth == keepDepth+1 {
				p[i] = '0'
				continue
			}
		case c == ']' || c == '}':
			s.depth--
		}
		if deep {
			p[i] = ' '
		}
	}
	return n, err
}

// jsonKind names the JSON kind of a token.
func jsonKind(tok json.Token) string {
	switch t := tok.(type) {
	case json.Delim:
		if t == '[' {
			return "array"
		}
		return "object"
	case string:
		return "string"
	case float64, json.Number:
		return "number"
	case bool:
		return "boolean"
	}
	return "null"
}

// cellType maps nbformat 3's heading cells to markdown and keeps the rest;
// a missing type shows as "code", the only kind without a type in the wild.
func cellType(t string) string {
	switch t {
	case "heading":
		return "markdown"
	case "":
		return "code"
	}
	return t
}

// sourceText is a cell's source, a string or an array of strings joined,
// decoded from the JSON as the cell is. The text is kept up to
// MaxCellBytes only, so that a source of tens of MiB is never held whole
// (a source of 15 million one-letter strings took 1 GB as a []string).
type sourceText struct {
	set  bool   // the field is present, null included
	text string // "" when size is over MaxCellBytes
	size int    // bytes of the text
	err  error  // the source is not a string or an array of strings
}

var errSource = errors.New("source must be a string or an array of strings")

// UnmarshalJSON decodes data, a JSON value the decoder has checked.
func (s *sourceText) UnmarshalJSON(data []byte) error {
	*s = sourceText{set: true}
	data = bytes.TrimSpace(data)
	var b strings.Builder
	add := func(tok []byte) { // a JSON string
		part := tok[1 : len(tok)-1]
		if bytes.IndexByte(part, '\\') >= 0 || !utf8.Valid(part) {
			var p string
			json.Unmarshal(tok, &p) // valid: cannot fail; invalid UTF-8 becomes U+FFFD
			part = []byte(p)
		}
		if s.size += len(part); s.size <= MaxCellBytes {
			b.Write(part)
		}
	}
	switch {
	case len(data) == 0 || string(data) == "null":
		return nil
	case data[0] == '"':
		add(data)
	case data[0] == '[':
		jsonobj.Elements(data, func(v []byte) bool {
			switch jsonobj.Kind(v) {
			case "string":
				add(v)
			case "null": // an element left ""
			default:
				s.err = errSource
			}
			return s.err == nil
		})
	default:
		s.err = errSource
	}
	switch {
	case s.err != nil:
		s.size = 0
	case s.size <= MaxCellBytes:
		s.text = b.String()
	}
	return nil
}

// jsonProblem describes a decoding error; read is how many bytes were
// read, at where the broken value starts.
func jsonProblem(read, at int64, err error) string {
	if read == 0 {
		return "the file is empty"
	}
	var syn *json.SyntaxError
	if errors.As(err, &syn) {
		// The decoder's own offset is not the file's: name the value.
		return fmt.Sprintf("%s, in the value at byte %d", syn.Error(), at+1)
	}
	if err == io.ErrUnexpectedEOF || err == io.EOF {
		return fmt.Sprintf("unexpected end of JSON input at byte %d", read)
	}
	return err.Error()
}

// size formats n bytes as listings do.
func size(n int) string { return dirtree.FormatBytes(int64(n)) }
