package convert

import (
	"context"
	"errors"
	"fmt"
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

// maxListed is the most part names a notice lists; it counts the others.
const maxListed = 10

// convertEPUB renders the book's title and authors, then each document of
// the spine in reading order, converted from XHTML to markdown. The
// package's parts are read under the markup bound and maxInflate, as the
// Office converters read theirs, each chapter's markdown counting as text
// shown; a chapter the spine names again is converted once and shown
// again.
func convertEPUB(ctx context.Context, r io.ReaderAt, size int64) (string, error) {
	p, err := openPkg(ctx, "EPUB", r, size)
	if err != nil {
		return "", err
	}
	p.markup = &markup{}
	var container struct {
		Rootfiles []struct {
			Path string `xml:"full-path,attr"`
		} `xml:"rootfiles>rootfile"`
	}
	if err := p.decodeXML("META-INF/container.xml", &container); err != nil {
		return stopped(&text{}, err)
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
		return stopped(&text{}, err)
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
	opf.Items = nil
	var out text
	if len(opf.Title) > 0 && strings.TrimSpace(opf.Title[0]) != "" {
		out.WriteString("# " + strings.TrimSpace(opf.Title[0]) + "\n\n")
	}
	if len(opf.Creators) > 0 {
		out.WriteString("Authors: " + strings.Join(opf.Creators, ", ") + "\n\n")
	}
	var missing, cut listed
	var stop error
	seen := map[string]string{} // chapter -> its markdown, once converted or found missing
	for _, ref := range opf.Spine {
		if out.full() || stop != nil {
			break
		}
		name, ok := hrefs[ref.IDRef]
		if !ok {
			continue // not an XHTML document: no text to show
		}
		md, ok := seen[name]
		if !ok {
			if md, err = epubChapter(p, name, &missing, &cut); err != nil {
				if asPartial(err) == nil {
					return "", err
				}
				stop = err
			}
			seen[name] = md
			p.markup.shown += int64(len(md))
		}
		out.WriteString(md + "\n\n")
	}
	res, err := out.result()
	if err == nil {
		var why []string
		if missing.n > 0 {
			why = append(why, "chapters named in the spine are missing from the book: "+missing.String())
		}
		if cut.n > 0 {
			why = append(why, "chapters converted in part: "+cut.String())
		}
		if part := asPartial(stop); part != nil {
			why = append(why, part.Reason)
		}
		if len(why) > 0 {
			err = &errs.Partial{Reason: strings.Join(why, "; ")}
		}
	}
	return res, err
}

// epubChapter converts chapter name to markdown, adding its name to
// missing when the book lacks it and to cut, with why, when it is
// converted in part. A read past the markup bound or maxInflate gives
// the markdown of what was read and the *markupStop.
func epubChapter(p *pkg, name string, missing, cut *listed) (string, error) {
	if !p.has(name) {
		missing.add(fname.Quote(name))
		return "", nil
	}
	rc, err := p.openCapped(name, maxChapter)
	if err != nil {
		return "", err
	}
	defer rc.Close()
	r := &boundReader{r: rc}
	md, err := HTMLToMarkdown(p.ctx, r, "")
	var part *errs.Partial
	switch {
	case errors.As(err, &part):
		cut.add(fname.Quote(name) + " (" + part.Reason + ")")
	case err != nil:
		return "", p.partErr(name, err)
	}
	if r.stop != nil {
		return md, r.stop
	}
	return md, nil
}

// listed is the list of a notice: its first maxListed items and how
// many there are.
type listed struct {
	items []string
	n     int
}

func (l *listed) add(item string) {
	if l.n++; len(l.items) < maxListed {
		l.items = append(l.items, item)
	}
}

func (l *listed) String() string {
	s := strings.Join(l.items, ", ")
	if more := l.n - len(l.items); more > 0 {
		s += fmt.Sprintf(" and %d more", more)
	}
	return s
}

// boundReader ends a part at the markup bound or maxInflate, as if at its
// end, keeping the *markupStop: what was read before is converted.
type boundReader struct {
	r    io.Reader
	stop *markupStop
}

func (b *boundReader) Read(p []byte) (int, error) {
	n, err := b.r.Read(p)
	if errors.As(err, &b.stop) {
		return n, io.EOF
	}
	return n, err
}
