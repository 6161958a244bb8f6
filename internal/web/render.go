package web

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"mime"
	"net/http"
	"net/url"
	"path"
	"slices"
	"strings"
	"unicode/utf8"

	readability "codeberg.org/readeck/go-readability/v2"
	"golang.org/x/net/html"
	"golang.org/x/net/html/charset"

	"github.com/scoutkit/scout/internal/convert"
	"github.com/scoutkit/scout/internal/errs"
)

// Render methods, as shown on the Method: line.
const (
	MethodJSON        = "json"
	MethodFeed        = "feed"
	MethodText        = "text"
	MethodAlternate   = "alternate-markdown" // the page's <link rel="alternate" type="text/markdown">
	MethodReadability = "readability"        // HTML main content through readability, as markdown
	MethodHTML        = "html-to-markdown"   // the whole HTML page as markdown (readability found no article)
	MethodDocument    = "markit"             // a document (PDF, DOCX, ...) converted to text
	MethodImage       = "image"
	MethodBinary      = "binary"
	MethodRaw         = "raw"
	MethodRawHTML     = "raw-html"
	MethodFailed      = "failed"
)

// maxFailedBody is how much of an error page's text is kept.
const maxFailedBody = 4 << 10

// maxHTML is the most HTML rendered to markdown: readability and the
// converter build DOMs several times the size of their input. A longer
// page is cut (the parser closes what the cut leaves open) with a note.
const maxHTML = 8 << 20

// Page is a rendered URL.
type Page struct {
	URL         string   // the URL requested (normalised: https:// added to www.)
	FinalURL    string   // the URL after redirects
	ContentType string   // the media type, without parameters
	Method      string   // how the content was rendered (the Method* constants)
	Notes       []string // remarks: redirects, truncation, fallbacks, failures
	Content     string   // the rendered text
	Image       []byte   // the bytes when Method is MethodImage
	Truncated   bool     // the body was cut at the fetcher's cap
}

// Header returns the lines that precede the content:
// "URL: ...\nContent-Type: ...\nMethod: ...\n[Notes: a; b\n]\n---\n\n".
func (p *Page) Header() string {
	var b strings.Builder
	fmt.Fprintf(&b, "URL: %s\nContent-Type: %s\nMethod: %s\n", p.FinalURL, p.ContentType, p.Method)
	if len(p.Notes) > 0 {
		fmt.Fprintf(&b, "Notes: %s\n", strings.Join(p.Notes, "; "))
	}
	b.WriteString("\n---\n\n")
	return b.String()
}

// Output returns the header and the content: the text read shows and pages.
func (p *Page) Output() string { return p.Header() + p.Content }

// Options tune Render. The zero value uses convert.For for documents.
type Options struct {
	// Raw returns the body as text (":raw"), without rendering.
	Raw bool
	// Convert finds the converter of a document extension; nil means
	// convert.For.
	Convert func(ext string) (convert.Converter, bool)
}

// Render fetches rawURL with f and renders it. A fetch that fails or
// returns an HTTP error gives a Page with Method "failed" and notes that
// say why, not an error; the error is for an invalid URL or a canceled ctx.
func Render(ctx context.Context, f Fetcher, rawURL string, o Options) (*Page, error) {
	p, err := render(ctx, f, rawURL, o)
	if err != nil {
		return nil, err
	}
	// Notes quote parser errors, which may quote the bytes they choke on.
	for i, n := range p.Notes {
		p.Notes[i] = strings.ToValidUTF8(n, "\uFFFD")
	}
	p.Content = strings.ToValidUTF8(p.Content, "\uFFFD")
	return p, nil
}

func render(ctx context.Context, f Fetcher, rawURL string, o Options) (*Page, error) {
	u := Normalize(rawURL)
	if _, err := CheckURL(u); err != nil {
		return nil, err
	}
	if f == nil {
		f = DefaultFetcher()
	}
	resp, err := f.Fetch(ctx, u)
	if err != nil {
		if ce := ctx.Err(); ce != nil {
			return nil, errs.Wrap(errs.CodeOf(ce), ce, "fetching %s: %v", u, ce)
		}
		if errs.CodeOf(err) == errs.InvalidParam {
			return nil, err
		}
		return &Page{URL: u, FinalURL: u, Method: MethodFailed, Notes: []string{"Fetch failed: " + err.Error()}}, nil
	}
	p := &Page{URL: u, FinalURL: cmpOr(resp.FinalURL, u), Truncated: resp.Truncated}
	if len(resp.Redirects) > 0 {
		p.Notes = append(p.Notes, "Redirected: "+strings.Join(append([]string{u}, resp.Redirects...), " -> "))
	}
	if resp.Truncated {
		p.Notes = append(p.Notes, fmt.Sprintf("Body cut at %s", formatBytes(len(resp.Body))))
	}
	mt, params := mediaType(resp)
	p.ContentType = mt
	if resp.Status < 200 || resp.Status > 299 {
		p.Method = MethodFailed
		p.Notes = append(p.Notes, fmt.Sprintf("HTTP %d %s", resp.Status, http.StatusText(resp.Status)))
		if isText(mt) {
			body := decode(resp.Body, mt, params)
			if isHTML(mt) {
				if md, err := convert.HTMLToMarkdown(ctx, strings.NewReader(body), p.FinalURL); err == nil {
					body = md
				}
			}
			p.Content = cut(strings.TrimSpace(body), maxFailedBody)
		}
		return p, nil
	}
	if o.Raw {
		p.Method = MethodRaw
		if isHTML(mt) {
			p.Method = MethodRawHTML
		}
		if !isText(mt) && !utf8.Valid(resp.Body) {
			p.Method = MethodBinary
			p.Content = binaryNotice(mt, len(resp.Body))
			return p, nil
		}
		p.Content = decode(resp.Body, mt, params)
		return p, nil
	}
	conv := o.Convert
	if conv == nil {
		conv = convert.For
	}
	switch {
	case strings.HasPrefix(mt, "image/"):
		p.Method, p.Image = MethodImage, resp.Body
		p.Content = fmt.Sprintf("[Image: %s, %s]", mt, formatBytes(len(resp.Body)))
	case documentExt(mt, p.FinalURL) != "":
		ext := documentExt(mt, p.FinalURL)
		c, ok := conv(ext)
		if !ok {
			p.Method, p.Content = MethodBinary, binaryNotice(mt, len(resp.Body))
			break
		}
		text, err := c.Convert(ctx, bytes.NewReader(resp.Body), int64(len(resp.Body)))
		if err != nil {
			if ce := ctx.Err(); ce != nil {
				return nil, errs.Wrap(errs.CodeOf(ce), ce, "converting %s: %v", u, ce)
			}
			p.Method = MethodFailed
			p.Notes = append(p.Notes, "markit conversion failed: "+err.Error())
			p.Content = convert.Notice(ext, err)
			break
		}
		p.Method, p.Content = MethodDocument, text
	case isJSON(mt):
		var b bytes.Buffer
		if err := json.Indent(&b, resp.Body, "", "  "); err != nil {
			p.Method, p.Content = MethodText, decode(resp.Body, mt, params)
			p.Notes = append(p.Notes, "Invalid JSON: "+err.Error())
			break
		}
		p.Method, p.Content = MethodJSON, b.String()
	case isFeed(mt, resp.Body):
		md, err := feedMarkdown(resp.Body)
		if err != nil {
			p.Method, p.Content = MethodText, decode(resp.Body, mt, params)
			p.Notes = append(p.Notes, "Feed parsing failed: "+err.Error())
			break
		}
		p.Method, p.Content = MethodFeed, md
	case isHTML(mt):
		html := decode(resp.Body, mt, params)
		if md, alt, ok := markdownAlternate(ctx, f, html, p.FinalURL); ok {
			p.Method, p.Content = MethodAlternate, md
			p.Notes = append(p.Notes, "Used markdown alternate: "+alt)
			break
		}
		if len(html) > maxHTML {
			html = cut(html, maxHTML)
			p.Notes = append(p.Notes, fmt.Sprintf("HTML cut at %s before rendering", formatBytes(maxHTML)))
		}
		p.Method, p.Content = renderHTML(ctx, html, p.FinalURL, &p.Notes)
	case isText(mt):
		p.Method, p.Content = MethodText, decode(resp.Body, mt, params)
	default:
		p.Method, p.Content = MethodBinary, binaryNotice(mt, len(resp.Body))
	}
	return p, nil
}

// renderHTML extracts the main content with readability and converts it
// to markdown; when readability finds nothing it converts the whole page.
func renderHTML(ctx context.Context, html, pageURL string, notes *[]string) (method, content string) {
	base, _ := url.Parse(pageURL)
	art, err := readability.FromReader(strings.NewReader(html), base)
	if err == nil && art.Node != nil {
		var b bytes.Buffer
		if art.RenderHTML(&b) == nil {
			md, err := convert.HTMLToMarkdown(ctx, &b, pageURL)
			if err == nil && strings.TrimSpace(md) != "" {
				if t := strings.TrimSpace(art.Title()); t != "" && !strings.HasPrefix(md, "# ") {
					md = "# " + t + "\n\n" + md
				}
				return MethodReadability, md
			}
		}
	}
	md, err := convert.HTMLToMarkdown(ctx, strings.NewReader(html), pageURL)
	if err != nil {
		*notes = append(*notes, "HTML conversion failed: "+err.Error())
		return MethodRawHTML, html
	}
	*notes = append(*notes, "No article found; converted the whole page")
	return MethodHTML, md
}

// mediaType returns the response's media type (sniffed when the header is
// missing) and its parameters.
func mediaType(r *Response) (string, map[string]string) {
	ct := r.ContentType
	if ct == "" {
		ct = http.DetectContentType(r.Body)
	}
	mt, params, err := mime.ParseMediaType(ct)
	if err != nil {
		mt = strings.ToLower(strings.TrimSpace(strings.Split(ct, ";")[0]))
	}
	if mt == "application/octet-stream" || mt == "" {
		if sniffed, _, err := mime.ParseMediaType(http.DetectContentType(r.Body)); err == nil && sniffed != "application/octet-stream" {
			if documentExt(mt, r.FinalURL) == "" {
				mt = sniffed
			}
		}
	}
	return mt, params
}

// decode converts a text body to UTF-8 using the charset parameter, a
// BOM, or an HTML meta tag; invalid bytes become U+FFFD.
func decode(body []byte, mt string, params map[string]string) string {
	ct := mt
	if cs := params["charset"]; cs != "" {
		ct += "; charset=" + cs
	}
	r, err := charset.NewReader(bytes.NewReader(body), ct)
	if err == nil {
		if b, err := io.ReadAll(r); err == nil {
			body = b
		}
	}
	return strings.ToValidUTF8(string(body), "\uFFFD")
}

func isHTML(mt string) bool { return mt == "text/html" || mt == "application/xhtml+xml" }

func isJSON(mt string) bool {
	return mt == "application/json" || strings.HasSuffix(mt, "+json") || mt == "text/json"
}

func isText(mt string) bool {
	switch {
	case strings.HasPrefix(mt, "text/"), isJSON(mt), strings.HasSuffix(mt, "+xml"):
		return true
	}
	switch mt {
	case "application/xml", "application/javascript", "application/x-javascript", "application/ecmascript",
		"application/x-sh", "application/toml", "application/yaml", "application/x-yaml", "application/sql",
		"application/graphql":
		return true
	}
	return false
}

// docTypes maps document media types to converter extensions.
var docTypes = map[string]string{
	"application/pdf":    ".pdf",
	"application/msword": ".doc",
	"application/vnd.openxmlformats-officedocument.wordprocessingml.document":   ".docx",
	"application/vnd.openxmlformats-officedocument.presentationml.presentation": ".pptx",
	"application/vnd.openxmlformats-officedocument.spreadsheetml.sheet":         ".xlsx",
	"application/vnd.ms-excel":      ".xls",
	"application/vnd.ms-powerpoint": ".ppt",
	"application/rtf":               ".rtf",
	"text/rtf":                      ".rtf",
	"application/epub+zip":          ".epub",
}

// documentExt returns the converter extension for a document response:
// by media type, or by the URL's extension when the type is generic.
func documentExt(mt, rawURL string) string {
	if ext, ok := docTypes[mt]; ok {
		return ext
	}
	if mt != "application/octet-stream" && mt != "binary/octet-stream" && mt != "application/zip" && mt != "" {
		return ""
	}
	u, err := url.Parse(rawURL)
	if err != nil {
		return ""
	}
	ext := strings.ToLower(path.Ext(u.Path))
	for _, e := range docTypes {
		if e == ext {
			return ext
		}
	}
	return ""
}

func binaryNotice(mt string, n int) string {
	return fmt.Sprintf("[Binary content not shown: %s, %s]", cmpOr(mt, "unknown type"), formatBytes(n))
}

// cut shortens s to at most n bytes at a rune boundary, marking the cut.
func cut(s string, n int) string {
	if len(s) <= n {
		return s
	}
	for n > 0 && !utf8.RuneStart(s[n]) {
		n--
	}
	return s[:n] + "…"
}

// markdownAlternate fetches the markdown version a page links to with
// <link rel="alternate" type="text/markdown" href="...">, if any.
func markdownAlternate(ctx context.Context, f Fetcher, page, pageURL string) (md, alt string, ok bool) {
	href := alternateHref(page)
	if href == "" {
		return "", "", false
	}
	base, err := url.Parse(pageURL)
	if err != nil {
		return "", "", false
	}
	ref, err := base.Parse(href)
	if err != nil || (ref.Scheme != "http" && ref.Scheme != "https") {
		return "", "", false
	}
	resp, err := f.Fetch(ctx, ref.String())
	if err != nil || resp.Status < 200 || resp.Status > 299 {
		return "", "", false
	}
	mt, params := mediaType(resp)
	if !isText(mt) || isHTML(mt) {
		return "", "", false
	}
	body := strings.TrimSpace(decode(resp.Body, mt, params))
	return body, ref.String(), body != ""
}

// alternateHref finds the href of a markdown alternate link in the head.
func alternateHref(page string) string {
	z := html.NewTokenizer(strings.NewReader(page))
	for {
		switch z.Next() {
		case html.ErrorToken:
			return ""
		case html.StartTagToken, html.SelfClosingTagToken:
			name, hasAttr := z.TagName()
			switch string(name) {
			case "body":
				return ""
			case "link":
				var rel, typ, href string
				for hasAttr {
					var k, v []byte
					k, v, hasAttr = z.TagAttr()
					switch string(k) {
					case "rel":
						rel = strings.ToLower(string(v))
					case "type":
						typ = strings.ToLower(string(v))
					case "href":
						href = string(v)
					}
				}
				if slices.Contains(strings.Fields(rel), "alternate") && (typ == "text/markdown" || typ == "text/x-markdown") && href != "" {
					return href
				}
			}
		}
	}
}

// formatBytes renders a size as read does: 512B, 1.2KB, 3.4MB, 1.0GB.
func formatBytes(n int) string {
	const k = 1024
	switch {
	case n < k:
		return fmt.Sprintf("%dB", n)
	case n < k*k:
		return fmt.Sprintf("%.1fKB", float64(n)/k)
	case n < k*k*k:
		return fmt.Sprintf("%.1fMB", float64(n)/(k*k))
	}
	return fmt.Sprintf("%.1fGB", float64(n)/(k*k*k))
}
