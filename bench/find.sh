#!/usr/bin/env bash
# bench/find.sh: Find on generated trees, side by side with the anchors in one hyperfine run each.
#   1. a gitignore-heavy git work tree of 100,000 files: pi find '**/*.go' (200 newest) vs `rg --files -g '*.go'`
#      and vs GNU find | sort (the newest 200)
#   2. one directory of 100,000 entries: pi find '*' vs `ls -t | head -200` and `rg --files`
# Usage (from the project root): bench/find.sh [WORKDIR]   (needs hyperfine and ripgrep; installs them when root)
set -euo pipefail
work=${1:-$(mktemp -d)}
. "$(dirname "$0")/lib.sh"
need rg ripgrep && need hyperfine hyperfine
go build -o "$work/scout" ./cmd/scout
S=$work/scout

tree=$work/gitree
if [ ! -d "$tree" ]; then
  mkdir -p "$tree" && git -C "$tree" init -q
  printf '%s\n' 'node_modules/' '/build/' '*.log' '*.tmp' '*.o' 'dist/' '!keep.log' > "$tree/.gitignore"
  python3 - "$tree" <<'PY'
import os, sys
root = sys.argv[1]
n = 0
for a in range(50):
    for b in range(20):
        d = os.path.join(root, "src" if a % 5 else "node_modules", f"p{a}", f"m{b}")
        os.makedirs(d, exist_ok=True)
        with open(os.path.join(d, ".gitignore"), "w") as f:
            f.write("*.bak\n/generated_*.go\n!important.bak\n")
        for c in range(100):
            ext = (".go", ".log", ".txt", ".bak", ".tmp")[c % 5]
            with open(os.path.join(d, f"f{c}{ext}"), "w") as f:
                f.write("package x\n")
            n += 1
print(n, "files", file=sys.stderr)
PY
fi
big=$work/bigdir
if [ ! -d "$big" ]; then
  mkdir -p "$big" && (cd "$big" && seq -w 1 100000 | sed 's/^/f/;s/$/.txt/' | xargs touch)
fi

H='hyperfine -N --output=pipe --warmup 3 --runs 10'
$H -n scout-find "$S call --root $tree find '{\"paths\":[\"**/*.go\"],\"limit\":200}'" \
   -n rg-files "rg --files -g '*.go' $tree" \
   -n find-sort "sh -c \"find $tree -name '*.go' -printf '%T@ %p\\\\n' | sort -rn | head -200\""
$H -n scout-find-bigdir "$S call --root $big find '{\"paths\":[\"*\"],\"limit\":200}'" \
   -n ls-t "sh -c 'ls -t $big | head -200'" \
   -n rg-files-bigdir "rg --files $big"
