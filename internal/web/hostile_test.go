package web

import (
	"bytes"
	"context"
	"encoding/json"
	"net"
	"net/netip"
	"net/url"
	"strings"
	"syscall"
	"testing"

	"github.com/scoutkit/scout/internal/errs"
	"github.com/scoutkit/scout/internal/testfs"
)

// TestHostileBodies renders bodies built to exhaust memory (found by
// attacking Scout: each took 300 to 700 MB) and checks that each is shown
// with a note that says how, within a bounded heap.
func TestHostileBodies(t *testing.T) {
	links := "<html><body>" + strings.Repeat(`<a href="/x">l</a>`, 400<<10)
	tests := []struct {
		name, ctype, body string
		status            int
		method            string // "" for an error
		note              string // in the notes, or in the error
		maxHeap           uint64
	}{
		{"8 MiB of '[' as JSON (indenting it took 445 MB)", "application/json", strings.Repeat("[", 8<<20), 200,
			MethodText, "Invalid JSON: invalid character '[' exceeded max depth", 64 << 20},
		{"valid JSON nested 9000 deep indents to 155 MB", "application/json", strings.Repeat("[", 9000) + strings.Repeat("]", 9000), 200,
			MethodText, "JSON shown as sent: indented it would take 154.5MB", 16 << 20},
		{"a feed of 1 Mi unclosed items (335 MB)", "application/rss+xml", `<?xml version="1.0"?><rss><channel>` + strings.Repeat("<item><title>t</title>", 1<<20), 200,
			MethodText, "Feed parsing failed: elements nest more than 256 deep", 96 << 20},
		{"a page of 400 Ki links (687 MB)", "text/html", links, 200,
			MethodReadability, "HTML cut at 100000 tags before rendering", 200 << 20},
		{"an error page of 400 Ki links is quoted from its start", "text/html", links, 404,
			"", "HTTP 404 Not Found from https://hostile.example/x: [l](https://hostile.example/x)[l]", 32 << 20},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			fetch := FetcherFunc(func(_ context.Context, u string) (*Response, error) {
				if u != "https://hostile.example/x" { // the probes
					return &Response{URL: u, FinalURL: u, Status: 404}, nil
				}
				return &Response{URL: u, FinalURL: u, Status: tt.status, ContentType: tt.ctype, Body: []byte(tt.body)}, nil
			})
			var p *Page
			var err error
			grew := testfs.HeapPeak(func() { p, err = Render(context.Background(), fetch, "https://hostile.example/x", Options{}) })
			if grew > tt.maxHeap {
				t.Errorf("the heap grew by %d MiB, over %d MiB", grew>>20, tt.maxHeap>>20)
			}
			if tt.method == "" {
				if err == nil || errs.CodeOf(err) != errs.NotFound || !strings.Contains(err.Error(), tt.note) || len(err.Error()) > 600 {
					t.Fatalf("err = %.700v, want NOT_FOUND quoting %q", err, tt.note)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if p.Method != tt.method || !strings.Contains(strings.Join(p.Notes, "; "), tt.note) {
				t.Errorf("method %q, notes %q; want %q and a note %q", p.Method, p.Notes, tt.method, tt.note)
			}
		})
	}
}

func TestIndentedSize(t *testing.T) {
	for _, s := range []string{
		`1`, `"a"`, `[]`, `{}`, `[ ]`, `{ }`, `[1,2]`, `{"a":1,"b":[true,null]}`, ` {"a" : [ 1 , {} , [ ] ] } `,
		`"with \"quotes\", [brackets] and {braces}: \\"`, `[[[["deep"]]]]`, "[1,\n2]\n",
	} {
		var b bytes.Buffer
		if err := json.Indent(&b, []byte(s), "", "  "); err != nil {
			t.Fatalf("%q: %v", s, err)
		}
		if got := indentedSize([]byte(s)); got != int64(b.Len()) {
			t.Errorf("indentedSize(%q) = %d, json.Indent gives %d bytes:\n%s", s, got, b.Len(), b.Bytes())
		}
	}
}

// FuzzIndentedSize checks indentedSize against json.Indent on valid JSON.
func FuzzIndentedSize(f *testing.F) {
	for _, s := range []string{`{"a":[1,{"b":null}],"c":"x,y:{z}"}`, `[[],{},[{}]]`, " [ 1 ,\t2 ] ", `"\\"`} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, b []byte) {
		if !json.Valid(b) {
			return
		}
		var out bytes.Buffer
		if err := json.Indent(&out, b, "", "  "); err != nil {
			t.Fatal(err)
		}
		if got := indentedSize(b); got != int64(out.Len()) {
			t.Fatalf("indentedSize(%q) = %d, json.Indent gives %d", b, got, out.Len())
		}
	})
}

func TestXMLDepth(t *testing.T) {
	tests := []struct {
		xml    string
		want   int
		reason string
	}{
		{`<a><b><c/></b></a>`, 3, "a self-closing element counts while open"},
		{`<?xml version="1.0"?><!DOCTYPE x [<!ENTITY e "v">]><a><!-- <b><b><b> --><b/></a>`, 2, "declarations and comments hold no elements"},
		{`<a><![CDATA[<b><b><b>]]></a>`, 1, "CDATA holds no elements"},
		{`<a x="1>2" y='<b>'><b/></a>`, 2, "a '>' in a quoted value does not end the tag"},
		{`<a><b></b><b></b></a>`, 2, "siblings do not deepen"},
		{strings.Repeat("<i>", 1000), 11, "counting stops past the limit"},
		{`</a></a><b>`, 1, "stray end tags do not go below zero"},
		{`<a`, 1, "a tag cut short"},
	}
	for _, tt := range tests {
		if got := xmlDepth([]byte(tt.xml), 10); got != tt.want {
			t.Errorf("%s: xmlDepth(%q) = %d, want %d", tt.reason, tt.xml, got, tt.want)
		}
	}
}

func TestPrivateErrorText(t *testing.T) {
	tests := []struct {
		e    PrivateError
		want string
	}{
		{PrivateError{Host: "0.0.0.0", Addr: netip.MustParseAddr("0.0.0.0"), Kind: "unspecified"}, "0.0.0.0 is an unspecified address"},
		{PrivateError{Host: "localhost", Addr: netip.MustParseAddr("127.0.0.1"), Kind: "loopback"}, "localhost resolves to 127.0.0.1, a loopback address"},
		{PrivateError{Host: "metadata", Kind: "cloud metadata"}, "metadata is a cloud metadata name"},
	}
	for _, tt := range tests {
		if got := tt.e.Error(); got != tt.want {
			t.Errorf("%q, want %q", got, tt.want)
		}
	}
}

// TestFetchErrCodes: a transport error gets the code a caller can act on:
// a host name that does not resolve is NOT_FOUND (it was INTERNAL_ERROR),
// a resolver that timed out TIMEOUT, anything else INTERNAL_ERROR.
func TestFetchErrCodes(t *testing.T) {
	ctx := context.Background()
	wrap := func(err error) error {
		return &url.Error{Op: "Get", URL: "https://x.example/", Err: &net.OpError{Op: "dial", Net: "tcp", Err: err}}
	}
	for _, tt := range []struct {
		err  error
		code errs.Code
		text string
	}{
		{wrap(&net.DNSError{Err: "no such host", Name: "x.example", IsNotFound: true}), errs.NotFound, "cannot resolve host 'x.example' (no such host); check the URL's host name"},
		{wrap(&net.DNSError{Err: "server misbehaving", Name: "x.example", IsTemporary: true}), errs.NotFound, "cannot resolve host 'x.example' (server misbehaving)"},
		{wrap(&net.DNSError{Err: "i/o timeout", Name: "x.example", IsTimeout: true}), errs.Timeout, "i/o timeout"},
		{wrap(syscall.ECONNREFUSED), errs.Internal, "connection refused"},
	} {
		err := fetchErr(ctx, tt.err)
		if errs.CodeOf(err) != tt.code || !strings.Contains(err.Error(), tt.text) {
			t.Errorf("%v: %s %q, want %s with %q", tt.err, errs.CodeOf(err), err, tt.code, tt.text)
		}
	}
	// Through the fetcher, with a name no resolver accepts (a label over
	// 63 bytes): no query leaves the machine.
	_, err := (&HTTPFetcher{}).Fetch(ctx, "http://"+strings.Repeat("a", 64)+".example/")
	if errs.CodeOf(err) != errs.NotFound || !strings.Contains(err.Error(), "cannot resolve host") {
		t.Errorf("an unresolvable host: %s %v, want NOT_FOUND 'cannot resolve host'", errs.CodeOf(err), err)
	}
}
