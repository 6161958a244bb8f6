#!/usr/bin/env bash
# bench/scale-rss.sh: Scout's peak resident memory on copies of $(go env GOROOT)/src, and on paged content
# (amplifier content with head_limit 100, pi's first page), for several core counts and corpus sizes.
# Usage (from the project root): bench/scale-rss.sh [-c "1 2"] [-n "1 16"] [-w WORKDIR]
#   -c core counts (taskset; default 1 2), -n corpus copies (default "1 16"), -w the corpora of scale.sh
#   (default /dev/shm/scout-scale; missing ones are built the same way: copies of $(go env GOROOT)/src).
# Env: SCOUT (a built binary; default: go build ./cmd/scout), GNUTIME (GNU time; default /usr/bin/time). Prints one row per case, corpus and core count.
# The target: under 64 MB + 8 MB per search goroutine in count mode and in paged content mode.
set -euo pipefail
cores="1 2" copies="1 16" work=/dev/shm/scout-scale
while getopts c:n:w: o; do case $o in c) cores=$OPTARG;; n) copies=$OPTARG;; w) work=$OPTARG;; *) exit 2;; esac; done
if [ -z "${SCOUT:-}" ]; then SCOUT=$work/scout-rss; mkdir -p "$work"; go build -o "$SCOUT" ./cmd/scout; fi
[ -d "$work/c1/src" ] || { mkdir -p "$work/c1"; cp -r "$(go env GOROOT)/src" "$work/c1/src"; }
for n in $copies; do
  [ "$n" = 1 ] && continue
  [ -d "$work/c$n" ] || { mkdir -p "$work/c$n"; for i in $(seq 1 "$n"); do cp -r "$work/c1/src" "$work/c$n/s$i"; done; }
done
cases=(
  'lit-files|grep|{"pattern":"ErrUnexpectedEOF","output_mode":"files_with_matches","head_limit":0}'
  'casei-count|grep|{"pattern":"errunexpectedeof","-i":true,"output_mode":"count","head_limit":0}'
  'common-count|grep|{"pattern":"return","output_mode":"count","head_limit":0}'
  'nolit-count|grep|{"pattern":"[A-Z][a-z]+[0-9]{2,}[a-z]","output_mode":"count","head_limit":0}'
  'many-content|grep|{"pattern":"return","output_mode":"content","head_limit":0}'
  'content-paged|grep|{"pattern":"return","output_mode":"content","head_limit":100}'
  'pi-first-page|search|{"pattern":"return","paths":["."]}'
)
printf '%-14s %6s %5s %10s\n' case corpus cores rss_mb
for n in $copies; do
  corp=$work/c$n; [ "$n" = 1 ] && corp=$work/c1/src
  for c in $cores; do
    [ "$c" -le "$(nproc)" ] || continue
    for cs in "${cases[@]}"; do
      IFS='|' read -r name tool args <<<"$cs"
      toolset=amplifier; [ "$tool" = search ] && toolset=pi
      kb=$( { taskset -c "0-$((c-1))" "${GNUTIME:-/usr/bin/time}" -f '%M' "$SCOUT" call --toolset "$toolset" --root "$corp" "$tool" "$args" >/dev/null; } 2>&1 | tail -1)
      awk -v n="$name" -v k="$kb" -v cp="c$n" -v c="$c" 'BEGIN { printf "%-14s %6s %5s %10.1f\n", n, cp, c, k/1024 }'
    done
  done
done
