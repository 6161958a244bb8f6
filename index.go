package scout

import (
	"context"
	"errors"
	"io/fs"

	"github.com/scoutkit/scout/internal/index"
	"github.com/scoutkit/scout/internal/search"
)

// Index answers content searches from a prebuilt index of one commit of
// the workspace's git repository, such as a cluster of zoekt webservers
// (package zoekt). A Searcher with an Index uses it only where it can be
// exact and is likely faster than a scan, and says why when it does not
// (SearchResult.Backend): the index names the files of its commit with a
// matching line, Searcher adds the files changed since that commit
// (tracked changes, untracked and deleted files, files marked
// assume-unchanged or skip-worktree, which git does not compare), those
// the index cannot hold as a scan reads them (ignored files that the
// search's rules bring back, files a filter, ident or working-tree-encoding
// attribute makes, such as Git LFS's, the files of submodules and other
// committed repositories, files and directories named through a symlink),
// and reads every one of these candidates with its own matcher. The
// result is therefore the one a scan of the working tree gives: same
// files, lines, spans, context, counts and pages.
//
// Implementations must be safe for concurrent use. Paths are slash paths
// relative to the repository's top directory. Searcher may call Search
// once more after a search has answered, in the background, to learn how
// many files a query too common for its first, small cap names.
type Index interface {
	// Status says which commit of the repository the index holds.
	Status(ctx context.Context) (*IndexStatus, error)
	// Search returns the files of q.Commit with a line matching q.
	Search(ctx context.Context, q *IndexQuery) (*IndexAnswer, error)
	// Unindexed lists the files of commit that the index holds without
	// their content (binary, too large, ...), which a search never
	// returns; Searcher reads those that a scan would search itself.
	Unindexed(ctx context.Context, commit string) ([]UnindexedFile, error)
}

// IndexStatus describes what an Index holds.
type IndexStatus struct {
	// Commit is the full hash of the indexed commit; "" when the index
	// does not hold the repository.
	Commit string `json:"commit"`
	// Files and Bytes count the indexed files and their content.
	Files int   `json:"files"`
	Bytes int64 `json:"bytes"`
	// Endpoints is the number of servers that answered.
	Endpoints int `json:"endpoints"`
	// Local reports that a server runs on this machine, where a scan
	// competes with it for the processors: Searcher then never starts a
	// scan beside a search of the index, but gives the index less time.
	Local bool `json:"local,omitempty"`
}

// IndexQuery is a content search in an index's terms.
type IndexQuery struct {
	// Commit is the commit the answer must be for (IndexStatus.Commit); an
	// index that holds another one must fail.
	Commit string `json:"commit"`
	// Pattern is a Go RE2 regular expression matched against the whole
	// text of each file, with ^ and $ at line boundaries; '.' and classes
	// never match a newline, so a match lies within one line. It has no
	// case-folding flags: IgnoreCase says whether it folds.
	Pattern string `json:"pattern"`
	// IgnoreCase matches letters of either case (Unicode simple folding).
	IgnoreCase bool `json:"ignore_case,omitempty"`
	// Include are path regexes (Go RE2) a file must all match; Exclude
	// are path regexes it must match none of. nil means no constraint.
	Include []string `json:"include,omitempty"`
	Exclude []string `json:"exclude,omitempty"`
	// MaxFiles caps the files of the answer: beyond it the answer is
	// Capped. An index may stop before it, as when each of its parts
	// stops at its share of the cap, and say Capped then too. It is
	// always positive.
	MaxFiles int `json:"max_files"`
}

// IndexAnswer is an Index's answer to an IndexQuery.
type IndexAnswer struct {
	// Files are the paths of the matching files, in no particular order.
	Files []string `json:"files"`
	// Capped reports that the index stopped at IndexQuery.MaxFiles, or at
	// its parts' shares of it: more files may match than Files names.
	Capped bool `json:"capped,omitempty"`
	// Incomplete says, for people, what else cut the answer short: files
	// or shards skipped, a missed deadline. Empty when the answer holds
	// every matching file (unless Capped).
	Incomplete []string `json:"incomplete,omitempty"`
	// Endpoints is the number of servers that answered.
	Endpoints int `json:"endpoints"`
}

// UnindexedFile is a file an index holds without its content.
type UnindexedFile struct {
	// Path is the file's path relative to the repository's top.
	Path string `json:"path"`
	// Reason is "binary", "too_large", "too_many_trigrams", "too_small"
	// or another word of the index's.
	Reason string `json:"reason"`
}

// Backend says how a search was answered: by a scan of the tree, or by
// the Index with the changed files scanned directly. It is set only when
// the Searcher has an Index.
type Backend struct {
	// Index reports that the index answered.
	Index bool `json:"index"`
	// Endpoints is the number of index servers that answered.
	Endpoints int `json:"endpoints,omitempty"`
	// Commit is the commit the index holds.
	Commit string `json:"commit,omitempty"`
	// Overlay counts the paths changed since Commit (files, or untracked
	// directories) that were scanned directly, and Unindexed the files the
	// index holds without content that were read directly.
	Overlay   int `json:"overlay,omitempty"`
	Unindexed int `json:"unindexed,omitempty"`
	// Fallback, when Index is false, says why the tree was scanned:
	// "empty_pattern", "multiline" (a match may span lines), "line_ranges"
	// (Lines, or a path with its own line selector),
	// "archive_member", "internal_url", "named_files" (the paths name
	// files only), "no_literal" (no required literal of 3 or more
	// characters), "fold_regex" (a case-insensitive pattern that is not a
	// literal: slower in the index than a scan), "not_os_dir" (the
	// workspace is not an OS directory), "not_git", "small_index" (a scan
	// is about as fast), "repo_not_indexed", "foreign_commit" (the indexed
	// commit is not in the local repository), "stale_commit" (HEAD does
	// not descend from it), "changed_set" (too many changed files, or the
	// search root lies in a directory the ignore files exclude),
	// "cold_overlay" (the changed files are not watched yet, and finding
	// them with git would cost half a scan or more: in a one-shot command
	// or the first search of a long-lived process, a search of part of
	// the tree, or any on a tree of many small files),
	// "index_broad" (more files match than are worth reading one by one),
	// "index_incomplete", "index_deadline" or "index_error".
	Fallback string `json:"fallback,omitempty"`
	// Detail says more about the fallback, for people: an endpoint's
	// error, what cut an answer short.
	Detail string `json:"detail,omitempty"`
}

// indexed answers a search through the planner of internal/index.
func (s *Searcher) indexed(ctx context.Context, fsys fs.FS, root string, in search.Request) (*search.Outcome, *Backend, error) {
	out, rep, err := index.Search(ctx, fsys, root, in, indexBackend{s.Index})
	if err != nil {
		return nil, nil, err
	}
	return out, &Backend{
		Index:     rep.Index,
		Endpoints: rep.Endpoints,
		Commit:    rep.Commit,
		Overlay:   rep.Overlay,
		Unindexed: rep.Unindexed,
		Fallback:  rep.Fallback,
		Detail:    rep.Detail,
	}, nil
}

// indexBackend adapts an Index to the planner.
type indexBackend struct{ ix Index }

func (b indexBackend) Status(ctx context.Context) (index.Status, error) {
	st, err := b.ix.Status(ctx)
	if err != nil {
		return index.Status{}, err
	}
	if st == nil {
		return index.Status{}, errors.New("the index returned no status")
	}
	return index.Status{Commit: st.Commit, Files: st.Files, Bytes: st.Bytes, Endpoints: st.Endpoints, Local: st.Local}, nil
}

func (b indexBackend) Search(ctx context.Context, q *index.Query) (index.Answer, error) {
	a, err := b.ix.Search(ctx, &IndexQuery{
		Commit:     q.Commit,
		Pattern:    q.Pattern,
		IgnoreCase: q.IgnoreCase,
		Include:    q.Include,
		Exclude:    q.Exclude,
		MaxFiles:   q.MaxFiles,
	})
	if err != nil {
		return index.Answer{}, err
	}
	if a == nil {
		return index.Answer{}, errors.New("the index returned no answer")
	}
	return index.Answer{Files: a.Files, Capped: a.Capped, Incomplete: a.Incomplete, Endpoints: a.Endpoints}, nil
}

func (b indexBackend) Unindexed(ctx context.Context, commit string) ([]index.Unindexed, error) {
	list, err := b.ix.Unindexed(ctx, commit)
	if err != nil {
		return nil, err
	}
	out := make([]index.Unindexed, len(list))
	for i, u := range list {
		out[i] = index.Unindexed{Path: u.Path, Reason: u.Reason}
	}
	return out, nil
}
