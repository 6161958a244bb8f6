package format

import (
	"strconv"
	"strings"

	"github.com/scoutkit/scout"
	"github.com/scoutkit/scout/internal/pitext"
)

// SearchStream renders a search file by file while it runs
// (scout.Searcher.StreamFunc): File for each matching file as it comes,
// End for the notices once the search is done. A file's heading is printed
// with it: "# dir/" then "## name" ("# name" at the top level), the
// directory heading left out when the file before was in the same
// directory. Lines look as Search prints them; nothing is capped.
type SearchStream struct {
	// Options give the style, the hint for ignored files and the notes;
	// MaxBytes does not apply. nil means the defaults.
	Options *SearchOptions
	// Mode is the request's mode: SearchFiles prints paths, SearchCount
	// "path:count" lines.
	Mode scout.SearchMode

	files int    // files printed
	dir   string // the directory of the last file printed
	cut   bool   // a line was cut at the column limit
}

// File returns the text of one matching file, ending in a newline; a
// content file after the first starts with a blank line.
func (s *SearchStream) File(f *scout.FileMatch) string {
	var b strings.Builder
	switch s.Mode {
	case scout.SearchFiles:
		b.WriteString(f.Path + "\n")
	case scout.SearchCount:
		b.WriteString(f.Path + ":" + strconv.Itoa(f.MatchLines) + "\n")
	default:
		style := s.options().Style
		lines := pitext.FileLines(f, style)
		if lines == "" {
			return ""
		}
		if s.files > 0 {
			b.WriteByte('\n')
		}
		d := pitext.DirOf(f.Path)
		switch {
		case d == "":
			b.WriteString("# " + f.Path)
		case s.files > 0 && d == s.dir:
			b.WriteString("## " + f.Path[len(d):])
		default:
			b.WriteString("# " + d + "\n## " + f.Path[len(d):])
		}
		if pitext.Tagged(style, f) {
			b.WriteString("#" + f.Tag)
		}
		b.WriteString("\n" + lines)
		s.dir = d
		for _, l := range f.Lines {
			s.cut = s.cut || l.Cut
		}
	}
	s.files++
	return b.String()
}

// End returns the text that ends the search, r being its totals: "No
// matches found" with what was not searched when no file was printed, the
// notes on missing paths and skipped archive members, the files too large
// or unreadable to search, and the notice on cut lines. It ends in a newline, or is "" when there is nothing to say.
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
