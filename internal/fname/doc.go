// Package fname shows file, directory and archive member names in text so
// that no name can forge a line or hide its bytes (Quote), gives the form
// JSON carries (WireName), and reads the quoted form back (Unquote).
package fname
