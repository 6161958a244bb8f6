package testfs

import (
	"fmt"
	"net/http"
	"net/http/httptest"
	"sync/atomic"
	"testing"
)

// PageServer starts a web server that answers every path with a
// text/plain page of 400 lines, "line 1" to "line 400", except /missing,
// which is a 404. It counts the requests it gets and closes when the test
// ends. It listens on a loopback address, which a read fetches only with
// the private network allowed.
func PageServer(t testing.TB) (url string, requests *atomic.Int32) {
	requests = new(atomic.Int32)
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		requests.Add(1)
		if r.URL.Path == "/missing" {
			http.Error(w, "gone", http.StatusNotFound)
			return
		}
		w.Header().Set("Content-Type", "text/plain")
		for i := 1; i <= 400; i++ {
			fmt.Fprintf(w, "line %d\n", i)
		}
	}))
	t.Cleanup(srv.Close)
	return srv.URL, requests
}
