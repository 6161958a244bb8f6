// Package envelope builds the error Envelope that the tool adapters, the
// C shim and the MCP server return for a call that failed, and the
// arguments every Envelope echoes.
package envelope

import (
	"bytes"
	"encoding/json"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/scoutkit/scout"
	"github.com/scoutkit/scout/internal/redact"
	"github.com/scoutkit/scout/internal/web"
)

// Error returns the error Envelope of err: its text is the error's
// message, its error member the code (scout.CodeOf) and the message.
// params is the raw input, recorded in the context as Params records it.
// The message shows every URL with its credentials redacted (redact.Text).
func Error(err error, params json.RawMessage) *scout.Envelope {
	msg := redact.Text(err.Error())
	return &scout.Envelope{
		Status:  scout.StatusError,
		Text:    msg,
		Context: scout.EnvelopeContext{Cwd: ".", ParamsInput: Params(params)},
		Error:   &scout.Error{Code: scout.CodeOf(err), Message: msg},
	}
}

// Params returns the arguments as given, as an Envelope's context echoes
// them: null when they are empty, invalid JSON or not UTF-8; else the
// bytes as given, but for each string value that holds a URL with
// credentials (a web URL, one of a delimited path list, an internal URL),
// shown with them redacted (redact.Text: "user:xxxxx@") and encoded
// again.
func Params(p json.RawMessage) json.RawMessage {
	if len(p) == 0 || !json.Valid(p) || !utf8.Valid(p) {
		return json.RawMessage("null")
	}
	var out []byte // nil until a string is redacted
	done := 0
	for i := 0; i < len(p); i++ {
		if p[i] != '"' {
			continue
		}
		start, end := i, i+1 // end: the closing quote; p is valid JSON
		for p[end] != '"' {
			if p[end] == '\\' {
				end++
			}
			end++
		}
		lit := p[start : end+1]
		next := end + 1
		for next < len(p) && strings.IndexByte(" \t\r\n", p[next]) >= 0 {
			next++
		}
		i = end
		if next < len(p) && p[next] == ':' {
			continue // a member's name
		}
		if bytes.IndexByte(lit, '@') < 0 && bytes.IndexByte(lit, '\\') < 0 {
			continue // no userinfo, not even escaped
		}
		var s string
		if json.Unmarshal(lit, &s) != nil {
			continue
		}
		shown, ok := redactURL(s)
		if !ok {
			continue
		}
		var b bytes.Buffer
		enc := json.NewEncoder(&b)
		enc.SetEscapeHTML(false)
		if enc.Encode(shown) != nil {
			continue
		}
		out = append(append(out, p[done:start]...), bytes.TrimSuffix(b.Bytes(), []byte("\n"))...)
		done = end + 1
	}
	if out == nil {
		return p
	}
	return append(out, p[done:]...)
}

// redactURL returns s with the credentials of its URLs redacted: s
// itself when it is a web URL after leading spaces (web.IsURL, a www. one
// included), and every URL in it (redact.Text); ok is false when it has
// none.
func redactURL(s string) (string, bool) {
	r := s
	if t := strings.TrimLeftFunc(s, unicode.IsSpace); web.IsURL(t) {
		r = s[:len(s)-len(t)] + redact.URL(t)
	}
	r = redact.Text(r)
	return r, r != s
}
