package tool

import (
	"strconv"
	"unicode/utf8"
)

// MarshalJSON writes the content-mode output by hand: it can hold hundreds
// of thousands of results, and reflection would cost more than the search.
// The output is what encoding/json would write for the struct tags.
func (d ampContentData) MarshalJSON() ([]byte, error) {
	// Size the buffer once: the results can take tens of megabytes.
	n := 128 + len(d.Pattern)
	for _, r := range d.Results {
		n += 48 + len(r.File) + len(r.Content)*11/10
		for _, c := range r.Context {
			n += 64 + len(c.Content)*11/10
		}
	}
	b := make([]byte, 0, n)
	b = append(b, `{"pattern":`...)
	b = appendJSONString(b, d.Pattern)
	b = append(b, `,"output_mode":`...)
	b = appendJSONString(b, d.OutputMode)
	b = append(b, `,"total_matches":`...)
	b = strconv.AppendInt(b, int64(d.TotalMatches), 10)
	b = append(b, `,"matches_count":`...)
	b = strconv.AppendInt(b, int64(d.MatchesCount), 10)
	if d.LowerBound {
		b = append(b, `,"total_is_lower_bound":true`...)
	}
	b = append(b, `,"results":[`...)
	for i, r := range d.Results {
		if i > 0 {
			b = append(b, ',')
		}
		b = append(b, `{"file":`...)
		b = appendJSONString(b, r.File)
		b = append(b, `,"line_number":`...)
		b = strconv.AppendInt(b, int64(r.LineNumber), 10)
		b = append(b, `,"content":`...)
		b = appendJSONString(b, r.Content)
		if len(r.Context) > 0 {
			b = append(b, `,"context":[`...)
			for j, c := range r.Context {
				if j > 0 {
					b = append(b, ',')
				}
				b = append(b, `{"line_number":`...)
				b = strconv.AppendInt(b, int64(c.LineNumber), 10)
				b = append(b, `,"content":`...)
				b = appendJSONString(b, c.Content)
				b = append(b, `,"is_match":`...)
				b = strconv.AppendBool(b, c.IsMatch)
				b = append(b, '}')
			}
			b = append(b, ']')
		}
		b = append(b, '}')
	}
	return append(b, "]}"...), nil
}

// appendJSONString appends s as a JSON string the way encoding/json does
// (without HTML escaping, which the encoder applies itself when asked):
// short escapes for quote, backslash, \b \f \n \r \t; \u00XX for other
// control characters; \u2028 and \u2029 escaped; invalid UTF-8 as \ufffd.
func appendJSONString(b []byte, s string) []byte {
	const hex = "0123456789abcdef"
	b = append(b, '"')
	start := 0
	for i := 0; i < len(s); {
		c := s[i]
		if c < utf8.RuneSelf {
			if c >= 0x20 && c != '"' && c != '\\' {
				i++
				continue
			}
			b = append(b, s[start:i]...)
			switch c {
			case '"', '\\':
				b = append(b, '\\', c)
			case '\b':
				b = append(b, '\\', 'b')
			case '\f':
				b = append(b, '\\', 'f')
			case '\n':
				b = append(b, '\\', 'n')
			case '\r':
				b = append(b, '\\', 'r')
			case '\t':
				b = append(b, '\\', 't')
			default:
				b = append(b, '\\', 'u', '0', '0', hex[c>>4], hex[c&0xF])
			}
			i++
			start = i
			continue
		}
		r, n := utf8.DecodeRuneInString(s[i:])
		if r == utf8.RuneError && n == 1 {
			b = append(b, s[start:i]...)
			b = append(b, `\ufffd`...)
			i += n
			start = i
			continue
		}
		if r == '\u2028' || r == '\u2029' {
			b = append(b, s[start:i]...)
			b = append(b, '\\', 'u', '2', '0', '2', hex[r&0xF])
			i += n
			start = i
			continue
		}
		i += n
	}
	b = append(b, s[start:]...)
	return append(b, '"')
}
