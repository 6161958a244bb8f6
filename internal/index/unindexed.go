package index

import (
	"context"
	"fmt"
	"io/fs"
	"regexp"
	"sync"

	"github.com/scoutkit/scout/internal/fsx"
	"github.com/scoutkit/scout/internal/grep"
	"github.com/scoutkit/scout/internal/par"
)

// The files an index holds without content are the same for every search
// of one commit; so is whether Scout would read a "binary" one (zoekt calls
// a file binary for a NUL anywhere, Scout for one in its first 64 KiB, and
// Scout reads UTF-16 and UTF-32 texts). Both are kept, per indexed commit,
// for the process's life: a long-lived server pays for them once.
type unindexedEntry struct {
	once   sync.Once
	list   []Unindexed
	err    error
	mu     sync.Mutex
	binary map[string]bool // top-relative path -> Scout skips it as binary
}

// maxUnindexedEntries bounds the commits whose lists are kept.
const maxUnindexedEntries = 8

var (
	unindexedMu    sync.Mutex
	unindexedCache = map[string]*unindexedEntry{}
	unindexedOrder []string
)

// unindexed returns the index's list for its commit, from the cache when
// an earlier search fetched it.
func unindexed(ctx context.Context, b Backend, r *repo, st Status) ([]Unindexed, error) {
	key := fmt.Sprintf("%s\x00%s\x00%d\x00%d", r.top, st.Commit, st.Files, st.Bytes)
	unindexedMu.Lock()
	e := unindexedCache[key]
	if e == nil {
		e = &unindexedEntry{binary: map[string]bool{}}
		unindexedCache[key] = e
		unindexedOrder = append(unindexedOrder, key)
		if len(unindexedOrder) > maxUnindexedEntries {
			delete(unindexedCache, unindexedOrder[0])
			unindexedOrder = unindexedOrder[1:]
		}
	}
	unindexedMu.Unlock()
	e.once.Do(func() { e.list, e.err = b.Unindexed(ctx, st.Commit) })
	if e.err != nil {
		// Not kept: the next search asks again.
		unindexedMu.Lock()
		if unindexedCache[key] == e {
			delete(unindexedCache, key)
		}
		unindexedMu.Unlock()
		return nil, e.err
	}
	return e.list, nil
}

// entryOf returns the cache entry of a commit, nil if there is none.
func entryOf(r *repo, st Status) *unindexedEntry {
	key := fmt.Sprintf("%s\x00%s\x00%d\x00%d", r.top, st.Commit, st.Files, st.Bytes)
	unindexedMu.Lock()
	defer unindexedMu.Unlock()
	return unindexedCache[key]
}

// readable returns, relative to the search root, the unindexed files that
// a scan of the request would read: unchanged since the commit (changed
// ones are read anyway), within the path filters, not too large for the
// request, and not binary for Scout.
func readable(ctx context.Context, fsys fs.FS, r *repo, st Status, list []Unindexed, ch *Changes, include, exclude []string, maxSize int64) ([]string, error) {
	inc, err := compileAll(include)
	if err != nil {
		return nil, err
	}
	exc, err := compileAll(exclude)
	if err != nil {
		return nil, err
	}
	pass := func(p string) bool {
		for _, re := range inc {
			if !re.MatchString(p) {
				return false
			}
		}
		for _, re := range exc {
			if re.MatchString(p) {
				return false
			}
		}
		return true
	}
	e := entryOf(r, st)
	var out, unknown []string
	var unknownTop []string
	for _, u := range list {
		rel, ok := r.toRoot(u.Path)
		if !ok || ch.covers(u.Path) || !pass(rel) {
			continue
		}
		switch u.Reason {
		case "too_small":
			// Fewer than 3 bytes: no match of a literal of 3 characters.
			continue
		case "too_large":
			if fi, err := fsx.Lstat(fsys, rel); err != nil || maxSize >= 0 && fi.Size() > maxSize {
				continue
			}
		case "binary":
			if e != nil {
				e.mu.Lock()
				bin, known := e.binary[u.Path]
				e.mu.Unlock()
				if known {
					if !bin {
						out = append(out, rel)
					}
					continue
				}
			}
			unknown, unknownTop = append(unknown, rel), append(unknownTop, u.Path)
			continue
		}
		out = append(out, rel)
	}
	if len(unknown) == 0 {
		return out, nil
	}
	// Look at the files zoekt calls binary as Scout's scan would.
	m, err := grep.Compile(grep.Options{CountOnly: true, FirstOnly: true})
	if err != nil {
		return nil, err
	}
	bin := make([]bool, len(unknown))
	par.Range(len(unknown), 16, func(lo, hi int) {
		sc := m.NewScanner()
		for i := lo; i < hi; i++ {
			res, err := sc.SearchFile(ctx, fsys, unknown[i], -1)
			bin[i] = err == nil && res.Binary
		}
	})
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	for i, rel := range unknown {
		if e != nil {
			e.mu.Lock()
			e.binary[unknownTop[i]] = bin[i]
			e.mu.Unlock()
		}
		if !bin[i] {
			out = append(out, rel)
		}
	}
	return out, nil
}

func compileAll(res []string) ([]*regexp.Regexp, error) {
	out := make([]*regexp.Regexp, len(res))
	for i, s := range res {
		re, err := regexp.Compile(s)
		if err != nil {
			return nil, err
		}
		out[i] = re
	}
	return out, nil
}
