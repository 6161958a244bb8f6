package format

import (
	"fmt"
	"path"
	"sort"
	"strings"

	"github.com/scoutkit/scout"
)

// FindPaths returns the display paths of a find result in result order;
// directories end in '/'.
func FindPaths(r *scout.FindResult) []string {
	out := make([]string, len(r.Entries))
	for i, e := range r.Entries {
		out[i] = e.Path
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
	type group struct {
		dir   string
		names []string
	}
	var groups []*group
	byDir := map[string]*group{}
	for _, p := range paths {
		trimmed := strings.TrimSuffix(p, "/")
		dir, name := path.Dir(trimmed), path.Base(trimmed)
		if strings.HasSuffix(p, "/") {
			name += "/"
		}
		g := byDir[dir]
		if g == nil {
			g = &group{dir: dir}
			byDir[dir] = g
			groups = append(groups, g)
		}
		g.names = append(g.names, name)
	}
	var b strings.Builder
	for i, g := range groups {
		if i > 0 {
			b.WriteString("\n\n")
		}
		if g.dir != "." {
			b.WriteString("# " + g.dir + "/\n")
		}
		b.WriteString(strings.Join(g.names, "\n"))
	}
	return b.String()
}

// LeftOut summarises what a walk left out and how to include it, or ""
// when nothing was. hints maps a skip reason to the way to include such
// entries (e.g. "ignored": "pass gitignore: false"); reasons without a hint
// are listed without one.
func LeftOut(skipped map[scout.SkipReason]int, hints map[scout.SkipReason]string) string {
	if len(skipped) == 0 {
		return ""
	}
	reasons := make([]scout.SkipReason, 0, len(skipped))
	total := 0
	for r, n := range skipped {
		if n > 0 {
			reasons = append(reasons, r)
			total += n
		}
	}
	if total == 0 {
		return ""
	}
	sort.Slice(reasons, func(i, j int) bool { return reasons[i] < reasons[j] })
	parts := make([]string, len(reasons))
	for i, r := range reasons {
		parts[i] = fmt.Sprintf("%d %s", skipped[r], r)
		if h := hints[r]; h != "" {
			parts[i] += " (" + h + ")"
		}
	}
	noun := "entries"
	if total == 1 {
		noun = "entry"
	}
	return fmt.Sprintf("Left out %d %s: %s.", total, noun, strings.Join(parts, ", "))
}
