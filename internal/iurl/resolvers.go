package iurl

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"io"
	"io/fs"
	"path"
	"slices"
	"strconv"
	"strings"

	"github.com/scoutkit/scout/internal/errs"
	"github.com/scoutkit/scout/internal/pathutil"
)

// MaxResource is the largest backing file read by Files and Agent.
const MaxResource = 64 << 20

// Texts resolves scheme://name to in-memory text, for resources a host
// keeps in memory (memory://, rule://, skill:// bodies).
type Texts struct {
	// Entries maps a name (the URL host, plus its path if any:
	// "notes/today") to its text. nil means no entries.
	Entries map[string]string
	// Immutable is copied to every resource.
	Immutable bool
	// ContentType is copied to every resource; "" means text/plain.
	ContentType string
}

// Resolve implements Resolver.
func (t Texts) Resolve(_ context.Context, u *URL) (*Resource, error) {
	name := u.Host + u.Path
	s, ok := t.Entries[name]
	if !ok {
		s, ok = t.Entries[strings.TrimSuffix(name, "/")]
	}
	if !ok {
		names := make([]string, 0, len(t.Entries))
		for n := range t.Entries {
			names = append(names, n)
		}
		slices.Sort(names)
		return nil, notFound(u, names)
	}
	return &Resource{URL: u.Raw, Text: s, Immutable: t.Immutable, ContentType: t.ContentType}, nil
}

// Files resolves scheme://name[/path] to the file Dir/name[/path]+Suffix
// in FS (for example skill://deploy to skills/deploy/SKILL.md with Dir
// "skills" and Index "SKILL.md"). A path that would leave Dir is refused.
type Files struct {
	FS fs.FS
	// Dir is the directory in FS that holds the resources; "" means ".".
	Dir string
	// Suffix is appended to the name ("": none; ".md" for memory notes).
	Suffix string
	// Index is the file read when the name is a directory ("" means such
	// a name is not found).
	Index string
	// Immutable and ContentType are copied to every resource.
	Immutable   bool
	ContentType string
}

// Resolve implements Resolver.
func (f Files) Resolve(ctx context.Context, u *URL) (*Resource, error) {
	if f.FS == nil {
		return nil, errs.New(errs.Unsupported, "%s:// has no file system configured", u.Scheme)
	}
	rel := strings.Trim(u.Host+u.Path, "/")
	dir := f.Dir
	if dir == "" {
		dir = "."
	}
	name := path.Join(dir, rel)
	if rel == "" || !fs.ValidPath(name) || strings.Contains("/"+rel+"/", "/../") {
		return nil, errs.New(errs.InvalidParam, "Invalid %s:// name %q: use a name relative to the %s directory", u.Scheme, rel, u.Scheme)
	}
	candidates := []string{name + f.Suffix}
	if f.Index != "" {
		candidates = append(candidates, path.Join(name, f.Index))
	}
	for _, c := range candidates {
		st, err := pathutil.Stat(f.FS, c)
		if err != nil || !st.Mode().IsRegular() {
			continue
		}
		text, err := readCapped(ctx, f.FS, c)
		if err != nil {
			return nil, err
		}
		return &Resource{URL: u.Raw, SourcePath: c, Text: text, Immutable: f.Immutable, ContentType: f.ContentType}, nil
	}
	return nil, notFound(u, listNames(f.FS, dir, f.Suffix))
}

// listNames lists the resource names in dir, for not-found messages.
func listNames(fsys fs.FS, dir, suffix string) []string {
	ents, err := fs.ReadDir(fsys, dir)
	if err != nil {
		return nil
	}
	var out []string
	for _, e := range ents {
		n := e.Name()
		if suffix != "" {
			if !strings.HasSuffix(n, suffix) {
				if !e.IsDir() {
					continue
				}
			} else {
				n = strings.TrimSuffix(n, suffix)
			}
		}
		out = append(out, n)
	}
	return out
}

func readCapped(ctx context.Context, fsys fs.FS, name string) (string, error) {
	if err := ctx.Err(); err != nil {
		return "", err
	}
	f, err := fsys.Open(name)
	if err != nil {
		return "", err
	}
	defer f.Close()
	b, err := io.ReadAll(io.LimitReader(f, MaxResource+1))
	if err != nil {
		return "", err
	}
	if len(b) > MaxResource {
		return "", errs.New(errs.TooLarge, "%s is larger than %d MiB", name, MaxResource>>20)
	}
	return string(b), nil
}

// Agent resolves agent://<id> to the output <id>.md in Dir, and
// agent://<id>/<path> or agent://<id>?q=<query> to a value extracted from
// the JSON of <id>.json (or of <id>.md when there is no .json sidecar).
// Agent outputs are immutable.
type Agent struct {
	FS fs.FS
	// Dir is the directory of the outputs; "" means ".".
	Dir string
}

// Resolve implements Resolver.
func (a Agent) Resolve(ctx context.Context, u *URL) (*Resource, error) {
	if u.Host == "" {
		return nil, errs.New(errs.InvalidParam, "agent:// URL requires an output ID: agent://<id>")
	}
	if a.FS == nil {
		return nil, errs.New(errs.Unsupported, "agent:// has no output directory configured")
	}
	dir := a.Dir
	if dir == "" {
		dir = "."
	}
	md := path.Join(dir, u.Host+".md")
	if !fs.ValidPath(md) || strings.Contains(u.Host, "/") || strings.HasPrefix(u.Host, ".") {
		return nil, errs.New(errs.InvalidParam, "Invalid agent output ID %q", u.Host)
	}
	text, err := readCapped(ctx, a.FS, md)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, notFound(u, listNames(a.FS, dir, ".md"))
	}
	if err != nil {
		return nil, err
	}
	res := &Resource{URL: u.Raw, SourcePath: md, Text: text, Immutable: true, ContentType: "text/markdown"}
	segs := u.Segments()
	q := u.Query.Get("q")
	if len(segs) == 0 && q == "" {
		return res, nil
	}
	if q != "" {
		qs, err := ParseQuery(q)
		if err != nil {
			return nil, err
		}
		segs = append(segs, qs...)
	}
	src, data := md, text
	sidecar := path.Join(dir, u.Host+".json")
	if js, err := readCapped(ctx, a.FS, sidecar); err == nil && json.Valid([]byte(js)) {
		src, data = sidecar, js
	}
	out, ctype, err := ExtractJSON(data, segs)
	if err != nil {
		return nil, errs.New(errs.InvalidParam, "Output %s: %v", u.Host, err)
	}
	res.SourcePath, res.Text, res.ContentType = src, out, ctype
	res.Notes = []string{"Extracted: /" + strings.Join(segs, "/")}
	if src == sidecar {
		res.Notes = append(res.Notes, "Source: "+path.Base(sidecar))
	}
	return res, nil
}

// ExtractJSON walks segs into the JSON document data (an object key per
// segment, or an index when the value is an array). A string result is
// returned as is (text/markdown), anything else pretty-printed
// (application/json); a missing path gives null.
func ExtractJSON(data string, segs []string) (text, contentType string, err error) {
	var v any
	d := json.NewDecoder(strings.NewReader(data))
	d.UseNumber()
	if err := d.Decode(&v); err != nil {
		return "", "", errors.New("is not valid JSON: " + err.Error())
	}
	for _, s := range segs {
		switch c := v.(type) {
		case map[string]any:
			v = c[s]
		case []any:
			i, err := strconv.Atoi(s)
			if err != nil || i < 0 || i >= len(c) {
				v = nil
			} else {
				v = c[i]
			}
		default:
			v = nil
		}
	}
	if s, ok := v.(string); ok {
		return s, "text/markdown", nil
	}
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetIndent("", "  ")
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		return "", "", err
	}
	return strings.TrimSuffix(b.String(), "\n"), "application/json", nil
}

// ParseQuery turns a path query into segments: ".reports[0].title",
// "reports.0.title" and "/reports/0/title" all give [reports 0 title];
// ["key with.dots"] quotes a key.
func ParseQuery(q string) ([]string, error) {
	var segs []string
	i := 0
	bad := func() ([]string, error) {
		return nil, errs.New(errs.InvalidParam, "Invalid query %q: use a path like .reports[0].title", q)
	}
	for i < len(q) {
		switch c := q[i]; {
		case c == '.' || c == '/':
			i++
		case c == '[':
			end := strings.IndexByte(q[i:], ']')
			if end < 0 {
				return bad()
			}
			in := q[i+1 : i+end]
			if uq, err := strconv.Unquote(in); err == nil {
				in = uq
			} else if _, err := strconv.Atoi(in); err != nil {
				return bad()
			}
			segs = append(segs, in)
			i += end + 1
		default:
			j := i
			for j < len(q) && q[j] != '.' && q[j] != '/' && q[j] != '[' {
				j++
			}
			segs = append(segs, q[i:j])
			i = j
		}
	}
	return segs, nil
}
