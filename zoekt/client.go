// Package zoekt is a client of zoekt webservers (github.com/sourcegraph/zoekt,
// run as zoekt-webserver -rpc) for Searcher.Index. It speaks their JSON API
// with the standard library only: no part of zoekt is linked in.
//
// A Client holds one repository as indexed by zoekt-git-index, served by one
// or more webservers, each with all or some of its shards (a cluster is a
// list of endpoints: the client sends every request to all of them at once
// and merges the answers by repository and path). It contacts only the
// URLs it was given, never follows redirects or proxies, sends no
// credentials, reads at most a bounded number of bytes from each reply and
// gives every request a deadline and explicit match caps, so that zoekt's
// own defaults (100,000 matches, 20 seconds) never cut an answer silently:
// an answer cut short by a cap, a skipped file or shard or a deadline says
// so (IndexAnswer.Capped, IndexAnswer.Incomplete).
//
// For results that equal a scan, index with
//
//	zoekt-git-index -index DIR -file_limit 10485760 -max_trigram_count 100000000 -submodules=false REPO
package zoekt

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/url"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strings"
	"sync"
	"time"

	"github.com/scoutkit/scout"
)

// Client is an index of one repository served by zoekt webservers. It is
// safe for concurrent use.
type Client struct {
	urls  []string // base URLs, without a trailing '/'
	hosts []string // their host names or addresses
	repo  string
	http  *http.Client

	localOnce sync.Once
	local     bool

	mu     sync.Mutex
	shards int // the repository's shards on all webservers, at the last Status; 0 before
}

// The bounds on what is read from a webserver.
const (
	// maxListBytes bounds a /api/list reply.
	maxListBytes = 16 << 20
	// replyBaseBytes plus replyFileBytes per file allowed by the caps
	// bound a /api/search reply.
	replyBaseBytes = 1 << 20
	replyFileBytes = 4 << 10
	// maxReplyBytes bounds any reply.
	maxReplyBytes = 256 << 20
	// defaultDeadline bounds a request whose context has no deadline.
	defaultDeadline = 30 * time.Second
	// unindexedCap caps the files of an Unindexed answer.
	unindexedCap = 1 << 18
)

// New returns a client of the webservers at urls (http or https, e.g.
// "http://127.0.0.1:6070") for the repository named repo in their index
// (the name zoekt-git-index gave it: the base name of the repository's
// directory, see RepoName). It contacts nothing yet.
func New(urls []string, repo string) (*Client, error) {
	if len(urls) == 0 {
		return nil, errors.New("zoekt: no webserver URL: give one or more, e.g. http://127.0.0.1:6070")
	}
	if repo == "" {
		return nil, errors.New("zoekt: no repository name: give the name the index holds the repository under (by default the base name of its directory)")
	}
	c := &Client{repo: repo}
	seen := map[string]bool{}
	for _, raw := range urls {
		u, err := url.Parse(strings.TrimSpace(raw))
		switch {
		case err != nil:
			return nil, fmt.Errorf("zoekt: bad webserver URL %q: %v", raw, err)
		case u.Scheme != "http" && u.Scheme != "https" || u.Host == "":
			return nil, fmt.Errorf("zoekt: bad webserver URL %q: want http://HOST:PORT or https://HOST:PORT", raw)
		case u.User != nil:
			return nil, fmt.Errorf("zoekt: webserver URL %q holds credentials: the JSON API has no authentication, and Scout sends none", raw)
		case u.RawQuery != "" || u.Fragment != "":
			return nil, fmt.Errorf("zoekt: webserver URL %q has a query or fragment: give the server's base URL", raw)
		}
		base := strings.TrimSuffix(u.String(), "/")
		if !seen[base] {
			seen[base] = true
			c.urls = append(c.urls, base)
			c.hosts = append(c.hosts, u.Hostname())
		}
	}
	c.http = &http.Client{
		Transport: transport,
		CheckRedirect: func(*http.Request, []*http.Request) error {
			return errors.New("redirects are not followed: give the webserver's own URL")
		},
	}
	return c, nil
}

// transport is shared by all clients, so that one made per call still
// reuses the connections of the last.
var transport = &http.Transport{
	Proxy:               nil, // only the configured URLs are contacted
	DialContext:         (&net.Dialer{Timeout: 10 * time.Second, KeepAlive: 30 * time.Second}).DialContext,
	MaxIdleConnsPerHost: 8,
	IdleConnTimeout:     90 * time.Second,
}

// RepoName returns the name zoekt-git-index gives the repository that
// holds the directory dir: the base name of the nearest directory at or
// above dir that holds a ".git". It is dir's own base name when none does.
func RepoName(dir string) string {
	abs, err := filepath.Abs(dir)
	if err != nil {
		return filepath.Base(dir)
	}
	for d := abs; ; d = filepath.Dir(d) {
		if _, err := os.Lstat(filepath.Join(d, ".git")); err == nil {
			return filepath.Base(d)
		}
		if filepath.Dir(d) == d {
			return filepath.Base(abs)
		}
	}
}

// The JSON API's shapes, as far as the client reads them.
type (
	listRequest struct {
		Q string
	}
	listReply struct {
		List *struct {
			Repos []struct {
				Repository struct {
					Name     string
					Branches []struct {
						Name    string
						Version string
					}
				}
				Stats struct {
					Shards       int
					Documents    int
					ContentBytes int64
				}
			}
		}
		Error string
	}
	searchRequest struct {
		Q    string
		Opts searchOptions
	}
	searchOptions struct {
		ShardMaxMatchCount int
		TotalMaxMatchCount int
		MaxWallTime        int64 // nanoseconds
	}
	searchReply struct {
		Result *struct {
			Crashes       int
			FilesSkipped  int
			ShardsSkipped int
			MatchCount    int
			Files         []fileMatch
		}
		Error string
	}
	fileMatch struct {
		FileName    string
		Repository  string
		Version     string
		LineMatches []struct {
			Line       []byte // base64 in JSON
			LineNumber int
		}
	}
)

// Status asks every webserver which commit of the repository it holds.
// Those that hold the repository must agree; Files and Bytes add up their
// shards. A webserver that fails makes Status fail: its shards would be
// missing from every answer.
func (c *Client) Status(ctx context.Context) (*scout.IndexStatus, error) {
	ctx, cancel := withDeadline(ctx)
	defer cancel()
	replies := make([]listReply, len(c.urls))
	err := c.fanOut(ctx, func(ctx context.Context, i int) error {
		return c.post(ctx, c.urls[i], "/api/list", listRequest{Q: "repo:" + anchored(c.repo)}, maxListBytes, &replies[i])
	})
	if err != nil {
		return nil, err
	}
	c.localOnce.Do(func() { c.local = isLocal(c.hosts) })
	st := &scout.IndexStatus{Endpoints: len(c.urls), Local: c.local}
	holder, shards := "", 0
	for i, r := range replies {
		if r.List == nil {
			return nil, fmt.Errorf("zoekt: %s/api/list: the reply has no List: is it zoekt-webserver -rpc?", c.urls[i])
		}
		for _, repo := range r.List.Repos {
			if repo.Repository.Name != c.repo {
				continue
			}
			version, err := headVersion(repo.Repository.Branches)
			if err != nil {
				return nil, fmt.Errorf("zoekt: %s: repository %s: %v", c.urls[i], c.repo, err)
			}
			if st.Commit != "" && version != st.Commit {
				return nil, fmt.Errorf("zoekt: the webservers disagree on the commit of %s: %s holds %s, %s holds %s (one is being re-indexed?)", c.repo, holder, st.Commit, c.urls[i], version)
			}
			st.Commit, holder = version, c.urls[i]
			st.Files += repo.Stats.Documents
			st.Bytes += repo.Stats.ContentBytes
			shards += max(repo.Stats.Shards, 0)
		}
	}
	c.mu.Lock()
	c.shards = shards
	c.mu.Unlock()
	return st, nil
}

// isLocal reports whether one of hosts is this machine: "localhost", a
// loopback address or an address of one of its interfaces. Names are not
// resolved.
func isLocal(hosts []string) bool {
	var own []net.IP
	if addrs, err := net.InterfaceAddrs(); err == nil {
		for _, a := range addrs {
			if n, ok := a.(*net.IPNet); ok {
				own = append(own, n.IP)
			}
		}
	}
	for _, h := range hosts {
		if strings.EqualFold(h, "localhost") || strings.HasSuffix(strings.ToLower(h), ".localhost") {
			return true
		}
		ip := net.ParseIP(h)
		if ip == nil {
			continue
		}
		if ip.IsLoopback() || ip.IsUnspecified() {
			return true
		}
		for _, o := range own {
			if o.Equal(ip) {
				return true
			}
		}
	}
	return false
}

// headVersion returns the commit of an index built from one branch.
func headVersion(branches []struct{ Name, Version string }) (string, error) {
	switch {
	case len(branches) != 1:
		return "", fmt.Errorf("indexed with %d branches; Scout needs an index of one (zoekt-git-index's default -branches HEAD)", len(branches))
	case !isHash(branches[0].Version):
		return "", fmt.Errorf("branch %s has version %q, not a commit hash", branches[0].Name, branches[0].Version)
	}
	return branches[0].Version, nil
}

// hashRE is compiled on first use, not at the command's start.
var hashRE = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^[0-9a-f]{40}([0-9a-f]{24})?$`) })

func isHash(s string) bool { return hashRE().MatchString(s) }

// Search sends q to every webserver and merges the matching files by
// repository and path. Every file must come from q.Commit.
func (c *Client) Search(ctx context.Context, q *scout.IndexQuery) (*scout.IndexAnswer, error) {
	if q.MaxFiles <= 0 {
		return nil, errors.New("zoekt: IndexQuery.MaxFiles must be positive")
	}
	caseAtom, content, err := contentQuery(q.Pattern, q.IgnoreCase)
	if err != nil {
		return nil, fmt.Errorf("zoekt: pattern %q: %v", q.Pattern, err)
	}
	atoms := []string{"type:file", caseAtom, "repo:" + anchored(c.repo)}
	for _, re := range q.Include {
		if _, err := regexp.Compile(re); err != nil {
			return nil, fmt.Errorf("zoekt: include path regex %q: %v", re, err)
		}
		atoms = append(atoms, "file:"+escapeValue(re))
	}
	if !q.IgnoreCase {
		// Under case:no zoekt folds the path regexes too, and a folded
		// exclusion would leave out files it should keep.
		for _, re := range q.Exclude {
			if _, err := regexp.Compile(re); err != nil {
				return nil, fmt.Errorf("zoekt: exclude path regex %q: %v", re, err)
			}
			atoms = append(atoms, "-file:"+escapeValue(re))
		}
	}
	atoms = append(atoms, content)
	shardCap := c.share(q.MaxFiles)
	replies, wall, err := c.search(ctx, strings.Join(atoms, " "), shardCap, q.MaxFiles)
	if err != nil {
		return nil, err
	}
	ans := &scout.IndexAnswer{Endpoints: len(c.urls)}
	seen := map[string]bool{}
	for i, r := range replies {
		res := r.Result
		if res.MatchCount >= shardCap && res.FilesSkipped > 0 {
			// A shard, or all of them, reached the cap.
			ans.Capped = true
		} else if res.FilesSkipped > 0 {
			ans.Incomplete = append(ans.Incomplete, fmt.Sprintf("%s skipped %d files (deadline %v)", c.urls[i], res.FilesSkipped, wall))
		}
		if res.ShardsSkipped > 0 {
			ans.Incomplete = append(ans.Incomplete, fmt.Sprintf("%s skipped %d shards", c.urls[i], res.ShardsSkipped))
		}
		if res.Crashes > 0 {
			ans.Incomplete = append(ans.Incomplete, fmt.Sprintf("%s: %d shards crashed", c.urls[i], res.Crashes))
		}
		for _, f := range res.Files {
			if f.Repository != c.repo {
				continue
			}
			if f.Version != q.Commit {
				return nil, fmt.Errorf("zoekt: %s answered for commit %s of %s, not %s: the index changed during the search", c.urls[i], f.Version, c.repo, q.Commit)
			}
			if !seen[f.FileName] {
				seen[f.FileName] = true
				ans.Files = append(ans.Files, f.FileName)
			}
		}
	}
	if len(ans.Files) > q.MaxFiles {
		ans.Capped = true
	}
	sort.Strings(ans.Files)
	return ans, nil
}

// share is each shard's cap when the repository's shards share a cap of
// maxFiles matches: zoekt searches a webserver's shards at once, each up
// to its own cap, so that the cap for all alone would let a common
// pattern cost every shard the whole cap.
func (c *Client) share(maxFiles int) int {
	c.mu.Lock()
	shards := max(c.shards, 1)
	c.mu.Unlock()
	return (maxFiles + shards - 1) / shards
}

// search posts a query to every webserver with caps of shardCap matches
// per shard and maxFiles in all, and the context's deadline as zoekt's
// own MaxWallTime, which it returns.
func (c *Client) search(ctx context.Context, query string, shardCap, maxFiles int) ([]searchReply, time.Duration, error) {
	ctx, cancel := withDeadline(ctx)
	defer cancel()
	dl, _ := ctx.Deadline()
	// zoekt stops at MaxWallTime and answers with what it has; leave it a
	// little time to send that before the request's own deadline.
	wall := time.Until(dl) * 9 / 10
	if wall <= 0 {
		return nil, 0, context.DeadlineExceeded
	}
	limit := min(int64(replyBaseBytes)+int64(maxFiles)*replyFileBytes, maxReplyBytes)
	req := searchRequest{Q: query, Opts: searchOptions{ShardMaxMatchCount: shardCap, TotalMaxMatchCount: maxFiles, MaxWallTime: int64(wall)}}
	replies := make([]searchReply, len(c.urls))
	err := c.fanOut(ctx, func(ctx context.Context, i int) error {
		if err := c.post(ctx, c.urls[i], "/api/search", req, limit, &replies[i]); err != nil {
			return err
		}
		if replies[i].Result == nil {
			return fmt.Errorf("zoekt: %s/api/search: the reply has no Result: is it zoekt-webserver -rpc?", c.urls[i])
		}
		return nil
	})
	return replies, wall, err
}

// Unindexed lists the files of commit that the index holds without their
// content: zoekt indexes each as one line "NOT-INDEXED: <why>".
func (c *Client) Unindexed(ctx context.Context, commit string) ([]scout.UnindexedFile, error) {
	query := "case:yes repo:" + anchored(c.repo) + " content:" + escapeValue(`(?m:^)NOT-INDEXED: `)
	replies, _, err := c.search(ctx, query, unindexedCap, unindexedCap) // complete or an error: no share
	if err != nil {
		return nil, err
	}
	var out []scout.UnindexedFile
	seen := map[string]bool{}
	for i, r := range replies {
		res := r.Result
		if res.FilesSkipped > 0 || res.ShardsSkipped > 0 || res.Crashes > 0 {
			return nil, fmt.Errorf("zoekt: %s: the list of files held without content is incomplete (%d files, %d shards skipped)", c.urls[i], res.FilesSkipped, res.ShardsSkipped)
		}
		for _, f := range res.Files {
			if f.Repository != c.repo || seen[f.FileName] {
				continue
			}
			if f.Version != commit {
				return nil, fmt.Errorf("zoekt: %s answered for commit %s of %s, not %s: the index changed", c.urls[i], f.Version, c.repo, commit)
			}
			reason := ""
			for _, l := range f.LineMatches {
				if l.LineNumber == 1 {
					reason = skipReason(string(bytes.TrimRight(l.Line, "\n")))
				}
			}
			if reason == "" {
				continue // a text file that starts with the marker's words
			}
			seen[f.FileName] = true
			out = append(out, scout.UnindexedFile{Path: f.FileName, Reason: reason})
		}
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Path < out[j].Path })
	return out, nil
}

// skipReason maps a marker line to a reason word, "" when the line is not
// exactly a marker.
func skipReason(line string) string {
	why, ok := strings.CutPrefix(line, "NOT-INDEXED: ")
	if !ok || strings.ContainsAny(why, "\r\n") {
		return ""
	}
	switch why {
	case "contains binary content":
		return "binary"
	case "exceeds the maximum size limit":
		return "too_large"
	case "contains too many trigrams":
		return "too_many_trigrams"
	case "contains too few trigrams":
		return "too_small"
	case "object missing from repository":
		return "missing"
	}
	return "other"
}

// fanOut runs one request per webserver at once. The first failure cancels
// the others and is returned.
func (c *Client) fanOut(ctx context.Context, one func(ctx context.Context, i int) error) error {
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	errs := make([]error, len(c.urls))
	var wg sync.WaitGroup
	for i := range c.urls {
		wg.Go(func() {
			if errs[i] = one(ctx, i); errs[i] != nil {
				cancel()
			}
		})
	}
	wg.Wait()
	// Report a real failure rather than the cancellations it caused.
	var first error
	for _, err := range errs {
		if err != nil && (first == nil || errors.Is(first, context.Canceled) && !errors.Is(err, context.Canceled)) {
			first = err
		}
	}
	return first
}

// post sends body as JSON to base+path and decodes at most limit bytes of
// the reply into out. zoekt answers a bad request with 4xx and
// {"Error": "..."}.
func (c *Client) post(ctx context.Context, base, path string, body any, limit int64, out any) error {
	b, err := json.Marshal(body)
	if err != nil {
		return err
	}
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, base+path, bytes.NewReader(b))
	if err != nil {
		return fmt.Errorf("zoekt: %s: %v", base, err)
	}
	req.Header.Set("Content-Type", "application/json")
	resp, err := c.http.Do(req)
	if err != nil {
		if ctx.Err() != nil {
			return fmt.Errorf("zoekt: %s%s: %w", base, path, ctx.Err())
		}
		return fmt.Errorf("zoekt: %s%s: %v", base, path, err)
	}
	defer resp.Body.Close()
	data, err := io.ReadAll(io.LimitReader(resp.Body, limit+1))
	if err != nil {
		if ctx.Err() != nil {
			return fmt.Errorf("zoekt: %s%s: %w", base, path, ctx.Err())
		}
		return fmt.Errorf("zoekt: %s%s: reading the reply: %v", base, path, err)
	}
	if int64(len(data)) > limit {
		return fmt.Errorf("zoekt: %s%s: the reply is over %d bytes", base, path, limit)
	}
	var e struct{ Error string }
	if resp.StatusCode != http.StatusOK {
		if json.Unmarshal(data, &e) == nil && e.Error != "" {
			return fmt.Errorf("zoekt: %s%s: %s (HTTP %d)", base, path, e.Error, resp.StatusCode)
		}
		return fmt.Errorf("zoekt: %s%s: HTTP %d (is it zoekt-webserver -rpc?)", base, path, resp.StatusCode)
	}
	if err := json.Unmarshal(data, out); err != nil {
		return fmt.Errorf("zoekt: %s%s: not a zoekt reply: %v", base, path, err)
	}
	return nil
}

// withDeadline gives ctx the default deadline when it has none.
func withDeadline(ctx context.Context) (context.Context, context.CancelFunc) {
	if _, ok := ctx.Deadline(); ok {
		return context.WithCancel(ctx)
	}
	return context.WithTimeout(ctx, defaultDeadline)
}

// anchored returns the regex that matches exactly s, as a query value.
func anchored(s string) string { return escapeValue("^" + regexp.QuoteMeta(s) + "$") }
