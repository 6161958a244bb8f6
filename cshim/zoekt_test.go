package main

import (
	"net/http"
	"net/http/httptest"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/scoutkit/scout"
)

// TestZoektOption: the options key "zoekt" gives the search an index;
// only the configured webserver is contacted, and a search whose index
// fails still answers (by a scan).
func TestZoektOption(t *testing.T) {
	root := testTree(t)
	var hits atomic.Int64
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		hits.Add(1)
		http.Error(w, "not zoekt", http.StatusTeapot)
	}))
	defer srv.Close()
	env := call("pi", "search", `{"pattern":"func B","paths":["src"]}`, root, `{"style":"plain","zoekt":{"urls":["`+srv.URL+`"],"repo":"x"}}`)
	if env.Status == scout.StatusError || !strings.Contains(env.Text, "func B") {
		t.Fatalf("search with a failing index: %s %q %+v", env.Status, env.Text, env.Error)
	}
	if hits.Load() == 0 {
		t.Error("the configured webserver was not asked")
	}
	for _, tc := range []struct{ options, want string }{
		{`{"zoekt":{"urls":[]}}`, "no webserver URL"},
		{`{"zoekt":{"urls":["ftp://x"]}}`, "want http://HOST:PORT"},
		{`{"zoekt":"http://x"}`, `option 'zoekt' must be an object {"urls"`},
		{`{"zoekt":{"urls":"http://x"}}`, "must be a list of strings"},
		{`{"zoekt":{"url":["http://x"]}}`, `unknown field "url"`},
	} {
		env := call("pi", "search", `{"paths":".","pattern":"x"}`, root, tc.options)
		if env.Status != scout.StatusError || env.Error.Code != scout.CodeInvalidParam || !strings.Contains(env.Error.Message, tc.want) {
			t.Errorf("%s: got %s %+v; want INVALID_PARAM with %q", tc.options, env.Status, env.Error, tc.want)
		}
	}
}
