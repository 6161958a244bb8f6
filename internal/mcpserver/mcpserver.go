// Package mcpserver serves a Scout toolset over the Model Context Protocol
// with the official Go SDK. Each tool returns its text as text content,
// the Standard Envelope as structuredContent, and images read by `read` as
// image content; tool errors are results with isError set, so the model
// sees them. Every tool is annotated read-only and idempotent.
package mcpserver

import (
	"context"
	"io"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/scoutkit/scout"
	"github.com/scoutkit/scout/tool"
)

// New returns an MCP server exposing the toolset's tools with cfg. When
// cfg.Reader.URLCache is nil the server gets its own cache (at most 100
// pages, least recently used dropped first), shared by its calls, so that
// paging a web page ("url:301") does not fetch it again.
func New(cfg tool.Config, toolset, version string) (*mcp.Server, error) {
	tools, err := tool.Tools(toolset)
	if err != nil {
		return nil, err
	}
	if cfg.Reader.URLCache == nil {
		cfg.Reader.URLCache = &scout.URLCache{}
	}
	s := mcp.NewServer(&mcp.Implementation{Name: "scout", Title: "Scout file tools", Version: version}, nil)
	notDestructive, closedWorld := false, false
	for _, t := range tools {
		open := t.Name == "read" && !cfg.Reader.NoWeb // read fetches web URLs unless the host refused them
		ann := &mcp.ToolAnnotations{ReadOnlyHint: true, IdempotentHint: true, DestructiveHint: &notDestructive, OpenWorldHint: &closedWorld}
		if open {
			ann.OpenWorldHint = &open
		}
		name, ts := t.Name, t.Toolset
		s.AddTool(&mcp.Tool{Name: t.Name, Description: t.Description, InputSchema: t.Schema, Annotations: ann},
			func(ctx context.Context, req *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
				env := tool.Call(ctx, cfg, ts, name, req.Params.Arguments)
				return result(env), nil
			})
	}
	return s, nil
}

// result turns an Envelope into an MCP tool result.
func result(env *scout.Envelope) *mcp.CallToolResult {
	res := &mcp.CallToolResult{
		Content:           []mcp.Content{&mcp.TextContent{Text: env.Text}},
		StructuredContent: env,
		IsError:           env.Status == scout.StatusError,
	}
	for _, img := range env.Images {
		res.Content = append(res.Content, &mcp.ImageContent{Data: img.Data, MIMEType: img.MIME})
	}
	return res
}

// Serve runs the server on the given streams until the client disconnects
// or ctx is canceled.
func Serve(ctx context.Context, cfg tool.Config, toolset, version string, in io.ReadCloser, out io.WriteCloser) error {
	s, err := New(cfg, toolset, version)
	if err != nil {
		return err
	}
	return s.Run(ctx, &mcp.IOTransport{Reader: in, Writer: out})
}
