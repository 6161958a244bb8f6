package mcpserver

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strings"
)

// The server reads JSON-RPC objects (a message, the params of a method)
// member by member rather than with encoding/json's struct decoding, which
// matches member names in any case (and folds U+017F 'ſ' to 's', U+212A
// the Kelvin sign to 'k') and keeps the last of a repeated member:
// JSON-RPC's and MCP's names are case-sensitive, and a peer that reads
// such a message otherwise could be made to see another method or tool
// than the server runs.

// readMembers returns the values of the members of obj, a valid JSON
// object in UTF-8, named as names, in that order: nil for one that is
// absent, null for one that is repeated (which value counts would be a
// guess). Its error, the first, says how to fix a member named as one of
// names in another case or a repeated one. Other members are ignored:
// JSON-RPC allows them.
func readMembers(obj []byte, names ...string) ([][]byte, error) {
	vals := make([][]byte, len(names))
	var err error
	eachMember(obj, func(name, v []byte) bool {
		for i, n := range names {
			var bad error
			switch {
			case string(name) == n && vals[i] != nil:
				vals[i] = nullID
				bad = fmt.Errorf("member %q is repeated: send it once", n)
			case string(name) == n:
				vals[i] = v
			case strings.EqualFold(string(name), n):
				bad = fmt.Errorf("member %q has the wrong case: names are case-sensitive (%q)", name, n)
			default:
				continue
			}
			if err == nil {
				err = bad
			}
			break
		}
		return true
	})
	return vals, err
}

// hasMember reports whether obj, a valid JSON object in UTF-8, has a
// member named as name in any case.
func hasMember(obj []byte, name string) bool {
	found := false
	eachMember(obj, func(n, _ []byte) bool {
		found = strings.EqualFold(string(n), name)
		return !found
	})
	return found
}

// eachMember calls f with the name (unescaped) and the value of each
// member of obj, a valid JSON object in UTF-8, in order, until f returns
// false.
func eachMember(obj []byte, f func(name, value []byte) bool) {
	i := skipSpace(obj, 1) // past '{'
	for obj[i] == '"' {
		end := stringEnd(obj, i)
		name := obj[i+1 : end-1]
		if bytes.IndexByte(name, '\\') >= 0 {
			name = []byte(unquote(obj[i:end]))
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

// unquote returns the text of a JSON string.
func unquote(s []byte) string {
	if bytes.IndexByte(s, '\\') < 0 {
		return string(s[1 : len(s)-1])
	}
	var t string
	json.Unmarshal(s, &t) // valid: cannot fail
	return t
}

// stringMember is the value v of the member name as a string: "" when v is
// absent or null.
func stringMember(name string, v []byte) (string, error) {
	switch {
	case v == nil || string(v) == "null":
		return "", nil
	case v[0] != '"':
		return "", fmt.Errorf("member %q must be a string, got %s", name, kind(v))
	}
	return unquote(v), nil
}

// kind names the type of the JSON value v.
func kind(v []byte) string {
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
