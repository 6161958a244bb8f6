package pitext

import "strings"

// ReadPruneDirs are the directories pi's read leaves out of a directory
// listing (build output, caches, version control, dependencies): the
// scout.Reader's PruneDirs of the pi toolset and of scout read.
var ReadPruneDirs = []string{
	"node_modules", ".git", ".next", "dist", "build", "target",
	".venv", ".cache", ".turbo", ".parcel-cache", "coverage",
}

// ReadListingLimit is the Reader.ListingLimit of the pi toolset and of
// scout read: pi shows a directory read without a line selector whole, up
// to its text caps of 3000 lines and 50 KB.
const ReadListingLimit = 3000

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
