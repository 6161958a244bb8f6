package scout

import "github.com/scoutkit/scout/internal/textio"

// The defaults of the limits. A request or tool field left at 0 means its
// default; a negative value means no limit (for a read's line limit: the
// most a read shows, 3000 lines).
const (
	// DefaultMaxFileSize is the size cap of a search when neither the
	// request nor the Searcher sets one: 10 MB.
	DefaultMaxFileSize = 10 << 20
	// DefaultMaxFiles is the number of matching files in a search page.
	DefaultMaxFiles = 20
	// DefaultMaxMatches is the line budget of one search call.
	DefaultMaxMatches = 2000
	// DefaultMaxMatchesPerFile caps the matching lines shown per file of a
	// search over several files; a search of one file (SearchResult.Single)
	// shows up to 200.
	DefaultMaxMatchesPerFile = 20
	// DefaultMaxColumns is the character length search lines are cut to.
	DefaultMaxColumns = 512
	// DefaultFindLimit is the number of entries a find returns.
	DefaultFindLimit = 200
	// DefaultReadLimit is the number of lines an open-ended file read or a
	// directory listing shows.
	DefaultReadLimit = 300
)

// defaultMaxMatchesOneFile caps the matching lines of a search of one
// file when the request sets no MaxMatchesPerFile.
const defaultMaxMatchesOneFile = 200

// maxWorkers caps Searcher.Workers: far more files at once than any
// machine's cores or disks serve (each worker holds buffers).
const maxWorkers = 256

// maxReadLimit is the most lines one read shows (Reader.DefaultLimit
// above it, or negative, means it).
const maxReadLimit = textio.MaxLimit

// readLimit resolves Reader.DefaultLimit: 0 means DefaultReadLimit;
// negative, or above maxReadLimit, means maxReadLimit.
func readLimit(n int) int {
	switch {
	case n == 0:
		return DefaultReadLimit
	case n < 0 || n > maxReadLimit:
		return maxReadLimit
	}
	return n
}

// listingLimit resolves Reader.ListingLimit as readLimit does, but 0
// stays 0: the listing is then read with the file read limit.
func listingLimit(n int) int {
	if n == 0 {
		return 0
	}
	return readLimit(n)
}

// limit resolves a limit: 0 means def, negative means none (-1).
func limit(v, def int) int {
	switch {
	case v == 0:
		return def
	case v < 0:
		return -1
	}
	return v
}
