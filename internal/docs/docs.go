// Package docs holds Scout's own documentation, embedded in the binary:
// README.md (a copy of the repository's README) and docs/ (the package
// comments of scout, format and tool, and the tool definitions of every
// toolset). The omp:// internal URLs serve these files (see internal/iurl).
//
// The files are generated from their sources by
// `go test ./internal/docs -update` (or `go generate ./internal/docs`); the
// same test fails when they are stale.
package docs

//go:generate go test -run TestUpToDate -update .

import (
	"embed"
	"io/fs"
)

//go:embed README.md docs
var files embed.FS

// FS returns the documentation files: README.md and docs/*.md.
func FS() fs.FS { return files }
