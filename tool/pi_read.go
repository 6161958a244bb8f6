package tool

import (
	"context"

	"github.com/scoutkit/scout"
	"github.com/scoutkit/scout/format"
)

func init() {
	define(Pi, "read", piReadDescription, runPiRead)
}

const piReadDescription = `Read a file, directory, archive member, SQLite database, notebook, image, document or URL through one path string.

- path: relative to the project root (or absolute inside it). End it with a selector:
  :50 (from line 50), :50-100, :50+20 (20 lines), :5-16,960-973 (several ranges), :raw (bytes as they are, no line prefixes), :50-100:raw, :conflicts (merge-conflict blocks).
- A range is widened by 1 line before and 3 after (not with :raw). An open-ended read shows 300 lines; the notice at the end says which selector continues.
- A large source file read without a selector is summarised (bodies elided); the footer names the ranges to re-read.
- Directories show a two-level tree, newest first. Archives: a.zip, a.zip:dir/, a.zip:dir/f.ts:50-60.
- SQLite: app.db (tables), app.db:users (schema and samples), app.db:users:42 (a row), app.db:users?limit=20&offset=20&order=id:desc&where=..., app.db?q=SELECT ...
- URLs: https://..., www.... (rendered page with a header; page on with :301).
Output: a ¶path#TAG header, then LINE:text rows.`

// piReadArgs are the arguments of pi read (seed 001).
type piReadArgs struct {
	Path string `json:"path" required:"true" missing:"Path must not be empty" desc:"Path to read, optionally ending in a selector such as :50-100 or :raw"`
}

// piReadData is the details object of pi read (seed 001).
type piReadData struct {
	Kind             string            `json:"kind"` // "file" or "directory" (and "url" for web reads)
	IsDirectory      bool              `json:"isDirectory,omitempty"`
	ResolvedPath     string            `json:"resolvedPath"`
	SuffixResolution *piSuffix         `json:"suffixResolution,omitempty"`
	Truncation       *piTruncation     `json:"truncation,omitempty"`
	Summary          *piSummary        `json:"summary,omitempty"`
	URL              string            `json:"url,omitempty"`
	FinalURL         string            `json:"finalUrl,omitempty"`
	ContentType      string            `json:"contentType,omitempty"`
	Method           string            `json:"method,omitempty"`
	Notes            []string          `json:"notes,omitempty"`
	Result           *scout.ReadResult `json:"result"`
}

type piSuffix struct {
	From string `json:"from"`
	To   string `json:"to"`
}

type piTruncation struct {
	Reason     string `json:"reason"` // "lines" or "bytes"
	StartLine  int    `json:"startLine"`
	EndLine    int    `json:"endLine"`
	TotalLines int    `json:"totalLines"`
	TotalBytes int64  `json:"totalBytes"`
	NextOffset int    `json:"nextOffset"`
	ByteLimit  int    `json:"byteLimit,omitempty"`
}

type piSummary struct {
	Lines       int      `json:"lines"`
	ElidedSpans [][2]int `json:"elidedSpans"`
	ElidedLines int      `json:"elidedLines"`
}

func runPiRead(ctx context.Context, c *Config, in *piReadArgs) (*scout.Envelope, error) {
	r := c.Reader
	r.Workspace = c.workspace()
	if c.ReadLimit != 0 {
		r.DefaultLimit = c.ReadLimit
	}
	res, err := r.Read(ctx, scout.ReadRequest{Path: in.Path})
	if err != nil {
		return nil, err
	}
	style := format.StylePlain
	if c.hashline() {
		style = format.StyleHashline
	}
	text := format.ReadText(res, &format.ReadOptions{Style: style})
	d := &piReadData{Kind: "file", ResolvedPath: res.Path, Result: res}
	if res.Kind == scout.ReadKindDirectory {
		d.Kind, d.IsDirectory = "directory", true
	}
	if u := res.URL; u != nil {
		d.Kind, d.URL, d.FinalURL, d.ContentType, d.Method, d.Notes = "url", u.URL, u.FinalURL, u.ContentType, u.Method, u.Notes
	}
	if s := res.SuffixResolution; s != nil {
		d.SuffixResolution = &piSuffix{From: s.From, To: s.To}
	}
	if t := res.Truncation; t != nil {
		d.Truncation = &piTruncation{Reason: t.Reason, StartLine: t.Start, EndLine: t.End, TotalLines: t.Total, TotalBytes: res.Bytes, NextOffset: t.Next, ByteLimit: t.ByteLimit}
	}
	if s := res.Summary; s != nil {
		d.Summary = &piSummary{Lines: s.Lines, ElidedSpans: s.ElidedSpans, ElidedLines: s.ElidedLines}
	}
	env := okEnvelope(res.Truncated(), d, text)
	env.Stats = scout.Stats{Files: 1, Bytes: res.Bytes}
	env.Context.PathResolved = res.Path
	if res.Image != nil && res.ImageData != nil {
		env.Images = []scout.Image{{MIME: res.Image.MIME, Data: res.ImageData}}
	}
	return env, nil
}
