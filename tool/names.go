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
// below convert what the data holds, copying only what they change.

// wire is a name as the data carries it.
func wire(name string) string { return fname.WireName(name) }

// wireNames returns names as the data carries them: names itself when
// every one is valid UTF-8, else a converted copy.
func wireNames(names []string) []string {
	i := slices.IndexFunc(names, func(n string) bool { return !utf8.ValidString(n) })
	if i < 0 {
		return names
	}
	out := slices.Clone(names)
	for ; i < len(out); i++ {
		out[i] = wire(out[i])
	}
	return out
}

// wireRead returns r with its names as the data carries them: its input
// and paths, its suffix resolution, the entries of a listing, the paths
// it skipped and the parts of a delimited entry. r itself when they are
// all valid UTF-8 (and for nil), else a copy.
func wireRead(r *scout.ReadResult) *scout.ReadResult {
	if r == nil || readNamesValid(r) {
		return r
	}
	c := *r
	c.Input, c.Path, c.Archive = wire(c.Input), wire(c.Path), wire(c.Archive)
	if s := c.SuffixResolution; s != nil {
		c.SuffixResolution = &scout.SuffixResolution{From: wire(s.From), To: wire(s.To)}
	}
	c.Entries = slices.Clone(c.Entries)
	for i := range c.Entries {
		c.Entries[i].Path = wire(c.Entries[i].Path)
	}
	c.SkippedPaths = slices.Clone(c.SkippedPaths)
	for i := range c.SkippedPaths {
		c.SkippedPaths[i].Path = wire(c.SkippedPaths[i].Path)
	}
	c.Parts = slices.Clone(c.Parts)
	for i := range c.Parts {
		c.Parts[i].Path = wire(c.Parts[i].Path)
		c.Parts[i].Result = wireRead(c.Parts[i].Result)
	}
	return &c
}

// readNamesValid reports whether every name wireRead converts is valid
// UTF-8.
func readNamesValid(r *scout.ReadResult) bool {
	ok := utf8.ValidString
	if !ok(r.Input) || !ok(r.Path) || !ok(r.Archive) {
		return false
	}
	if s := r.SuffixResolution; s != nil && (!ok(s.From) || !ok(s.To)) {
		return false
	}
	for _, e := range r.Entries {
		if !ok(e.Path) {
			return false
		}
	}
	for _, s := range r.SkippedPaths {
		if !ok(s.Path) {
			return false
		}
	}
	for _, p := range r.Parts {
		if !ok(p.Path) || p.Result != nil && !readNamesValid(p.Result) {
			return false
		}
	}
	return true
}
