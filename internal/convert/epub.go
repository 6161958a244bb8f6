package convert

import (
	"context"
	"errors"
	"io"
	"net/url"
	"path"
	"strings"

	"github.com/scoutkit/scout/internal/errs"
	"github.com/scoutkit/scout/internal/fname"
)

// maxChapter caps one EPUB chapter: XHTML is converted through a DOM,
// which takes several times the size of its source.
const maxChapter = 8 << 20

// convertEPUB renders the book's title and authors, then each document of
// the spine in reading order, converted from XHTML to markdown.
func convertEPUB(ctx context.Context, r io.ReaderAt, size int64) (string, error) {
	p, err := openPkg(ctx, "EPUB", r, size)
	if err != nil {
		return "", err
	}
	var container struct {
		Rootfiles []struct {
			Path string `xml:"full-path,attr"`
		} `xml:"rootfiles>rootfile"`
	}
	if err := p.decodeXML("META-INF/container.xml", &container); err != nil {
		return "", err
	}
	if len(container.Rootfiles) == 0 {
		return "", malformed("EPUB", errors.New("container.xml names no package document"))
	}
	opfPath := strings.TrimPrefix(container.Rootfiles[0].Path, "/")
	var opf struct {
		Title    []string `xml:"metadata>title"`
		Creators []string `xml:"metadata>creator"`
		Items    []struct {
			ID   string `xml:"id,attr"`
			Href string `xml:"href,attr"`
			Type string `xml:"media-type,attr"`
		} `xml:"manifest>item"`
		Spine []struct {
			IDRef string `xml:"idref,attr"`
		} `xml:"spine>itemref"`
	}
	if err := p.decodeXML(opfPath, &opf); err != nil {
		return "", err
	}
	dir := path.Dir(opfPath) + "/"
	if dir == "./" {
		dir = ""
	}
	hrefs := map[string]string{}
	for _, it := range opf.Items {
		if strings.Contains(it.Type, "html") {
			h, err := url.PathUnescape(it.Href)
			if err != nil {
				h = it.Href
			}
			hrefs[it.ID] = resolvePart(dir, h)
		}
	}
	var out text
	if len(opf.Title) > 0 && strings.TrimSpace(opf.Title[0]) != "" {
		out.WriteString("# " + strings.TrimSpace(opf.Title[0]) + "\n\n")
	}
	if len(opf.Creators) > 0 {
		out.WriteString("Authors: " + strings.Join(opf.Creators, ", ") + "\n\n")
	}
	var missing, cut []string
	for _, ref := range opf.Spine {
		if out.full() {
			break
		}
		name, ok := hrefs[ref.IDRef]
		switch {
		case !ok:
			continue // not an XHTML document: no text to show
		case !p.has(name):
			missing = append(missing, name)
			continue
		}
		rc, err := p.openCapped(name, maxChapter)
		if err != nil {
			return "", err
		}
		md, err := HTMLToMarkdown(ctx, rc, "")
		rc.Close()
		var part *errs.Partial
		switch {
		case errors.As(err, &part):
			cut = append(cut, fname.Quote(name)+" ("+part.Reason+")")
		case err != nil:
			return "", p.partErr(name, err)
		}
		out.WriteString(md + "\n\n")
	}
	res, err := out.result()
	if err == nil {
		var why []string
		if len(missing) > 0 {
			why = append(why, "chapters named in the spine are missing from the book: "+fname.QuoteJoin(missing))
		}
		if len(cut) > 0 {
			why = append(why, "chapters converted in part: "+strings.Join(cut, ", "))
		}
		if len(why) > 0 {
			err = &errs.Partial{Reason: strings.Join(why, "; ")}
		}
	}
	return res, err
}
