package read

import (
	"bytes"
	"context"
	"errors"
	"io"
	"io/fs"
	"path"
	"strings"

	"github.com/scoutkit/scout/internal/conflict"
	"github.com/scoutkit/scout/internal/convert"
	"github.com/scoutkit/scout/internal/dirtree"
	"github.com/scoutkit/scout/internal/errs"
	"github.com/scoutkit/scout/internal/fsx"
	"github.com/scoutkit/scout/internal/hashline"
	"github.com/scoutkit/scout/internal/image"
	"github.com/scoutkit/scout/internal/notebook"
	"github.com/scoutkit/scout/internal/pathutil"
	"github.com/scoutkit/scout/internal/selector"
	"github.com/scoutkit/scout/internal/summary"
	"github.com/scoutkit/scout/internal/textio"
)

// file reads a regular file: a notebook, a document, an image, the
// conflicts index, a summary, a binary notice or its lines.
func (r *reader) file(ctx context.Context, name string, info fs.FileInfo, sel selector.Selector) (*Result, error) {
	display := pathutil.Display(name)
	ext := strings.ToLower(path.Ext(name))
	if !sel.Raw && !sel.Conflicts {
		if c, ok := r.converter(ext); ok {
			return r.document(ctx, name, display, ext, c, sel)
		}
	}
	if ext == ".ipynb" && !sel.Raw && !sel.Conflicts {
		return r.notebook(ctx, name, display, info, sel)
	}
	f, err := r.c.FS.Open(name)
	if err != nil {
		return nil, openErr(display, err)
	}
	defer f.Close()
	head := make([]byte, textio.SniffBytes)
	k, err := io.ReadFull(f, head)
	if err != nil && err != io.EOF && err != io.ErrUnexpectedEOF {
		return nil, openErr(display, err)
	}
	head = head[:k]
	if _, ok := image.Detect(head); ok && !sel.Conflicts {
		return r.image(name, display)
	}
	enc, binary := textio.Sniff(head)
	if binary {
		return &Result{Kind: KindBinary, Path: display, Bytes: info.Size(),
			Binary: &Binary{Size: info.Size(), MIME: textio.ContentType(head)}}, nil
	}
	// Hold a text of up to 4 MiB (for the tag, the summary and the conflict
	// scan); stream a longer one, which gets no tag. The size is checked
	// on the bytes read too, in case the file is larger than it said.
	dec := textio.Decode(io.MultiReader(bytes.NewReader(head), f), enc)
	var text []byte
	whole := info.Size() <= hashline.MaxTagBytes
	if whole {
		if text, err = io.ReadAll(io.LimitReader(dec, hashline.MaxTagBytes+1)); err != nil {
			return nil, openErr(display, err)
		}
		whole = len(text) <= hashline.MaxTagBytes
	}
	src := io.MultiReader(bytes.NewReader(text), dec)
	if sel.Conflicts {
		return r.conflicts(display, io.LimitReader(src, conflict.MaxScanBytes+1))
	}
	if whole && !sel.Raw && len(sel.Ranges) == 0 && !r.c.NoSummaries {
		if s, ok := summary.Summarize(name, text); ok && s.ElidedLines > 0 && r.shorter(s) {
			res := &Result{Kind: KindSummary, Path: display, Source: SourceFile, Bytes: info.Size(), TotalLines: s.TotalLines, Tag: hashline.Tag(text), Summary: s}
			summaryLines(res)
			return res, nil
		}
	}
	res, err := r.lines(ctx, src, sel, r.plan(sel, textio.PlanOptions{Limit: r.c.Limit}), SourceFile)
	if err != nil {
		return nil, err
	}
	res.Path, res.Bytes = display, info.Size()
	setEncoding(res, enc)
	if !whole {
		text = nil
	} else if !sel.Raw {
		res.Tag = hashline.Tag(text)
	}
	r.conflictFooter(res, text)
	return res, nil
}

// shorter reports whether the summary s is worth showing instead of the
// file's lines: it shows no more than one read shows (textio.MaxLimit rows
// within the byte budget of as many lines), and either no more rows than
// an open-ended read shows lines (the limit) or at most half the file's
// lines. A summary that keeps most of a large file (a file that is mostly
// one literal) is no shorter than the file: the file is then read as
// lines, paged from line 1 with the usual continuation.
func (r *reader) shorter(s *summary.Summary) bool {
	rows := len(s.Rows)
	if rows > textio.MaxLimit {
		return false
	}
	size := 0
	for _, row := range s.Rows {
		size += len(row.Text) + len(row.Tail) + len(" .. ") + 1
	}
	if size > max(textio.MinByteBudget, rows*textio.BytesPerLine) {
		return false
	}
	return rows <= textio.ClampLimit(r.c.Limit) || 2*rows <= s.TotalLines
}

// summaryLines sets the blocks of res, a code summary: its kept lines (a
// row's, a merged row's first and last) in runs of consecutive lines, each
// cut to the column cap as a text read cuts its lines (Line.Cut and Bytes,
// Result.ColumnCap).
func summaryLines(res *Result) {
	keep := func(n int, text string) {
		line := Line{N: n, Text: text}
		if t, ok := textio.CapRunes(text, textio.MaxColumns); ok {
			line.Text, line.Cut, line.Bytes = t, true, len(text)
			res.ColumnCap = textio.MaxColumns
		}
		if k := len(res.Blocks); k > 0 && res.Blocks[k-1].End == n-1 {
			res.Blocks[k-1].End = n
			res.Blocks[k-1].Lines = append(res.Blocks[k-1].Lines, line)
			return
		}
		res.Blocks = append(res.Blocks, Block{Start: n, End: n, Lines: []Line{line}})
	}
	for _, r := range res.Summary.Rows {
		switch r.Kind {
		case summary.RowLine:
			keep(r.Start, r.Text)
		case summary.RowMerged:
			keep(r.Start, r.Text)
			keep(r.End, r.Tail)
		}
	}
}

func setEncoding(res *Result, enc textio.Encoding) {
	if enc != textio.UTF8 {
		res.Encoding = string(enc)
	}
}

// openErr wraps an error met while opening or reading a file.
func openErr(display string, err error) error {
	if e, ok := err.(*errs.Error); ok {
		return e
	}
	code := errs.CodeOf(err)
	if code == errs.InvalidParam {
		code = errs.Internal // fs.ErrInvalid from a read is not the caller's fault
	}
	return errs.Wrap(code, err, "Cannot read '%s': %v", errs.Echo(display), err)
}

// countLimit is how far a read goes past the lines it shows, to count the
// lines of the rest, and how far into any one line (see
// textio.Options.CountLimit): the first lines of a 100 GB file, and a line
// asked for past a 100 GB run of NUL bytes, cost at most this much
// reading, and the total is then "at least".
const countLimit = 64 << 20

// plan returns the windows of the lines sel selects, read with po (Raw is
// taken from sel, the context lines from the configuration).
func (r *reader) plan(sel selector.Selector, po textio.PlanOptions) []textio.Window {
	po.Raw, po.Before, po.After = sel.Raw, r.c.Before, r.c.After
	return textio.Plan(lineRanges(sel), po)
}

// lines collects the lines of a text in wins, planned for sel by plan.
func (r *reader) lines(ctx context.Context, src io.Reader, sel selector.Selector, wins []textio.Window, source string) (*Result, error) {
	col, err := textio.Collect(ctx, src, wins, textio.Options{Raw: sel.Raw, MaxColumns: textio.MaxColumns, CountLimit: countLimit})
	if err != nil {
		var e *errs.Error
		switch {
		case ctx.Err() != nil:
			return nil, errs.Stopped(ctx, "Read", ctx.Err())
		case errors.As(err, &e):
			return nil, e // a source's own coded error (an archive member over its cap, say)
		}
		return nil, errs.Wrap(errs.CodeOf(err), err, "Cannot read the text: %v", err)
	}
	res := &Result{Kind: KindText, Source: source, Raw: sel.Raw, TotalLines: col.Total, TotalLinesAtLeast: col.TotalAtLeast, Bytes: col.Bytes, Lossy: col.Lossy}
	for i, b := range col.Blocks {
		rg := rangeAt(sel, i)
		blk := Block{Start: rg.Start, End: rg.End}
		for _, l := range b.Lines {
			line := Line{N: l.N, Text: l.Text, Cut: l.Cut}
			if l.Cut {
				line.Bytes = l.Bytes
				if !sel.Raw {
					res.ColumnCap = textio.MaxColumns
				} else if res.Truncated == "" {
					res.Truncated = TruncBytes // a raw line cut at the byte budget
				}
			}
			blk.Lines = append(blk.Lines, line)
		}
		// A block that ends in the line where reading stopped (a line over
		// the count limit) has nothing after it to continue with.
		more := b.Last() < col.Total
		switch {
		case len(blk.Lines) == 0:
			blk.BeyondEnd = true
		case b.Stop != textio.StopNone && more:
			blk.Truncated, blk.Next = TruncLimit, b.Last()+1
			if b.Stop == textio.StopBytes {
				blk.Truncated, blk.ByteLimit = TruncBytes, wins[i].MaxBytes
			}
			if res.Truncated == "" {
				res.Truncated = blk.Truncated
			}
		case more:
			blk.Next = b.Last() + 1
		}
		res.Blocks = append(res.Blocks, blk)
	}
	if len(wins) == 1 {
		b := &res.Blocks[0]
		b.BeyondEnd = false
		if start := max(b.Start, 1); start > col.Total && (col.Total > 0 || start > 1) {
			res.BeyondEnd = start
			res.Blocks = nil
		} else {
			res.Next = b.Next
		}
	}
	return res, nil
}

// rangeAt returns the i-th requested range of sel; no ranges means 1 to
// the end.
func rangeAt(sel selector.Selector, i int) selector.Range {
	if i < len(sel.Ranges) {
		return sel.Ranges[i]
	}
	return selector.Range{Start: 1}
}

// lineRanges returns the ranges of sel for textio.
func lineRanges(sel selector.Selector) []textio.Range {
	out := make([]textio.Range, len(sel.Ranges))
	for i, r := range sel.Ranges {
		out[i] = textio.Range{Start: r.Start, End: r.End}
	}
	return out
}

// conflictFooter adds the conflict blocks the shown lines hold, and how
// many the text has, to a single-range read. whole is the whole text when
// it is in memory.
func (r *reader) conflictFooter(res *Result, whole []byte) {
	if res.Raw || len(res.Blocks) != 1 || len(res.Blocks[0].Lines) == 0 {
		return
	}
	b := res.Blocks[0]
	from, to := b.Lines[0].N, b.Lines[len(b.Lines)-1].N
	var all []conflict.Block
	if whole != nil {
		if !bytes.Contains(whole, []byte("<<<<<<<")) {
			return
		}
		all = conflict.Parse(whole)
	} else {
		texts := make([]string, len(b.Lines))
		for i, l := range b.Lines {
			texts[i] = l.Text
		}
		all = conflict.ParseLines(texts, from)
	}
	if visible := conflict.Within(all, from, to); len(visible) > 0 {
		res.Conflicts = &Conflicts{Blocks: visible, Total: len(all)}
	}
}

// conflicts reads the :conflicts index of a text.
func (r *reader) conflicts(display string, src io.Reader) (*Result, error) {
	text, err := io.ReadAll(src)
	if err != nil {
		return nil, openErr(display, err)
	}
	cut := len(text) > conflict.MaxScanBytes
	if cut {
		text = text[:conflict.MaxScanBytes]
	}
	blocks := conflict.Parse(text)
	return &Result{Kind: KindConflicts, Path: display, Conflicts: &Conflicts{Blocks: blocks, Total: len(blocks), ScanCut: cut}}, nil
}

// converter returns the document converter for ext: the host's, else the
// built-in one.
func (r *reader) converter(ext string) (convert.Converter, bool) {
	if c, ok := r.c.Converters[ext]; ok && c != nil {
		return convert.Safe(c), true
	}
	return convert.For(ext)
}

// ConversionError is the cause of the error of a document that could not
// be converted: the converter's error, for a caller that shows such a
// document as a notice rather than an error.
type ConversionError struct {
	Err error // the converter's error
}

func (e *ConversionError) Error() string { return e.Err.Error() }

// Unwrap returns the converter's error.
func (e *ConversionError) Unwrap() error { return e.Err }

// document converts a document and pages its text in memory (line
// selectors apply to the converted text). A document converted in part is
// read as far as it goes, Incomplete saying why; a failed conversion is an
// error whose cause is a *ConversionError and whose Path is the document.
func (r *reader) document(ctx context.Context, name, display, ext string, c convert.Converter, sel selector.Selector) (*Result, error) {
	ra, err := fsx.OpenReaderAt(r.c.FS, name, 256<<20)
	if err != nil {
		return nil, openErr(display, err)
	}
	defer ra.Close()
	text, err := c.Convert(ctx, ra, ra.Size())
	var part *errs.Partial
	if err != nil && !errors.As(err, &part) {
		if ctx.Err() != nil {
			return nil, errs.Stopped(ctx, "Read", ctx.Err())
		}
		code := errs.Unsupported // a host converter's own error
		var e *errs.Error
		if errors.As(err, &e) {
			code = e.Code
		}
		failed := errs.Wrap(code, &ConversionError{Err: err}, "Cannot read %s file: %s: %v. Read '%s:raw' to get the file as it is.", ext, errs.Echo(display), err, errs.Echo(display))
		failed.Path = display
		return nil, failed
	}
	res, err := r.memory(ctx, text, sel, memoryPlan, SourceDocument, true)
	if err != nil {
		return nil, err
	}
	res.Path, res.Bytes = display, ra.Size()
	if part != nil {
		res.Incomplete = part.Reason
	}
	return res, nil
}

// notebook renders a notebook's cells and pages them in memory; a
// notebook that renders to more than notebook.MaxOutput is read as far as
// that, Incomplete saying so.
func (r *reader) notebook(ctx context.Context, name, display string, info fs.FileInfo, sel selector.Selector) (*Result, error) {
	if info.Size() > notebook.MaxBytes {
		return nil, errs.New(errs.TooLarge, "Notebook '%s' is %s, over the %s limit. Read it with :raw and a line range, e.g. %s:1-200:raw.",
			errs.Echo(display), dirtree.FormatBytes(info.Size()), dirtree.FormatBytes(notebook.MaxBytes), errs.Echo(display))
	}
	f, err := r.c.FS.Open(name)
	if err != nil {
		return nil, openErr(display, err)
	}
	defer f.Close()
	text, err := notebook.Render(ctx, f)
	var part *errs.Partial
	if err != nil && !errors.As(err, &part) {
		var e *errs.Error
		switch {
		case ctx.Err() != nil:
			return nil, errs.Stopped(ctx, "Read", ctx.Err())
		case errors.As(err, &e):
			return nil, errs.Wrap(e.Code, err, "Cannot read notebook '%s': %s.", errs.Echo(display), e.Message) // the message says to use :raw
		}
		return nil, openErr(display, err)
	}
	res, err := r.memory(ctx, text, sel, memoryPlan, SourceNotebook, false)
	if err != nil {
		return nil, err
	}
	res.Path, res.Bytes = display, info.Size()
	if part != nil {
		res.Incomplete = part.Reason
	}
	return res, nil
}

// image reads an image's metadata, and its bytes unless the host asked for
// metadata only.
func (r *reader) image(name, display string) (*Result, error) {
	ra, err := fsx.OpenReaderAt(r.c.FS, name, image.MaxBytes)
	if err != nil {
		if e, ok := err.(*fs.PathError); ok && e.Err == fsx.ErrTooLarge {
			return nil, errs.New(errs.TooLarge, "Image '%s' is over the %s limit for images.", errs.Echo(display), dirtree.FormatBytes(image.MaxBytes))
		}
		return nil, openErr(display, err)
	}
	defer ra.Close()
	res := &Result{Kind: KindImage, Path: display, Bytes: ra.Size()}
	var info image.Info
	if r.c.ImageMetadataOnly {
		info, err = image.Inspect(ra, ra.Size())
	} else {
		info, res.ImageData, err = image.Load(ra, ra.Size())
	}
	if err != nil {
		var e *errs.Error
		if errors.As(err, &e) {
			return nil, errs.Wrap(e.Code, err, "Cannot read image '%s': %s", errs.Echo(display), e.Message)
		}
		return nil, openErr(display, err)
	}
	res.Image = &info
	return res, nil
}

// memoryPlan is the plan of an in-memory text: 3000 lines / 50 KB with no
// selector.
var memoryPlan = textio.PlanOptions{Limit: textio.MaxLimit, HeadBytes: textio.MinByteBudget}

// memory pages a text held in memory, planned with po (see plan).
// Mutable texts get a tag.
func (r *reader) memory(ctx context.Context, text string, sel selector.Selector, po textio.PlanOptions, source string, immutable bool) (*Result, error) {
	res, err := r.lines(ctx, strings.NewReader(text), sel, r.plan(sel, po), source)
	if err != nil {
		return nil, err
	}
	res.Immutable, res.Bytes = immutable, int64(len(text))
	if !sel.Raw && !immutable && len(text) <= hashline.MaxTagBytes {
		res.Tag = hashline.Tag([]byte(text))
	}
	return res, nil
}
