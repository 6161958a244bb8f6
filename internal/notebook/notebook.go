// Package notebook renders a Jupyter notebook (.ipynb) as editable text:
// one `# %% [code|markdown|raw] cell:N` header per cell, followed by the
// cell's source. Outputs, execution counts and metadata are hidden.
//
// nbformat 4 (cells at the top level) and nbformat 3 (cells inside
// worksheets, code in "input", heading cells) are read. A source may be a
// string or an array of strings, which are concatenated as they are.
package notebook

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"strings"

	"github.com/scoutkit/scout/internal/errs"
)

// MaxBytes is the largest notebook file Render accepts. Outputs such as
// embedded images make notebooks large, so the cap is well above the text
// a model can use; the caller should check the size before reading.
const MaxBytes = 64 << 20

// MaxCellBytes is the largest source of a single cell.
const MaxCellBytes = 1 << 20

// rawHint ends every error: :raw reads the file as plain text.
const rawHint = "read the file with the :raw selector to see it as plain text"

type file struct {
	Cells      *[]cell `json:"cells"`
	Worksheets *[]struct {
		Cells []cell `json:"cells"`
	} `json:"worksheets"`
}

type cell struct {
	Type   string          `json:"cell_type"`
	Source json.RawMessage `json:"source"`
	Input  json.RawMessage `json:"input"` // nbformat 3 code cells
}

// Render returns the text of the notebook in data: each cell as
// `# %% [type] cell:i` (i counts from 0), a newline and its source; an
// empty cell is its header alone; cells are joined with "\n". A notebook
// without cells renders as "". The error, an *errs.Error, says what is
// wrong: TooLarge for a file or cell over the caps, Unsupported for text
// that is not a notebook.
func Render(data []byte) (string, error) {
	if len(data) > MaxBytes {
		return "", errs.New(errs.TooLarge, "notebook is %s, over the %s limit; %s", size(len(data)), size(MaxBytes), rawHint)
	}
	var f file
	if err := json.Unmarshal(data, &f); err != nil {
		return "", errs.Wrap(errs.Unsupported, err, "notebook is not valid JSON (%s); %s", jsonProblem(data, err), rawHint)
	}
	var cells []cell
	switch {
	case f.Cells != nil:
		cells = *f.Cells
	case f.Worksheets != nil:
		for _, ws := range *f.Worksheets {
			cells = append(cells, ws.Cells...)
		}
	default:
		return "", errs.New(errs.Unsupported, `notebook has no "cells" array (nbformat 4) or "worksheets" (nbformat 3); %s`, rawHint)
	}
	var b strings.Builder
	for i, c := range cells {
		src := c.Source
		if c.Type == "code" && len(c.Input) > 0 {
			src = c.Input
		}
		text, err := source(src)
		if err != nil {
			return "", errs.Wrap(errs.Unsupported, err, "notebook cell %d: %v; %s", i, err, rawHint)
		}
		if len(text) > MaxCellBytes {
			return "", errs.New(errs.TooLarge, "notebook cell %d is %s, over the %s per-cell limit; %s",
				i, size(len(text)), size(MaxCellBytes), rawHint)
		}
		if i > 0 {
			b.WriteByte('\n')
		}
		fmt.Fprintf(&b, "# %%%% [%s] cell:%d", cellType(c.Type), i)
		if text != "" {
			b.WriteByte('\n')
			b.WriteString(text)
		}
	}
	return b.String(), nil
}

// cellType maps nbformat 3's heading cells to markdown and keeps the rest;
// a missing type shows as "code", the only kind without a type in the wild.
func cellType(t string) string {
	switch t {
	case "heading":
		return "markdown"
	case "":
		return "code"
	}
	return t
}

// source decodes a cell source: absent or null is "", a string is itself,
// an array of strings is their concatenation.
func source(raw json.RawMessage) (string, error) {
	raw = bytes.TrimSpace(raw)
	if len(raw) == 0 || string(raw) == "null" {
		return "", nil
	}
	if raw[0] == '"' {
		var s string
		err := json.Unmarshal(raw, &s)
		return s, err
	}
	var parts []string
	if err := json.Unmarshal(raw, &parts); err != nil {
		return "", errors.New("source must be a string or an array of strings")
	}
	return strings.Join(parts, ""), nil
}

// jsonProblem describes a decoding error with its byte offset when known.
func jsonProblem(data []byte, err error) string {
	if len(bytes.TrimSpace(data)) == 0 {
		return "the file is empty"
	}
	var syn *json.SyntaxError
	if errors.As(err, &syn) {
		return fmt.Sprintf("%s at byte %d", syn.Error(), syn.Offset)
	}
	var typ *json.UnmarshalTypeError
	if errors.As(err, &typ) {
		if typ.Field == "" {
			return fmt.Sprintf("the top level is a JSON %s, not an object", typ.Value)
		}
		return fmt.Sprintf("field %q holds a JSON %s at byte %d", typ.Field, typ.Value, typ.Offset)
	}
	return err.Error()
}

// size formats n bytes in the unit that reads best.
func size(n int) string {
	switch {
	case n >= 1<<20:
		return fmt.Sprintf("%.1f MiB", float64(n)/(1<<20))
	case n >= 1<<10:
		return fmt.Sprintf("%.1f KiB", float64(n)/(1<<10))
	}
	return fmt.Sprintf("%d B", n)
}
