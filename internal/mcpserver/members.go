package mcpserver

import (
	"fmt"
	"strings"

	"github.com/scoutkit/scout/internal/jsonobj"
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
	jsonobj.Each(obj, func(name, v []byte) bool {
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
	jsonobj.Each(obj, func(n, _ []byte) bool {
		found = strings.EqualFold(string(n), name)
		return !found
	})
	return found
}

// stringMember is the value v of the member name as a string: "" when v is
// absent or null.
func stringMember(name string, v []byte) (string, error) {
	switch {
	case v == nil || string(v) == "null":
		return "", nil
	case v[0] != '"':
		return "", fmt.Errorf("member %q must be a string, got %s", name, jsonobj.Kind(v))
	}
	return jsonobj.Unquote(v), nil
}
