package scout

// Reader reads one path string with selectors. Its zero value reads from the
// current directory with the documented defaults; it is safe for concurrent
// use and calls never modify it.
type Reader struct {
	Workspace
}
