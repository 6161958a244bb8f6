package tool

import (
	"context"
	"encoding/json"
	"testing"
	"testing/fstest"
	"unicode/utf8"

	"github.com/scoutkit/scout"
	"github.com/scoutkit/scout/internal/testfs"
)

// bodyFetcher answers every URL with one body of one content type, as a
// hostile server could.
type bodyFetcher struct{ typ, body string }

func (f bodyFetcher) Fetch(_ context.Context, url string) (*scout.FetchResponse, error) {
	return &scout.FetchResponse{URL: url, FinalURL: url, Status: 200, ContentType: f.typ, Body: []byte(f.body)}, nil
}

// FuzzCallInMemory calls every tool of every toolset with arbitrary
// arguments over an in-memory tree (fs.FS, not the OS), an internal URL
// resolver and a fetcher that answers any URL with an arbitrary body: the
// Envelope must encode as UTF-8 JSON with a known status, and an error
// must be coded, never INTERNAL (a panic inside a tool).
func FuzzCallInMemory(f *testing.F) {
	fsys := fstest.MapFS{
		"a.txt":     {Data: []byte("one\nTwo\nthree\n")},
		"src/a.go":  {Data: []byte("package a\n\nfunc A() {\n\ta()\n\tb()\n\tc()\n}\n")},
		"crlf.txt":  {Data: []byte("x\r\ny\rz\xff\n")},
		"docs.zip":  {Data: testfs.Zip(testfs.Files(map[string]string{"inner.txt": "two\n", "sub/x.go": "package x\n"})...)},
		"c.txt":     {Data: []byte("a\n<<<<<<< ours\nb\n=======\nc\n>>>>>>> theirs\n")},
		".hidden/h": {Data: []byte("two\n")},
	}
	var names [][2]string
	for _, ts := range Toolsets() {
		tools, _ := Tools(ts)
		for _, tl := range tools {
			names = append(names, [2]string{ts, tl.Name})
		}
	}
	for i, args := range []string{
		`{"path":"a.txt"}`, `{"path":"a.txt:2-3"}`, `{"path":"docs.zip:sub/x.go"}`, `{"path":"c.txt:conflicts"}`, `{"path":"memory://m:2"}`,
		`{"path":"https://x.example/p:raw"}`, `{"pattern":"two","paths":["a.txt","docs.zip"],"-i":true}`, `{"pattern":"t.o","output_mode":"content","-C":1}`,
		`{"pattern":"**/*.go"}`, `{"paths":["src"],"limit":1}`, `{"pattern":"*","path":"memory://m"}`, `{"path":"src"}`, `{"path":"a.txt, src/a.go"}`,
	} {
		for j := range names {
			f.Add(uint8(j), []byte(args), uint8(i), "text/html", "<html><body><h1>T</h1><p>two</p></body></html>")
		}
	}
	types := []string{"text/plain", "text/html", "application/json", "application/rss+xml", "application/pdf", "image/png", "application/octet-stream", ""}
	f.Fuzz(func(t *testing.T, pick uint8, args []byte, typ uint8, ctype, body string) {
		if ctype == "" {
			ctype = types[int(typ)%len(types)]
		}
		ts := names[int(pick)%len(names)]
		c := Config{FS: fsys, Fetcher: bodyFetcher{ctype, body}, Resolvers: map[string]scout.Resolver{"memory": memResolver{"memory://m": "m1\ntwo\nm3\n" + body}}}
		env := Call(context.Background(), c, ts[0], ts[1], args)
		if env == nil {
			t.Fatal("nil Envelope")
		}
		b, err := json.Marshal(env)
		if err != nil || !utf8.Valid(b) {
			t.Fatalf("%s/%s %s: the Envelope is not UTF-8 JSON (%v): %q", ts[0], ts[1], args, err, b)
		}
		switch env.Status {
		case scout.StatusError:
			if env.Error == nil || env.Error.Code == "" || env.Error.Message == "" {
				t.Fatalf("%s/%s %s: an error without a code or message: %s", ts[0], ts[1], args, b)
			}
			if env.Error.Code == scout.CodeInternal {
				t.Fatalf("%s/%s %s: %s", ts[0], ts[1], args, env.Error.Message)
			}
		case scout.StatusSuccess, scout.StatusPartial:
		default:
			t.Fatalf("%s/%s %s: status %q", ts[0], ts[1], args, env.Status)
		}
	})
}
