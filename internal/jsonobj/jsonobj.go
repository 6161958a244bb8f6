// Package jsonobj reads the members of a JSON object as they are written
// (and the elements of an array):
// each name as sent (case-sensitive; a repeated member seen twice) with
// its value's raw text. encoding/json, decoding into a struct or a map,
// matches names in any case (and folds U+017F 'ſ' to 's', U+212A the
// Kelvin sign to 'k') and keeps the last of a repeated member, so that two
// readers of one message may see different members.
package jsonobj

import (
	"bytes"
	"encoding/json"
	"strings"
	"unicode/utf8"
)

// Each calls f with the name (unescaped) and the value of each
// member of obj, a valid JSON object in UTF-8, in order, until f returns
// false.
func Each(obj []byte, f func(name, value []byte) bool) {
	i := skipSpace(obj, 1) // past '{'
	for obj[i] == '"' {
		end := stringEnd(obj, i)
		name := obj[i+1 : end-1]
		if bytes.IndexByte(name, '\\') >= 0 {
			name = []byte(Unquote(obj[i:end]))
		}
		i = skipSpace(obj, skipSpace(obj, end)+1) // past ':'
		vend := valueEnd(obj, i)
		if !f(name, obj[i:vend]) {
			return
		}
		if i = skipSpace(obj, vend); obj[i] == ',' {
			i = skipSpace(obj, i+1)
		}
	}
}

// Elements calls f with each element of arr, a valid JSON array, in
// order, until f returns false.
func Elements(arr []byte, f func(value []byte) bool) {
	i := skipSpace(arr, 1) // past '['
	for arr[i] != ']' {
		end := valueEnd(arr, i)
		if !f(arr[i:end]) {
			return
		}
		if i = skipSpace(arr, end); arr[i] == ',' {
			i = skipSpace(arr, i+1)
		}
	}
}

func skipSpace(b []byte, i int) int {
	for i < len(b) && (b[i] == ' ' || b[i] == '\t' || b[i] == '\n' || b[i] == '\r') {
		i++
	}
	return i
}

// stringEnd returns the end of the JSON string that starts at b[i].
func stringEnd(b []byte, i int) int {
	for i++; ; i++ {
		i += bytes.IndexByte(b[i:], '"')
		n := 0 // the backslashes before the quote; the opening quote stops them
		for b[i-1-n] == '\\' {
			n++
		}
		if n%2 == 0 {
			return i + 1
		}
	}
}

// valueEnd returns the end of the JSON value that starts at b[i].
func valueEnd(b []byte, i int) int {
	switch b[i] {
	case '"':
		return stringEnd(b, i)
	case '{', '[':
		depth := 0
		for {
			j := bytes.IndexAny(b[i:], `"{}[]`)
			i += j
			switch b[i] {
			case '"':
				i = stringEnd(b, i)
				continue
			case '{', '[':
				depth++
			default:
				if depth--; depth == 0 {
					return i + 1
				}
			}
			i++
		}
	}
	for i < len(b) && strings.IndexByte(",}] \t\r\n", b[i]) < 0 {
		i++
	}
	return i
}

// Unquote returns the text of s, a valid JSON string.
func Unquote(s []byte) string {
	if bytes.IndexByte(s, '\\') < 0 {
		return string(s[1 : len(s)-1])
	}
	var t string
	json.Unmarshal(s, &t) // valid: cannot fail
	return t
}

// Kind names the type of v, a valid JSON value: "object", "array",
// "string", "boolean", "null" or "number".
func Kind(v []byte) string {
	switch v[0] {
	case '{':
		return "object"
	case '[':
		return "array"
	case '"':
		return "string"
	case 't', 'f':
		return "boolean"
	case 'n':
		return "null"
	}
	return "number"
}

// TrimBOM returns text without the byte order mark before its JSON value
// (after white space, if any), which a JSON parser may skip; text without
// one is returned as is.
func TrimBOM(text []byte) []byte {
	if rest, ok := bytes.CutPrefix(bytes.TrimLeft(text, " \t\r\n"), []byte("\uFEFF")); ok {
		return rest
	}
	return text
}

// AppendString appends s as a JSON string the way encoding/json does
// (without HTML escaping, which the encoder applies itself when asked):
// short escapes for quote, backslash, \b \f \n \r \t; \u00XX for other
// control characters; \u2028 and \u2029 escaped; invalid UTF-8 as \ufffd.
func AppendString(b []byte, s string) []byte {
	const hex = "0123456789abcdef"
	b = append(b, '"')
	start := 0
	for i := 0; i < len(s); {
		// Skip eight plain bytes at a time.
		for i+8 <= len(s) && plain8(uint64(s[i])|uint64(s[i+1])<<8|uint64(s[i+2])<<16|uint64(s[i+3])<<24|
			uint64(s[i+4])<<32|uint64(s[i+5])<<40|uint64(s[i+6])<<48|uint64(s[i+7])<<56) {
			i += 8
		}
		if i >= len(s) {
			break
		}
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

// plain8 reports whether the eight bytes of x are printable ASCII other
// than '"' and '\\', which JSON strings hold as they are.
func plain8(x uint64) bool {
	const ones, highs = 0x0101010101010101, 0x8080808080808080
	ctl := (x - ones*0x20) &^ x // high bit set in some byte if a byte is < 0x20
	q := x ^ (ones * '"')
	bs := x ^ (ones * '\\')
	return (ctl|(q-ones)&^q|(bs-ones)&^bs|x)&highs == 0
}
