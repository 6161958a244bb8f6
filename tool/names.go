package tool

import (
	"slices"
	"unicode/utf8"

	"github.com/scoutkit/scout"
	"github.com/scoutkit/scout/internal/fname"
)

// The names in an Envelope: the text shows a file, directory or member
// name as fname.Quote does (Go's quoted form when it is not printable
// UTF-8), and the data carries it as fname.WireName does: exact when it
// is valid UTF-8, quoted when not, where JSON would replace each invalid
// byte by U+FFFD. The core results keep the exact bytes; the functions
// below convert what the data holds, copying only the slices they change.

// wire is a name as the data carries it.
func wire(name string) string { return fname.WireName(name) }

// wireNames returns names as the data carries them: names itself when
// every one is valid UTF-8, else a converted copy.
func wireNames(names []string) []string {
	return wireEach(names, func(n *string) *string { return n })
}

// wireEach returns s with the name that name points to in each element
// as the data carries it: s itself when every one is valid UTF-8, else a
// converted copy.
func wireEach[T any](s []T, name func(*T) *string) []T {
	i := slices.IndexFunc(s, func(v T) bool { return !utf8.ValidString(*name(&v)) })
	if i < 0 {
		return s
	}
	out := slices.Clone(s)
	for ; i < len(out); i++ {
		n := name(&out[i])
		*n = wire(*n)
	}
	return out
}

// wireRead returns a copy of r with its names as the data carries them:
// its input and paths, its suffix resolution, the entries of a listing,
// the paths it skipped and the parts of a delimited entry. nil for nil.
func wireRead(r *scout.ReadResult) *scout.ReadResult {
	if r == nil {
		return nil
	}
	c := *r
	c.Input, c.Path, c.Archive = wire(c.Input), wire(c.Path), wire(c.Archive)
	if s := c.SuffixResolution; s != nil {
		c.SuffixResolution = &scout.SuffixResolution{From: wire(s.From), To: wire(s.To)}
	}
	c.Entries = wireEach(c.Entries, func(e *scout.DirEntry) *string { return &e.Path })
	c.SkippedPaths = wireEach(c.SkippedPaths, func(s *scout.SkippedPath) *string { return &s.Path })
	if len(c.Parts) > 0 {
		c.Parts = slices.Clone(c.Parts)
		for i := range c.Parts {
			c.Parts[i].Path = wire(c.Parts[i].Path)
			c.Parts[i].Result = wireRead(c.Parts[i].Result)
		}
	}
	return &c
}
