package read

import (
	"context"
	"errors"
	"io/fs"
	"path"
	"strings"
	"time"

	"golang.org/x/text/unicode/norm"

	"github.com/scoutkit/scout/internal/errs"
	"github.com/scoutkit/scout/internal/iurl"
	"github.com/scoutkit/scout/internal/pathutil"
)

// exists reports whether the path p (no selector) exists, as stat finds
// it.
func (r *reader) exists(p string) bool {
	_, err := r.stat(p)
	return err == nil
}

// found is a resolved local path.
type found struct {
	fsPath string      // the io/fs path
	info   fs.FileInfo // its FileInfo (symlinks followed)
	suffix *SuffixResolution
}

// stat resolves p (no selector) to an FS path and stats it, trying the
// other spellings a user or a macOS screenshot may have used. A missing
// path returns fs.ErrNotExist; a path outside the root ACCESS_DENIED.
func (r *reader) stat(p string) (*found, error) {
	fsPath, err := pathutil.Resolve(r.c.Root, p)
	if err != nil {
		return nil, err
	}
	var firstErr error
	for _, v := range variants(fsPath) {
		info, err := pathutil.Stat(r.c.FS, v)
		if err == nil {
			return &found{fsPath: v, info: info}, nil
		}
		if e := (*errs.Error)(nil); errors.As(err, &e) {
			return nil, err // outside the root, a loop
		}
		if firstErr == nil {
			firstErr = err
		}
	}
	return nil, statErr(p, firstErr)
}

// statErr gives a failed stat its code: missing paths keep fs.ErrNotExist
// (the caller tries other readings), others say what is wrong.
func statErr(p string, err error) error {
	var e *errs.Error
	if errors.Is(err, fs.ErrNotExist) || errors.As(err, &e) {
		return err
	}
	if errors.Is(err, fs.ErrInvalid) {
		return errs.Wrap(errs.InvalidParam, err, "Invalid path '%s': it is not a valid file name (%v). Check the spelling and the encoding.", errs.Echo(p), err)
	}
	return errs.Wrap(errs.CodeOf(err), err, "Cannot read '%s': %v", errs.Echo(p), err)
}

// variants returns p and the other spellings to try when p does not exist
// as the pi read tool does: shell-unescaped spaces, the narrow
// no-break space macOS puts before AM/PM in screenshot names, NFD, a curly
// apostrophe, and NFD with a curly apostrophe.
func variants(p string) []string {
	out := []string{p}
	add := func(v string) {
		for _, o := range out {
			if o == v {
				return
			}
		}
		out = append(out, v)
	}
	if strings.Contains(p, `\ `) {
		add(strings.ReplaceAll(p, `\ `, " "))
	}
	if strings.Contains(p, " AM") || strings.Contains(p, " PM") {
		add(strings.NewReplacer(" AM", "\u202FAM", " PM", "\u202FPM").Replace(p))
	}
	add(norm.NFD.String(p))
	curly := strings.ReplaceAll(p, "'", "\u2019")
	add(curly)
	add(norm.NFD.String(curly))
	return out
}

// suffixTimeout bounds a suffix match.
const suffixTimeout = 5 * time.Second

// suffixLimit is the time a suffix match may take.
func (r *reader) suffixLimit() time.Duration {
	if r.c.SuffixTimeout > 0 {
		return r.c.SuffixTimeout
	}
	return suffixTimeout
}

// suffixMatch looks for the one entry of the tree whose path ends with
// "/"+p. It returns "" when there is none or more than one, or when the
// search ran out of time.
func (r *reader) suffixMatch(ctx context.Context, p string) string {
	p = strings.Trim(path.Clean(strings.ReplaceAll(p, `\`, "/")), "/")
	if p == "." || p == "" || p == ".." || strings.HasPrefix(p, "../") {
		return ""
	}
	ctx, cancel := context.WithTimeout(ctx, r.suffixLimit())
	defer cancel()
	want := "/" + p
	// As pi's glob: .git is never searched, node_modules only when the
	// path names it.
	inNodeModules := strings.Contains(p, "node_modules")
	var matches []string
	fs.WalkDir(r.c.FS, ".", func(q string, d fs.DirEntry, err error) error {
		if ctx.Err() != nil {
			return fs.SkipAll
		}
		if err != nil {
			return nil
		}
		if d.IsDir() && (d.Name() == ".git" || d.Name() == "node_modules" && !inNodeModules) {
			return fs.SkipDir
		}
		if strings.HasSuffix("/"+q, want) && q != p {
			matches = append(matches, q)
			if len(matches) > 1 {
				return fs.SkipAll
			}
		}
		return nil
	})
	if ctx.Err() != nil || len(matches) != 1 {
		return ""
	}
	return matches[0]
}

// notFound is the error of a path that does not exist; one that holds a
// '\' whose '/' reading exists says so (pathutil.SlashHint). A missing path
// that looks like a URL of a scheme read does not fetch ("ftp://h/f",
// "data:,x") says which URLs are read; one that looks like a web URL
// written without "//" ("https:example.com") says how to write it.
func (r *reader) notFound(p string) error {
	msg := "Path '" + errs.Echo(p) + "' not found" + pathutil.SlashHint(p, r.exists)
	const fetched = "; read fetches http:// and https:// URLs and internal URLs of registered schemes, not "
	if u, err := iurl.Parse(p); err == nil {
		msg += fetched + u.Scheme + "://"
	} else if scheme, rest, ok := strings.Cut(p, ":"); ok && !strings.HasPrefix(rest, "//") {
		switch strings.ToLower(scheme) {
		case "http", "https":
			msg += "; a web URL is written " + strings.ToLower(scheme) + "://host/path"
		case "data", "javascript", "mailto", "file", "about", "blob":
			msg += fetched + strings.ToLower(scheme) + ": URLs"
		}
	}
	return &errs.Error{Code: errs.NotFound, Path: p, Message: msg, Err: fs.ErrNotExist}
}

// locator finds a container file (an archive, a database) named as
// written: its FS path, the suffix resolution that found it (nil when the
// path was found as written), and whether it is a regular file inside the
// root. err is set when the path leads outside the root through a symlink
// or through a symlink loop: the read ends with it, as it would for the
// container alone, since the path names something inside it.
type locator func(p string) (name string, suffix *SuffixResolution, ok bool, err error)

// locate finds p as written.
func (r *reader) locate(p string) (string, *SuffixResolution, bool, error) {
	name, err := pathutil.Resolve(r.c.Root, p)
	if err != nil {
		return "", nil, false, nil
	}
	info, err := pathutil.Stat(r.c.FS, name)
	if e := (*errs.Error)(nil); errors.As(err, &e) {
		return "", nil, false, err // outside the root, or a loop
	}
	if err != nil || !info.Mode().IsRegular() {
		return "", nil, false, nil
	}
	return name, nil, true, nil
}

// bySuffix finds p by a unique suffix match within ctx's deadline.
func (r *reader) bySuffix(ctx context.Context) locator {
	return func(p string) (string, *SuffixResolution, bool, error) {
		to := r.suffixMatch(ctx, p)
		if to == "" {
			return "", nil, false, nil
		}
		name, _, ok, err := r.locate(to)
		return name, &SuffixResolution{From: p, To: to}, ok, err
	}
}
