package glob

// Regexp returns the anchored regular expression (Go RE2 syntax, "^...$")
// that matches the same paths, relative to the pattern's base, as p does;
// "" for a nil Pattern.
func (p *Pattern) Regexp() string {
	if p == nil {
		return ""
	}
	return p.re.String()
}
