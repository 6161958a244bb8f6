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
