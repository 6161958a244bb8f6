package format

import (
	"fmt"
	"io"
	"strings"

	"github.com/scoutkit/scout"
	"github.com/scoutkit/scout/internal/archive"
	"github.com/scoutkit/scout/internal/dirtree"
	"github.com/scoutkit/scout/internal/fname"
	"github.com/scoutkit/scout/internal/pitext"
	"github.com/scoutkit/scout/internal/web"
)

// The line styles of search, read and code summaries, the same in all
// three (see the package doc).
const (
	StyleHashline = "hashline" // "N:text" rows under a "¶path#TAG" header (the pi default)
	StyleNumbered = "numbered" // "N|text" rows
	StylePlain    = "plain"    // the text alone
)

// ReadOptions control how a read is rendered. nil means the defaults.
type ReadOptions struct {
	// Style is StyleHashline, StyleNumbered or StylePlain (see the package
	// doc); "", and any other value, means StyleHashline. Raw reads,
	// immutable sources and directory trees are always plain.
	Style string
}

// Read writes the text of a read result (ReadText's). It returns w's error
// (io.ErrShortWrite for a short write without one); a nil w is a
// scout.CodeInvalidParam error.
func Read(w io.Writer, r *scout.ReadResult, o *ReadOptions) error {
	return write("Read", w, ReadText(r, o))
}

// ReadText returns the text of a read result, rendered from its fields
// alone: a text's lines in the chosen style (a web page's after its
// header, rendered from ReadResult.URL when the lines do not hold it), a
// directory's tree, an archive directory's children, a database view
// (pi's ASCII tables), a code summary's rows, the :conflicts index, an
// image's or a binary file's note, each part of a delimited entry; then
// the notices
// (truncation with the selector that continues, merge conflicts in view,
// column cap, encoding, left-out entries) after a blank line. A result
// whose Kind's payload is nil, and a nil result, render as nothing.
func ReadText(r *scout.ReadResult, o *ReadOptions) string {
	if r == nil {
		return ""
	}
	style := StyleHashline
	if o != nil {
		style = lineStyle(o.Style)
	}
	var b strings.Builder
	if s := r.SuffixResolution; s != nil {
		fmt.Fprintf(&b, "[Path '%s' not found; resolved to '%s' via suffix match]\n", fname.Quote(s.From), fname.Quote(s.To))
	}
	switch r.Kind {
	case scout.ReadKindText, scout.ReadKindDirectory:
		if u := r.URL; u != nil && u.HeaderLines == 0 {
			// The page's header is not in its lines: shown from the
			// payload as the lines would show it.
			b.WriteString((&web.Page{FinalURL: u.FinalURL, ContentType: u.ContentType, Method: u.Method, Notes: u.Notes}).Header())
		}
		writeLines(&b, r, style)
	case scout.ReadKindSummary:
		if r.Summary == nil {
			break
		}
		if style == StyleHashline && r.Tag != "" {
			fmt.Fprintf(&b, "¶%s#%s\n", fname.Quote(r.Path), r.Tag)
		}
		writeSummary(&b, r, style)
	case scout.ReadKindBinary:
		if r.Archive != "" {
			fmt.Fprintf(&b, "[Cannot read binary archive entry '%s' (%s)]", fname.Quote(strings.TrimPrefix(r.Path, r.Archive+":")), dirtree.FormatBytes(r.Bytes))
		} else {
			fmt.Fprintf(&b, "[Cannot display binary file '%s' (%s, %s)]", fname.Quote(r.Path), dirtree.FormatBytes(r.Bytes), r.MIME)
		}
	case scout.ReadKindImage:
		if r.Image != nil {
			writeImage(&b, r)
		}
	case scout.ReadKindSQLite:
		if r.SQLite != nil {
			writeSQLite(&b, r.SQLite)
		}
	case scout.ReadKindArchive:
		writeArchive(&b, r)
	case scout.ReadKindConflicts:
		if r.Conflicts != nil {
			writeConflictList(&b, fname.Quote(r.Path), r.Conflicts)
		}
	case scout.ReadKindMulti:
		writeParts(&b, r, o)
	}
	return b.String()
}

// writeSummary renders a code summary in style: a row per kept line
// ("N:text"), "..." for an elided span, "S-E:head .. tail" for a body
// whose braces are kept around its elided interior; then the footer giving
// the first two ranges to re-read as an example (", e.g. a.go:5-16,40-80").
func writeSummary(b *strings.Builder, r *scout.ReadResult, style string) {
	for i, row := range pitext.SummaryRows(r) {
		if i > 0 {
			b.WriteByte('\n')
		}
		switch {
		case row.Elided:
			b.WriteString("...")
		case row.Start != row.End:
			pitext.WriteNumber(b, style, row.Start, row.End)
			fmt.Fprintf(b, "%s%s .. %s%s", strings.TrimRight(row.Text, " \t"), cutMark(row.Cut), strings.TrimSpace(row.Tail), cutMark(row.TailCut))
		default:
			pitext.WriteNumber(b, style, row.Start, row.End)
			b.WriteString(row.Text + cutMark(row.Cut))
		}
	}
	if s := r.Summary; len(s.Elided) > 0 {
		spans := s.Elided[:min(len(s.Elided), 2)]
		parts := make([]string, len(spans))
		for i, sp := range spans {
			parts[i] = fmt.Sprintf("%d-%d", sp.Start, sp.End)
		}
		fmt.Fprintf(b, "\n\n[%d %s elided; re-read needed ranges, e.g. %s:%s]", s.ElidedLines, plural(s.ElidedLines, "line"), fname.Quote(r.Path), strings.Join(parts, ","))
	}
	b.WriteString(pitext.Notice(readNotices(r, entity(r))...)) // the column cap, as a text read's
}

// cutMark is what follows a line cut to the column cap: "…".
func cutMark(cut bool) string {
	if cut {
		return "…"
	}
	return ""
}

// writeImage renders an image: a note when its bytes come with the
// result, its metadata when they do not.
func writeImage(b *strings.Builder, r *scout.ReadResult) {
	i := r.Image
	if r.ImageData != nil {
		fmt.Fprintf(b, "Read image file [%s]", i.MIME)
		return
	}
	alpha := "no"
	if i.Alpha {
		alpha = "yes"
	}
	fmt.Fprintf(b, "Image metadata [%s]\n- bytes: %d (%s)\n- dimensions: %dx%d\n- channels: %d\n- alpha: %s",
		i.MIME, i.Bytes, dirtree.FormatBytes(i.Bytes), i.Width, i.Height, i.Channels, alpha)
}

// writeArchive renders a directory inside an archive: one line per child,
// "name/" for a directory and "name (1.2KB)" for a file ("name" when it is
// empty), with the notices of a local listing naming the directory
// ("dist/a.zip:src/:15", "dist/a.zip:/:501" for the root).
func writeArchive(b *strings.Builder, r *scout.ReadResult) {
	dir := fname.Quote(r.Archive) + ":" + fname.Quote(strings.TrimPrefix(strings.TrimPrefix(r.Path, r.Archive), ":")) + "/"
	switch {
	case r.TotalLines == 0:
		b.WriteString("(empty archive directory)")
	case r.BeyondEnd > 0:
		fmt.Fprintf(b, "Line %d is beyond end of listing (%d lines total). Use %s:1 to read from the start, or %s:%d to read the last line.", r.BeyondEnd, r.TotalLines, dir, dir, r.TotalLines)
	default:
		for i, e := range r.Entries {
			if i > 0 {
				b.WriteByte('\n')
			}
			b.WriteString(fname.Quote(e.Path))
			switch {
			case e.Dir:
				b.WriteByte('/')
			case e.Size > 0:
				fmt.Fprintf(b, " (%s)", dirtree.FormatBytes(e.Size))
			}
		}
		switch {
		case r.Truncated != "" && len(r.Entries) > 0:
			limit := ""
			if r.Truncated == scout.TruncBytes {
				limit = " (byte limit: the names are long)"
			}
			fmt.Fprintf(b, "\n\n[Showing lines %d-%d of %d%s. Use %s:%d to continue]", r.Entries[0].Line, r.Entries[len(r.Entries)-1].Line, r.TotalLines, limit, dir, r.Next)
		case r.Next > 0:
			fmt.Fprintf(b, "\n\n[%d more lines in listing. Use %s:%d to continue]", r.TotalLines-r.Next+1, dir, r.Next)
		}
	}
	if n := r.Skipped[scout.SkipUnreadable]; n > 0 {
		if n == 1 {
			fmt.Fprintf(b, "\n\n[1 archive entry with '..' in its name, or a name over %d bytes, was left out]", archive.MaxNameBytes)
		} else {
			fmt.Fprintf(b, "\n\n[%d archive entries with '..' in their names, or names over %d bytes, were left out]", n, archive.MaxNameBytes)
		}
	}
}

// entities are the words the notices use for the sources of lines.
var entities = map[string]string{"archive": "archive entry", "url": "URL output"}

// entity is the word for r's source in notices ("file", "archive entry",
// "URL output", ...).
func entity(r *scout.ReadResult) string {
	if w, ok := entities[r.Source]; ok {
		return w
	}
	if r.Source == "" {
		return "file"
	}
	return r.Source
}

// writeLines renders text and directory results.
func writeLines(b *strings.Builder, r *scout.ReadResult, style string) {
	entity := entity(r)
	if r.BeyondEnd > 0 {
		switch {
		case r.TotalLinesAtLeast && r.TotalLines == 1:
			fmt.Fprintf(b, "Line %d was not reached: the %s's first line runs on for over 64 MiB without a line end (binary content such as a run of NUL bytes, or one huge line), and reading stopped in it. Use :1 to see its start.", r.BeyondEnd, entity)
		case r.TotalLinesAtLeast:
			fmt.Fprintf(b, "Line %d was not reached: reading stopped in line %d, which runs on for over 64 MiB without a line end (binary content such as a run of NUL bytes, or one huge line); the %s has at least %d lines. Use :%d to see the start of that line, or :1 to read from the start.", r.BeyondEnd, r.TotalLines, entity, r.TotalLines, r.TotalLines)
		case r.TotalLines == 0:
			fmt.Fprintf(b, "Line %d is beyond end of %s: the %s is empty.", r.BeyondEnd, entity, entity)
		default:
			fmt.Fprintf(b, "Line %d is beyond end of %s (%d lines total). Use :1 to read from the start, or :%d to read the last line.", r.BeyondEnd, entity, r.TotalLines, r.TotalLines)
		}
		return
	}
	if r.Raw || r.Immutable || r.Kind == scout.ReadKindDirectory {
		style = StylePlain
	}
	if style == StyleHashline && r.Tag != "" {
		fmt.Fprintf(b, "¶%s#%s\n", fname.Quote(r.Path), r.Tag)
	}
	if r.TotalLines == 0 {
		fmt.Fprintf(b, "(empty %s)", entity)
	}
	var after []string // notices of multi-range blocks
	multi := len(r.Blocks) > 1
	first := true
	for _, blk := range r.Blocks {
		if blk.BeyondEnd {
			if r.TotalLinesAtLeast {
				after = append(after, fmt.Sprintf("[Range %s was not reached: reading stopped in line %d, over 64 MiB without a line end; skipped]", rangeString(blk.Start, blk.End), r.TotalLines))
			} else {
				after = append(after, fmt.Sprintf("[Range %s is beyond end of %s (%d lines total); skipped]", rangeString(blk.Start, blk.End), entity, r.TotalLines))
			}
			continue
		}
		if !first {
			b.WriteString("\n\n…\n\n")
		}
		first = false
		for i, l := range blk.Lines {
			if i > 0 {
				b.WriteByte('\n')
			}
			pitext.WriteNumber(b, style, l.N, l.N)
			b.WriteString(l.Text)
			if l.Cut && !r.Raw {
				b.WriteString("…")
			}
		}
		if multi && blk.Truncated != "" {
			after = append(after, fmt.Sprintf("[Range %s stopped at line %d (limit). Use :%d to continue]", rangeString(blk.Start, blk.End), blk.Next-1, blk.Next))
		}
	}
	if len(after) > 0 {
		b.WriteString("\n" + strings.Join(after, "\n"))
	}
	if c := r.Conflicts; c != nil && len(c.Blocks) > 0 {
		b.WriteString("\n\n")
		writeConflictFooter(b, fname.Quote(r.Path), c)
	}
	b.WriteString(pitext.Notice(readNotices(r, entity)...))
}

// readNotices lists the notice parts of a text or directory result.
func readNotices(r *scout.ReadResult, entity string) []string {
	var parts []string
	// A total that is a lower bound (a huge file not counted to its end)
	// says so.
	atLeast := ""
	if r.TotalLinesAtLeast {
		atLeast = "at least "
	}
	switch {
	// A host's truncated block without lines has no range to show; its
	// Next still says how to go on.
	case len(r.Blocks) == 1 && r.Blocks[0].Truncated != "" && len(r.Blocks[0].Lines) > 0:
		b := r.Blocks[0]
		s := fmt.Sprintf("Showing lines %d-%d of %s%d", b.Lines[0].N, b.Lines[len(b.Lines)-1].N, atLeast, r.TotalLines)
		if b.Truncated == scout.TruncBytes {
			s += " (" + pitext.KB(b.ByteLimit) + " limit)"
		}
		parts = append(parts, s, fmt.Sprintf("Use :%d to continue", b.Next))
	case len(r.Blocks) == 1 && r.Blocks[0].Next > 0:
		last := r.Blocks[0].Next - 1
		more := fmt.Sprintf("%s%d more lines in %s", atLeast, r.TotalLines-last, entity)
		if r.TotalLines == last {
			more = fmt.Sprintf("The %s was not read past line %d", entity, last)
		}
		parts = append(parts, more, fmt.Sprintf("Use :%d to continue", r.Blocks[0].Next))
	case r.TotalLinesAtLeast && lastShown(r) == r.TotalLines:
		parts = append(parts, fmt.Sprintf("Reading stopped in line %d, which runs on for over 64 MiB without a line end; the lines after it are not read", r.TotalLines))
	case len(r.Blocks) > 1 && r.TotalLinesAtLeast:
		parts = append(parts, fmt.Sprintf("The %s has at least %d lines (not counted to its end)", entity, r.TotalLines))
	}
	if r.Raw {
		for _, blk := range r.Blocks {
			for _, l := range blk.Lines {
				if l.Cut {
					size := dirtree.FormatBytes(int64(l.Bytes))
					if r.TotalLinesAtLeast && l.N == r.TotalLines {
						size = "over " + size // not read to its end
					}
					parts = append(parts, fmt.Sprintf("Line %d is %s; only its first %s fit the byte limit", l.N, size, dirtree.FormatBytes(int64(len(l.Text)))))
				}
			}
		}
	}
	if r.ColumnCap > 0 {
		parts = append(parts, fmt.Sprintf("Some lines truncated to %d chars", r.ColumnCap))
	}
	if r.Lossy {
		parts = append(parts, "Invalid UTF-8 bytes shown as U+FFFD")
	}
	if r.Kind == scout.ReadKindDirectory && r.Unlisted > 0 {
		parts = append(parts, fmt.Sprintf("%d entries not shown in capped directories; read a subdirectory to list all its entries", r.Unlisted))
	}
	if p := skippedPaths(r, scout.SkipIgnored); len(p) > 0 {
		parts = append(parts, "Not listed: "+strings.Join(p, ", ")+" (always pruned)")
	}
	if p := skippedPaths(r, scout.SkipUnreadable); len(p) > 0 {
		parts = append(parts, "Could not list: "+strings.Join(p, ", "))
	}
	if r.URL == nil {
		// A web page's notes are in its header already.
		switch {
		case r.Incomplete == "":
		case r.Source == "document":
			parts = append(parts, "Note: Converted in part: "+r.Incomplete)
		case r.Source == "notebook":
			parts = append(parts, "Note: Rendered in part: "+r.Incomplete)
		}
		for _, n := range r.Notes {
			parts = append(parts, "Note: "+n)
		}
	}
	return parts
}

// lastShown returns the number of the last line shown, 0 when none is.
func lastShown(r *scout.ReadResult) int {
	for i := len(r.Blocks) - 1; i >= 0; i-- {
		if l := r.Blocks[i].Lines; len(l) > 0 {
			return l[len(l)-1].N
		}
	}
	return 0
}

// skippedPaths returns the paths r skipped for reason, in order, as
// text shows them.
func skippedPaths(r *scout.ReadResult, reason scout.SkipReason) []string {
	var out []string
	for _, s := range r.SkippedPaths {
		if s.Reason == reason {
			out = append(out, fname.Quote(s.Path))
		}
	}
	return out
}

func rangeString(start, end int) string {
	if end == 0 {
		return fmt.Sprint(start)
	}
	return fmt.Sprintf("%d-%d", start, end)
}

// writeParts renders a delimited entry read as several paths.
func writeParts(b *strings.Builder, r *scout.ReadResult, o *ReadOptions) {
	names := make([]string, len(r.Parts))
	for i, p := range r.Parts {
		names[i] = p.Path
	}
	b.WriteString(pitext.DelimitedNote(names))
	for _, p := range r.Parts {
		b.WriteString("\n\n")
		if p.Result == nil {
			fmt.Fprintf(b, "[Could not read %s: %s]", fname.Quote(p.Path), p.Error)
			continue
		}
		b.WriteString(ReadText(p.Result, o))
	}
}
