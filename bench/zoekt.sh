#!/usr/bin/env bash
# bench/zoekt.sh: ripgrep, Scout's scan and Scout on a zoekt index, side by side in one run (bench/zoekt),
# on a copy of $(go env GOROOT)/src (about 130 MB) and on 8 copies of it (about 1.07 GB, one repository):
# each query counts every matching line of every file, as a process per call and in a long-lived
# `scout mcp`; the table says which backend Scout's planner chose and checks that all find the same lines.
# Usage (from the project root): bench/zoekt.sh [gosrc|big|all] [WORKDIR]   (default: gosrc;
# WORKDIR keeps the trees and indexes between runs, default /tmp/scout-bench-zoekt). Needs git and
# ripgrep (installs ripgrep when root) and the zoekt binaries: SCOUT_ZOEKT_TARBALL, or
# ../shared/zoekt/zoekt-bin.tar.xz. The big tree takes about 2.3 GB of disk for the copies and as
# much for the index, and 5 to 10 minutes to index on 2 cores. ROUNDS sets the timed rounds (default
# 5 for gosrc, 3 for big).
set -euo pipefail
what=${1:-gosrc}
work=${2:-/tmp/scout-bench-zoekt}
mkdir -p "$work"
. "$(dirname "$0")/lib.sh"
need rg ripgrep
need git git
tarball=${SCOUT_ZOEKT_TARBALL:-../shared/zoekt/zoekt-bin.tar.xz}
if [ ! -x "$work/bin/zoekt-webserver" ]; then
  [ -f "$tarball" ] || { echo "zoekt.sh: no zoekt tarball at $tarball (set SCOUT_ZOEKT_TARBALL)" >&2; exit 2; }
  mkdir -p "$work/bin" && tar -C "$work/bin" -xJf "$tarball"
fi
go build -o "$work/scout" ./cmd/scout
go build -o "$work/zoektbench" ./bench/zoekt
export GIT_CONFIG_NOSYSTEM=1

commit() { # commit DIR: make DIR one git repository with one commit
  git -C "$1" init -q
  git -C "$1" add -A
  git -C "$1" -c user.name=bench -c user.email=bench@localhost commit -q -m tree
}

index() { # index REPO IDX: build the index with the flags that keep results exact, timed
  local start=$SECONDS
  "$work/bin/zoekt-git-index" -index "$2" -file_limit 10485760 -max_trigram_count 100000000 \
    -submodules=false -disable_ctags "$1" >"$2.log" 2>&1
  echo "indexed $1 in $((SECONDS - start)) s: $(du -sh "$2" | cut -f1) of shards" >&2
}

pids=()
trap 'for p in "${pids[@]}"; do kill "$p" 2>/dev/null || true; done' EXIT

serve() { # serve IDX PORT: start a webserver, wait until it answers
  "$work/bin/zoekt-webserver" -index "$1" -rpc -listen "127.0.0.1:$2" >"$1.serve.log" 2>&1 &
  pids+=($!)
  for _ in $(seq 300); do
    curl -sf -XPOST "127.0.0.1:$2/api/list" -d '{"Q":""}' >/dev/null 2>&1 && return
    sleep 0.2
  done
  echo "zoekt.sh: the webserver on port $2 did not start" >&2; exit 1
}

warm() { # warm DIR: read a tree and its index into the page cache
  find "$1" -type f -print0 | xargs -0 cat >/dev/null 2>&1 || true
}

run() { # run NAME PORT ROUNDS
  local tree=$work/$1
  warm "$tree"; warm "$work/$1.idx"
  echo; echo "### $1: $(du -sh --exclude=.git "$tree" | cut -f1), $(git -C "$tree" ls-files | wc -l) files; $(nproc) cores, load $(cut -d' ' -f1-3 /proc/loadavg)"
  echo
  "$work/zoektbench" -root "$tree" -zoekt "http://127.0.0.1:$2" -scout "$work/scout" -rounds "$3"
}

if [ "$what" = gosrc ] || [ "$what" = all ]; then
  if [ ! -d "$work/gosrc/.git" ]; then
    rm -rf "$work/gosrc" "$work/gosrc.idx"
    cp -a "$(go env GOROOT)/src" "$work/gosrc"
    commit "$work/gosrc"
  fi
  [ -d "$work/gosrc.idx" ] || index "$work/gosrc" "$work/gosrc.idx"
  serve "$work/gosrc.idx" 6181
  run gosrc 6181 "${ROUNDS:-5}"
fi

if [ "$what" = big ] || [ "$what" = all ]; then
  if [ ! -d "$work/big/.git" ]; then
    rm -rf "$work/big" "$work/big.idx"
    mkdir -p "$work/big"
    for i in 0 1 2 3 4 5 6 7; do cp -a "$(go env GOROOT)/src" "$work/big/c$i"; done
    commit "$work/big"
  fi
  [ -d "$work/big.idx" ] || index "$work/big" "$work/big.idx"
  serve "$work/big.idx" 6182
  run big 6182 "${ROUNDS:-3}"
fi
