package pitext

import (
	"strconv"
	"strings"

	"github.com/scoutkit/scout"
	"github.com/scoutkit/scout/internal/fname"
)

// Stream renders a search file by file while it runs, as
// format.SearchStream documents: AppendFile for each matching file (or
// part of one) as it comes, End once the search is done.
type Stream struct {
	// Style is the line style (SearchOptions.Style).
	Style string
	// Mode is the request's mode: SearchFiles prints paths, SearchCount
	// "path:count" lines.
	Mode scout.SearchMode

	files int  // files printed
	cut   bool // a line was cut at the column limit
	more  bool // the last file printed has more parts to come
	last  int  // the number of its last line printed
}

// FileSize returns at least the bytes AppendFile appends for f.
func FileSize(f *scout.FileMatch) int {
	return len(f.Path) + len(f.Tag) + 32 + LinesSize(f)
}

// AppendFile appends the text of one matching file, or of the next part
// of one, ending in a newline, to dst; a content file after the first
// starts with a blank line.
func (s *Stream) AppendFile(dst []byte, f *scout.FileMatch) []byte {
	switch s.Mode {
	case scout.SearchFiles:
		dst = append(append(dst, fname.Quote(f.Path)...), '\n')
	case scout.SearchCount:
		dst = append(append(dst, fname.Quote(f.Path)...), ':')
		dst = append(strconv.AppendInt(dst, int64(f.MatchLines), 10), '\n')
	default:
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
			return AppendFileLines(dst, f, s.Style, prev)
		}
		var h string
		if f.Single {
			h = SingleHeading(f, s.Style)
		} else {
			h = FileHeading(f, s.Style)
		}
		if !f.Single && s.files > 0 {
			dst = append(dst, '\n')
		}
		if h != "" {
			dst = append(append(dst, h...), '\n')
		}
		dst = AppendFileLines(dst, f, s.Style, 0)
	}
	s.files++
	return dst
}

// End returns the text that ends the search, r being its totals, with
// the hint for ignored files and the notes of o (nil: none): "No matches
// found" with what was not searched when no file was printed, the notes
// on missing paths and skipped archive members, the files too large or
// unreadable to search, and the notice on cut lines. It ends in a
// newline, or is "" when there is nothing to say.
func (s *Stream) End(r *scout.SearchResult, o *SearchOptions) string {
	notes := Notes(r, o)
	if s.files == 0 {
		lines := append([]string{"No matches found"}, notes...)
		if n := SkippedLine(r, o); n != "" {
			lines = append(lines, n)
		}
		return strings.Join(lines, "\n") + "\n"
	}
	var b strings.Builder
	if len(notes) > 0 {
		b.WriteString("\n" + strings.Join(notes, "\n") + "\n")
	}
	if n := MissedLine(r); n != "" {
		b.WriteString("\n" + n + "\n")
	}
	if s.cut {
		b.WriteString("\n[Some lines truncated to " + strconv.Itoa(r.MaxColumns) + " chars]\n")
	}
	return b.String()
}
