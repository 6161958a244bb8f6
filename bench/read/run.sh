#!/bin/sh
# Benchmarks of `scout read` (not run in CI). Usage: bench/read/run.sh [SCRATCH_DIR]
#
#  1. big-range: `scout read big.txt:N+20` deep into a generated 1 GB file,
#     beside `sed -n 'N,+20p;Mq'` (M = N+20). Goal: ratio <= 1.0 and a
#     resident set under 32 MB (reported by /usr/bin/time).
#  2. big-dir: `scout read dir` on a directory of 100,000 files beside
#     `ls -lt dir | head`. Goal: ratio <= 1.0.
#
# Needs hyperfine. The page cache of this VM is evicted after ~30 s idle, so
# each hyperfine run warms up first and nothing pauses between runs.
set -eu
here=$(cd "$(dirname "$0")/../.." && pwd)
scratch=${1:-$(mktemp -d)}
mkdir -p "$scratch"
bin="$scratch/scout"
(cd "$here" && go build -o "$bin" ./cmd/scout)

big="$scratch/big.txt"
if [ ! -s "$big" ]; then
	# 10,000,000 lines of 107 bytes: 1.07 GB.
	awk 'BEGIN { for (i = 1; i <= 10000000; i++) printf "%09d the quick brown fox jumps over the lazy dog, line after line after line, to fill it up\n", i }' > "$big"
fi
n=9000000
m=$((n + 20))
echo "== big-range: line $n of $(wc -l < "$big") in $(du -h "$big" | cut -f1)"
hyperfine -N --warmup 2 --runs 7 --output=pipe \
	"$bin read --root $scratch --style plain big.txt:$n+20:raw" \
	"sed -n $n,+20p;${m}q $big"
/usr/bin/time -f "scout read max RSS: %M KB" "$bin" read --root "$scratch" "big.txt:$n+20" > /dev/null

dir="$scratch/dir100k"
if [ ! -d "$dir" ]; then
	mkdir -p "$dir"
	(cd "$dir" && seq 1 100000 | xargs touch)
fi
echo "== big-dir: $(ls "$dir" | wc -l) entries"
hyperfine --warmup 2 --runs 7 --output=pipe \
	"$bin read --root $scratch dir100k" \
	"ls -lt $dir | head"
