#!/bin/sh
# Compares Scout's walker with ripgrep and GNU find on $(go env GOROOT)/src
# (or the directory given as $1). Needs hyperfine and rg. Run it on a quiet
# machine: every number is wall time, and other processes distort it.
set -eu
D=${1:-$(go env GOROOT)/src}
B=$(mktemp -d)/walkbench
go build -o "$B" "$(dirname "$0")"
H='hyperfine -N --output=pipe --warmup 3 --runs 20'
# find-all: the .go files (rg lists hidden .h.go files too: its -g whitelists them).
$H "rg --files -g *.go $D" "$B -ext .go $D"
# find-newest: the 200 most recently modified .go files.
$H "sh -c \"find $D -name '*.go' -printf '%T@ %p\\n' | sort -rn | head -200\"" "$B -ext .go -newest 200 $D"
# content search on top of the walker: a literal, printed as rg -n prints it.
$H "rg -n ErrUnexpectedEOF $D" "$B -grep ErrUnexpectedEOF $D"
