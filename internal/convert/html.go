package convert

import (
	"context"
	"io"

	"github.com/JohannesKaufmann/html-to-markdown/v2/converter"
	"github.com/JohannesKaufmann/html-to-markdown/v2/plugin/base"
	"github.com/JohannesKaufmann/html-to-markdown/v2/plugin/commonmark"
	"github.com/JohannesKaufmann/html-to-markdown/v2/plugin/table"
)

// HTMLToMarkdown converts an HTML document or fragment to markdown, tables
// kept as markdown tables. baseURL, when not "", makes relative links
// absolute ("https://example.com/docs/").
func HTMLToMarkdown(ctx context.Context, r io.Reader, baseURL string) (string, error) {
	conv := converter.NewConverter(converter.WithPlugins(
		base.NewBasePlugin(),
		commonmark.NewCommonmarkPlugin(),
		table.NewTablePlugin(),
	))
	opts := []converter.ConvertOptionFunc{converter.WithContext(ctx)}
	if baseURL != "" {
		opts = append(opts, converter.WithDomain(baseURL))
	}
	b, err := conv.ConvertReader(r, opts...)
	if err != nil {
		return "", err
	}
	return string(b), nil
}
