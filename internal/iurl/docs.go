package iurl

import (
	"context"
	"errors"
	"io/fs"
	"path"
	"strings"

	"github.com/scoutkit/scout/internal/docs"
	"github.com/scoutkit/scout/internal/errs"
	"github.com/scoutkit/scout/internal/glob"
)

// Docs resolves omp:// URLs to embedded documentation: omp://README.md
// and omp://docs/tools.md are the files README.md and docs/tools.md of
// FS, and omp:// (or a directory, omp://docs) is the list of the URLs of
// the files below it, one a line. Documents are virtual (no SourcePath)
// and immutable. Every Registry resolves omp:// with Docs{} unless the
// host registers its own omp resolver.
type Docs struct {
	// FS holds the documents; nil means Scout's own documentation
	// (internal/docs: its README and the reference of the tools).
	FS fs.FS
}

func (d Docs) fsys() fs.FS {
	if d.FS == nil {
		return docs.FS()
	}
	return d.FS
}

// Resolve implements Resolver.
func (d Docs) Resolve(ctx context.Context, u *URL) (*Resource, error) {
	name, err := docName(u)
	if err != nil {
		return nil, err
	}
	fsys := d.fsys()
	st, err := fs.Stat(fsys, name)
	if err != nil && !errors.Is(err, fs.ErrNotExist) {
		return nil, errs.Wrap(errs.CodeOf(err), err, "Reading %s://%s: %v", u.Scheme, errs.Echo(name), err)
	}
	if err != nil {
		all, lerr := d.urls(ctx, u.Scheme, ".")
		if lerr != nil {
			return nil, lerr
		}
		return nil, errs.New(errs.NotFound, "Not found: %s://%s\nAvailable: %s", u.Scheme, errs.Echo(name), strings.Join(all, ", "))
	}
	if st.IsDir() {
		list, err := d.urls(ctx, u.Scheme, name)
		if err != nil {
			return nil, err
		}
		text := ""
		if len(list) > 0 {
			text = strings.Join(list, "\n") + "\n"
		}
		return &Resource{URL: u.Raw, Text: text, Immutable: true}, nil
	}
	b, err := fs.ReadFile(fsys, name)
	if err != nil {
		return nil, err
	}
	text := string(b)
	ctype := ""
	if path.Ext(name) == ".md" {
		ctype = "text/markdown"
	}
	return &Resource{URL: u.Raw, Text: text, Immutable: true, ContentType: ctype}, nil
}

// List implements Lister: when u names a directory (omp:// is the top) it
// returns the URLs of the documents below it, sorted; when u names one
// document or nothing it returns nil.
func (d Docs) List(ctx context.Context, u *URL) ([]string, error) {
	name, err := docName(u)
	if err != nil {
		return nil, nil // not a collection; Resolve reports the bad name
	}
	if st, err := fs.Stat(d.fsys(), name); err != nil || !st.IsDir() {
		return nil, nil
	}
	return d.urls(ctx, u.Scheme, name)
}

// docName returns the FS name of u: "." for the top.
func docName(u *URL) (string, error) {
	name := strings.Trim(u.Host+u.Path, "/")
	if name == "" {
		return ".", nil
	}
	if glob.HasMeta(name) {
		return "", errs.New(errs.InvalidParam, "Glob patterns are not supported for internal URLs: %s://%s. Read %s:// for the list of documents.", u.Scheme, errs.Echo(name), u.Scheme)
	}
	if !fs.ValidPath(name) {
		return "", errs.New(errs.InvalidParam, "Invalid %s:// name %q: use a document name such as %s://README.md, or %s:// for the list", u.Scheme, name, u.Scheme, u.Scheme)
	}
	return name, nil
}

// urls returns the URLs of the regular files below dir, in byte-wise
// order.
func (d Docs) urls(ctx context.Context, scheme, dir string) ([]string, error) {
	var out []string
	err := fs.WalkDir(d.fsys(), dir, func(name string, e fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if err := ctx.Err(); err != nil {
			return err
		}
		if e.Type().IsRegular() {
			out = append(out, scheme+"://"+name)
		}
		return nil
	})
	if err != nil {
		return nil, errs.Wrap(errs.CodeOf(err), err, "Listing %s://%s: %v", scheme, errs.Echo(strings.TrimPrefix(dir, ".")), err)
	}
	return out, nil
}
