#!/usr/bin/env bash
# containers.sh: times Scout's container reads against the classic tools, side by side in one run:
# a 10,000,000-row SQLite table against the sqlite3 shell running the equivalent queries,
# and a 100,000-entry zip (listing, then its last member) against unzip -l + unzip -p.
# Usage (from the project's root):  bench/containers.sh [WORKDIR]
# WORKDIR (default /tmp/scout-bench-containers) keeps the generated fixtures between runs.
# Prints one row per case: the median wall time of each side, their ratio scout/anchor (target <= 1.5),
# Scout's peak resident memory and, for the SQLite cases, the median of the same read in process
# (BenchmarkReadSQLite: the public Reader plus the CLI's text rendering, without the process start-up
# the CLI pays) with its ratio to the anchor.
set -euo pipefail
work=${1:-/tmp/scout-bench-containers}
mkdir -p "$work"

. "$(dirname "$0")/lib.sh"
need hyperfine hyperfine
need sqlite3 sqlite3
need unzip unzip
need python3 python3

go build -o "$work/scout" ./cmd/scout
go build -o "$work/sqlitefloor" ./bench/sqlitefloor
proj=$(pwd)
# Scout's root is the work directory (paths outside the root are refused), so both sides name the files by
# their paths relative to it.
S="$work/scout"
R="--root $work"
cd "$work"

db=rows10m.db
if [ ! -f "$db" ]; then
  echo "creating $db (10,000,000 rows; about a minute)" >&2
  sqlite3 "$db.tmp" "CREATE TABLE t(id INTEGER PRIMARY KEY, name TEXT, score REAL, note TEXT);
    INSERT INTO t SELECT value, 'name' || value, value * 0.5, 'a note about row ' || value
      FROM (WITH RECURSIVE s(value) AS (SELECT 1 UNION ALL SELECT value + 1 FROM s WHERE value < 10000000) SELECT value FROM s);
    CREATE TABLE small(a, b); INSERT INTO small VALUES (1, 2);"
  mv "$db.tmp" "$db"
fi

zipf=entries100k.zip
if [ ! -f "$zipf" ]; then
  echo "creating $zipf (100,000 entries)" >&2
  python3 - "$zipf" <<'PY'
import sys, zipfile
with zipfile.ZipFile(sys.argv[1] + ".tmp", "w", zipfile.ZIP_DEFLATED) as z:
    for i in range(100_000):
        z.writestr(f"dir{i // 1000:03d}/file{i:06d}.txt", f"entry {i}\n" * 20)
import os; os.rename(sys.argv[1] + ".tmp", sys.argv[1])
PY
fi
last="dir099/file099999.txt"

# the SQLite reads in process, 10 x 100 iterations; inproc.txt holds "case median_ms" lines (none when
# the benchmark cannot run: the in-process columns then show '-')
(cd "$proj" && SCOUT_BENCH_DB="$work/$db" go test -run '^$' -bench '^BenchmarkReadSQLite$' -benchtime 100x -count 10 .) \
  >"$work/inproc.out" 2>&1 || { echo "containers.sh: BenchmarkReadSQLite failed:" >&2; tail -5 "$work/inproc.out" >&2; }
python3 -c '
import re, statistics, sys
t = {}
for m in re.finditer(r"^BenchmarkReadSQLite/(\S+?)(?:-\d+)?\s+\d+\s+([\d.]+) ns/op", sys.stdin.read(), re.M):
    t.setdefault(m[1], []).append(float(m[2]))
for k, v in t.items():
    print(k, statistics.median(v) / 1e6)
' <"$work/inproc.out" >"$work/inproc.txt"

# name | scout command | anchor command (the anchor runs the equivalent queries); start-up is each
# program doing nothing, the share of the CLI figures that an in-process caller does not pay;
# floor-page is db-page done by bench/sqlitefloor, the least Go program on the same driver (no Scout)
cases=(
  "start-up|$S version|sqlite3 :memory: 'SELECT 1'"
  "db-tables|$S read $R $db|sqlite3 $db .tables 'SELECT count(*) FROM (SELECT 1 FROM small LIMIT 10001)' 'SELECT count(*) FROM (SELECT 1 FROM t LIMIT 10001)'"
  "db-page|$S read $R '$db:t?limit=20&order=id:desc'|sqlite3 -box $db 'SELECT * FROM t ORDER BY id DESC LIMIT 20'"
  "floor-page|$work/sqlitefloor $db 'SELECT * FROM t ORDER BY id DESC LIMIT 20'|sqlite3 -box $db 'SELECT * FROM t ORDER BY id DESC LIMIT 20'"
  "zip-list-last|sh -c \"$S read $R $zipf >/dev/null && $S read $R $zipf:$last >/dev/null\"|sh -c \"unzip -l $zipf >/dev/null && unzip -p $zipf $last >/dev/null\""
)

printf '%-14s %10s %10s %8s %10s %10s %8s\n' case scout_ms anchor_ms ratio scout_rss inproc_ms ratio
for c in "${cases[@]}"; do
  IFS='|' read -r name scmd acmd <<<"$c"
  hyperfine -N --output=pipe --warmup 3 --runs 15 --export-json "$work/$name.json" "$scmd" "$acmd" >/dev/null 2>&1 \
    || hyperfine --output=pipe --warmup 3 --runs 15 --export-json "$work/$name.json" "$scmd" "$acmd" >/dev/null
  rss=$( { /usr/bin/time -f '%M' sh -c "$scmd" >/dev/null; } 2>&1 | tail -1)
  python3 - "$work/$name.json" "$name" "$rss" "$work/inproc.txt" <<'PY'
import json, statistics, sys
r = json.load(open(sys.argv[1]))["results"]
s, g = statistics.median(r[0]["times"]), statistics.median(r[1]["times"])
inproc = dict(l.split() for l in open(sys.argv[4]))
i = f"{float(inproc[sys.argv[2]]):10.2f} {float(inproc[sys.argv[2]])/(g*1000):8.2f}" if sys.argv[2] in inproc else f"{'-':>10} {'-':>8}"
print(f"{sys.argv[2]:<14} {s*1000:10.1f} {g*1000:10.1f} {s/g:8.2f} {int(sys.argv[3])/1024:8.1f}MB {i}")
PY
done
