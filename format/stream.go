package format

import (
	"strconv"
	"strings"

	"github.com/scoutkit/scout"
	"github.com/scoutkit/scout/internal/fname"
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

	files int  // files printed
	cut   bool // a line was cut at the column limit
	more  bool // the last file printed has more parts to come
	last  int  // the number of its last line printed
}

// File returns the text of one matching file, or of the next part of one,
// ending in a newline; a content file after the first starts with a blank
// line.
func (s *SearchStream) File(f *scout.FileMatch) string {
	var b strings.Builder
	switch s.Mode {
	case scout.SearchFiles:
		b.WriteString(fname.Quote(f.Path) + "\n")
	case scout.SearchCount:
		b.WriteString(fname.Quote(f.Path) + ":" + strconv.Itoa(f.MatchLines) + "\n")
	default:
		style := s.options().Style
		part, prev := s.more, 0 // a part after the file's first
		if part {
			prev = s.last
		}
		s.more = f.More
		if n := len(f.Lines); n > 0 {
			s.last = f.Lines[n-1].Line
		}
		for _, l := range f.Lines {
			s.cut = s.cut || l.Cut
		}
		if part || len(f.Lines) == 0 {
			return pitext.FileLines(f, style, prev)
		}
		var h string
		if f.Single {
			h = pitext.SingleHeading(f, style)
		} else {
			h = pitext.FileHeading(f, style)
		}
		b.Grow(len(h) + 2 + pitext.LinesSize(f))
		if !f.Single && s.files > 0 {
			b.WriteByte('\n')
		}
		if h != "" {
			b.WriteString(h)
			b.WriteByte('\n')
		}
		pitext.WriteFileLines(&b, f, style, 0)
	}
	s.files++
	return b.String()
}

// End returns the text that ends the search, r being its totals: "No
// matches found" with what was not searched when no file was printed, the
// notes on missing paths and skipped archive members, the files too large
// or unreadable to search, and the notice on cut lines. It ends in a
// newline, or is "" when there is nothing to say.
func (s *SearchStream) End(r *scout.SearchResult) string {
	o := s.options()
	notes := pitext.Notes(r, o.pi())
	if s.files == 0 {
		lines := append([]string{"No matches found"}, notes...)
		if n := pitext.SkippedLine(r, o.pi()); n != "" {
			lines = append(lines, n)
		}
		return strings.Join(lines, "\n") + "\n"
	}
	var b strings.Builder
	if len(notes) > 0 {
		b.WriteString("\n" + strings.Join(notes, "\n") + "\n")
	}
	if n := pitext.MissedLine(r); n != "" {
		b.WriteString("\n" + n + "\n")
	}
	if s.cut {
		b.WriteString("\n[Some lines truncated to " + strconv.Itoa(r.MaxColumns) + " chars]\n")
	}
	return b.String()
}

func (s *SearchStream) options() *SearchOptions {
	if s.Options == nil {
		return &SearchOptions{}
	}
	return s.Options
}
