package read

import (
	"github.com/scoutkit/scout/internal/dirtree"
	"github.com/scoutkit/scout/internal/image"
	"github.com/scoutkit/scout/internal/summary"
)

// Kind is what a read returned.
type Kind string

// The kinds of result.
const (
	KindText      Kind = "text"      // lines of a file or of an in-memory text (Entity says which)
	KindDirectory Kind = "directory" // the rendered tree of a directory, as lines
	KindArchive   Kind = "archive"   // a directory listing inside an archive (Body)
	KindSQLite    Kind = "sqlite"    // a rendered database view (Body)
	KindImage     Kind = "image"     // an image: Image, and its bytes unless metadata only
	KindBinary    Kind = "binary"    // a binary file, described by Binary instead of shown
	KindConflicts Kind = "conflicts" // the :conflicts index of a file (Body)
	KindSummary   Kind = "summary"   // a code summary with elided bodies (Summary)
	KindNotice    Kind = "notice"    // a one-line notice instead of content (Body), e.g. a binary archive member
	KindMulti     Kind = "multi"     // a delimited entry read as several paths (Parts)
)

// Entity labels name an in-memory source in notices.
const (
	EntityFile     = "file"
	EntityListing  = "listing"
	EntityArchive  = "archive entry"
	EntityNotebook = "notebook"
	EntityDocument = "document"
	EntityResource = "resource"
	EntityURL      = "URL output"
)

// Result is the typed outcome of one read. Which fields are set depends on
// Kind; the formatter turns it into text.
type Result struct {
	Kind Kind `json:"kind"`
	// Input is the path string as given.
	Input string `json:"input"`
	// Path is the display path: the FS path relative to the root ("." for
	// the root), "archive.zip:member" for an archive member, or the URL.
	Path string `json:"resolvedPath"`
	// Entity names the source in notices: "file", "listing", "archive
	// entry", "notebook", "document", "resource" or "URL output".
	Entity string `json:"entity,omitempty"`
	// SuffixResolution is set when Path was found by a unique suffix match
	// because Input did not exist.
	SuffixResolution *SuffixResolution `json:"suffixResolution,omitempty"`
	// Raw reports a :raw read: bytes as they are, no line prefixes.
	Raw bool `json:"raw,omitempty"`
	// Immutable reports a source that cannot be edited (no hashline anchors).
	Immutable bool `json:"immutable,omitempty"`
	// Tag is the whole-text hashline tag; "" when the text is over 4 MiB,
	// raw or immutable.
	Tag string `json:"tag,omitempty"`

	// Blocks are the shown lines (text and directory kinds): one block for
	// a single range, one per range of a multi-range selector.
	Blocks []Block `json:"blocks,omitempty"`
	// TotalLines is the number of lines of the whole text or listing; a
	// lower bound when TotalLinesAtLeast.
	TotalLines int `json:"totalLines,omitempty"`
	// TotalLinesAtLeast reports that the read stopped counting lines 64 MiB
	// past the shown ones (a huge file): the text has TotalLines lines or
	// more, and its last shown line, when it is line TotalLines, may be
	// longer than its Bytes say.
	TotalLinesAtLeast bool `json:"totalLinesAtLeast,omitempty"`
	// Bytes is the size of the file or text in bytes.
	Bytes int64 `json:"bytes,omitempty"`
	// Multi reports a multi-range selector (blocks are joined with "…").
	Multi bool `json:"multiRange,omitempty"`
	// Truncation is set when a limit cut a single-range read short.
	Truncation *Truncation `json:"truncation,omitempty"`
	// BeyondEnd is the requested start line when it lies past the end of
	// a single-range read (nothing is shown); 0 otherwise.
	BeyondEnd int `json:"beyondEnd,omitempty"`
	// ColumnCap is the display cap per line (768) when some shown line was
	// cut to it; 0 otherwise.
	ColumnCap int `json:"columnCap,omitempty"`
	// Lossy reports invalid UTF-8 replaced by U+FFFD in the shown lines.
	Lossy bool `json:"lossy,omitempty"`
	// Encoding is the detected encoding when it is not plain UTF-8
	// ("utf-8-bom", "utf-16le", ...).
	Encoding string `json:"encoding,omitempty"`

	// Entries are the directory entries of the shown listing lines.
	Entries []dirtree.Entry `json:"entries,omitempty"`
	// Pruned lists directory entries left out of the tree (relative to Path).
	Pruned []string `json:"pruned,omitempty"`
	// Omitted counts the entries a listing left out: directory entries
	// replaced by "… N more" rows, archive entries past the 500 shown,
	// database tables past the 500 listed.
	Omitted int `json:"omitted,omitempty"`
	// Unreadable lists subdirectories that could not be listed.
	Unreadable []string `json:"unreadable,omitempty"`

	// Binary describes a binary file that is not shown.
	Binary *Binary `json:"binary,omitempty"`
	// Image is an image's metadata; ImageData its bytes unless the host
	// asked for metadata only.
	Image     *image.Info `json:"image,omitempty"`
	ImageData []byte      `json:"imageData,omitempty"`
	// Summary describes a code summary; its kept lines are in Blocks.
	Summary *Summary `json:"summary,omitempty"`
	// Body is pre-rendered text for kinds rendered by their own package
	// (archive listings, SQLite views, the conflicts index, notices).
	Body string `json:"body,omitempty"`
	// Footer is rendered text shown after the lines: the merge-conflict
	// warning of a window that shows conflict blocks.
	Footer string `json:"footer,omitempty"`
	// Notes are extra lines shown before the content (URL header notes).
	Notes []string `json:"notes,omitempty"`
	// URL describes a web read.
	URL *URLInfo `json:"url,omitempty"`
	// Incomplete says why the content is not the whole source: a document
	// or notebook converted in part (an output cap, pages that could not
	// be read), a web body cut at the fetcher's cap; "" when it is whole.
	// It makes the read partial.
	Incomplete string `json:"incomplete,omitempty"`
	// Parts are the reads of a delimited entry (Kind multi).
	Parts []Part `json:"parts,omitempty"`
}

// Truncated reports whether a limit cut the result (the Envelope's
// "partial"): a line or byte limit, a capped directory, a raw line cut at
// the byte budget, content that is Incomplete. The display cap of 768
// characters per line does not count: :raw shows those lines whole.
func (r *Result) Truncated() bool {
	if r.Truncation != nil || r.Omitted > 0 || r.Incomplete != "" {
		return true
	}
	for _, b := range r.Blocks {
		if b.Next > 0 && b.Stopped {
			return true
		}
		for _, l := range b.Lines {
			if r.Raw && l.Cut {
				return true // a raw line cut at the byte budget
			}
		}
	}
	for _, p := range r.Parts {
		if p.Result != nil && p.Result.Truncated() {
			return true
		}
	}
	return false
}

// Block is a run of consecutive shown lines.
type Block struct {
	// Start and End are the requested range (End 0: to the end), before
	// any context widening.
	Start int `json:"start"`
	End   int `json:"end,omitempty"`
	// Lines are the shown lines.
	Lines []Line `json:"lines"`
	// Skipped reports a range that starts past the end (multi-range only).
	Skipped bool `json:"skipped,omitempty"`
	// Stopped reports that a line or byte limit ended the block early; Next
	// is then the line to continue from.
	Stopped bool `json:"stopped,omitempty"`
	// Next is the first line after the block that was not shown, 0 when
	// the block reached the end.
	Next int `json:"next,omitempty"`
}

// Line is one shown line.
type Line struct {
	N    int    `json:"n"`             // 1-based line number
	Text string `json:"text"`          // without its newline; valid UTF-8
	Cut  bool   `json:"cut,omitempty"` // cut to the column cap (or the raw byte budget)
	// Bytes is the full length of a cut line in bytes; 0 when not cut.
	Bytes int `json:"bytes,omitempty"`
}

// Truncation describes a single-range read cut by a limit.
type Truncation struct {
	Reason    string `json:"reason"`              // "lines" or "bytes"
	Start     int    `json:"start"`               // first shown line
	End       int    `json:"end"`                 // last shown line
	Total     int    `json:"total"`               // lines in the whole text (a lower bound when Result.TotalLinesAtLeast)
	Next      int    `json:"next"`                // the line to continue from
	ByteLimit int    `json:"byteLimit,omitempty"` // the byte budget, when it was the limit
}

// SuffixResolution records a path found by suffix match.
type SuffixResolution struct {
	From string `json:"from"` // the path as given
	To   string `json:"to"`   // the path read
}

// Binary describes a binary file.
type Binary struct {
	Size int64  `json:"size"` // bytes
	MIME string `json:"mime"` // detected from the content, e.g. "application/zip"
}

// Summary describes a structural summary.
type Summary struct {
	Lines       int      `json:"lines"`       // lines in the file
	ElidedSpans [][2]int `json:"elidedSpans"` // 1-based inclusive elided ranges
	ElidedLines int      `json:"elidedLines"`
	// Rows are the summary's rows in file order, covering every line once:
	// kept lines, merged "head .. tail" lines and elided runs. The JSON
	// carries them as the Result's Body, in the hashline style.
	Rows []summary.Row `json:"-"`
}

// URLInfo describes a web read.
type URLInfo struct {
	URL         string   `json:"url"`                   // the URL read, without selector
	FinalURL    string   `json:"finalUrl,omitempty"`    // the URL after redirects, or the API read instead
	ContentType string   `json:"contentType,omitempty"` // the response's media type; "" when the server sent none
	Method      string   `json:"method"`                // how the page was rendered (the "Method:" header line)
	Notes       []string `json:"notes,omitempty"`       // remarks shown with the page (a failed fetch, a cut body); nil when none
}

// Part is one path of a delimited entry: its result or its error.
type Part struct {
	Path   string  `json:"path"`             // the part as written in the entry
	Result *Result `json:"result,omitempty"` // its result; nil when Error is set
	Error  string  `json:"error,omitempty"`  // why it could not be read; "" on success
}
