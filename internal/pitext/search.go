package pitext

import (
	"fmt"
	"slices"
	"strconv"
	"strings"
	"unicode"

	"github.com/scoutkit/scout"
	"github.com/scoutkit/scout/internal/fname"
	"github.com/scoutkit/scout/internal/walk"
)

// SearchOptions configure Search (see format.SearchOptions). nil means the
// defaults: hashline style, the 50 KB cap, no extra notes.
type SearchOptions struct {
	// Style is the line style: StyleHashline ("" too) prints "*N:text"
	// (match) and "N:text" (context) under a "¶path#TAG" or "# path#TAG"
	// heading, files without a tag falling back to the numbered marks;
	// StyleNumbered prints "*N|text" and "N|text" and no tags; StylePlain
	// prints "*text" and " text", no numbers and no tags.
	Style string
	// MaxBytes caps the text (whole lines only) before the notices. 0 means
	// MaxBytes (50 KB); negative means no cap.
	MaxBytes int
	// IgnoredHint is appended to the count of ignored files when nothing
	// matched, e.g. "pass gitignore: false to search them". "" means none.
	IgnoredHint string
	// Paths are the request's paths: when one names .git (walk.NamesGit),
	// the ignored count says that .git is never searched (SearchGitHint).
	Paths []string
	// Notes are extra lines on the request printed after the results,
	// before the notes on the result (missing paths, archive entries left
	// out, files searched in part) and the notices.
	Notes []string
}

// cutMark ends a line cut at the column limit.
const cutMark = "…"

// Search returns the pi text of a search result: matches grouped by file
// (or flat for a single file), "..." between gaps, the page notice, the
// caller's notes, the notes on missing paths and skipped members, then
// the 50 KB cap, the
// "Not searched: ..." line on files too large or unreadable (with no match,
// on every file left out), and the "[...]" notices. A SearchFiles result
// prints one path per line and a SearchCount result "path:count" lines,
// with the same notices. cut says how the byte cap cut the text; nil when
// it did not.
func Search(r *scout.SearchResult, o *SearchOptions) (text string, cut *Cut) {
	if o == nil {
		o = &SearchOptions{}
	}
	notes := Notes(r, o)
	var body string
	var ends []int // where each file's section ends, when grouped
	switch {
	case r.Mode != scout.SearchContent:
		body = fileList(r)
	case r.Single && len(r.Files) == 1:
		body = singleFile(&r.Files[0], o.Style)
	default:
		body, ends = grouped(r.Files, o.Style)
	}
	if body == "" {
		text = "No matches found"
		if len(notes) > 0 {
			text += "\n" + strings.Join(notes, "\n")
		}
		if n := SkippedLine(r, o); n != "" {
			text += "\n" + n
		}
		return text, nil
	}
	if p := pageNotice(r); p != "" {
		body += "\n\n" + p
	}
	if len(notes) > 0 {
		body += "\n\n" + strings.Join(notes, "\n")
	}
	max := o.MaxBytes
	if max == 0 {
		max = MaxBytes
	}
	var parts []string
	if max > 0 {
		if kept, shown, total, cutHere := TruncateHead(body, max); cutHere {
			cut = &Cut{ShownLines: shown, TotalLines: total, TotalBytes: len(body), MaxBytes: max}
			body = kept
			parts = append(parts, fmt.Sprintf("Showing lines 1-%d of %d (%s limit); %s", shown, total, CapFigure(max), cutHint(r, ends, len(kept))))
		}
	}
	if r.LinesCut() {
		parts = append(parts, "Some lines truncated to "+strconv.Itoa(r.MaxColumns)+" chars")
	}
	// After the cut, so that it is never cut off.
	if n := MissedLine(r); n != "" {
		body += "\n\n" + n
	}
	return body + Notice(parts...), cut
}

// cutHint says how to see what the byte cap cut off a page of files whose
// sections end at ends, kept bytes being shown: the skip that starts at
// the first file not shown whole (the page notice, cut off with it, would
// skip it), or the next page's skip when only the notices were cut. A cut
// in a single file leaves narrowing; so does a cut in the first file of a
// page, which also gives the skip of the files after it.
func cutHint(r *scout.SearchResult, ends []int, kept int) string {
	const narrow = "narrow paths or pattern to see the rest"
	if len(ends) == 0 || r.Single {
		return narrow
	}
	k := len(ends)
	for i, e := range ends {
		if e > kept {
			k = i
			break
		}
	}
	switch {
	case k == 0 && len(ends) > 1:
		return fmt.Sprintf("%s of %s, or use skip=%d to continue from %s", narrow, fname.Quote(r.Files[0].Path), r.Skip+1, fname.Quote(r.Files[1].Path))
	case k == 0 && r.NextSkip > 0:
		return fmt.Sprintf("%s of %s, or use skip=%d for the next page", narrow, fname.Quote(r.Files[0].Path), r.NextSkip)
	case k == 0:
		return narrow
	case k < len(ends):
		return fmt.Sprintf("use skip=%d to continue from %s, or narrow paths or pattern", r.Skip+k, fname.Quote(r.Files[k].Path))
	case r.NextSkip > 0:
		return fmt.Sprintf("use skip=%d for the next page, or narrow paths or pattern", r.NextSkip)
	}
	return narrow
}

// MissedLine names the files that were to be searched and could not be
// (too large, unreadable), or is "": a result with matches still says so.
// Ignored, hidden, binary, symlinked and special files are left out by
// rule, as ripgrep leaves them out; an empty result names those too.
func MissedLine(r *scout.SearchResult) string {
	return NotSearched(r.Skipped, []scout.SkipReason{scout.SkipTooLarge, scout.SkipUnreadable}, nil)
}

// Notes are the caller's notes (o.Notes: how the request was read, as an
// entry taken for several paths), then the lines on missing paths, the
// archive entries the request named that were left out (binary, too
// large, unreadable) and files searched only in part.
func Notes(r *scout.SearchResult, o *SearchOptions) []string {
	if o == nil {
		o = &SearchOptions{}
	}
	notes := slices.Clone(o.Notes)
	if len(r.MissingPaths) > 0 {
		notes = append(notes, "Skipped missing paths: "+fname.QuoteJoin(r.MissingPaths))
	}
	var members []string
	for _, sp := range r.SkippedPaths {
		if !sp.Named {
			continue // a sample of a failure counted in Skipped
		}
		why := sp.Message
		if why == "" {
			why = strings.ReplaceAll(string(sp.Reason), "_", " ")
		}
		members = append(members, fname.Quote(sp.Path)+" ("+why+")")
	}
	if len(members) > 0 {
		notes = append(notes, "Skipped archive entries (search supports text members only): "+strings.Join(members, ", "))
	}
	return append(notes, InPartNotes(r)...)
}

// InPartNotes are the lines on the files searched only in part: lines
// searched in windows, multiline searches cut, searches ended at a NUL.
func InPartNotes(r *scout.SearchResult) []string {
	var notes []string
	plural := func(n int, one, many string) string {
		if n == 1 {
			return "1 " + one
		}
		return strconv.Itoa(n) + " " + many
	}
	if n := r.LongLines; n > 0 {
		notes = append(notes, plural(n, "file has a line", "files have lines")+" over 4 MiB, searched in 4 MiB windows that overlap by 64 KiB: a match longer than 64 KiB that crosses a window edge is missed.")
	}
	if n := r.MultilineCut; n > 0 {
		notes = append(notes, plural(n, "file is", "files are")+" over 16 MiB: a multiline search reads only the first 16 MiB of a file.")
	}
	if n := r.NULStops; n > 0 {
		notes = append(notes, plural(n, "file has", "files have")+" a NUL byte after the first 64 KiB: the search stopped there, the rest being binary.")
	}
	return notes
}

// pageNotice is the "Showing files a-b of N" notice, or "".
func pageNotice(r *scout.SearchResult) string {
	if r.NextSkip == 0 || r.Single {
		return ""
	}
	total := strconv.Itoa(r.TotalFiles)
	if r.Truncated == scout.TruncBudget {
		total = "at least " + total
	}
	return fmt.Sprintf("Showing files %d-%d of %s. Use skip=%d for the next page, or narrow paths/pattern.", r.Skip+1, r.NextSkip, total, r.NextSkip)
}

// NotSearched says what was left out of a search, "Not searched: 1
// binary, 2 ignored (hint).", or "" when nothing was: the reasons of
// skipCounts, with its hints.
func NotSearched(skipped map[scout.SkipReason]int, reasons []scout.SkipReason, hints map[scout.SkipReason]string) string {
	parts, total := skipCounts(skipped, reasons, hints)
	if total == 0 {
		return ""
	}
	return "Not searched: " + strings.Join(parts, ", ") + "."
}

// SearchGitHint is hint, the hint on the ignored count of a search of
// paths that left out skipped, with a note that .git
// is never searched first when one of paths names .git (walk.NamesGit): a
// walk never enters it, only a file in it named as a path is searched.
// The note alone when one entry was left out (GitHint).
func SearchGitHint(skipped map[scout.SkipReason]int, paths []string, hint string) string {
	if skipped[scout.SkipIgnored] == 0 || !slices.ContainsFunc(paths, walk.NamesGit) {
		return hint
	}
	alone := len(skipped) == 1 && skipped[scout.SkipIgnored] == 1
	return GitHint(alone, ".git is never searched, only a file in it named as a path", hint)
}

// SkippedLine is the line of a search that found nothing on what was
// left out: every reason, the ignored files with o.IgnoredHint; or "".
func SkippedLine(r *scout.SearchResult, o *SearchOptions) string {
	var hints map[scout.SkipReason]string
	if o != nil {
		if h := SearchGitHint(r.Skipped, o.Paths, o.IgnoredHint); h != "" {
			hints = map[scout.SkipReason]string{scout.SkipIgnored: h}
		}
	}
	return NotSearched(r.Skipped, nil, hints)
}

// fileList renders the files of a SearchFiles result one per line, and
// those of a SearchCount result as "path:count".
func fileList(r *scout.SearchResult) string {
	var b strings.Builder
	for _, f := range r.Files {
		b.WriteString(fname.Quote(f.Path))
		if r.Mode == scout.SearchCount {
			b.WriteString(":" + strconv.Itoa(f.MatchLines))
		}
		b.WriteByte('\n')
	}
	return strings.TrimSuffix(b.String(), "\n")
}

// singleFile renders one file without a group heading.
func singleFile(f *scout.FileMatch, style string) string {
	lines := strings.TrimSuffix(FileLines(f, style, 0), "\n")
	if lines == "" {
		return ""
	}
	if h := SingleHeading(f, style); h != "" {
		return h + "\n" + lines
	}
	return lines
}

// SingleHeading is the heading of f's lines in the text of a search of f
// alone: "¶path#TAG" when its tag shows in style (see Tagged), else ""
// (no heading).
func SingleHeading(f *scout.FileMatch, style string) string {
	if Tagged(style, f) {
		return "¶" + fname.Quote(f.Path) + "#" + f.Tag
	}
	return ""
}

// Tagged reports whether f's heading shows its tag: in the hashline style,
// when it has one.
func Tagged(style string, f *scout.FileMatch) bool {
	return (style == "" || style == StyleHashline) && f.Tag != ""
}

// grouped renders files one section each, in their order: a "# path#TAG"
// heading ("# path" without a tag), then the lines; sections are
// separated by a blank line and a file with no lines has none. ends[i] is
// the length of the text up to the end of files[i]'s section (0 for a
// file with no lines).
func grouped(files []scout.FileMatch, style string) (text string, ends []int) {
	ends = make([]int, len(files))
	var b strings.Builder
	for i := range files {
		lines := FileLines(&files[i], style, 0)
		if lines == "" {
			continue
		}
		if b.Len() > 0 {
			b.WriteString("\n\n")
		}
		b.WriteString(FileHeading(&files[i], style) + "\n" + strings.TrimSuffix(lines, "\n"))
		ends[i] = b.Len()
	}
	return b.String(), ends
}

// FileHeading is the heading of f's section in a text of several files:
// "# path#TAG" when its tag shows in style (see Tagged), "# path"
// otherwise.
func FileHeading(f *scout.FileMatch, style string) string {
	if Tagged(style, f) {
		return "# " + fname.Quote(f.Path) + "#" + f.Tag
	}
	return "# " + fname.Quote(f.Path)
}

// LinesSize returns at least the bytes FileLines writes for f's lines
// (numbers of up to 10 digits).
func LinesSize(f *scout.FileMatch) int {
	n := 0
	for _, l := range f.Lines {
		// "...\n", the mark, the number and its separator, the text, the
		// cut mark and the newline.
		n += len(l.Text) + 17 + len(cutMark)
	}
	return n
}

// FileLines renders a file's lines, each ending in '\n', with "..." where
// line numbers jump: a match marked '*' ("*5:text"), a context line
// unmarked ("9:text"), or marked ' ' in the plain style, which has no
// numbers. Trailing white space is dropped, as pi's grep does. prev is the
// number of the line printed before f's lines, for a part of a file after
// its first (FileMatch.More): "..." comes first when they do not go on from
// it; 0 means none.
func FileLines(f *scout.FileMatch, style string, prev int) string {
	return string(AppendFileLines(make([]byte, 0, LinesSize(f)), f, style, prev))
}

// AppendFileLines appends FileLines(f, style, prev) to dst.
func AppendFileLines(dst []byte, f *scout.FileMatch, style string, prev int) []byte {
	if style == "" {
		style = StyleHashline
	}
	if style == StyleHashline && f.Tag == "" {
		style = StyleNumbered // a file without a tag has no hashline version
	}
	for _, l := range f.Lines {
		if prev > 0 && l.Line > prev+1 {
			dst = append(dst, "...\n"...)
		}
		prev = l.Line
		if l.Match {
			dst = append(dst, '*')
		} else if style == StylePlain {
			dst = append(dst, ' ') // without a number, a context line starting with '*' would read as a match
		}
		dst = AppendNumber(dst, style, l.Line, l.Line)
		if l.Cut {
			// The text ends at the cut, not at the line's end: its white
			// space there is inside the line, kept as the columns shown.
			dst = append(dst, l.Text...)
			dst = append(dst, cutMark...)
		} else {
			dst = append(dst, strings.TrimRightFunc(l.Text, unicode.IsSpace)...)
		}
		dst = append(dst, '\n')
	}
	return dst
}
