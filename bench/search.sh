#!/usr/bin/env bash
# bench/search.sh: Search on generated data, side by side with ripgrep in one hyperfine run per case
# (cases beyond $(go env GOROOT)/src):
#   1. a generated tree of about 1 GB (4,000 files of 256 KB of source-like text in 200 directories):
#      a rare literal (files), a case-insensitive literal (count), a common word (count)
#   2. a single 2 GB file: a rare literal, with Scout's peak resident memory (the target is under 64 MB)
#   3. a single 200 MB file that is one line (minified): a literal, bounded time and memory
#   4. a single 64 MB file that is one line of words: a pattern without a literal and one with a weak literal
#      ([a-z]eta), counted (Scout counts every match of the line, FileResult.Matches, so rg runs with
#      --count-matches)
# Usage (from the project root): bench/search.sh [WORKDIR]   (WORKDIR keeps the fixtures between runs;
# default /tmp/scout-bench-search). Needs hyperfine and ripgrep; installs them when root.
# Prints one row per case: the median wall times, their ratio scout/rg (below 1.00 Scout is faster) and
# Scout's peak resident memory.
set -euo pipefail
work=${1:-/tmp/scout-bench-search}
mkdir -p "$work"
. "$(dirname "$0")/lib.sh"
need rg ripgrep
need hyperfine hyperfine
go build -o "$work/scout" ./cmd/scout
S=$work/scout

tree=$work/tree1g
if [ ! -d "$tree" ]; then
  echo "creating $tree (about 1 GB)" >&2
  python3 - "$tree.tmp" <<'PY'
import os, random, sys
root = sys.argv[1]
r = random.Random(7)
words = ["func", "return", "if", "err", "!=", "nil", "{", "}", "ctx", "context.Context", "value", "buffer",
         "for", "range", ":=", "string", "int", "Reader", "Writer", "ErrShortWrite", "payload", "index"]
for d in range(200):
    os.makedirs(os.path.join(root, f"pkg{d:03d}"), exist_ok=True)
    for f in range(20):
        lines, size = [], 0
        while size < 256 << 10:
            line = " ".join(r.choice(words) for _ in range(r.randint(3, 12)))
            lines.append(line); size += len(line) + 1
        if (d * 20 + f) % 97 == 0:
            lines.insert(r.randrange(len(lines)), "// RareNeedle: found it")
        with open(os.path.join(root, f"pkg{d:03d}", f"file{f:02d}.go"), "w") as fh:
            fh.write("\n".join(lines) + "\n")
PY
  mv "$tree.tmp" "$tree"
fi
big=$work/big2g.txt
if [ ! -f "$big" ]; then
  echo "creating $big (2 GB)" >&2
  python3 - "$big" <<'PY'
import sys
line = b"the quick brown fox jumps over the lazy dog 0123456789 lorem ipsum dolor sit amet\n"
with open(sys.argv[1] + ".tmp", "wb") as f:
    chunk, n = line * (1 << 16), 0
    while n < 2 << 30:
        f.write(chunk); n += len(chunk)
    f.write(b"here is the RareNeedle line\n")
import os; os.rename(sys.argv[1] + ".tmp", sys.argv[1])
PY
fi
mini=$work/minified.js
if [ ! -f "$mini" ]; then
  python3 -c "import sys; open(sys.argv[1], 'wb').write(b'var a=1;' * (25 << 20) + b'RareNeedle;')" "$mini"
fi

words=$work/words64.txt
if [ ! -f "$words" ]; then
  python3 - "$words" <<'PY'
import random, sys
r = random.Random(1)
words = ["alpha", "Beta", "gamma12x", "delta", "Epsilon", "zeta", "Theta99q", "iota", "kappa", "Lambda"]
out, n = [], 0
while n < 64 << 20:
    w = r.choice(words); out.append(w); n += len(w) + 1
open(sys.argv[1], "w").write(" ".join(out) + "\n")
PY
fi

amp() { printf "%s call --toolset amplifier --max-filesize none --root %q grep %q" "$S" "$1" "$2"; }
cases=(
  "tree-lit-files|$(amp "$tree" '{"pattern":"RareNeedle","output_mode":"files_with_matches","head_limit":0}')|rg -l RareNeedle $tree"
  "tree-casei-count|$(amp "$tree" '{"pattern":"rareneedle","-i":true,"output_mode":"count","head_limit":0}')|rg -c -i rareneedle $tree"
  "tree-word-count|$(amp "$tree" '{"pattern":"payload","output_mode":"count","head_limit":0}')|rg -c payload $tree"
  "big2g-lit|$(amp "$work" '{"pattern":"RareNeedle","path":"big2g.txt","output_mode":"count","head_limit":0}')|rg -c RareNeedle $big"
  "minified-lit|$(amp "$work" '{"pattern":"RareNeedle","path":"minified.js","output_mode":"count","head_limit":0}')|rg -c RareNeedle $mini"
  "longline-nolit|$(amp "$work" '{"pattern":"[A-Z][a-z]+[0-9]{2,}[a-z]","path":"words64.txt","output_mode":"count","head_limit":0}')|rg --count-matches [A-Z][a-z]+[0-9]{2,}[a-z] $words"
  "longline-weaklit|$(amp "$work" '{"pattern":"[a-z]eta","path":"words64.txt","output_mode":"count","head_limit":0}')|rg --count-matches [a-z]eta $words"
)
printf '%-18s %10s %10s %8s %10s\n' case scout_ms rg_ms ratio scout_rss
for c in "${cases[@]}"; do
  IFS='|' read -r name scmd rcmd <<<"$c"
  hyperfine -N --output=pipe --warmup 2 --runs 10 -i --export-json "$work/$name.json" "$scmd" "$rcmd" >/dev/null 2>&1 \
    || hyperfine --output=pipe --warmup 2 --runs 10 -i --export-json "$work/$name.json" "$scmd" "$rcmd" >/dev/null
  rss=$( { /usr/bin/time -f '%M' sh -c "$scmd" >/dev/null; } 2>&1 | tail -1)
  python3 - "$work/$name.json" "$name" "$rss" <<'PY'
import json, statistics, sys
r = json.load(open(sys.argv[1]))["results"]
s, g = statistics.median(r[0]["times"]), statistics.median(r[1]["times"])
print(f"{sys.argv[2]:<18} {s*1000:10.1f} {g*1000:10.1f} {s/g:8.2f} {int(sys.argv[3])/1024:8.1f}MB")
PY
done
