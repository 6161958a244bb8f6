package main

import (
	"bytes"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
)

// TestWebCommands checks the web flags of read and call and the exit
// status of reads that fail: a loopback URL is refused unless
// --allow-private-network, --no-web refuses URLs, an HTTP error exits 1
// with an error Envelope, and a document that cannot be converted exits 1
// from read and is a notice from the pi read tool.
func TestWebCommands(t *testing.T) {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path == "/missing" {
			http.Error(w, "no such page", http.StatusNotFound)
			return
		}
		w.Header().Set("Content-Type", "text/plain")
		w.Write([]byte("hello from the server\n"))
	}))
	t.Cleanup(srv.Close)
	root := writeTree(t, map[string][]byte{"bad.pdf": []byte("%PDF-1.4 not really"), "bad.docx": []byte("PK\x03\x04 broken")})
	page := srv.URL + "/page.txt"
	tests := []struct {
		args   []string
		code   int
		status string // the Envelope's status for call; "" for read
		want   string // in the text (stdout, or stderr for read errors)
		reason string
	}{
		{[]string{"read", "--root", root, page}, 1, "", "Access denied: " + page + " was not fetched: 127.0.0.1 is a loopback address", "read refuses a loopback URL"},
		{[]string{"read", "--root", root, "--allow-private-network", page}, 0, "", "hello from the server", "read --allow-private-network fetches it"},
		{[]string{"read", "--root", root, "--allow-private-network", page + ":2"}, 0, "", "Content-Type: text/plain\nMethod: text\n\n---\n\nhello from the server", "read pages the header with the body, as the read tool does"},
		{[]string{"read", "--root", root, "--allow-private-network", srv.URL + "/missing"}, 1, "", "HTTP 404 Not Found from " + srv.URL + "/missing: no such page", "an HTTP error exits 1"},
		{[]string{"read", "--root", root, "bad.pdf"}, 1, "", "Cannot read .pdf file: bad.pdf: not a valid PDF document", "a PDF that cannot be converted exits 1"},
		{[]string{"read", "--root", root, "bad.docx"}, 1, "", "Cannot read .docx file: bad.docx: not a valid DOCX document", "a DOCX that cannot be converted exits 1"},
		{[]string{"call", "--root", root, "read", `{"path":"` + page + `"}`}, 1, "error", "127.0.0.1 is a loopback address", "call refuses a loopback URL"},
		{[]string{"call", "--root", root, "--allow-private-network", "read", `{"path":"` + page + `"}`}, 0, "success", "hello from the server", "call --allow-private-network fetches it"},
		{[]string{"call", "--root", root, "--no-web", "--allow-private-network", "read", `{"path":"` + page + `"}`}, 1, "error", "Reading web URLs is turned off by the host", "call --no-web refuses URLs"},
		{[]string{"call", "--root", root, "read", `{"path":"bad.pdf"}`}, 0, "success", "[Cannot read .pdf file: bad.pdf", "call: a failed conversion is the pi read tool's notice, not an error"},
	}
	for _, tt := range tests {
		var stdout, stderr bytes.Buffer
		code := run(tt.args, strings.NewReader(""), &stdout, &stderr)
		got := stdout.String()
		if tt.status == "" && code != 0 {
			got = stderr.String()
		}
		if tt.status != "" {
			var env struct{ Status, Text string }
			if err := json.Unmarshal(stdout.Bytes(), &env); err != nil || env.Status != tt.status {
				t.Errorf("%s: status %q (%v), want %s:\n%s", tt.reason, env.Status, err, tt.status, got)
			}
			got = env.Text
		}
		if code != tt.code || !strings.Contains(got, tt.want) {
			t.Errorf("%s: exit %d %q, want %d and %q", tt.reason, code, got, tt.code, tt.want)
		}
	}
}
