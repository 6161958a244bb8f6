package web

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net"
	"net/http"
	"net/http/httptest"
	"net/netip"
	"net/url"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

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

// TestHostileHeaders: what a server puts in its headers (a redirect's
// Location, the Content-Type) and in a page's links reaches the page's
// URL, notes and errors cut short. A server's 1 MB Location headers gave a
// 22 MB reply through pi read, a 1 MB Content-Type 2 MB. A body in a
// coding Scout did not ask for is refused.
func TestHostileHeaders(t *testing.T) {
	long := strings.Repeat("a", 500<<10)
	mux := http.NewServeMux()
	mux.HandleFunc("/chain/", func(w http.ResponseWriter, r *http.Request) {
		n, _ := strconv.Atoi(strings.TrimPrefix(r.URL.Path, "/chain/"))
		if n == 0 {
			fmt.Fprint(w, "end")
			return
		}
		http.Redirect(w, r, fmt.Sprintf("/chain/%d?%s", n-1, long), http.StatusFound)
	})
	mux.HandleFunc("/short-chain", func(w http.ResponseWriter, r *http.Request) {
		http.Redirect(w, r, "/chain/0?"+strings.Repeat("b", 3000), http.StatusFound)
	})
	mux.HandleFunc("/bad-location", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Location", "http://[::1"+long)
		w.WriteHeader(http.StatusFound)
	})
	ctype := func(status int, ct, body string) http.HandlerFunc {
		return func(w http.ResponseWriter, r *http.Request) {
			w.Header().Set("Content-Type", ct)
			w.WriteHeader(status)
			fmt.Fprint(w, body)
		}
	}
	mux.HandleFunc("/ct-binary", ctype(200, "application/"+long, "\x00\x01binary"))
	mux.HandleFunc("/ct-text", ctype(200, "text/"+long, "some text"))
	mux.HandleFunc("/ct-404", ctype(404, "text/"+long, "gone"))
	encoded := func(ce string) http.HandlerFunc {
		return func(w http.ResponseWriter, r *http.Request) {
			w.Header().Set("Content-Type", "text/html")
			w.Header().Set("Content-Encoding", ce)
			fmt.Fprint(w, "\x8b\x0b\x80<html><body><p>compressed</p></body></html>\x03")
		}
	}
	mux.HandleFunc("/br", encoded("br"))
	mux.HandleFunc("/gzip-twice", encoded("gzip, gzip"))
	mux.HandleFunc("/identity", encoded("identity"))
	mux.HandleFunc("/charset-coding", encoded("UTF-8"))
	mux.HandleFunc("/br-404", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/html")
		w.Header().Set("Content-Encoding", "br")
		w.WriteHeader(http.StatusNotFound)
		fmt.Fprint(w, "\x8b\x0b\x80<html><body><p>gone</p></body></html>\x03")
	})
	mux.HandleFunc("/br-empty", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Encoding", "br")
		w.WriteHeader(http.StatusNoContent)
	})
	mux.HandleFunc("/links", ctype(200, "text/html", `<html><head><link rel="alternate" type="text/markdown" href="/md?`+long+`"></head><body><p>short</p><a href="/doc`+long+`.pdf">doc</a></body></html>`))
	srv := httptest.NewServer(mux)
	t.Cleanup(srv.Close)

	tests := []struct {
		reason, path string
		code         errs.Code // "" for a page
		want         string    // in the error, or in the page's notes
	}{
		{"a redirect to a URL over MaxURLBytes is refused", "/chain/1", errs.Internal, "redirect to a URL of 512031 bytes, over the limit of 8192"},
		{"a redirect under it is followed, noted cut", "/short-chain", "", "Redirected: " + srv.URL + "/short-chain -> " + srv.URL + "/chain/0?bbb"},
		{"a Location that does not parse is quoted cut", "/bad-location", errs.Internal, `failed to parse Location header "http://[::1aaa`},
		{"a long binary Content-Type is quoted cut", "/ct-binary", errs.Unsupported, "its content is binary (application/aaa"},
		{"a long text Content-Type is shown cut", "/ct-text", "", ""},
		{"a long Content-Type of an error page", "/ct-404", errs.NotFound, "HTTP 404 Not Found"},
		{"links over the URL limit are noted cut", "/links", "", "Probes failed: alternate-markdown " + srv.URL + "/md?aaa"},
		{"a coding not asked for is refused (its bytes were shown as the page)", "/br", errs.Unsupported, `Cannot fetch ` + srv.URL + `/br: the body was sent with Content-Encoding "br", which Scout does not decode (it asks for gzip or none)`},
		{"gzip applied twice is not decoded either", "/gzip-twice", errs.Unsupported, `Content-Encoding "gzip, gzip"`},
		{"identity is no coding", "/identity", "", ""},
		{"a charset given as the coding (a common mistake) is no coding", "/charset-coding", "", ""},
		{"an error page in such a coding is its status, without its bytes", "/br-404", errs.NotFound, "HTTP 404 Not Found from " + srv.URL + "/br-404"},
		{"an empty body has no coding to refuse", "/br-empty", "", ""},
	}
	for _, tt := range tests {
		t.Run(tt.reason, func(t *testing.T) {
			p, err := Render(context.Background(), local(), srv.URL+tt.path, Options{})
			if tt.code != "" {
				if errs.CodeOf(err) != tt.code || !strings.Contains(err.Error(), tt.want) || len(err.Error()) > 2<<10 || strings.Contains(err.Error(), "\x8b") {
					t.Fatalf("err = %s %.3000v (%d bytes), want %s with %q, under 2 KiB", errs.CodeOf(err), err, len(fmt.Sprint(err)), tt.code, tt.want)
				}
				var st *StatusError
				if errors.As(err, &st) && len(st.ContentType) > 2<<10 {
					t.Errorf("StatusError.ContentType is %d bytes", len(st.ContentType))
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			notes := strings.Join(p.ShownNotes(), "; ")
			if !strings.Contains(notes, tt.want) {
				t.Errorf("notes %.3000q, want %q", notes, tt.want)
			}
			if n := len(p.Header()); n > 4<<10 {
				t.Errorf("the header is %d bytes: %.3000q", n, p.Header())
			}
		})
	}
}

// TestNULText: a body sent as text that holds a NUL byte near its start is
// binary, as a local file is (20 MB of NULs sent as text/plain were shown
// as text); UTF-16 and UTF-32 text, with a byte order mark or a charset
// that names them, is text.
func TestNULText(t *testing.T) {
	tests := []struct {
		ctype, body string
		binary      bool
	}{
		{"text/plain", strings.Repeat("\x00", 1<<20), true},
		{"text/html", "<html><body>\x00\x01\x02 PK zip bytes</body></html>", true},
		{"application/json", `{"a":"` + "\x00" + `"}`, true},
		{"text/plain", strings.Repeat("x", 64<<10) + "\x00 after the sniffed start", false},
		{"text/plain; charset=utf-16le", "h\x00i\x00", false},
		{"text/plain", "\xff\xfeh\x00i\x00", false},
		{"text/plain", "plain text", false},
		{"text/rtf", `{\rtf1\ansi hello \bin3 ` + "\x00\x01\x02" + ` world}`, false}, // a document, converted as a local .rtf is
	}
	for _, tt := range tests {
		fetch := FetcherFunc(func(_ context.Context, u string) (*Response, error) {
			return &Response{URL: u, FinalURL: u, Status: 200, ContentType: tt.ctype, Body: []byte(tt.body)}, nil
		})
		p, err := Render(context.Background(), fetch, "https://nul.example/x", Options{})
		if got := errs.CodeOf(err) == errs.Unsupported && strings.Contains(err.Error(), "but its content is binary (a NUL byte in its first 64.0KB)"); got != tt.binary {
			t.Errorf("%s %.40q: err %v, want binary %v", tt.ctype, tt.body, err, tt.binary)
		}
		if !tt.binary && (err != nil || tt.ctype == "text/rtf" && !strings.Contains(p.Content, "world")) {
			t.Errorf("%s %.40q: err %v, want the text", tt.ctype, tt.body, err)
		}
	}
}

// TestProbeBudget: the probes of one Render share one time budget, so a
// site whose probes never answer holds a read for that budget, not for
// each probe's timeout in turn (six probes took a minute).
func TestProbeBudget(t *testing.T) {
	old := probeBudget
	probeBudget = 300 * time.Millisecond
	t.Cleanup(func() { probeBudget = old })
	const page = `<html><head><link rel="alternate" type="text/markdown" href="/md"><link rel="alternate" type="application/rss+xml" href="/feed"></head><body><p>thin</p><a href="/d.pdf">doc</a></body></html>`
	fetch := FetcherFunc(func(ctx context.Context, u string) (*Response, error) {
		if u == "https://slow.example/x" {
			return &Response{URL: u, FinalURL: u, Status: 200, ContentType: "text/html", Body: []byte(page)}, nil
		}
		<-ctx.Done() // a probe that never answers
		return nil, ctx.Err()
	})
	start := time.Now()
	p, err := Render(context.Background(), fetch, "https://slow.example/x", Options{})
	if err != nil {
		t.Fatal(err)
	}
	if d := time.Since(start); d > 5*time.Second {
		t.Errorf("the probes took %v, want about the budget (300ms)", d)
	}
	if notes := strings.Join(p.Notes, "; "); !strings.Contains(notes, "(skipped: the probes took their 300ms)") {
		t.Errorf("notes %q do not say the later probes were skipped", notes)
	}
}

// TestFetchEnds: a fetch that hangs or whose body stops short says what
// happened, in how long and after how many bytes (the transport's text was
// "context deadline exceeded" or "unexpected EOF"); a redirect to a port
// without a host is refused (Go dials this machine for it).
func TestFetchEnds(t *testing.T) {
	// The servers that hang hold on for 20 s, or until the test ends, far
	// past the 5 s within which a loaded machine may end a fetch of a
	// 300 ms deadline.
	const hang = 20 * time.Second
	done := make(chan struct{})
	mux := http.NewServeMux()
	hijack := func(w http.ResponseWriter, s string, hold time.Duration) {
		c, bw, _ := w.(http.Hijacker).Hijack()
		defer c.Close()
		bw.WriteString(s)
		bw.Flush()
		select {
		case <-time.After(hold):
		case <-done:
		}
	}
	mux.HandleFunc("/no-headers", func(w http.ResponseWriter, r *http.Request) { hijack(w, "HTTP/1.1 200 OK\r\n", hang) })
	mux.HandleFunc("/trickle", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/plain")
		for end := time.Now().Add(hang); time.Now().Before(end) && r.Context().Err() == nil; {
			w.Write([]byte("a"))
			w.(http.Flusher).Flush()
			time.Sleep(50 * time.Millisecond)
		}
	})
	mux.HandleFunc("/lying-length", func(w http.ResponseWriter, r *http.Request) {
		hijack(w, "HTTP/1.1 200 OK\r\nContent-Type: text/plain\r\nContent-Length: 10000000000\r\n\r\nhello", 0)
	})
	mux.HandleFunc("/lying-length-open", func(w http.ResponseWriter, r *http.Request) {
		hijack(w, "HTTP/1.1 200 OK\r\nContent-Type: text/plain\r\nContent-Length: 10000000000\r\n\r\nhello", hang)
	})
	mux.HandleFunc("/chunks-cut", func(w http.ResponseWriter, r *http.Request) {
		hijack(w, "HTTP/1.1 200 OK\r\nContent-Type: text/plain\r\nTransfer-Encoding: chunked\r\n\r\n5\r\nhello\r\n", 0)
	})
	mux.HandleFunc("/to-port", func(w http.ResponseWriter, r *http.Request) {
		_, port, _ := net.SplitHostPort(r.Host)
		w.Header().Set("Location", "http://:"+port+"/x")
		w.WriteHeader(http.StatusFound)
	})
	srv := httptest.NewServer(mux)
	t.Cleanup(srv.Close)
	t.Cleanup(func() { close(done) }) // before srv.Close, which waits for the handlers
	tests := []struct {
		path string
		code errs.Code
		want string
	}{
		{"/no-headers", errs.Timeout, "no answer within 300ms, the fetch deadline: the server may be down or overloaded; try again later"},
		{"/trickle", errs.Timeout, "the body did not end within 300ms, the fetch deadline ("},
		{"/trickle", errs.Timeout, "B received): the server is slow or sends a body that never ends; try again later"},
		{"/lying-length-open", errs.Timeout, "(5B received of the 9.3GB announced)"},
		{"/lying-length", errs.Internal, "the connection closed before the body ended (5B received of the 9.3GB announced); try again later"},
		{"/chunks-cut", errs.Internal, "the connection closed before the body ended (5B received); try again later"},
		{"/to-port", errs.Internal, "redirect to a URL without a host"},
	}
	for _, tt := range tests {
		t.Run(tt.path, func(t *testing.T) {
			start := time.Now()
			_, err := Render(context.Background(), &HTTPFetcher{AllowPrivate: true, Timeout: 300 * time.Millisecond}, srv.URL+tt.path, Options{})
			if errs.CodeOf(err) != tt.code || !strings.Contains(fmt.Sprint(err), tt.want) {
				t.Errorf("err = %s %v, want %s with %q", errs.CodeOf(err), err, tt.code, tt.want)
			}
			if d := time.Since(start); d > 5*time.Second {
				t.Errorf("took %v, want about the deadline", d)
			}
		})
	}
}
