package main

import (
	"bytes"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync/atomic"
	"testing"
)

// TestZoektFlags: --zoekt (or SCOUT_ZOEKT) gives search, call and mcp an
// index; bad values are usage errors.
func TestZoektFlags(t *testing.T) {
	root := writeTree(t, map[string][]byte{"a.go": []byte("package a // needle\n")})
	var hits atomic.Int64
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		hits.Add(1)
		w.Write([]byte(`{"List":{"Repos":[]}}`))
	}))
	defer srv.Close()
	for _, args := range [][]string{
		{"search", "needle", "--root", root, "--zoekt", srv.URL},
		{"call", "--root", root, "--zoekt", srv.URL + "," + srv.URL + "/", "--zoekt-repo", "r", "search", `{"paths": ".", "pattern": "needle"}`},
	} {
		before := hits.Load()
		var out, errb bytes.Buffer
		if code := run(args, strings.NewReader(""), &out, &errb); code != 0 || !strings.Contains(out.String(), "needle") {
			t.Errorf("%q: exit %d: %s %s", args, code, &out, &errb)
		}
		if hits.Load() == before {
			t.Errorf("%q: the webserver was not asked", args)
		}
	}
	// How the search was answered: --stats on stderr, the envelope's
	// context.backend. The server does not hold the repository.
	for _, tc := range []struct {
		args   []string
		stdout string
		stderr string
	}{
		{[]string{"search", "needle", "--root", root, "--zoekt", srv.URL, "--stats"}, "needle",
			"scout: 1 file searched, 1 matching line in 1 file; scanned the tree, not answered by zoekt: repo_not_indexed\n"},
		{[]string{"search", "needle", "--root", root, "--stats"}, "needle", "scout: 1 file searched, 1 matching line in 1 file\n"},
		{[]string{"search", "needle", "--root", root, "--zoekt", srv.URL}, "needle", ""},
		{[]string{"call", "--root", root, "--zoekt", srv.URL, "search", `{"paths": ".", "pattern": "needle"}`},
			`"backend":{"index":false,"endpoints":1,"fallback":"repo_not_indexed"}`, ""},
	} {
		var out, errb bytes.Buffer
		if code := run(tc.args, strings.NewReader(""), &out, &errb); code != 0 || !strings.Contains(out.String(), tc.stdout) || errb.String() != tc.stderr {
			t.Errorf("%q: exit %d, stdout %q, stderr %q; want %q and %q", tc.args, code, &out, &errb, tc.stdout, tc.stderr)
		}
	}
	t.Setenv("SCOUT_ZOEKT", srv.URL)
	before := hits.Load()
	var out, errb bytes.Buffer
	if code := run([]string{"search", "needle", "--root", root}, strings.NewReader(""), &out, &errb); code != 0 || hits.Load() == before {
		t.Errorf("SCOUT_ZOEKT: exit %d, webserver asked %v: %s", code, hits.Load() != before, &errb)
	}
	t.Setenv("SCOUT_ZOEKT", "")
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"search", "x", "--root", root, "--zoekt", "ftp://h"}, "want http://HOST:PORT"},
		{[]string{"search", "x", "--root", root, "--zoekt-repo", "r"}, "--zoekt-repo needs --zoekt"},
		{[]string{"mcp", "--root", root, "--zoekt", "http://u:p@h:1"}, "credentials"},
	} {
		var out, errb bytes.Buffer
		if code := run(tc.args, strings.NewReader(""), &out, &errb); code != 2 || !strings.Contains(errb.String(), tc.want) {
			t.Errorf("%q: exit %d, stderr %q; want 2 and %q", tc.args, code, &errb, tc.want)
		}
	}
}
