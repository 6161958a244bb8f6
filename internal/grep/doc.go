// Package grep is Scout's search engine: it finds the lines of one file
// (or buffer) that match a regular expression, with context lines, fast.
// It does not walk directories; the caller feeds it files, one Scanner per
// goroutine (Compile once, then Matcher.NewScanner for each worker).
//
// # How it is fast
//
// The methods are ripgrep's:
//
//   - Small files are read whole with one read into a buffer the Scanner
//     reuses; larger ones are streamed in 128 KiB chunks with the unfinished
//     last line (and the lines needed as context) carried over.
//   - The pattern's required literals are extracted with regexp/syntax
//     (prefix, inner, alternations, case-insensitive) and searched for in
//     the whole buffer; only the line around a candidate is checked by
//     the automaton. On amd64 with AVX2 a set of up to 8 literals, folded
//     or not, is searched by two rare bytes of each, 32 start positions
//     at a time (simd_amd64.s, as ripgrep's memchr and Teddy do);
//     elsewhere by vectorised bytes.IndexByte on each literal's rarest
//     byte (a case-insensitive literal whose rarest byte proves common in
//     the text is looked for by two of its bytes, eight positions at a
//     time in 64-bit words). Build with -tags purego to leave the assembly
//     out.
//     A pattern that is a plain literal or alternation of literals needs
//     no check at all.
//   - Without a usable literal, a lazy DFA (dfa.go) runs over the whole
//     buffer with one table lookup per byte and finds the next matching
//     line.
//   - The matches of a matching line (their spans, their count) are found
//     by two more lazy DFAs (matchdfa.go), exactly where Go's regexp finds
//     them: one forward over the pattern to where the leftmost-first match
//     ends, one backward over the reversed pattern to where it starts, one
//     match at a time, so a line of millions of matches needs no memory
//     for them. Go's regexp (a backtracker or a Pike VM, 25-50 MB/s) is not
//     used to search.
//   - If an automaton's cache thrashes (patterns such as (a|b)*a(a|b){12}
//     need exponentially many states), the line DFA gives up and the match
//     DFAs find the matching lines; these step uncached thread lists when
//     they thrash in turn (a Pike VM without captures), as RE2's DFA falls
//     back to its NFA.
//   - Line numbers are counted lazily with bytes.Count, only up to each
//     matching line; CountOnly builds no Line values, and in line mode
//     without line ranges it counts no newlines at all (lines are told
//     apart by their offset).
//
// # Limits
//
// A pattern is at most MaxPatternBytes (64 KiB) long; a longer one is an
// INVALID_PARAM error that states the cap (compiling costs memory in
// proportion to the pattern).
//
// Memory is bounded by the buffers, not by the file: a line longer than
// MaxLineBytes is searched in windows of that size that overlap by Margin
// (64 KiB), and a whole-file search reads at most MaxWholeBytes (StopSize).
// A window owns the matches that start before Margin (and a character)
// from its end; the next one takes up the walk over the line's matches
// where it stopped, so a match of at most Margin bytes is found and
// counted once, wherever it lies, as in the whole line. Only a pattern
// that can match more (an unbounded repetition, by regexp/syntax) may miss
// a match across a window edge: such lines are counted in
// FileResult.LongLines. Time is linear in the text (except
// for patterns whose leftmost-first matches must look far ahead, such as
// a.*z|a, as with Go's regexp). The context is checked between buffers,
// every 64 matching lines and every 64 KiB that an automaton scans or
// 64 Ki threads that it steps, inside a long line or a whole-file search
// too.
//
// The automata's caches are bounded by the bytes they hold (their states'
// keys, about one byte per thread, and their tables): the line DFA at 1024
// states and 2 MiB, each match automaton at 1 MiB, which a cache of large
// states (a chain of 3000 character classes needs 4.5 MB) doubles while
// the match automata of all the scanners of a Matcher have grown theirs by
// 64 MiB at most in all. A pattern whose states need more is stepped with
// flushes or uncached, at the cost of a Pike VM (time in proportion to the
// text times the threads).
//
// # Parts
//
// Options.PartLines bounds the memory of a file with millions of matching
// lines: SearchOpened stops once a part holds that many, where the next
// matching line is found (after the after-context before it, as
// MaxMatchesPerFile stops), and FileResult.Resume says where: the start of
// the line after the part's last reported one. SearchFrom goes on from
// there (a mapped file by slicing its mapping again, a read one by a seek),
// line numbers and the MaxMatchesPerFile limit going on, and hands each
// next part to a callback. Joined, the parts are exactly the whole
// search's result: SearchFrom searches the file as far as it reached at
// the first part (Resume.Size), and fails on a file that shrank or that
// another took the place of since (Resume.File). Where a resume point could not be exact, the file is
// not split: in-memory texts and streams, CountOnly, FirstOnly and
// whole-file searches, texts decoded from UTF-16 or UTF-32, and, from its
// first line longer than MaxLineBytes on, the rest of a file (one part).
//
// # Lines, binary files and encodings
//
// Lines end with "\n" or "\r\n"; neither is part of Line.Text, and in line
// mode the pattern sees the line without them (so $ matches before a
// "\r\n"). Text is valid UTF-8: invalid bytes are decoded lossily as
// U+FFFD. A NUL byte in the first Options.BinaryScan bytes (64 KiB) marks
// the file binary and skips it (FileResult.Binary); a NUL later ends the
// search at the start of its line (StopNUL). A file that starts with a
// UTF-16 or UTF-32 byte-order mark is decoded to UTF-8 before searching;
// a UTF-8 byte-order mark is skipped.
//
// In line mode a match never spans lines: classes such as \s or [^a] do
// not match the newline, and a pattern that spells one out (a literal
// "\n") is an error that says to turn multiline on (as in ripgrep without
// -U). With Options.Multiline or Options.DotAll, a pattern that can match
// a newline, or (Multiline) that anchors at the text's start or end (\A,
// \z, (?-m)^ and $), is searched over the whole file instead (up to
// MaxWholeBytes), as ripgrep's -U does: \A and \z hold at the file's
// start and end only, and each line a match touches is reported as
// matching.
//
// # Regular expression syntax
//
// Patterns use Go's RE2 syntax (package regexp/syntax), matched with
// leftmost-first semantics over UTF-8 text. pi and Amplifier document
// Rust's regex crate (ripgrep's engine); the two are close, and both
// refuse look-around and backreferences.
//
// \w, \d, \s, their negations \W, \D, \S (alone or in a bracket class
// such as [\w-] or [^\s]) and the word boundaries \b and \B are
// Unicode-aware, as in Rust and ripgrep (Go's own are ASCII-only): \w is
// a letter or other alphabetic character, a mark, a decimal digit, a
// connector punctuation or a join control (it matches "é", "中", "٣", a
// combining accent); \d is a decimal digit of any script (Nd); \s is a
// White_Space character (NBSP, U+3000, U+0085 and \v too); \b holds
// between a character of \w and one outside it, so \bcaf\b does not
// match in "café". The pattern is rewritten before Go parses it
// (UnicodeClasses). Rust's u flag is understood: under (?-u), as in
// (?-u:\w+) or (?-u)...(?u), \w, \d and \s are ASCII, Rust's
// [0-9A-Za-z_], [0-9] and [\t\n\v\f\r ]; an ASCII word boundary
// ((?-u:\b)) is an error. Otherwise (?-u) changes nothing: '.' and
// negated classes still match characters, not bytes, and (?i) folds by
// Unicode (Rust's (?i-u) folds ASCII letters only).
//
// The two differ here:
//
//   - Go's Unicode tables (\w, \pL, ...) are those of its release, which
//     may be of another version of Unicode than ripgrep's: a character
//     assigned in between may be classed apart.
//   - A '{' that does not start a valid repetition is a literal in Go
//     ("a{", "x{y}"); Rust rejects it (pi escapes such braces first, see
//     SanitizeBraces). Go caps a repetition count at 1000.
//   - Go has no class set operations ([a-z&&[^aeiou]], --, ~~): "&&" is
//     two literal '&' inside a class. Rust has them.
//   - Go has no verbose flag (?x) and no CRLF flag (?R); it has \Q...\E
//     quoting, which Rust lacks. Both have (?i), (?m), (?s), (?U).
//   - Unicode classes: Go knows general categories (\pL, \p{Lu}) and
//     scripts (\p{Greek}); Rust also knows binary properties
//     (\p{Alphabetic}, \p{Emoji}) and the Script=/gc= forms.
//   - Rust has \< \> and \b{start}-style word boundaries; Go does not.
//   - Octal escapes (\123) are allowed in Go, off by default in Rust.
//   - Invalid UTF-8: Go reads each invalid byte as U+FFFD, so '.' matches
//     it; ripgrep's '.' does not match invalid bytes.
//   - Error messages differ: an invalid pattern gives "Invalid regex:
//     <reason>: `<part>` at position N" (N a 0-based character offset).
package grep
