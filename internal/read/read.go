// Package read is the dispatch behind scout.Reader: it takes the one path
// string of a read, decides what it names (a web URL, an internal URL, an
// archive member, a SQLite database, a local file or directory), resolves
// local paths the forgiving way agents need (quotes, ~, file://, Unicode
// spaces, macOS spellings, a delimited list, and with Config.SuffixMatch a
// unique suffix match), and returns a typed Result, which the root package
// converts to a scout.ReadResult.
//
// The order of the checks is the pi read tool's: file:// ;
// web URL; internal URL; archive; SQLite; local path with its selector.
package read

import (
	"context"
	"errors"
	"io/fs"
	"slices"
	"strings"
	"time"

	"github.com/scoutkit/scout/internal/convert"
	"github.com/scoutkit/scout/internal/errs"
	"github.com/scoutkit/scout/internal/fname"
	"github.com/scoutkit/scout/internal/iurl"
	"github.com/scoutkit/scout/internal/pathutil"
	"github.com/scoutkit/scout/internal/redact"
	"github.com/scoutkit/scout/internal/selector"
	"github.com/scoutkit/scout/internal/web"
)

// Config is everything a read needs besides the path string.
type Config struct {
	// FS is the tree; Root the absolute OS directory it stands for ("" when
	// unknown: absolute paths are then refused).
	FS   fs.FS
	Root string
	// Limit is the line limit of an open-ended file read; 0 means 300, at
	// most 3000.
	Limit int
	// ListingLimit is the row limit of a directory listing read without a
	// line selector, within 50 KB; 0 means Limit (and its byte budget).
	ListingLimit int
	// Before and After widen a single line range of a text by that many
	// lines (not a :raw read, nor a listing); 0 adds none.
	Before, After int
	// NoSummaries turns off code summaries.
	NoSummaries bool
	// ImageMetadataOnly returns an image's metadata without its bytes.
	ImageMetadataOnly bool
	// Converters replace or add document converters by extension (".pdf").
	Converters map[string]convert.Converter
	// Now is the clock for directory ages; nil means time.Now.
	Now func() time.Time
	// PruneDirs are the directory names a listing leaves out besides
	// .git, which it never shows; nil means .git only.
	PruneDirs []string
	// SuffixMatch reads a missing path as the one entry of the tree whose
	// path ends with it (an archive or a database too); false means a
	// missing path is NOT_FOUND.
	SuffixMatch bool
	// SuffixTimeout bounds the suffix match; 0 means 5 s.
	SuffixTimeout time.Duration
	// Fetcher fetches web URLs; nil means a web.HTTPFetcher (a
	// *web.Client with a nil Fetcher gets one too). NoWeb refuses web
	// URLs. AllowPrivateNetwork lets that HTTPFetcher reach loopback,
	// private, link-local and metadata addresses; FetchTimeout bounds
	// each of its requests (0 means web.DefaultTimeout). WebCache keeps
	// rendered pages for paging; nil means none.
	Fetcher             web.Fetcher
	NoWeb               bool
	AllowPrivateNetwork bool
	FetchTimeout        time.Duration
	WebCache            *web.Cache
	// URLImageMaxBytes is the most bytes of a fetched image shown inline
	// (a larger one is scaled down, or left out with a note); 0 means
	// 300 KiB.
	URLImageMaxBytes int
	// URLHeader puts a web page's header (web.Page.Header) before its
	// content, so that line selectors page both; false pages the content
	// alone.
	URLHeader bool
	// Registry resolves internal URLs; nil means none is registered (an
	// internal URL is then an UNSUPPORTED error).
	Registry *iurl.Registry
}

func (c *Config) now() time.Time {
	if c.Now != nil {
		return c.Now()
	}
	return time.Now()
}

// Run reads the path string p: a path of at most pathutil.MaxPathBytes,
// and a selector or query of at most selector.MaxBytes after it; a longer
// p is an INVALID_PARAM error.
func Run(ctx context.Context, c *Config, p string) (*Result, error) {
	if limit := pathutil.MaxPathBytes + selector.MaxBytes; len(p) > limit {
		return nil, errs.New(errs.InvalidParam, "Path '%s' is too long: %d bytes, over the limit of %d (a path of at most %d bytes and a selector or query of at most %d after it). Pass a shorter one.",
			errs.Echo(p), len(p), limit, pathutil.MaxPathBytes, selector.MaxBytes)
	}
	if strings.IndexByte(p, 0) >= 0 {
		return nil, errs.New(errs.InvalidParam, "Invalid path: it contains a NUL byte. Pass the path as plain text.")
	}
	if strings.TrimSpace(p) == "" {
		return nil, errs.New(errs.InvalidParam, "Path must not be empty: pass a file or directory, e.g. \"README.md\" or \"src/main.go:10-40\".")
	}
	r := &reader{c: c}
	given := strings.TrimSpace(p)
	p = pathutil.Input(p, r.exists)
	if len(p) >= len("conflict://") && strings.EqualFold(p[:len("conflict://")], "conflict://") {
		return nil, errs.New(errs.Unsupported, "conflict:// URLs are not supported: conflicts are numbered per read. Read 'FILE:conflicts' to list the blocks, then a block's lines with 'FILE:A-B'.")
	}
	res, err := r.run(ctx, p)
	if errs.CodeOf(err) == errs.NotFound {
		p, res, err = r.unquoted(ctx, given, p, res, err)
	}
	if err != nil {
		return nil, err
	}
	res.Input = p
	if res.URL != nil {
		res.Input = redact.URL(p) // as the result's URLs show it
	}
	redacted(res)
	return res, nil
}

// redacted shows the credentials of every URL in res's input, paths and
// notes redacted (redact.Text), those of its parts too: an internal URL
// or a delimited entry may hold one, and a resolver's notes may quote it.
// The content is left as it is. A notes slice is copied before it is
// changed (a resolver's may be shared).
func redacted(res *Result) {
	res.Input, res.Path = redact.Text(res.Input), redact.Text(res.Path)
	var notes []string // nil until a note changes
	for i, n := range res.Notes {
		if r := redact.Text(n); r != n || notes != nil {
			if notes == nil {
				notes = slices.Clone(res.Notes)
			}
			notes[i] = r
		}
	}
	if notes != nil {
		res.Notes = notes
	}
	for i := range res.Parts {
		res.Parts[i].Path = redact.Text(res.Parts[i].Path)
		if res.Parts[i].Result != nil {
			redacted(res.Parts[i].Result)
		}
	}
}

// unquoted reads given, a path whose reading p was not found, with its
// names in Go's quoted form read back (fname.Unquote), as text shows a
// name that is not printable UTF-8. It returns the path read and the read:
// p, res and err when given holds no quoted name or the unquoted path is
// missing too. A NUL in an unquoted name is refused, as in a path.
func (r *reader) unquoted(ctx context.Context, given, p string, res *Result, err error) (string, *Result, error) {
	u, ok := fname.Unquote(given)
	if !ok || u == p {
		return p, res, err
	}
	if strings.IndexByte(u, 0) >= 0 {
		return p, nil, errs.New(errs.InvalidParam, "Invalid path: %s unquotes to a name with a NUL byte, which no file has. Pass the path as plain text.", errs.Echo(given))
	}
	if ures, uerr := r.run(ctx, u); errs.CodeOf(uerr) != errs.NotFound {
		return u, ures, uerr
	}
	return p, res, err
}

// reader is one read in progress.
type reader struct{ c *Config }

func (r *reader) run(ctx context.Context, p string) (*Result, error) {
	for _, try := range []func(context.Context, string) (*Result, bool, error){r.web, r.internalURL, r.archive, r.database} {
		if res, ok, err := try(ctx, p); ok || err != nil {
			return res, err
		}
	}
	return r.local(ctx, p)
}

// isNotExist reports a missing path.
func isNotExist(err error) bool { return errors.Is(err, fs.ErrNotExist) }
