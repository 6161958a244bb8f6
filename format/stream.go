package format

import (
	"github.com/scoutkit/scout"
	"github.com/scoutkit/scout/internal/pitext"
)

// SearchStream renders a search file by file while it runs
// (scout.Searcher.StreamFunc): File for each matching file as it comes,
// End for the notices once the search is done; the text is Search's for
// the same files, uncapped. Each file is printed under its "# path#TAG"
// heading ("# path" without a tag), as Search prints several files, or,
// when the search is of that file alone (FileMatch.Single), as Search
// prints a single file: under "¶path#TAG" in the hashline style, with no
// heading otherwise. A file that comes in parts (FileMatch.More) is printed
// part by part, as one file: its heading before its first part, "..."
// where line numbers jump from one part to the next.
type SearchStream struct {
	// Options give the style, the hint for ignored files and the notes;
	// MaxBytes does not apply. nil means the defaults.
	Options *SearchOptions
	// Mode is the request's mode: SearchFiles prints paths, SearchCount
	// "path:count" lines.
	Mode scout.SearchMode

	st pitext.Stream // the rendering, and what was printed
}

// File returns the text of one matching file, or of the next part of one,
// ending in a newline; a content file after the first starts with a blank
// line. A nil f gives "".
func (s *SearchStream) File(f *scout.FileMatch) string {
	if f == nil {
		return ""
	}
	s.st.Style, s.st.Mode = lineStyle(s.options().Style), s.Mode
	return string(s.st.AppendFile(make([]byte, 0, pitext.FileSize(f)), f))
}

// End returns the text that ends the search, r being its totals: "No
// matches found" with what was not searched when no file was printed, the
// notes on missing paths and skipped archive members, the files too large
// or unreadable to search, and the notice on cut lines. It ends in a
// newline, or is "" when there is nothing to say. A nil r is taken as a
// result without totals.
func (s *SearchStream) End(r *scout.SearchResult) string {
	if r == nil {
		r = &scout.SearchResult{}
	}
	return s.st.End(r, s.options().pi())
}

func (s *SearchStream) options() *SearchOptions {
	if s.Options == nil {
		return &SearchOptions{}
	}
	return s.Options
}
