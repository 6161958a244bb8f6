package mcpserver

import (
	"strconv"
	"strings"
	"unicode/utf16"
)

// idKey is the key of a request ID (a valid JSON string or number, in
// UTF-8) in the running calls: IDs that are the same value have the same
// key, whatever their spelling. A number's is its value, exactly (1, 1.0,
// 10e-1 and 1E0 are one; 12345678901234567890 and 12345678901234567891 two),
// a string's its text once its escapes are decoded ("a" and "\u0061" are
// one). Answers still echo an ID as it was sent.
func idKey(id []byte) string {
	if id[0] == '"' {
		return "s" + idText(id[1:len(id)-1])
	}
	return "n" + numberKey(string(id))
}

// idText is the text of s, the inside of a valid JSON string, its escapes
// decoded. A surrogate escape without its pair, which UTF-8 cannot hold
// and a decoder would make U+FFFD, is kept apart from U+FFFD and from
// other lone surrogates: it is encoded as UTF-8 would encode its value,
// bytes that no text in UTF-8 has.
func idText(s []byte) string {
	var b strings.Builder
	for i := 0; i < len(s); {
		c := s[i]
		if c != '\\' {
			b.WriteByte(c)
			i++
			continue
		}
		switch s[i+1] {
		case 'b':
			b.WriteByte('\b')
		case 'f':
			b.WriteByte('\f')
		case 'n':
			b.WriteByte('\n')
		case 'r':
			b.WriteByte('\r')
		case 't':
			b.WriteByte('\t')
		case 'u':
			r := hex4(s[i+2 : i+6])
			if utf16.IsSurrogate(r) && r < 0xDC00 && i+12 <= len(s) && s[i+6] == '\\' && s[i+7] == 'u' {
				if r2 := hex4(s[i+8 : i+12]); 0xDC00 <= r2 && r2 < 0xE000 {
					b.WriteRune(utf16.DecodeRune(r, r2))
					i += 12
					continue
				}
			}
			if utf16.IsSurrogate(r) {
				b.Write([]byte{0xE0 | byte(r>>12), 0x80 | byte(r>>6)&0x3F, 0x80 | byte(r)&0x3F})
			} else {
				b.WriteRune(r)
			}
			i += 6
			continue
		default: // '"', '\\', '/'
			b.WriteByte(s[i+1])
		}
		i += 2
	}
	return b.String()
}

// hex4 is the value of four hexadecimal digits.
func hex4(h []byte) rune {
	n, _ := strconv.ParseUint(string(h), 16, 32)
	return rune(n)
}

// numberKey is the value of n, a valid JSON number, as its sign, its
// significant digits and the power of ten they are multiplied by: "0"
// for zero (and -0), else for instance "-15e-1" for -1.50.
func numberKey(n string) string {
	neg := strings.HasPrefix(n, "-")
	n = strings.TrimPrefix(n, "-")
	mant, exp, _ := strings.Cut(strings.ToLower(n), "e")
	whole, frac, _ := strings.Cut(mant, ".")
	digits := strings.TrimLeft(whole+frac, "0")
	trimmed := strings.TrimRight(digits, "0")
	if trimmed == "" {
		return "0"
	}
	// The value is digits × 10^(exp − len(frac)), and trimmed has
	// len(digits) − len(trimmed) zeros fewer.
	shift := int64(len(digits) - len(trimmed) - len(frac))
	e := addExponent(exp, shift)
	sign := ""
	if neg {
		sign = "-"
	}
	return sign + trimmed + "e" + e
}

// addExponent is exp, a JSON number's exponent (digits after an optional
// sign; "" is 0), plus shift, in decimal and in time linear in exp's
// length: an exponent of millions of digits, which math/big converts in
// quadratic time (minutes), is added to digit by digit.
func addExponent(exp string, shift int64) string {
	neg := strings.HasPrefix(exp, "-")
	digits := strings.TrimLeft(strings.TrimLeft(exp, "+-"), "0")
	if len(digits) <= 18 { // below 10^18: no int64 sum overflows
		x, _ := strconv.ParseInt(digits, 10, 64) // "" is 0
		if neg {
			x = -x
		}
		return strconv.FormatInt(x+shift, 10)
	}
	// |exp| is 10^18 or more, past |shift| (a count of digits): the sum
	// has exp's sign, and |exp| grows by |shift| when shift has that sign
	// too, else shrinks by it.
	grow := (shift < 0) == neg
	m := shift
	if m < 0 {
		m = -m
	}
	d := []byte(digits)
	carry := int64(0)
	for i := len(d) - 1; i >= 0 && (m > 0 || carry != 0); i-- {
		v := int64(d[i] - '0')
		if grow {
			v += m%10 + carry
		} else {
			v -= m%10 + carry
		}
		m /= 10
		carry = 0
		switch {
		case v >= 10:
			v, carry = v-10, 1
		case v < 0:
			v, carry = v+10, 1
		}
		d[i] = byte('0' + v)
	}
	sum := strings.TrimLeft(string(d), "0") // a borrow leaves zeros
	if carry != 0 {                         // a carry out of 99...9
		sum = "1" + string(d)
	}
	if neg {
		sum = "-" + sum
	}
	return sum
}
