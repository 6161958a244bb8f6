package zoekt

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"

	"github.com/scoutkit/scout"
)

const commit = "2273c0d235f606e4fa272d973176552050080721"

// listJSON and searchJSON are replies shaped as zoekt-webserver -rpc sends
// them (recorded from the real engine, trimmed).
func listJSON(repo, version string, docs int, bytes int64) string {
	return fmt.Sprintf(`{"List":{"Repos":[{"Repository":{"TenantID":0,"ID":0,"Name":%q,"URL":"","Source":"/x/%s",
"Branches":[{"Name":"HEAD","Version":%q}],"SubRepoMap":{},"Rank":0,"IndexOptions":"0457e4","HasSymbols":false,"Tombstone":false},
"IndexMetadata":{"IndexFormatVersion":16,"LanguageMap":{"Go":1}},
"Stats":{"Repos":0,"Shards":1,"Documents":%d,"IndexBytes":420,"ContentBytes":%d}}],"ReposMap":{},"Crashes":0,"Stats":{"Repos":1}}}`,
		repo, repo, version, docs, bytes)
}

func searchJSON(repo, version string, files []string, skipped, shardsSkipped int) string {
	var fm []string
	for _, f := range files {
		fm = append(fm, fmt.Sprintf(`{"FileName":%q,"Repository":%q,"Version":%q,"Language":"Go","Branches":["HEAD"],
"LineMatches":[{"Line":"YS50eHQ=","LineStart":0,"LineEnd":0,"LineNumber":0,"Before":null,"After":null,"FileName":true,"Score":1,"LineFragments":[]}],"Checksum":"Fk/KWFuB9XI=","Score":10}`, f, repo, version))
	}
	return fmt.Sprintf(`{"Result":{"ContentBytesLoaded":90,"Crashes":0,"Duration":139948,"FileCount":%d,"FilesConsidered":2,"FilesLoaded":2,
"FilesSkipped":%d,"ShardsScanned":1,"ShardsSkipped":%d,"ShardsSkippedFilter":0,"MatchCount":%d,"FlushReason":0,"Files":[%s],"RepoURLs":{"repo":""}}}`,
		len(files), skipped, shardsSkipped, len(files), strings.Join(fm, ","))
}

// fake is a webserver answering /api/list and /api/search with fixed
// bodies; it records the last search query.
type fake struct {
	list, search string
	status       int
	lastQ        atomic.Value
}

func (f *fake) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	var body struct {
		Q    string
		Opts map[string]any
	}
	json.NewDecoder(r.Body).Decode(&body)
	if r.URL.Path == "/api/search" {
		f.lastQ.Store(body)
	}
	if f.status != 0 {
		w.WriteHeader(f.status)
	}
	switch r.URL.Path {
	case "/api/list":
		io.WriteString(w, f.list)
	case "/api/search":
		io.WriteString(w, f.search)
	default:
		http.NotFound(w, r)
	}
}

func serve(t *testing.T, h http.Handler) string {
	srv := httptest.NewServer(h)
	t.Cleanup(srv.Close)
	return srv.URL
}

func query() *scout.IndexQuery {
	return &scout.IndexQuery{Commit: commit, Pattern: "MaxHeaderBytes", MaxFiles: 100}
}

func TestClientFanOut(t *testing.T) {
	a := &fake{list: listJSON("repo", commit, 3, 100), search: searchJSON("repo", commit, []string{"a.go", "shared.go"}, 0, 0)}
	b := &fake{list: listJSON("repo", commit, 2, 50), search: searchJSON("repo", commit, []string{"b.go", "shared.go"}, 0, 0)}
	other := &fake{list: listJSON("other", "1111111111111111111111111111111111111111", 9, 9), search: searchJSON("other", "1111111111111111111111111111111111111111", []string{"o.go"}, 0, 0)}
	c, err := New([]string{serve(t, a), serve(t, b) + "/", serve(t, other)}, "repo")
	if err != nil {
		t.Fatal(err)
	}
	st, err := c.Status(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	assert.Equal(t, &scout.IndexStatus{Commit: commit, Files: 5, Bytes: 150, Endpoints: 3, Local: true}, st)
	q := query()
	q.Include = []string{`^src/`}
	q.Exclude = []string{`(?:^|/)[^/]*_test\.go$`}
	ans, err := c.Search(context.Background(), q)
	if err != nil {
		t.Fatal(err)
	}
	if got := strings.Join(ans.Files, " "); got != "a.go b.go shared.go" || ans.Capped || len(ans.Incomplete) > 0 || ans.Endpoints != 3 {
		t.Errorf("Search = %+v", ans)
	}
	sent := a.lastQ.Load().(struct {
		Q    string
		Opts map[string]any
	})
	if want := `type:file case:yes repo:^repo$ file:^src/ -file:(?:^|/)[^/]*_test\.go$ content:MaxHeaderBytes`; sent.Q != want {
		t.Errorf("query %q, want %q", sent.Q, want)
	}
	for _, k := range []string{"ShardMaxMatchCount", "TotalMaxMatchCount", "MaxWallTime"} {
		if v, ok := sent.Opts[k].(float64); !ok || v <= 0 {
			t.Errorf("option %s = %v: caps and a deadline are always sent", k, sent.Opts[k])
		}
	}
}

func TestClientTruncation(t *testing.T) {
	for _, tc := range []struct {
		name           string
		files          []string
		skipped, shard int
		capped         bool
		incomplete     string
	}{
		{"cap", []string{"a", "b", "c"}, 10, 0, true, ""},
		{"deadline", []string{"a"}, 10, 0, false, "skipped 10 files"},
		{"shards", []string{"a"}, 0, 2, false, "skipped 2 shards"},
	} {
		f := &fake{list: listJSON("repo", commit, 3, 100), search: searchJSON("repo", commit, tc.files, tc.skipped, tc.shard)}
		c, _ := New([]string{serve(t, f)}, "repo")
		q := query()
		q.MaxFiles = 3
		ans, err := c.Search(context.Background(), q)
		if err != nil {
			t.Fatal(err)
		}
		if ans.Capped != tc.capped || tc.incomplete != "" && !strings.Contains(strings.Join(ans.Incomplete, ";"), tc.incomplete) || tc.incomplete == "" && len(ans.Incomplete) > 0 {
			t.Errorf("%s: %+v", tc.name, ans)
		}
	}
}

// TestClientShardCaps: the cap is shared by the repository's shards, as
// the last Status counted them, and a shard that reaches its share caps
// the answer; a file skipped below it is a deadline's.
func TestClientShardCaps(t *testing.T) {
	for _, tc := range []struct {
		name            string
		files           []string
		skipped         int
		capped          bool
		wantShard       float64
		shards, maxFile int
	}{
		{"share reached", []string{"a", "b"}, 10, true, 2, 4, 8},
		{"deadline", []string{"a"}, 10, false, 2, 4, 8},
		{"rounded up", []string{"a"}, 0, false, 3, 3, 7},
	} {
		f := &fake{list: strings.Replace(listJSON("repo", commit, 3, 100), `"Shards":1`, fmt.Sprintf(`"Shards":%d`, tc.shards), 1),
			search: searchJSON("repo", commit, tc.files, tc.skipped, 0)}
		c, _ := New([]string{serve(t, f)}, "repo")
		if _, err := c.Status(context.Background()); err != nil {
			t.Fatal(err)
		}
		q := query()
		q.MaxFiles = tc.maxFile
		ans, err := c.Search(context.Background(), q)
		if err != nil {
			t.Fatal(err)
		}
		sent := f.lastQ.Load().(struct {
			Q    string
			Opts map[string]any
		})
		if sent.Opts["ShardMaxMatchCount"] != tc.wantShard || sent.Opts["TotalMaxMatchCount"] != float64(tc.maxFile) {
			t.Errorf("%s: caps sent %v", tc.name, sent.Opts)
		}
		if ans.Capped != tc.capped || !tc.capped && tc.skipped > 0 && len(ans.Incomplete) == 0 {
			t.Errorf("%s: %+v", tc.name, ans)
		}
		// The list of files held without content must be whole: its cap
		// is not shared.
		f.search = searchJSON("repo", commit, nil, 0, 0)
		if _, err := c.Unindexed(context.Background(), commit); err != nil {
			t.Fatal(err)
		}
		sent = f.lastQ.Load().(struct {
			Q    string
			Opts map[string]any
		})
		if sent.Opts["ShardMaxMatchCount"] != float64(unindexedCap) {
			t.Errorf("%s: the unindexed list's shard cap %v, want %d", tc.name, sent.Opts["ShardMaxMatchCount"], unindexedCap)
		}
	}
}

// TestClientHostile: an endpoint that cannot be reached, is not zoekt, or
// answers with a malformed, huge, deeply nested or wrongly typed reply, or
// not at all, gives a clear error within the deadline, never a panic or
// an unbounded read.
func TestClientHostile(t *testing.T) {
	closed := func() string {
		l, err := net.Listen("tcp", "127.0.0.1:0")
		if err != nil {
			t.Fatal(err)
		}
		addr := l.Addr().String()
		l.Close()
		return "http://" + addr
	}()
	hang := make(chan struct{})
	t.Cleanup(func() { close(hang) })
	huge := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		io.WriteString(w, `{"Result":{"Files":[`)
		chunk := strings.Repeat(`{"FileName":"x","Repository":"repo","Version":"`+commit+`"},`, 1000)
		for i := 0; i < 1<<16; i++ {
			if _, err := io.WriteString(w, chunk); err != nil {
				return
			}
		}
	})
	for _, tc := range []struct {
		name string
		url  string
		want string
	}{
		{"unreachable", closed, "connection refused"},
		{"html", serve(t, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { io.WriteString(w, "<html>hello</html>") })), "not a zoekt reply"},
		{"404", serve(t, http.NotFoundHandler()), "HTTP 404"},
		{"error", serve(t, &fake{status: 400, list: `{"Error":"missing query"}`, search: `{"Error":"missing query"}`}), "missing query"},
		{"malformed", serve(t, &fake{list: `{"List":{"Repos":[`, search: `{"Result":`}), "not a zoekt reply"},
		{"wrong types", serve(t, &fake{list: `{"List":{"Repos":"many"}}`, search: `{"Result":{"Files":7}}`}), "not a zoekt reply"},
		{"nested", serve(t, &fake{list: strings.Repeat("[", 20000) + strings.Repeat("]", 20000), search: `{"Result":{"Files":[{"FileName":` + strings.Repeat("[", 20000)}), "not a zoekt reply"},
		{"no result", serve(t, &fake{list: `{}`, search: `{}`}), "is it zoekt-webserver -rpc?"},
		{"huge", serve(t, huge), "over"},
		{"hang", serve(t, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			io.Copy(io.Discard, r.Body) // so that the server notices the client leaving
			select {
			case <-hang:
			case <-r.Context().Done():
			}
		})), "deadline"},
		{"redirect", serve(t, http.RedirectHandler("http://example.com/", http.StatusFound)), "redirects are not followed"},
		{"foreign commit", serve(t, &fake{list: listJSON("repo", commit, 1, 1), search: searchJSON("repo", "3333333333333333333333333333333333333333", []string{"a"}, 0, 0)}), "the index changed"},
	} {
		c, err := New([]string{tc.url}, "repo")
		if err != nil {
			t.Fatal(err)
		}
		// The deadline ends the hanging endpoint's calls; the others end
		// on their own, well within 20 s however slow the machine (the
		// huge reply's cap took 0.6 s under -race at a load of 20, near
		// a deadline of 2 s on a machine three times slower).
		deadline := 20 * time.Second
		if tc.name == "hang" {
			deadline = 2 * time.Second
		}
		ctx, cancel := context.WithTimeout(context.Background(), deadline)
		start := time.Now()
		var errs []string
		if tc.name != "foreign commit" && tc.name != "huge" {
			if _, err := c.Status(ctx); err == nil {
				t.Errorf("%s: Status succeeded", tc.name)
			} else {
				errs = append(errs, err.Error())
			}
		}
		if _, err := c.Search(ctx, query()); err == nil {
			t.Errorf("%s: Search succeeded", tc.name)
		} else {
			errs = append(errs, err.Error())
		}
		cancel()
		if d := time.Since(start); d > deadline+3*time.Second {
			t.Errorf("%s: took %v", tc.name, d)
		}
		for _, e := range errs {
			if !strings.Contains(e, tc.want) {
				t.Errorf("%s: error %q does not say %q", tc.name, e, tc.want)
			}
		}
	}
}

func TestClientStatusDisagree(t *testing.T) {
	a := &fake{list: listJSON("repo", commit, 1, 1)}
	b := &fake{list: listJSON("repo", "4444444444444444444444444444444444444444", 1, 1)}
	c, _ := New([]string{serve(t, a), serve(t, b)}, "repo")
	if _, err := c.Status(context.Background()); err == nil || !strings.Contains(err.Error(), "disagree") {
		t.Errorf("endpoints at two commits: %v", err)
	}
	none := &fake{list: listJSON("elsewhere", commit, 1, 1)}
	c, _ = New([]string{serve(t, none)}, "repo")
	if st, err := c.Status(context.Background()); err != nil || st.Commit != "" {
		t.Errorf("an index without the repository: %+v %v", st, err)
	}
}

func TestNew(t *testing.T) {
	for _, tc := range []struct {
		urls []string
		repo string
		want string
	}{
		{nil, "r", "no webserver URL"},
		{[]string{"http://h:1"}, "", "no repository name"},
		{[]string{"ftp://h"}, "r", "want http://HOST:PORT"},
		{[]string{"h:6070"}, "r", "want http://HOST:PORT"},
		{[]string{"http://u:p@h:1"}, "r", "credentials"},
		{[]string{"http://h:1/?x=1"}, "r", "query or fragment"},
	} {
		if _, err := New(tc.urls, tc.repo); err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("New(%q, %q) = %v, want %q", tc.urls, tc.repo, err, tc.want)
		}
	}
	c, err := New([]string{"http://a:1", "http://a:1/", " http://b:2 "}, "r")
	if err != nil || strings.Join(c.urls, ",") != "http://a:1,http://b:2" {
		t.Errorf("New dedups and trims: %v %v", c.urls, err)
	}
}

func TestUnindexed(t *testing.T) {
	marker := func(name, line string) string {
		return fmt.Sprintf(`{"FileName":%q,"Repository":"repo","Version":%q,"LineMatches":[{"Line":%q,"LineNumber":1}]}`, name, commit, b64(line))
	}
	f := &fake{search: `{"Result":{"Files":[` + strings.Join([]string{
		marker("bin.dat", "NOT-INDEXED: contains binary content"),
		marker("big.txt", "NOT-INDEXED: exceeds the maximum size limit"),
		marker("dense.txt", "NOT-INDEXED: contains too many trigrams"),
		marker("ab", "NOT-INDEXED: contains too few trigrams"),
		marker("new.txt", "NOT-INDEXED: some future reason"),
		marker("text.md", "NOT-INDEXED: contains binary content, says this text file"),
	}, ",") + `]}}`}
	c, _ := New([]string{serve(t, f)}, "repo")
	got, err := c.Unindexed(context.Background(), commit)
	if err != nil {
		t.Fatal(err)
	}
	want := []scout.UnindexedFile{{Path: "ab", Reason: "too_small"}, {Path: "big.txt", Reason: "too_large"}, {Path: "bin.dat", Reason: "binary"}, {Path: "dense.txt", Reason: "too_many_trigrams"}, {Path: "new.txt", Reason: "other"}, {Path: "text.md", Reason: "other"}}
	assert.Equal(t, want, got)
}

func b64(s string) string {
	b, _ := json.Marshal([]byte(s))
	return strings.Trim(string(b), `"`)
}

func TestRepoName(t *testing.T) {
	top := filepath.Join(t.TempDir(), "myrepo")
	if err := os.MkdirAll(filepath.Join(top, ".git"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.MkdirAll(filepath.Join(top, "src", "pkg"), 0o755); err != nil {
		t.Fatal(err)
	}
	for _, dir := range []string{top, filepath.Join(top, "src", "pkg")} {
		if got := RepoName(dir); got != "myrepo" {
			t.Errorf("RepoName(%s) = %q, want the work tree's name", dir, got)
		}
	}
	plain := filepath.Join(t.TempDir(), "plain")
	if got := RepoName(plain); got != "plain" {
		t.Errorf("RepoName outside a work tree = %q, want the directory's name", got)
	}
}

func TestIsLocal(t *testing.T) {
	for _, tc := range []struct {
		hosts []string
		want  bool
	}{
		{[]string{"localhost"}, true},
		{[]string{"zoekt.localhost"}, true},
		{[]string{"127.0.0.1"}, true},
		{[]string{"::1"}, true},
		{[]string{"0.0.0.0"}, true},
		{[]string{"192.0.2.7", "127.0.0.2"}, true},
		{[]string{"192.0.2.7"}, false}, // TEST-NET-1: no machine's interface
		{[]string{"zoekt.example.com"}, false},
		{nil, false},
	} {
		if got := isLocal(tc.hosts); got != tc.want {
			t.Errorf("isLocal(%q) = %v, want %v", tc.hosts, got, tc.want)
		}
	}
}
