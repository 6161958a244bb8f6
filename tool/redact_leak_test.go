package tool

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"testing"
	"testing/fstest"

	"github.com/scoutkit/scout"
	"github.com/scoutkit/scout/format"
	"github.com/scoutkit/scout/internal/redact"
)

// leakFetcher answers by the URL's last path element, never the network:
// a page, a 404 whose body quotes the URL, a cut body, a binary body, a
// host error (a timeout, a plain error) quoting the URL, and redirects to
// URLs with credentials of their own.
type leakFetcher struct{}

func (leakFetcher) Fetch(_ context.Context, url string) (*scout.FetchResponse, error) {
	ok := func(ct, body string) *scout.FetchResponse {
		return &scout.FetchResponse{URL: url, FinalURL: url, Status: 200, ContentType: ct, Body: []byte(body)}
	}
	const to = "https://RdUser:RdPass9@other.example/final"
	switch url[strings.LastIndexByte(url, '/'):] {
	case "/ok":
		return ok("text/plain", strings.Repeat("line\n", 400)), nil
	case "/html":
		return ok("text/html", `<html><head><link rel="alternate" type="text/markdown" href="x.md"></head><body><p>hi</p></body></html>`), nil
	case "/404":
		return &scout.FetchResponse{URL: url, FinalURL: url, Status: 404, ContentType: "text/plain", Body: []byte("no page " + url)}, nil
	case "/big":
		r := ok("text/plain", "a\n")
		r.Truncated = true
		return r, nil
	case "/bin":
		return ok("application/octet-stream", "\x00\x01"), nil
	case "/type":
		return ok("application/x-"+url, "\x00\x01"), nil
	case "/timeout":
		return nil, &scout.Error{Code: scout.CodeTimeout, Message: "Get " + url + ": deadline exceeded"}
	case "/plain":
		return nil, fmt.Errorf("Get %q: dial failed", url)
	case "/redir":
		r := ok("text/plain", "x\n")
		r.FinalURL, r.Redirects = to, []string{"https://RdTok7@mid.example/m", to}
		return r, nil
	case "/redir404":
		return &scout.FetchResponse{URL: url, FinalURL: to, Status: 404, ContentType: "text/plain", Redirects: []string{to}}, nil
	}
	return &scout.FetchResponse{URL: url, FinalURL: url, Status: 404, ContentType: "text/plain"}, nil
}

// leakSite is a host site handler for site.example that quotes the URL
// in its page's notes, method and content type, or in its error.
type leakSite struct{}

func (leakSite) Handle(_ context.Context, url string, _ scout.Fetcher) (*scout.SitePage, error) {
	switch {
	case !strings.Contains(url, "site.example"):
		return nil, nil
	case strings.HasSuffix(url, "/fail"):
		return nil, errors.New("site failed on " + url)
	}
	return &scout.SitePage{URL: url, Method: "m " + url, ContentType: "text/plain; u=" + url, Content: "c\n", Notes: []string{"note about " + url}}, nil
}

// leakResolver serves skill:// URLs, quoting the URL in its notes and
// errors.
type leakResolver struct{}

func (leakResolver) Resolve(_ context.Context, url string) (*scout.Resource, error) {
	switch {
	case strings.HasSuffix(url, "missing"):
		return nil, nil
	case strings.HasSuffix(url, "err"):
		return nil, errors.New("resolver failed " + url)
	}
	return &scout.Resource{Text: strings.Repeat("skill\n", 5), Notes: []string{"from " + url}}, nil
}

// leakSecrets are the secrets of leakURLs and leakFetcher: passwords, and
// user names given alone (a token).
var leakSecrets = []string{"PW5ecret", "PW5@ecret", "T0kenUser", "RdPass9", "RdTok7", "Sp4ce", "T4ilPw"}

// leakURLs are URLs with credentials, in the forms that could be misread:
// upper case, an '@' in the password (the last '@' ends the userinfo), an
// escaped one, an empty user name, a token alone, a password with an
// unescaped '/' (refused), www., a bad port, a host site handler's, a
// password with a space or a tab (refused; a message cuts a URL at the
// first).
var leakURLs = []string{
	"https://USR:PW5ecret@h.example", "HTTPS://USR:PW5ecret@H.EXAMPLE", "https://USR:PW5ecret@h@evil.example",
	"https://USR:PW5%40ecret@h.example", "https://:PW5ecret@h.example", "https://T0kenUser@h.example",
	"https://USR:PW5/ecret@h.example", "www.USR:PW5ecret@h.example", "https://T0kenUser@h.example:99999",
	"https://USR:PW5ecret@site.example", "https://USR:Sp4ce T4ilPw@h.example", "https://USR:Sp4ce\tT4ilPw@h.example",
}

// leakConfig is a tool Config with leakFetcher, leakSite and
// leakResolver.
func leakConfig() Config {
	return Config{FS: fstest.MapFS{"f.txt": {Data: []byte("f\n")}, "g.txt": {Data: []byte("g\n")}}, Root: "/r",
		Fetcher: leakFetcher{}, SiteHandlers: map[string]scout.SiteHandler{"leak": leakSite{}},
		Resolvers: map[string]scout.Resolver{"skill": leakResolver{}}, URLCache: &scout.URLCache{}}
}

// leakPaths are the read paths of TestCredentialsNeverShown: each URL's
// pages (ok, error paths: 404, cut, binary, bad type, timeout, a host's
// error, redirects), with selectors, in a delimited entry, and internal
// URLs with userinfo.
func leakPaths() []string {
	var paths []string
	for _, u := range leakURLs {
		for _, p := range []string{"/ok", "/ok:5-6", "/ok:raw", "/ok:conflicts", "/html", "/404", "/big", "/bin", "/type", "/timeout", "/plain", "/redir", "/redir404", "/fail"} {
			paths = append(paths, u+p)
		}
		paths = append(paths, "f.txt, "+u+"/ok", "f.txt, g.txt, "+u+"/ok", u+"/"+strings.Repeat("a", 300)+"/ok")
	}
	return append(paths, "skill://USR:PW5ecret@deploy", "skill://T0kenUser@deploy", "skill://USR:PW5ecret@deploy:2-3",
		"skill://USR:PW5ecret@missing", "skill://USR:PW5ecret@err", "skill://USR:xxxxx@deploy:2-3")
}

// TestCredentialsNeverShown greps every output of many reads of URLs with
// credentials for their secrets: over the pi toolset (tool.Call: the
// Envelope whole, text, data, error, params_input, resolved paths, stats)
// and over the Go API (the result's JSON and text, the error); pi search
// and find of web and internal URLs given as paths too, and URLs given
// as patterns to every toolset's search and glob tools. The
// fetcher, a site handler and a resolver quote the URL they are given in
// their errors, notes and fields. Before, a host site handler's notes,
// method and content type, an HTTP error page quoting the URL, a
// delimited entry holding a URL, internal URLs' paths, notes and errors,
// search's scopePath and a web URL given to find as a path (cleaned to
// "https:/...") showed the secret; so did the "Path not found" message of
// a URL whose password holds a space or a tab (net/url refuses it).
func TestCredentialsNeverShown(t *testing.T) {
	c := leakConfig()
	check := func(t *testing.T, what, out string) {
		t.Helper()
		for _, s := range leakSecrets {
			if i := strings.Index(out, s); i >= 0 {
				t.Errorf("%s shows %q: …%s…", what, s, out[max(0, i-80):min(len(out), i+40)])
			}
		}
	}
	var calls []string
	for _, p := range leakPaths() {
		a, _ := json.Marshal(map[string]any{"path": p})
		calls = append(calls, "read "+string(a))
		a, _ = json.Marshal(map[string]any{"path": p, "offset": 2, "limit": 2})
		calls = append(calls, "read "+string(a))
	}
	for _, u := range append(leakURLs, "skill://USR:PW5ecret@deploy", "skill://T0kenUser@deploy", "skill://USR:PW5ecret@err") {
		a, _ := json.Marshal(map[string]any{"pattern": "skill", "paths": []string{u + "/ok"}})
		calls = append(calls, "search "+string(a))
		a, _ = json.Marshal(map[string]any{"pattern": "skill", "paths": []string{u}})
		calls = append(calls, "search "+string(a))
		a, _ = json.Marshal(map[string]any{"paths": []string{u + "/ok"}})
		calls = append(calls, "find "+string(a)) // a web URL as a path: "https:/..." cleaned
	}
	calls = append(calls, `search {"pattern":"x","paths":"f.txt, https://USR:PW5ecret@h.example/ok"}`, `nope {"path":"https://USR:PW5ecret@h.example/ok"}`)
	for _, call := range calls {
		name, args, _ := strings.Cut(call, " ")
		env := Call(context.Background(), c, Pi, name, []byte(args))
		out, err := json.Marshal(env)
		if err != nil {
			t.Fatal(err)
		}
		check(t, call, string(out))
		if strings.Contains(args, "PW5ecret@h.example/ok\"") && name == "read" && !strings.Contains(args, ",") && !strings.Contains(args, "offset") {
			// The echo and the page's URL show the secret redacted, not dropped.
			if !strings.Contains(string(out), ":xxxxx@") {
				t.Errorf("%s: no redacted URL shown: %.300s", call, out)
			}
		}
	}
	// A URL with credentials given as a pattern is echoed (data.pattern,
	// pattern_normalized, the text's "matching '...'", a rewritten
	// pattern's note) as the arguments are: redacted, every other byte
	// kept.
	for _, u := range []string{"https://USR:PW5ecret@h.example", "https://USR:Sp4ce T4ilPw@h.example", "www.USR:PW5ecret@h.example"} {
		shown := redact.Text(u)
		for _, call := range []struct{ toolset, name, args, echo string }{
			{Amplifier, "grep", `{"pattern":%q}`, `"pattern":"%s"`},
			{Amplifier, "grep", `{"pattern":%q,"output_mode":"content"}`, `"pattern":"%s"`},
			{Amplifier, "grep", `{"pattern":%q,"output_mode":"count"}`, `"pattern":"%s"`},
			{Amplifier, "glob", `{"pattern":"%s/*"}`, `"pattern":"%s/*"`},
			{Amplifier, "glob", `{"pattern":"**/%s*","type":"file"}`, `"pattern_normalized":"**/%s*"`},
			{Amplifier, "glob", `{"pattern":"g.txt/%s*","exclude":"x"}`, `No files found matching 'g.txt/%s*'`},
			{Standardized, "Glob", `{"pattern":"%s/*"}`, `"pattern_normalized":"%s/*"`},
			{Standardized, "Glob", `{"pattern":"x/%s*"}`, `No files found matching 'x/%s*'`},
			{Pi, "search", `{"pattern":%q,"paths":"f.txt"}`, `"pattern_normalized":"%s"`},
			{Pi, "search", `{"pattern":"%s(","paths":"f.txt"}`, "Note: `%s(` searched as"},
			{Pi, "find", `{"paths":["f.txt"],"pattern":"%s"}`, ``},
		} {
			if strings.HasPrefix(u, "www.") && !strings.HasPrefix(call.args, `{"pattern":%q`) && !strings.HasPrefix(call.args, `{"pattern":"%s`) {
				continue // a www. URL is one at a word's start ("dir/www.u:p@h" is none), as the arguments echoed show it
			}
			args := fmt.Sprintf(call.args, u)
			env := Call(context.Background(), c, call.toolset, call.name, []byte(args))
			out, err := json.Marshal(env)
			if err != nil {
				t.Fatal(err)
			}
			what := call.toolset + " " + call.name + " " + args
			check(t, what, env.Text+"\n"+string(out))
			if echo := strings.ReplaceAll(call.echo, "%s", shown); echo != "" && !strings.Contains(env.Text+"\n"+string(out), echo) {
				t.Errorf("%s: no %s: %.400s", what, echo, out)
			}
		}
	}
	r := scout.Reader{Workspace: scout.Workspace{FS: c.FS}, Fetcher: c.Fetcher, SiteHandlers: c.SiteHandlers, Resolvers: c.Resolvers, URLCache: &scout.URLCache{}, URLHeaderLines: true}
	for _, p := range leakPaths() {
		res, err := r.Read(context.Background(), scout.ReadRequest{Path: p})
		if err != nil {
			var se *scout.Error
			if !errors.As(err, &se) {
				t.Fatalf("%s: %T is no *scout.Error", p, err)
			}
			check(t, "Read "+p, err.Error()+"\n"+se.Path)
			continue
		}
		data, err := json.Marshal(res)
		if err != nil {
			t.Fatal(err)
		}
		check(t, "Read "+p, string(data)+"\n"+format.ReadText(res, nil))
	}
}
