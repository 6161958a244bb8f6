package web

import (
	"context"
	"strings"
	"testing"
	"unicode/utf8"
)

// FuzzRender renders arbitrary bodies under the content types of the
// pipeline; it must never panic and always yield valid UTF-8 and a method.
func FuzzRender(f *testing.F) {
	types := []string{"text/html", "application/json", "application/rss+xml", "application/xml", "text/plain; charset=iso-8859-1",
		"application/pdf", "image/png", "", "application/octet-stream", "text/html; charset=shift_jis"}
	seeds := []string{article, rss, atom, `{"a":[1,{"b":null}]}`, "caf\xe9", "%PDF-1.4 broken", "<table><tr><td>x"}
	for i, s := range seeds {
		f.Add(uint8(i), s)
	}
	f.Fuzz(func(t *testing.T, typ uint8, body string) {
		ct := types[int(typ)%len(types)]
		fetch := FetcherFunc(func(_ context.Context, u string) (*Response, error) {
			return &Response{URL: u, FinalURL: u, Status: 200, ContentType: ct, Body: []byte(body)}, nil
		})
		for _, raw := range []bool{false, true} {
			p, err := Render(context.Background(), fetch, "https://fuzz.example/x.doc", Options{Raw: raw})
			if err != nil {
				t.Fatalf("error %v", err)
			}
			if p.Method == "" || !utf8.ValidString(p.Output()) {
				t.Fatalf("method %q, valid %v", p.Method, utf8.ValidString(p.Output()))
			}
			if !strings.HasPrefix(p.Output(), "URL: https://fuzz.example/x.doc\n") {
				t.Fatalf("header %q", p.Header())
			}
		}
	})
}
