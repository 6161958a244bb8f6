package tool

import (
	"context"
	"errors"
	"fmt"
	"strings"

	"github.com/scoutkit/scout"
	"github.com/scoutkit/scout/format"
	"github.com/scoutkit/scout/internal/archive"
	"github.com/scoutkit/scout/internal/dirtree"
	"github.com/scoutkit/scout/internal/pitext"
	"github.com/scoutkit/scout/internal/read"
	"github.com/scoutkit/scout/internal/sqlite"
	"github.com/scoutkit/scout/internal/textio"
	"github.com/scoutkit/scout/internal/web"
)

func init() {
	define(Pi, "read", piReadDescription, runPiRead)
}

const piReadDescription = `Read files, directories, archives, SQLite databases, internal resources, images, documents, and URLs through one path string.

- path: relative to the project root (or absolute inside it). End it with a selector:
  :50 (from line 50), :50-100, :50+20 (20 lines), :5-16,960-973 (several ranges), :raw (bytes as they are, no line prefixes), :50-100:raw, :conflicts (merge-conflict blocks).
- A range is widened by 1 line before and 3 after (not with :raw). An open-ended read shows 300 lines; the notice at the end says which selector continues.
- A source file (100+ lines) read without a selector is summarised when that is shorter than the file: bodies elided, the footer names the ranges to re-read. Otherwise its lines show from line 1.
- Directories show a two-level tree, newest first, up to 3000 rows (50 KB) without a selector. Archives: a.zip, a.zip:dir/, a.zip:dir/f.ts:50-60.
- SQLite: app.db (tables), app.db:users (schema and samples), app.db:users:42 (a row), app.db:users?limit=20&offset=20&order=id:desc&where=..., app.db?q=SELECT ...
- Notebooks (.ipynb) read as # %% [code] cell:N text; documents (.pdf, .docx, ...) as converted text. URLs: https://..., www.... (rendered page with a header; page on with :301).
Output: a ¶path#TAG header, then LINE:text rows.`

// piReadArgs are the arguments of pi read.
type piReadArgs struct {
	Path string `json:"path" required:"true" missing:"Path must not be empty: pass a file or directory, e.g. \"README.md\" or \"src/main.go:10-40\"." desc:"Path to read, optionally ending in a selector such as :50-100 or :raw"`
}

// piReadData is the details object of pi read.
type piReadData struct {
	Kind             string        `json:"kind,omitempty"` // "url" for web reads; file reads omit it, as pi's do
	IsDirectory      bool          `json:"isDirectory,omitempty"`
	ResolvedPath     string        `json:"resolvedPath"`
	SuffixResolution *piSuffix     `json:"suffixResolution,omitempty"`
	Truncation       *piTruncation `json:"truncation,omitempty"`
	Summary          *piSummary    `json:"summary,omitempty"`
	URL              string        `json:"url,omitempty"`
	FinalURL         string        `json:"finalUrl,omitempty"`
	ContentType      string        `json:"contentType,omitempty"`
	Method           string        `json:"method,omitempty"`
	Notes            []string      `json:"notes,omitempty"`
	Meta             *piMeta       `json:"meta,omitempty"`
	// DisplayContent is the shown text without line prefixes and the
	// number of its first line, for a host's own rendering (a TUI's
	// gutter): set for a text read of one range that shows lines.
	DisplayContent *piDisplay `json:"displayContent,omitempty"`
	// ConflictCount is the number of merge-conflict blocks the read
	// surfaces: those in the shown lines, or the :conflicts index's; 0
	// (left out) when none.
	ConflictCount int `json:"conflictCount,omitempty"`
	// ContentUnavailable says why a read has no content to show: a
	// document that could not be converted ("conversion-failed"); its
	// Result is then nil.
	ContentUnavailable *piUnavailable    `json:"contentUnavailable,omitempty"`
	Result             *scout.ReadResult `json:"result"`
}

// piDisplay is pi read's details.displayContent.
type piDisplay struct {
	Text      string `json:"text"`      // the shown lines, joined by "\n", a cut line ending in "…" as in the text
	StartLine int    `json:"startLine"` // the number of the first
}

// displayContent returns the shown lines of a text read of one range
// without prefixes; nil for any other read.
func displayContent(res *scout.ReadResult) *piDisplay {
	if res.Kind != scout.ReadKindText || len(res.Blocks) != 1 || len(res.Blocks[0].Lines) == 0 {
		return nil
	}
	lines := res.Blocks[0].Lines
	var b strings.Builder
	for i, l := range lines {
		if i > 0 {
			b.WriteByte('\n')
		}
		b.WriteString(l.Text)
		if l.Cut && !res.Raw {
			b.WriteString("…")
		}
	}
	return &piDisplay{Text: b.String(), StartLine: lines[0].N}
}

type piUnavailable struct {
	Reason string `json:"reason"`
}

// piMeta is the output metadata of pi read (its details.meta): the
// source read, how a single-range read was cut, and the limits that
// triggered. pi search and find use it too, with no Source, for how the
// byte cap cut their text (headCut) and the limits they reached.
type piMeta struct {
	Source     *piSource     `json:"source,omitempty"`
	Truncation *piMetaTrunc  `json:"truncation,omitempty"`
	Limits     *piMetaLimits `json:"limits,omitempty"`
}

type piSource struct {
	Type  string `json:"type"` // "path", "url" or "internal"
	Value string `json:"value"`
}

type piMetaTrunc struct {
	Direction   string  `json:"direction"`   // always "head"
	TruncatedBy string  `json:"truncatedBy"` // "lines" or "bytes"
	TotalLines  int     `json:"totalLines"`
	TotalBytes  int64   `json:"totalBytes"`
	OutputLines int     `json:"outputLines"`
	ShownRange  piRange `json:"shownRange"`
	NextOffset  int     `json:"nextOffset"`
	MaxBytes    int     `json:"maxBytes,omitempty"` // the byte budget, when it was the limit
}

// headCut is the meta.truncation of a text the byte cap cut (search,
// find), or nil when it was not cut.
func headCut(cut *pitext.Cut) *piMetaTrunc {
	if cut == nil {
		return nil
	}
	return &piMetaTrunc{Direction: "head", TruncatedBy: "bytes", TotalLines: cut.TotalLines, TotalBytes: int64(cut.TotalBytes),
		OutputLines: cut.ShownLines, ShownRange: piRange{1, cut.ShownLines}, NextOffset: cut.ShownLines + 1, MaxBytes: cut.MaxBytes}
}

type piRange struct {
	Start int `json:"start"`
	End   int `json:"end"`
}

type piMetaLimits struct {
	ResultLimit     *piReached   `json:"resultLimit,omitempty"`
	ColumnTruncated *piMaxColumn `json:"columnTruncated,omitempty"`
}

// piReached is a list or result cap that was reached. Unlike pi it
// suggests no limit: the text's notice says how to see the rest.
type piReached struct {
	Reached int `json:"reached"`
}

type piMaxColumn struct {
	MaxColumn int `json:"maxColumn"`
}

type piSuffix struct {
	From string `json:"from"`
	To   string `json:"to"`
}

type piTruncation struct {
	Reason     string `json:"reason"` // "lines" or "bytes"
	StartLine  int    `json:"startLine"`
	EndLine    int    `json:"endLine"`
	TotalLines int    `json:"totalLines"`
	TotalBytes int64  `json:"totalBytes"`
	NextOffset int    `json:"nextOffset"`
	ByteLimit  int    `json:"byteLimit,omitempty"`
}

// piSummary is pi's details.summary: counts only (the spans are in
// result.summary.elided).
type piSummary struct {
	Lines       int `json:"lines"`       // rows of the summary text, its footer left out
	ElidedSpans int `json:"elidedSpans"` // spans left out
	ElidedLines int `json:"elidedLines"` // lines left out
}

func runPiRead(ctx context.Context, c *Config, in *piReadArgs) (*scout.Envelope, error) {
	// pi's read settings, and its range widened by 1 line before and 3
	// after.
	r := c.reader(c.workspace())
	pitext.ReadSettings(r)
	res, err := r.Read(ctx, scout.ReadRequest{Path: in.Path, Before: 1, After: 3})
	if err != nil {
		if env := conversionNotice(err); env != nil {
			return env, nil
		}
		if env := failedURL(err); env != nil {
			return env, nil
		}
		return nil, err
	}
	piColumns(res)
	text := format.ReadText(res, &format.ReadOptions{Style: c.Style})
	d := &piReadData{ResolvedPath: wire(res.Path), Meta: readMeta(res), Result: wireRead(res)}
	d.IsDirectory = res.Kind == scout.ReadKindDirectory || res.Kind == scout.ReadKindArchive
	if u := res.URL; u != nil {
		d.Kind, d.URL, d.FinalURL, d.ContentType, d.Method, d.Notes = "url", u.URL, u.FinalURL, u.ContentType, u.Method, u.Notes
	}
	if s := res.SuffixResolution; s != nil {
		d.SuffixResolution = &piSuffix{From: wire(s.From), To: wire(s.To)}
	}
	if b, by := cutBlock(res); b != nil {
		d.Truncation = &piTruncation{Reason: by, StartLine: b.Lines[0].N, EndLine: b.Lines[len(b.Lines)-1].N, TotalLines: res.TotalLines, TotalBytes: res.Bytes, NextOffset: b.Next, ByteLimit: b.ByteLimit}
	}
	if s := res.Summary; s != nil {
		d.Summary = &piSummary{Lines: len(pitext.SummaryRows(res)), ElidedSpans: len(s.Elided), ElidedLines: s.ElidedLines}
	}
	d.DisplayContent = displayContent(res)
	if c := res.Conflicts; c != nil {
		d.ConflictCount = len(c.Blocks)
	}
	env := okEnvelope(partial(res), d, text)
	env.Stats = scout.Stats{Files: 1, Bytes: res.Bytes}
	env.Context.PathResolved = wire(res.Path)
	if res.Image != nil && res.ImageData != nil {
		env.Images = []scout.Image{{MIME: res.Image.MIME, Data: res.ImageData}}
		if c.ImagesApart {
			r := *d.Result
			r.ImageData = nil
			d.Result = &r
		}
	}
	return env, nil
}

// piColumns cuts the shown lines of a text read to pi's column cap
// (768) as pi counts a line's length: in UTF-16 code units, as JavaScript
// does, a character outside the Basic Multilingual Plane (an emoji)
// counting 2. The core counts characters, so a line of such characters
// may be wider than pi shows; it is cut here at the last whole character
// that fits (never between the two halves of a surrogate pair), marked
// cut, and the result's ColumnCap set, so that the text's notice and the
// data say so; so are a code summary's kept lines. :raw reads and
// listings are not cut, as in the core.
func piColumns(res *scout.ReadResult) {
	if res.Kind == scout.ReadKindMulti {
		for _, p := range res.Parts {
			if p.Result != nil {
				piColumns(p.Result)
			}
		}
		return
	}
	if res.Kind != scout.ReadKindText && res.Kind != scout.ReadKindSummary || res.Raw {
		return
	}
	for bi := range res.Blocks {
		lines := res.Blocks[bi].Lines
		for li := range lines {
			l := &lines[li]
			t, ok := cutUTF16(l.Text, textio.MaxColumns)
			if !ok {
				continue
			}
			if !l.Cut {
				l.Bytes = len(l.Text)
			}
			l.Text, l.Cut = t, true
			res.ColumnCap = textio.MaxColumns
		}
	}
}

// cutUTF16 cuts s to its longest prefix of whole characters that is at
// most n UTF-16 code units long; ok reports whether s was longer.
func cutUTF16(s string, n int) (string, bool) {
	if len(s) <= n {
		return s, false // n bytes hold at most n code units
	}
	units := 0
	for i, r := range s {
		w := 1
		if r > 0xFFFF {
			w = 2
		}
		if units+w > n {
			return s[:i], true
		}
		units += w
	}
	return s, false
}

// conversionNotice is the Envelope of a document that could not be
// converted: pi reads it as the notice "[Cannot read .pdf file: ...]", not
// as an error. It returns nil for any other error.
func conversionNotice(err error) *scout.Envelope {
	var se *scout.Error
	if !errors.As(err, &se) || !errors.As(err, new(*read.ConversionError)) {
		return nil
	}
	d := &piReadData{ResolvedPath: wire(se.Path), Meta: &piMeta{Source: &piSource{Type: "path", Value: wire(se.Path)}},
		ContentUnavailable: &piUnavailable{Reason: "conversion-failed"}}
	env := okEnvelope(false, d, "["+se.Message+"]")
	env.Stats = scout.Stats{Files: 1}
	env.Context.PathResolved = wire(se.Path)
	return env
}

// failedURL is the Envelope of a web read answered with an HTTP error
// status: pi reads it as a URL read whose method is "failed", its header
// alone, the status in its notes, not as an error. It returns nil for any
// other error.
func failedURL(err error) *scout.Envelope {
	var st *web.StatusError
	if !errors.As(err, &st) {
		return nil
	}
	p := &web.Page{URL: st.URL, FinalURL: st.FinalURL, ContentType: st.ContentType, Method: "failed",
		Notes: []string{fmt.Sprintf("Failed to fetch URL (HTTP %d)", st.Status)}}
	if p.FinalURL == "" {
		p.FinalURL = p.URL
	}
	if p.ContentType == "" {
		p.ContentType = "unknown"
	}
	d := &piReadData{Kind: "url", ResolvedPath: p.URL, URL: p.URL, FinalURL: p.FinalURL, ContentType: p.ContentType,
		Method: p.Method, Notes: p.Notes, Meta: &piMeta{Source: &piSource{Type: "url", Value: p.URL}}}
	env := okEnvelope(false, d, strings.TrimRight(p.Header(), "\n"))
	env.Context.PathResolved = p.URL
	return env
}

// readMeta builds details.meta; nil when there is nothing to say (a
// delimited entry read as several paths).
func readMeta(res *scout.ReadResult) *piMeta {
	if res.Kind == scout.ReadKindMulti {
		return nil
	}
	m := &piMeta{Source: &piSource{Type: "path", Value: wire(res.Path)}}
	switch {
	case res.URL != nil:
		m.Source = &piSource{Type: "url", Value: res.URL.URL}
	case res.Source == "resource":
		m.Source.Type = "internal"
	}
	if b, by := cutBlock(res); b != nil {
		start, end := b.Lines[0].N, b.Lines[len(b.Lines)-1].N
		m.Truncation = &piMetaTrunc{Direction: "head", TruncatedBy: by, TotalLines: res.TotalLines, TotalBytes: res.Bytes,
			OutputLines: end - start + 1, ShownRange: piRange{start, end}, NextOffset: b.Next, MaxBytes: b.ByteLimit}
	}
	var l piMetaLimits
	if res.Unlisted > 0 {
		switch res.Kind {
		case scout.ReadKindDirectory:
			l.ResultLimit = &piReached{dirtree.PerDir}
		case scout.ReadKindArchive:
			if res.Truncated != scout.TruncBytes {
				l.ResultLimit = &piReached{archive.DefaultListLimit}
				break
			}
			// the listing's byte budget ended it before the 500 (long names)
			first, last := res.Entries[0].Line, res.Entries[len(res.Entries)-1].Line
			m.Truncation = &piMetaTrunc{Direction: "head", TruncatedBy: "bytes", TotalLines: res.TotalLines,
				OutputLines: last - first + 1, ShownRange: piRange{first, last}, NextOffset: res.Next}
		case scout.ReadKindSQLite:
			l.ResultLimit = &piReached{sqlite.MaxTables}
		}
	}
	if res.ColumnCap > 0 {
		l.ColumnTruncated = &piMaxColumn{MaxColumn: res.ColumnCap}
	}
	if l != (piMetaLimits{}) {
		m.Limits = &l
	}
	return m
}

// cutBlock returns the block of a single-range read that a limit ended
// before the range did, and pi's word for the limit ("lines" or
// "bytes"); nil when there is none.
func cutBlock(res *scout.ReadResult) (*scout.ReadBlock, string) {
	if len(res.Blocks) != 1 || res.Blocks[0].Truncated == "" {
		return nil, ""
	}
	if res.Blocks[0].Truncated == scout.TruncBytes {
		return &res.Blocks[0], "bytes"
	}
	return &res.Blocks[0], "lines"
}

// partial reports a read that is not whole: cut by a limit, or of content
// converted in part (in any of a delimited entry's parts).
func partial(res *scout.ReadResult) bool {
	if res.Truncated != "" || res.Incomplete != "" {
		return true
	}
	for _, p := range res.Parts {
		if p.Result != nil && partial(p.Result) {
			return true
		}
	}
	return false
}
