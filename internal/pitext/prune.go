package pitext

import (
	"strings"

	"github.com/scoutkit/scout"
)

// ReadPruneDirs are the directories pi's read leaves out of a directory
// listing (build output, caches, version control, dependencies).
var ReadPruneDirs = []string{
	"node_modules", ".git", ".next", "dist", "build", "target",
	".venv", ".cache", ".turbo", ".parcel-cache", "coverage",
}

// ReadSettings sets on r the settings of pi's read, which the pi toolset and
// scout read share: its fixed list pruned from listings, a directory read
// without a line selector shown whole up to its text caps (3000 lines, 50
// KB), a missing path read by a unique suffix match, and a web page's
// header paged with its body.
func ReadSettings(r *scout.Reader) {
	r.PruneDirs, r.ListingLimit = ReadPruneDirs, 3000
	r.SuffixMatch, r.URLHeaderLines = true, true
}

// PruneNodeModules returns the directories pi's search and find never
// enter: node_modules, unless an entry (a path or a glob) names it.
func PruneNodeModules(entries []string) []string {
	for _, e := range entries {
		if strings.Contains(e, "node_modules") {
			return nil
		}
	}
	return []string{"node_modules"}
}
