package pitext

import (
	"fmt"
	"maps"
	"path"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/scoutkit/scout"
	"github.com/scoutkit/scout/internal/fname"
	"github.com/scoutkit/scout/internal/walk"
)

// FindOptions configure Find (see format.FindOptions).
type FindOptions struct {
	MaxBytes int           // 0 means MaxBytes; negative means no cap
	MaxLimit int           // the largest limit the limit notice may suggest; 0 means no maximum
	Timeout  time.Duration // named by the timeout note; 0 leaves it out
	// MaxTimeout is the largest timeout the caller accepts: at it the
	// timeout note says to narrow the pattern only. 0 means no maximum.
	MaxTimeout time.Duration
	Hints      map[scout.SkipReason]string // how to include what was left out, by reason
	Notes      []string                    // lines on the request, after the paths, before the notes on a timeout and missing paths
	// LimitNotice and TimeoutNote phrase those notices in the caller's
	// words (see format.FindOptions); nil means pi's.
	LimitNotice func(n, next int) string
	TimeoutNote func(n int) string
}

// Find returns the pi text of a find result: the paths grouped by
// directory (the file itself when the input named one), the caller's
// notes, the notes on a timeout and missing paths, what was left out (with
// matches, only what could not be read), then the 50 KB cap and the "[...]"
// notices on the cut and the limit. cut says how the byte cap cut the
// text; nil when it did not.
func Find(r *scout.FindResult, o *FindOptions) (text string, cut *Cut) {
	if o == nil {
		o = &FindOptions{}
	}
	files := Paths(r)
	notes := slices.Clone(o.Notes)
	if r.Truncated == scout.TruncTimeout {
		if note := timeoutNote(len(files), o); note != "" {
			notes = append(notes, note)
		}
	}
	if len(r.MissingPaths) > 0 {
		notes = append(notes, "Skipped missing paths: "+fname.QuoteJoin(r.MissingPaths))
	}
	if len(files) == 0 {
		lines := append([]string{"No files found matching pattern"}, notes...)
		if lo := LeftOut(r.Skipped, FindHints(r, o.Hints)); lo != "" {
			lines = append(lines, lo)
		}
		text = strings.Join(lines, "\n")
	} else {
		if r.ExactFile {
			text = fname.Quote(files[0])
		} else {
			text = Grouped(files)
		}
		if lo := LeftOutUnreadable(r.Skipped); lo != "" {
			notes = append(notes, lo)
		}
		if len(notes) > 0 {
			text += "\n\n" + strings.Join(notes, "\n")
		}
	}
	var notices []string
	if max := o.MaxBytes; max >= 0 {
		if max == 0 {
			max = MaxBytes
		}
		if kept, shown, total, ok := TruncateHead(text, max); ok {
			cut = &Cut{ShownLines: shown, TotalLines: total, TotalBytes: len(text), MaxBytes: max}
			text = kept
			notices = append(notices, fmt.Sprintf("Showing lines 1-%d of %d (%s limit). Narrow the pattern or paths to see the rest", shown, total, CapFigure(max)))
		}
	}
	if r.Truncated == scout.TruncLimit {
		n := len(r.Entries)
		if o.LimitNotice != nil {
			notices = append(notices, o.LimitNotice(n, nextLimit(n, o.MaxLimit)))
		} else {
			notices = append(notices, LimitNotice(n, o.MaxLimit, "narrow the pattern or paths for the rest"))
		}
	}
	return text + Notice(notices...), cut
}

// timeoutNote is the note on a timed-out find that found n entries: the
// caller's TimeoutNote, or pi's, which names o.Timeout and, below
// o.MaxTimeout, suggests a longer one.
func timeoutNote(n int, o *FindOptions) string {
	if o.TimeoutNote != nil {
		return o.TimeoutNote(n)
	}
	after := ""
	if o.Timeout > 0 {
		after = " after " + seconds(o.Timeout) + "s"
	}
	advice := "increase timeout or narrow pattern"
	if o.MaxTimeout > 0 && o.Timeout >= o.MaxTimeout {
		advice = "narrow pattern" // a longer timeout is refused
	}
	return fmt.Sprintf("find timed out%s; returning %d partial matches — %s", after, n, advice)
}

// seconds writes d as pi's timeout note does: whole seconds bare ("5"),
// others to one decimal, halves rounded up ("1.25" -> "1.3").
func seconds(d time.Duration) string {
	ms := d.Round(time.Millisecond).Milliseconds()
	if ms%1000 == 0 {
		return strconv.FormatInt(ms/1000, 10)
	}
	tenths := (ms + 50) / 100
	return strconv.FormatInt(tenths/10, 10) + "." + strconv.FormatInt(tenths%10, 10)
}

// LimitNotice is the result-limit notice of a result cut at limit. It never
// suggests a limit above maxLimit (0: no maximum): at the maximum it says
// how to narrow instead.
func LimitNotice(limit, maxLimit int, narrow string) string {
	if next := nextLimit(limit, maxLimit); next > 0 {
		return fmt.Sprintf("%d results limit reached. Use limit=%d for more", limit, next)
	}
	return fmt.Sprintf("%d results limit reached; %s", limit, narrow)
}

// nextLimit is the limit to suggest after a result cut at limit: twice
// it, at most maxLimit (0: no maximum). It is 0 where no larger limit can
// be suggested: limit is maxLimit already (or 0).
func nextLimit(limit, maxLimit int) int {
	next := 2 * limit
	if maxLimit > 0 && next > maxLimit {
		if limit >= maxLimit {
			return 0
		}
		next = maxLimit
	}
	return next
}

// Paths returns the display paths of a find result in result order;
// directories end in '/'.
func Paths(r *scout.FindResult) []string { return paths(r, nil) }

// QuotedPaths returns the paths of a find result as text shows them:
// Paths with each name as fname.Quote shows it, the '/' after a
// directory outside the quotes.
func QuotedPaths(r *scout.FindResult) []string { return paths(r, fname.Quote) }

// paths is Paths with each path shown by show; nil shows it as it is.
func paths(r *scout.FindResult, show func(string) string) []string {
	out := make([]string, len(r.Entries))
	for i, e := range r.Entries {
		out[i] = e.Path
		if show != nil {
			out[i] = show(e.Path)
		}
		if e.Dir {
			out[i] += "/"
		}
	}
	return out
}

// Grouped renders display paths grouped by directory, as pi find does: a
// group per parent directory, in order of its first member; root entries
// bare; other groups as "# dir/" followed by base names (directories keep
// their trailing '/'); groups separated by a blank line.
func Grouped(paths []string) string {
	var b strings.Builder
	for i, g := range groupByDir(paths) {
		if i > 0 {
			b.WriteString("\n\n")
		}
		if g.dir != "." {
			b.WriteString("# " + fname.Quote(g.dir) + "/\n")
		}
		for j, p := range g.items {
			if j > 0 {
				b.WriteByte('\n')
			}
			b.WriteString(fname.Quote(path.Base(strings.TrimSuffix(p, "/"))))
			if strings.HasSuffix(p, "/") {
				b.WriteByte('/')
			}
		}
	}
	return b.String()
}

// dirGroup is the paths of one directory.
type dirGroup struct {
	dir   string
	items []string
}

// groupByDir buckets paths by their parent directory ("." at the top
// level), in the order of each directory's first path; paths keep their
// order in a group.
func groupByDir(paths []string) []*dirGroup {
	var groups []*dirGroup
	byDir := map[string]*dirGroup{}
	for _, p := range paths {
		d := path.Dir(strings.TrimSuffix(p, "/"))
		g := byDir[d]
		if g == nil {
			g = &dirGroup{dir: d}
			byDir[d] = g
			groups = append(groups, g)
		}
		g.items = append(g.items, p)
	}
	return groups
}

// LeftOut summarises what a walk left out and how to include it, or ""
// when nothing was: "Left out 3 entries: 2 hidden (pass hidden: true), 1
// ignored." hints maps a skip reason to the way to include such entries;
// reasons without a hint are listed without one.
func LeftOut(skipped map[scout.SkipReason]int, hints map[scout.SkipReason]string) string {
	parts, total := skipCounts(skipped, nil, hints)
	if total == 0 {
		return ""
	}
	noun := "entries"
	if total == 1 {
		noun = "entry"
	}
	return fmt.Sprintf("Left out %d %s: %s.", total, noun, strings.Join(parts, ", "))
}

// FindHints returns hints, the hints of an empty find result r, with the
// hint on its ignored count saying that .git is never listed when the find
// names .git (its scope or pattern, walk.NamesGit): see GitHint. hints is
// not modified.
func FindHints(r *scout.FindResult, hints map[scout.SkipReason]string) map[scout.SkipReason]string {
	if r.Skipped[scout.SkipIgnored] == 0 || !walk.NamesGit(r.Scope) && !walk.NamesGit(r.Pattern) {
		return hints
	}
	alone := len(r.Skipped) == 1 && r.Skipped[scout.SkipIgnored] == 1
	h := maps.Clone(hints)
	if h == nil {
		h = map[scout.SkipReason]string{}
	}
	h[scout.SkipIgnored] = GitHint(alone, ".git is never listed", hints[scout.SkipIgnored])
	return h
}

// GitHint is the hint on the ignored count of a find or a search that
// names .git, which no walk enters: note (".git is never listed"), then
// hint on the other ignored entries, unless one entry was left out (alone),
// which the .git is taken for.
func GitHint(alone bool, note, hint string) string {
	if alone || hint == "" {
		return note
	}
	return note + "; " + hint
}

// LeftOutUnreadable is LeftOut of the unreadable entries alone, the note
// a listing with entries still needs: a directory that could not be read
// may hide matches. "" when none.
func LeftOutUnreadable(skipped map[scout.SkipReason]int) string {
	return LeftOut(map[scout.SkipReason]int{scout.SkipUnreadable: skipped[scout.SkipUnreadable]}, nil)
}

// skipCounts renders the nonzero counts of skipped as "N reason" parts
// ("2 hidden", "1 too large"), each followed by " (hint)" when hints has
// one for its reason, and returns them with their total. reasons chooses
// which reasons are counted, in its order; nil means all of them, sorted.
func skipCounts(skipped map[scout.SkipReason]int, reasons []scout.SkipReason, hints map[scout.SkipReason]string) (parts []string, total int) {
	if reasons == nil {
		reasons = slices.Sorted(maps.Keys(skipped))
	}
	for _, r := range reasons {
		n := skipped[r]
		if n <= 0 {
			continue
		}
		total += n
		part := strconv.Itoa(n) + " " + strings.ReplaceAll(string(r), "_", " ")
		if h := hints[r]; h != "" {
			part += " (" + h + ")"
		}
		parts = append(parts, part)
	}
	return parts, total
}
