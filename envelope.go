package scout

import "encoding/json"

// Status is the outcome of a tool call in the Standard Envelope.
type Status string

// The three statuses.
const (
	StatusSuccess Status = "success" // complete result
	StatusPartial Status = "partial" // a limit, a breaker or a timeout cut the result
	StatusError   Status = "error"   // no result; Error says why
)

// Envelope is the one wire shape of every agent-facing call (the Standard
// Envelope): the JSON that `scout call`, the MCP server and the cgo shim
// return. Go callers of Finder, Searcher and Reader never need it.
type Envelope struct {
	Status  Status          `json:"status"`          // success, partial or error; never ""
	Data    any             `json:"data"`            // the toolset's typed result; null on error but a standardized Glob breaker's (its aborted_reason)
	Text    string          `json:"text"`            // the model-facing text
	Stats   Stats           `json:"stats"`           // counters for the call
	Context EnvelopeContext `json:"context"`         // what was asked and how it was resolved
	Error   *Error          `json:"error,omitempty"` // the call's error when Status is "error"; nil otherwise
	// Images holds image payloads for hosts that can show them (MCP image
	// content). It is not part of the JSON wire shape: the same bytes are in
	// Data, unless the host sends Images apart (tool.Config.ImagesApart).
	Images []Image `json:"-"`
}

// Image is an image a tool returned.
type Image struct {
	MIME string `json:"mime"` // e.g. "image/png"
	Data []byte `json:"data"` // the encoded file bytes
}

// Stats are the counters of a call. Zero fields are omitted, except TimeMS,
// Matched and Visited, which the JSON always holds.
type Stats struct {
	TimeMS  int64 `json:"time_ms"`
	Matched int   `json:"matched"`           // results returned: the paths of find, glob and Glob, pi search's matching lines, grep's matches_count; 0 for read
	Visited int   `json:"visited"`           // entries the walk of find, glob or Glob saw; 0 for the other tools (always present: the standardized Glob's stats have it)
	Skipped int   `json:"skipped,omitempty"` // entries left out (ignored, hidden, binary, too large, unreadable, ...)
	Files   int   `json:"files,omitempty"`   // files searched or read
	Bytes   int64 `json:"bytes,omitempty"`   // bytes read
}

// EnvelopeContext records the call's input and its resolution.
type EnvelopeContext struct {
	Cwd               string          `json:"cwd"`                          // working directory, relative to the project root ("." for the root)
	ParamsInput       json.RawMessage `json:"params_input"`                 // the arguments as given; {} when none were given, null when they are not JSON (or not UTF-8)
	PathResolved      string          `json:"path_resolved,omitempty"`      // the path or scope searched, relative to the root; "" when none applies
	PatternNormalized string          `json:"pattern_normalized,omitempty"` // the pattern as run (slashes, repairs); "" when none applies
	// Backend says how a content search was answered when the host gave
	// the tools an index (an Index in the tool configuration): by the
	// index, or by a scan and why. nil otherwise.
	Backend *Backend `json:"backend,omitempty"`
}
