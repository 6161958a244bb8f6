//go:build !linux

package fsx

// mapRegular maps nothing: files are read.
func mapRegular(Regular) (*Mapping, error) { return nil, ErrNoMap }

func (m *Mapping) release([]byte) {}

type rawFile struct{}

// Shrunk reports whether the mapped file is now shorter than Data.
func (m *Mapping) Shrunk() bool { return false }

// Close unmaps the file; Data must not be read after.
func (m *Mapping) Close() error { return nil }

// Pays reports false: no file is mapped.
func (m *Mapping) Pays([]byte) bool { return false }

// anon returns nil: the caller allocates.
func anon(int) []byte { return nil }

// FreeAnon gives back memory of Anon, which gives none here.
func FreeAnon([]byte) {}
