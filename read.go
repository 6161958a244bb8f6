package scout

import (
	"context"
	"io"
	"strings"
	"time"

	"github.com/scoutkit/scout/internal/convert"
	"github.com/scoutkit/scout/internal/read"
	"github.com/scoutkit/scout/internal/textio"
)

// Reader reads one path string with selectors. Its zero value reads from the
// current directory with the documented defaults; it is safe for concurrent
// use and calls never modify it.
type Reader struct {
	Workspace
	// DefaultLimit is the number of lines an open-ended file read shows
	// ("f.go", "f.go:100"). 0 means 300; values above 3000 mean 3000.
	DefaultLimit int
	// NoSummaries turns off code summaries: a source file read without a
	// selector is then shown as lines. false means summaries are on.
	NoSummaries bool
	// ImageMetadataOnly returns an image's metadata without its bytes.
	// false means the bytes are returned (up to 20 MiB).
	ImageMetadataOnly bool
	// Converters replace or add document converters by lower-case
	// extension (".pdf"). nil means the built-in converters only.
	Converters map[string]Converter
	// Now is the clock used for the ages in directory listings. nil means
	// time.Now.
	Now func() time.Time
}

// Converter converts a document (a PDF, a DOCX, ...) to text or markdown.
type Converter interface {
	// Convert reads the size bytes of r and returns the document's text.
	Convert(ctx context.Context, r io.ReaderAt, size int64) (string, error)
}

// ReadRequest is one read.
type ReadRequest struct {
	// Path is a file or directory path, relative to the root or absolute
	// inside it, optionally followed by a selector (":50-100", ":raw",
	// ":conflicts"); or an archive path ("a.zip:dir/f.go:10-20").
	Path string `json:"path" jsonschema:"Path to a file or directory, optionally with a selector such as :50-100 or :raw"`
}

// The result types of a read. They are defined in an internal package and
// documented there field by field; these aliases are their public names.
type (
	// ReadResult is the typed outcome of a read; Kind says which fields
	// are set.
	ReadResult = read.Result
	// ReadKind is what a read returned: "text", "directory", "archive",
	// "sqlite", "image", "binary", "conflicts", "summary", "notice",
	// "multi".
	ReadKind = read.Kind
	// ReadBlock is a run of consecutive shown lines.
	ReadBlock = read.Block
	// ReadLine is one shown line, numbered from 1.
	ReadLine = read.Line
	// ReadTruncation describes a read cut short by a line or byte limit.
	ReadTruncation = read.Truncation
)

// Read reads req.Path. The error reports a bad path or selector, a path
// that does not exist or lies outside the root, a file that cannot be
// read, or cancellation; anything else is in the result.
func (r *Reader) Read(ctx context.Context, req ReadRequest) (*ReadResult, error) {
	fsys, root, release, err := r.open()
	if err != nil {
		return nil, err
	}
	defer release()
	c := &read.Config{
		FS:                fsys,
		Root:              root,
		Split:             splitSelector,
		CheckInside:       CheckInside,
		Limit:             r.DefaultLimit,
		NoSummaries:       r.NoSummaries,
		ImageMetadataOnly: r.ImageMetadataOnly,
		Now:               r.Now,
	}
	if len(r.Converters) > 0 {
		c.Converters = make(map[string]convert.Converter, len(r.Converters))
		for ext, conv := range r.Converters {
			c.Converters[strings.ToLower(ext)] = conv
		}
	}
	return read.Run(ctx, c, req.Path)
}

// splitSelector peels a read selector with SplitPathSelector.
func splitSelector(p string) (string, read.Selector, bool, error) {
	base, sel, ok, err := SplitPathSelector(p)
	if err != nil || !ok {
		return p, read.Selector{}, ok, err
	}
	rs := read.Selector{Raw: sel.Raw, Conflicts: sel.Conflicts}
	for _, rg := range sel.Ranges {
		rs.Ranges = append(rs.Ranges, textio.Range{Start: rg.Start, End: rg.End})
	}
	return base, rs, true, nil
}
