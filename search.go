package scout

// Searcher runs regex content searches. Its zero value searches the current
// directory with the documented defaults; it is safe for concurrent use and
// calls never modify it.
type Searcher struct {
	Workspace
}
