package format

import (
	"io"

	"github.com/scoutkit/scout"
	"github.com/scoutkit/scout/internal/pitext"
)

// SearchOptions configure Search. nil means the defaults: hashline style,
// the 50 KB cap, no extra notes.
type SearchOptions struct {
	// Style is the line style (see the package doc): StyleHashline ("",
	// and any other value, too) prints "*N:text" (match) and "N:text" (context) under a "¶path#TAG"
	// or "# path#TAG" heading, files without a tag falling back to the
	// numbered marks; StyleNumbered prints "*N|text" and "N|text" and no
	// tags; StylePlain prints "*text" and " text", no numbers and no tags.
	Style string
	// MaxBytes caps the text (whole lines only) before the notices. 0 means
	// 50 KB; negative means no cap.
	MaxBytes int
	// IgnoredHint is appended to the count of ignored files when nothing
	// matched, e.g. "pass gitignore: false to search them". "" means none.
	IgnoredHint string
	// Notes are extra lines on the request printed after the results,
	// before the notes on the result (missing paths, archive entries left
	// out, files searched in part) and the notices. nil means none.
	Notes []string
}

// Search writes the pi text of a search result: matches grouped by file
// (or flat for a single file), "..." between gaps, the page notice, the
// caller's notes, the notes on missing paths and skipped members, then
// the 50 KB cap, the
// "Not searched: ..." line on files too large or unreadable (with no match,
// on every file left out), and the "[...]" notices. It returns w's error
// (io.ErrShortWrite for a short write without one); a nil w is a
// scout.CodeInvalidParam error.
func Search(w io.Writer, r *scout.SearchResult, o *SearchOptions) error {
	text, _ := SearchText(r, o)
	return write("Search", w, text)
}

// SearchText returns the text Search writes, and whether the byte cap cut
// it. A SearchFiles result prints one path per line and a SearchCount
// result "path:count" lines, with the same notices. A nil result gives "".
func SearchText(r *scout.SearchResult, o *SearchOptions) (text string, truncated bool) {
	if r == nil {
		return "", false
	}
	text, cut := pitext.Search(r, o.pi())
	return text, cut != nil
}

// lineStyle returns style as the renderers take it: StyleNumbered and
// StylePlain as they are, anything else StyleHashline.
func lineStyle(style string) string {
	if style == StyleNumbered || style == StylePlain {
		return style
	}
	return StyleHashline
}

// pi returns the options as the pi renderer takes them; nil stays nil.
func (o *SearchOptions) pi() *pitext.SearchOptions {
	if o == nil {
		return nil
	}
	return &pitext.SearchOptions{Style: lineStyle(o.Style), MaxBytes: o.MaxBytes, IgnoredHint: o.IgnoredHint, Notes: o.Notes}
}
