// Package envelope builds the error Envelope that the tool adapters, the
// C shim and the MCP server return for a call that failed.
package envelope

import (
	"encoding/json"
	"unicode/utf8"

	"github.com/scoutkit/scout"
)

// Error returns the error Envelope of err: its text is the error's
// message, its error member the code (scout.CodeOf) and the message.
// params is the raw input, recorded in the context; nil, invalid JSON or
// text that is not UTF-8 is recorded as null.
func Error(err error, params json.RawMessage) *scout.Envelope {
	if len(params) == 0 || !json.Valid(params) || !utf8.Valid(params) {
		params = json.RawMessage("null")
	}
	return &scout.Envelope{
		Status:  scout.StatusError,
		Text:    err.Error(),
		Context: scout.EnvelopeContext{Cwd: ".", ParamsInput: params},
		Error:   &scout.Error{Code: scout.CodeOf(err), Message: err.Error()},
	}
}
