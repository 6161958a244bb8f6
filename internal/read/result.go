package read

import (
	"github.com/scoutkit/scout/internal/conflict"
	"github.com/scoutkit/scout/internal/dirtree"
	"github.com/scoutkit/scout/internal/image"
	"github.com/scoutkit/scout/internal/sqlite"
	"github.com/scoutkit/scout/internal/summary"
)

// Kind is what a read returned.
type Kind string

// The kinds of result.
const (
	KindText      Kind = "text"      // lines of a file or of an in-memory text (Source says which)
	KindDirectory Kind = "directory" // the rendered tree of a directory, as lines, and its Entries
	KindArchive   Kind = "archive"   // a directory listing inside an archive (Entries)
	KindSQLite    Kind = "sqlite"    // a database view (SQLite)
	KindImage     Kind = "image"     // an image: Image, and its bytes unless metadata only
	KindBinary    Kind = "binary"    // a binary file or archive member, described by Binary instead of shown
	KindConflicts Kind = "conflicts" // the :conflicts index of a file (Conflicts)
	KindSummary   Kind = "summary"   // a code summary with elided bodies (Summary), its kept lines in Blocks
	KindMulti     Kind = "multi"     // a delimited entry read as several paths (Parts)
)

// The sources of lines.
const (
	SourceFile     = "file"
	SourceListing  = "listing"
	SourceArchive  = "archive" // an archive member
	SourceNotebook = "notebook"
	SourceDocument = "document"
	SourceResource = "resource"
	SourceURL      = "url"
)

// The reasons a read is cut short (scout.Truncation).
const (
	TruncLimit = "limit"
	TruncBytes = "bytes"
)

// Result is the typed outcome of one read, which the root package converts
// to a scout.ReadResult; its fields are documented there.
type Result struct {
	Kind             Kind
	Input            string
	Path             string
	Source           string
	Archive          string
	SuffixResolution *SuffixResolution
	Raw              bool
	Immutable        bool
	Tag              string

	Blocks            []Block
	TotalLines        int
	TotalLinesAtLeast bool
	Bytes             int64
	BeyondEnd         int
	Truncated         string
	Next              int
	ColumnCap         int
	Lossy             bool
	Encoding          string

	// Entries are the listed entries: those of the shown lines of a
	// directory, the shown children of an archive directory.
	Entries  []dirtree.Entry
	Unlisted int
	// Pruned and Unreadable name the directory entries left out of a
	// tree; Rejected counts the archive entries left out of a listing
	// because their names hold "..".
	Pruned     []string
	Unreadable []dirtree.Failure
	Rejected   int

	Binary     *Binary
	Image      *image.Info
	ImageData  []byte
	Summary    *summary.Summary
	SQLite     *sqlite.Result
	Conflicts  *Conflicts
	Notes      []string
	URL        *URLInfo
	Incomplete string
	Parts      []Part
}

// Block is a run of consecutive shown lines.
type Block struct {
	Start, End int // the requested range (End 0: to the end)
	Lines      []Line
	BeyondEnd  bool   // the range starts past the end (several ranges only)
	Truncated  string // TruncLimit or TruncBytes: a limit ended the block early
	ByteLimit  int    // the byte budget, when it ended the block
	Next       int    // the first line after the block not shown; 0 at the end
}

// Line is one shown line.
type Line struct {
	N     int
	Text  string
	Cut   bool
	Bytes int
}

// SuffixResolution records a path found by suffix match.
type SuffixResolution struct {
	From, To string
}

// Binary describes a binary file or archive member.
type Binary struct {
	Size int64
	MIME string
}

// Conflicts are the merge-conflict blocks of a read: all of them in the
// :conflicts index, those the shown lines hold in a text read.
type Conflicts struct {
	Blocks  []conflict.Block
	Total   int  // blocks in the whole text (the lines read when it is not held whole)
	ScanCut bool // the scan stopped at conflict.MaxScanBytes
}

// URLInfo describes a web read.
type URLInfo struct {
	URL, FinalURL, ContentType, Method string
	Notes                              []string
	// HeaderLines is the number of lines of the header before the
	// content (Config.URLHeader); 0 when the lines are the content alone.
	HeaderLines int
}

// Part is one path of a delimited entry: its result or its error.
type Part struct {
	Path   string
	Result *Result
	Err    error
}
