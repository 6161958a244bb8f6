package scout

import (
	"time"

	"github.com/scoutkit/scout/internal/dirtree"
	"github.com/scoutkit/scout/internal/errs"
	"github.com/scoutkit/scout/internal/image"
	"github.com/scoutkit/scout/internal/read"
	"github.com/scoutkit/scout/internal/summary"
)

// ReadKind is what a read returned; it says which fields of the
// ReadResult are set.
type ReadKind string

// The kinds of ReadResult.
const (
	ReadKindText      ReadKind = "text"      // lines of a file or an in-memory text (Source says which): Blocks
	ReadKindDirectory ReadKind = "directory" // a directory tree: its rows as lines in Blocks, the entries shown in Entries
	ReadKindArchive   ReadKind = "archive"   // a directory inside an archive: its children in Entries
	ReadKindSQLite    ReadKind = "sqlite"    // a database view: SQLite
	ReadKindImage     ReadKind = "image"     // an image: Image, and ImageData unless metadata only
	ReadKindBinary    ReadKind = "binary"    // a binary file or archive member, described, not shown: Bytes and MIME
	ReadKindConflicts ReadKind = "conflicts" // the :conflicts index: Conflicts
	ReadKindSummary   ReadKind = "summary"   // a code summary: the kept lines in Blocks, the elided spans in Summary
	ReadKindMulti     ReadKind = "multi"     // a delimited entry read as several paths: Parts
)

// ReadResult is the typed outcome of one read. Kind says which fields are
// set; format.Read renders it as text. Lines are numbered from 1.
type ReadResult struct {
	Kind ReadKind `json:"kind"`
	// Input is the path string as given, after the input rules (quotes,
	// file://, ~ and Unicode spaces; see the package doc); a web URL's password (a username
	// without one too) is shown as "xxxxx", as in every URL of a result
	// and error, though the fetch sends it.
	Input string `json:"input"`
	// Path is the display path: the FS path relative to the root ("."
	// for the root), "archive.zip:member" for an archive member (the
	// archive's path alone for its root listing), a database path with its
	// selector, or the URL.
	Path string `json:"resolved_path"`
	// Source says what the lines are: "file", "listing" (a directory
	// tree), "archive" (an archive member), "notebook" (a notebook's
	// cells), "document" (a converted document), "resource" (an internal
	// URL) or "url" (a rendered web page). "" for kinds without lines.
	Source string `json:"source,omitempty"`
	// Archive is the path of the archive the read is inside ("dist/a.zip"
	// for Path "dist/a.zip:src/f.go"); "" outside an archive.
	Archive string `json:"archive,omitempty"`
	// SuffixResolution is set when Path was found by a unique suffix match
	// (Reader.SuffixMatch) because Input did not exist.
	SuffixResolution *SuffixResolution `json:"suffix_resolution,omitempty"`
	// Raw reports a :raw read: bytes as they are, no line prefixes.
	Raw bool `json:"raw,omitempty"`
	// Immutable reports a source that cannot be edited (no hashline
	// anchors).
	Immutable bool `json:"immutable,omitempty"`
	// Tag is the whole-text hashline tag; "" when the text is over 4 MiB,
	// raw or immutable. It names the text whose lines the read numbers,
	// so a search that asks for tags (SearchRequest.Tags) gives the same
	// file the same tag when it numbers the same text: a file's bytes as
	// decoded, whatever its line ends, trailing blanks or byte-order mark.
	// A notebook is read as its cells but searched as its JSON: those
	// lines differ, and so do the tags.
	Tag string `json:"tag,omitempty"`

	// Blocks are the shown lines: one block per requested range (one for
	// a single range or none), in the order of the ranges; for a summary,
	// one block per run of kept lines.
	Blocks []ReadBlock `json:"blocks,omitempty"`
	// TotalLines is the number of lines of the whole text or listing (the
	// children of an archive directory); a lower bound when
	// TotalLinesAtLeast.
	TotalLines int `json:"total_lines,omitempty"`
	// TotalLinesAtLeast reports that the read stopped in line TotalLines
	// before the end of the text: 64 MiB past the shown lines (a huge
	// file), or 64 MiB into one line that had no line end by then (a huge
	// line, or binary content such as a sparse file's run of NUL bytes,
	// which no read scans to its end). The text has TotalLines lines or
	// more, and its last shown line, when it is line TotalLines, may be
	// longer than its Bytes say.
	TotalLinesAtLeast bool `json:"total_lines_at_least,omitempty"`
	// Bytes is the size of the file, member or text in bytes.
	Bytes int64 `json:"bytes,omitempty"`
	// BeyondEnd is the requested start line when it lies past the end of a
	// single-range read or a listing (nothing is shown); 0 otherwise. With
	// TotalLinesAtLeast it lies past where reading stopped: the line was
	// not reached, and whether it exists is unknown.
	BeyondEnd int `json:"beyond_end,omitempty"`
	// Truncated says why the result is not whole: TruncLimit when a line
	// limit ended a block (its Next continues) or a listing left entries
	// out at a cap (Unlisted counts them), TruncBytes when a byte budget
	// ended a block or cut a :raw line; "" otherwise. Incomplete content
	// is reported apart.
	Truncated Truncation `json:"truncated,omitempty"`
	// Next is the line to continue from after a single-range read or a
	// listing that did not reach the end: the selector ":Next" shows the
	// rest. 0 when the read reached the end, or for several ranges (each
	// block says its own).
	Next int `json:"next,omitempty"`
	// ColumnCap is the display cap per line (768 characters) when some
	// shown line was cut to it; 0 otherwise.
	ColumnCap int `json:"column_cap,omitempty"`
	// Lossy reports invalid UTF-8 replaced by U+FFFD in the shown lines.
	Lossy bool `json:"lossy,omitempty"`
	// Encoding is the detected encoding when it is not plain UTF-8
	// ("utf-8-bom", "utf-16le", ...).
	Encoding string `json:"encoding,omitempty"`

	// Entries are the entries shown by a listing: a directory's (the rows
	// of its shown lines: a tree two levels deep, each directory's
	// entries newest first right after its own row, those of a
	// subdirectory cut to its 11 newest, a More row and its oldest), or
	// an archive directory's children (Path their names, Depth 1, Line
	// their place in name order; TotalLines counts them all).
	Entries []DirEntry `json:"entries,omitempty"`
	// Unlisted counts the entries a listing left out at its caps: those
	// behind a directory tree's "… N more" rows, an archive directory's
	// children past the 500 shown, a database's tables past the 500
	// listed. Truncated is then TruncLimit. A read past the end of a
	// listing (BeyondEnd) shows no entries and leaves none out: 0.
	Unlisted int `json:"unlisted,omitempty"`
	// Skipped counts the entries a listing left out by reason: a tree's
	// pruned directories (.git and Reader.PruneDirs) and .DS_Store files
	// (SkipIgnored), its
	// subdirectories that could not be listed (SkipUnreadable), an
	// archive's entries whose names hold a ".." segment or are over 4096
	// bytes (SkipUnreadable, not named); nil when none. SkippedPaths names them, relative to
	// Path.
	Skipped      map[SkipReason]int `json:"skipped,omitempty"`
	SkippedPaths []SkippedPath      `json:"skipped_paths,omitempty"`

	// MIME is the media type detected from the start of a binary file or
	// archive member (Kind binary), e.g. "application/zip".
	MIME string `json:"mime,omitempty"`
	// Image is an image's metadata; ImageData its bytes unless the host
	// asked for metadata only. An image fetched from a URL over
	// Reader.URLImageMaxBytes (300 KiB) is scaled down and encoded again
	// to fit (Image then describes the image sent; URL.Notes says so), or
	// left out with a note.
	Image     *ImageInfo `json:"image,omitempty"`
	ImageData []byte     `json:"image_data,omitempty"`
	// Summary describes a code summary's elisions.
	Summary *ReadSummary `json:"summary,omitempty"`
	// SQLite is a database read.
	SQLite *SQLiteView `json:"sqlite,omitempty"`
	// Conflicts are the merge-conflict blocks: the file's for
	// ":conflicts", those the shown lines hold in a single-range read of
	// a file (nil when they hold none).
	Conflicts *ReadConflicts `json:"conflicts,omitempty"`
	// Notes are an internal URL's remarks from its resolver, shown with
	// the content; nil when none. A web page's notes are in URL.
	Notes []string `json:"notes,omitempty"`
	// URL describes a web read.
	URL *ReadURL `json:"url,omitempty"`
	// Incomplete says why the content is not the whole source: a document
	// or notebook converted in part (an output cap, pages that could not
	// be read), a web body cut at the fetcher's cap; "" when it is whole.
	Incomplete string `json:"incomplete,omitempty"`
	// Parts are the reads of a delimited entry (Kind multi).
	Parts []ReadPart `json:"parts,omitempty"`
}

// ReadBlock is the shown lines of one requested range.
type ReadBlock struct {
	// Start and End are the range asked for (End 0: to the end), before
	// any context (ReadRequest.Before and After) widened it.
	Start int `json:"start"`
	End   int `json:"end,omitempty"`
	// Lines are the shown lines, consecutive.
	Lines []ReadLine `json:"lines"`
	// BeyondEnd reports a range that starts past the end of the text (one
	// of several ranges), or past where reading stopped when the result's
	// TotalLinesAtLeast: no lines.
	BeyondEnd bool `json:"beyond_end,omitempty"`
	// Truncated is TruncLimit when the line limit ended the block before
	// its End, TruncBytes when the byte budget did (ByteLimit); Next then
	// continues. "" when the block ended where asked.
	Truncated Truncation `json:"truncated,omitempty"`
	ByteLimit int        `json:"byte_limit,omitempty"`
	// Next is the first line after the block that was not shown; 0 when
	// the block reached the end of the text.
	Next int `json:"next,omitempty"`
}

// ReadLine is one shown line.
type ReadLine struct {
	N    int    `json:"n"`             // 1-based line number
	Text string `json:"text"`          // without its newline; valid UTF-8
	Cut  bool   `json:"cut,omitempty"` // cut to the column cap (or, raw, to the byte budget)
	// Bytes is the length of a cut line in bytes; 0 when not cut.
	Bytes int `json:"bytes,omitempty"`
}

// SuffixResolution records a missing path found by a unique suffix match
// (Reader.SuffixMatch).
type SuffixResolution struct {
	From string `json:"from"` // the path as given
	To   string `json:"to"`   // the path read
}

// DirEntry is one entry of a listing (ReadResult.Entries).
type DirEntry struct {
	// Path is the entry's slash path relative to the listed directory.
	Path string `json:"path"`
	// Line is the entry's line in the listing: the selector ":Line" lists
	// from it.
	Line int `json:"line"`
	// Depth is 1 for the listed directory's own children, 2 below them.
	Depth   int       `json:"depth"`
	Dir     bool      `json:"dir,omitempty"`
	Symlink bool      `json:"symlink,omitempty"` // a symbolic link, not followed
	Size    int64     `json:"size,omitempty"`    // bytes, for files
	ModTime time.Time `json:"mod_time,omitzero"` // in UTC; zero when unknown
	// More, when positive, makes the entry the "… More more" row that
	// stands for the entries left out of its directory; Path, Dir,
	// Symlink, Size and ModTime are then empty.
	More int `json:"more,omitempty"`
}

// ImageInfo is an image's metadata (ReadResult.Image).
type ImageInfo struct {
	MIME     string `json:"mime"`     // e.g. "image/png"
	Format   string `json:"format"`   // png, jpeg, gif, webp, bmp or tiff
	Bytes    int64  `json:"bytes"`    // file size
	Width    int    `json:"width"`    // pixels
	Height   int    `json:"height"`   // pixels
	Channels int    `json:"channels"` // 1 gray, 2 gray+alpha, 3 colour, 4 colour+alpha or CMYK
	Alpha    bool   `json:"alpha"`    // whether the image can hold transparency
}

// ReadSummary describes a code summary (Kind summary): a source file read
// without a selector, its lines kept in Blocks except the interiors of
// function bodies.
type ReadSummary struct {
	Language string `json:"language"` // "go", "python", "javascript", "typescript", "tsx", "rust", "java", "c" or "cpp"
	Lines    int    `json:"lines"`    // lines in the file
	// Elided are the spans left out, in file order: the ranges to re-read.
	Elided      []ElidedSpan `json:"elided"`
	ElidedLines int          `json:"elided_lines"` // lines not shown
}

// ElidedSpan is a range of lines a code summary leaves out.
type ElidedSpan struct {
	// Start and End are the range to re-read, 1-based and inclusive.
	Start int `json:"start"`
	End   int `json:"end"`
	// Lines counts the lines not shown: End-Start+1, or End-Start-1 when
	// Merged.
	Lines int `json:"lines"`
	// Merged reports a body whose brace lines, Start and End, are kept (in
	// Blocks) and shown on one row, the lines between them left out.
	Merged bool `json:"merged,omitempty"`
}

// ReadURL describes a web read.
type ReadURL struct {
	URL         string   `json:"url"`                    // the URL read, without selector
	FinalURL    string   `json:"final_url,omitempty"`    // the URL after redirects, or the API read instead
	ContentType string   `json:"content_type,omitempty"` // the response's media type; "" when the server sent none
	Method      string   `json:"method"`                 // how the page was rendered (the "Method:" header line)
	Notes       []string `json:"notes,omitempty"`        // remarks shown with the page (a failed fetch, a cut body); nil when none
	// HeaderLines is the number of lines before the body in the result's
	// lines: the header that Reader.URLHeaderLines puts there. 0 means
	// the lines are the body alone.
	HeaderLines int `json:"header_lines,omitempty"`
}

// ReadPart is one path of a delimited entry read as several paths: its
// result, or the error that kept it from being read.
type ReadPart struct {
	Path   string      `json:"path"`             // the part as written in the entry
	Result *ReadResult `json:"result,omitempty"` // nil when the part could not be read
	// Code and Error are the class and message of the part's error; ""
	// when Result is set.
	Code  Code   `json:"code,omitempty"`
	Error string `json:"error,omitempty"`
}

// exportResult converts the engine's result.
func exportResult(r *read.Result) *ReadResult {
	out := &ReadResult{
		Kind: ReadKind(r.Kind), Input: r.Input, Path: r.Path, Source: r.Source, Archive: r.Archive,
		Raw: r.Raw, Immutable: r.Immutable, Tag: r.Tag,
		TotalLines: r.TotalLines, TotalLinesAtLeast: r.TotalLinesAtLeast, Bytes: r.Bytes, BeyondEnd: r.BeyondEnd,
		Truncated: Truncation(r.Truncated), Next: r.Next, ColumnCap: r.ColumnCap, Lossy: r.Lossy, Encoding: r.Encoding,
		Unlisted: r.Unlisted, ImageData: r.ImageData, Notes: r.Notes, Incomplete: r.Incomplete,
	}
	if s := r.SuffixResolution; s != nil {
		out.SuffixResolution = &SuffixResolution{From: s.From, To: s.To}
	}
	if len(r.Blocks) > 0 {
		out.Blocks = make([]ReadBlock, 0, len(r.Blocks))
	}
	for _, b := range r.Blocks {
		blk := ReadBlock{Start: b.Start, End: b.End, BeyondEnd: b.BeyondEnd, Truncated: Truncation(b.Truncated), ByteLimit: b.ByteLimit, Next: b.Next,
			Lines: make([]ReadLine, len(b.Lines))}
		for i, l := range b.Lines {
			blk.Lines[i] = ReadLine{N: l.N, Text: l.Text, Cut: l.Cut, Bytes: l.Bytes}
		}
		out.Blocks = append(out.Blocks, blk)
	}
	if len(r.Entries) > 0 {
		out.Entries = make([]DirEntry, len(r.Entries))
		for i, e := range r.Entries {
			out.Entries[i] = exportEntry(e)
		}
	}
	skip := func(reason SkipReason, paths []string) {
		for _, p := range paths {
			if out.Skipped == nil {
				out.Skipped = map[SkipReason]int{}
			}
			out.Skipped[reason]++
			out.SkippedPaths = append(out.SkippedPaths, SkippedPath{Path: p, Reason: reason})
		}
	}
	skip(SkipIgnored, r.Pruned)
	for _, f := range r.Unreadable {
		if out.Skipped == nil {
			out.Skipped = map[SkipReason]int{}
		}
		out.Skipped[SkipUnreadable]++
		out.SkippedPaths = append(out.SkippedPaths, SkippedPath{Path: f.Path, Reason: SkipUnreadable, Code: CodeOf(f.Err), Message: f.Err.Error()})
	}
	if r.Rejected > 0 {
		if out.Skipped == nil {
			out.Skipped = map[SkipReason]int{}
		}
		out.Skipped[SkipUnreadable] += r.Rejected
	}
	if b := r.Binary; b != nil {
		out.MIME = b.MIME
	}
	if r.Image != nil {
		out.Image = exportImage(r.Image)
	}
	if r.Summary != nil {
		out.Summary = exportSummary(r.Summary)
	}
	if r.SQLite != nil {
		out.SQLite = exportSQLite(r.SQLite)
	}
	if r.Conflicts != nil {
		out.Conflicts = exportConflicts(r.Conflicts)
	}
	if u := r.URL; u != nil {
		out.URL = &ReadURL{URL: u.URL, FinalURL: u.FinalURL, ContentType: u.ContentType, Method: u.Method, Notes: u.Notes, HeaderLines: u.HeaderLines}
	}
	for _, p := range r.Parts {
		part := ReadPart{Path: p.Path}
		if p.Err != nil {
			part.Code, part.Error = Code(errs.CodeOf(p.Err)), p.Err.Error()
		} else {
			part.Result = exportResult(p.Result)
		}
		out.Parts = append(out.Parts, part)
		if out.Truncated == "" && part.Result != nil {
			out.Truncated = part.Result.Truncated
		}
	}
	return out
}

func exportEntry(e dirtree.Entry) DirEntry {
	return DirEntry{Path: e.Path, Line: e.Line, Depth: e.Depth, Dir: e.Dir, Symlink: e.Symlink, Size: e.Size, ModTime: e.ModTime, More: e.More}
}

func exportImage(i *image.Info) *ImageInfo {
	return &ImageInfo{MIME: i.MIME, Format: i.Format, Bytes: i.Bytes, Width: i.Width, Height: i.Height, Channels: i.Channels, Alpha: i.Alpha}
}

// exportSummary converts a code summary's spans (its kept lines are the
// result's blocks).
func exportSummary(s *summary.Summary) *ReadSummary {
	out := &ReadSummary{Language: s.Language, Lines: s.TotalLines, Elided: make([]ElidedSpan, 0, len(s.Elided)), ElidedLines: s.ElidedLines}
	for _, r := range s.Rows {
		switch r.Kind {
		case summary.RowElided:
			out.Elided = append(out.Elided, ElidedSpan{Start: r.Start, End: r.End, Lines: r.End - r.Start + 1})
		case summary.RowMerged:
			out.Elided = append(out.Elided, ElidedSpan{Start: r.Start, End: r.End, Lines: r.End - r.Start - 1, Merged: true})
		}
	}
	return out
}
