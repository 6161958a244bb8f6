package tool

import (
	"slices"
	"strconv"

	"github.com/scoutkit/scout"
	"github.com/scoutkit/scout/internal/jsonobj"
)

// MarshalJSON writes pi find's details by hand, as encoding/json writes
// the struct (its tags' names and omitempty, without HTML escaping, which
// an encoder applies to the result itself when asked): the first use of
// encoding/json on a type reflects on it and on every type it holds, most
// of a millisecond of each scout call.
func (d *piFindData) MarshalJSON() ([]byte, error) {
	b := make([]byte, 0, 256+32*len(d.Files))
	b = append(b, `{"fileCount":`...)
	b = strconv.AppendInt(b, int64(d.FileCount), 10)
	b = append(b, `,"files":`...)
	b = appendJSONStrings(b, d.Files)
	if d.Meta != nil {
		b = append(b, `,"meta":`...)
		b = d.Meta.appendJSON(b)
	}
	if len(d.MissingPaths) > 0 {
		b = append(b, `,"missingPaths":`...)
		b = appendJSONStrings(b, d.MissingPaths)
	}
	b = append(b, `,"resultLimitReached":`...)
	b = strconv.AppendBool(b, d.ResultLimitReached)
	b = append(b, `,"scopePath":`...)
	b = jsonobj.AppendString(b, d.ScopePath)
	if len(d.Skipped) > 0 {
		b = append(b, `,"skipped":`...)
		b = appendJSONCounts(b, d.Skipped)
	}
	if len(d.SplitEntries) > 0 {
		b = append(b, `,"splitEntries":[`...)
		for i, s := range d.SplitEntries {
			if i > 0 {
				b = append(b, ',')
			}
			b = append(b, `{"entry":`...)
			b = jsonobj.AppendString(b, s.Entry)
			b = append(b, `,"paths":`...)
			b = appendJSONStrings(b, s.Paths)
			b = append(b, '}')
		}
		b = append(b, ']')
	}
	b = append(b, `,"truncated":`...)
	b = strconv.AppendBool(b, d.Truncated)
	if d.Truncation != nil {
		b = append(b, `,"truncation":`...)
		b = d.Truncation.appendJSON(b)
	}
	return append(b, '}'), nil
}

// appendJSON appends m as encoding/json writes it.
func (m *piMeta) appendJSON(b []byte) []byte {
	b = append(b, '{')
	if s := m.Source; s != nil {
		b = appendJSONField(b, "source")
		b = append(b, `{"type":`...)
		b = jsonobj.AppendString(b, s.Type)
		b = append(b, `,"value":`...)
		b = jsonobj.AppendString(b, s.Value)
		b = append(b, '}')
	}
	if m.Truncation != nil {
		b = appendJSONField(b, "truncation")
		b = m.Truncation.appendJSON(b)
	}
	if l := m.Limits; l != nil {
		b = appendJSONField(b, "limits")
		b = append(b, '{')
		if l.ResultLimit != nil {
			b = appendJSONField(b, "resultLimit")
			b = append(b, `{"reached":`...)
			b = strconv.AppendInt(b, int64(l.ResultLimit.Reached), 10)
			b = append(b, '}')
		}
		if l.ColumnTruncated != nil {
			b = appendJSONField(b, "columnTruncated")
			b = append(b, `{"maxColumn":`...)
			b = strconv.AppendInt(b, int64(l.ColumnTruncated.MaxColumn), 10)
			b = append(b, '}')
		}
		b = append(b, '}')
	}
	return append(b, '}')
}

// appendJSONField appends the name of a member of the object that b
// writes, after a comma unless it is the first.
func appendJSONField(b []byte, name string) []byte {
	if b[len(b)-1] != '{' {
		b = append(b, ',')
	}
	b = append(b, '"')
	b = append(b, name...)
	return append(b, '"', ':')
}

// appendJSON appends t as encoding/json writes it.
func (t *piMetaTrunc) appendJSON(b []byte) []byte {
	b = append(b, `{"direction":`...)
	b = jsonobj.AppendString(b, t.Direction)
	b = append(b, `,"truncatedBy":`...)
	b = jsonobj.AppendString(b, t.TruncatedBy)
	b = append(b, `,"totalLines":`...)
	b = strconv.AppendInt(b, int64(t.TotalLines), 10)
	b = append(b, `,"totalBytes":`...)
	b = strconv.AppendInt(b, t.TotalBytes, 10)
	b = append(b, `,"outputLines":`...)
	b = strconv.AppendInt(b, int64(t.OutputLines), 10)
	b = append(b, `,"shownRange":{"start":`...)
	b = strconv.AppendInt(b, int64(t.ShownRange.Start), 10)
	b = append(b, `,"end":`...)
	b = strconv.AppendInt(b, int64(t.ShownRange.End), 10)
	b = append(b, `},"nextOffset":`...)
	b = strconv.AppendInt(b, int64(t.NextOffset), 10)
	if t.MaxBytes != 0 {
		b = append(b, `,"maxBytes":`...)
		b = strconv.AppendInt(b, int64(t.MaxBytes), 10)
	}
	return append(b, '}')
}

// appendJSONStrings appends s as a JSON array; nil is null.
func appendJSONStrings(b []byte, s []string) []byte {
	if s == nil {
		return append(b, "null"...)
	}
	b = append(b, '[')
	for i, v := range s {
		if i > 0 {
			b = append(b, ',')
		}
		b = jsonobj.AppendString(b, v)
	}
	return append(b, ']')
}

// appendJSONCounts appends m as a JSON object, its keys sorted.
func appendJSONCounts(b []byte, m map[scout.SkipReason]int) []byte {
	keys := make([]scout.SkipReason, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	b = append(b, '{')
	for i, k := range keys {
		if i > 0 {
			b = append(b, ',')
		}
		b = jsonobj.AppendString(b, string(k))
		b = append(b, ':')
		b = strconv.AppendInt(b, int64(m[k]), 10)
	}
	return append(b, '}')
}
