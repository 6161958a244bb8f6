#!/usr/bin/env bash
# API stability check: compares the exported API of the packages below with
# the snapshots committed in api/ and fails on an incompatible change
# (a removed or changed name). Compatible additions are listed but pass.
#
#   api/check.sh       check (CI runs this)
#   api/check.sh -w    rewrite the snapshots after an intended API change
#
# apidiff (golang.org/x/exp/cmd/apidiff) exits 0 even when it reports an
# incompatible change, so this script tests its output instead. Set APIDIFF
# to its path when it is not on PATH.
set -euo pipefail
cd "$(dirname "$0")/.."
apidiff=${APIDIFF:-apidiff}
packages=(
  "scout github.com/scoutkit/scout"
  "format github.com/scoutkit/scout/format"
  "tool github.com/scoutkit/scout/tool"
)

if [ "${1:-}" = "-w" ]; then
  for p in "${packages[@]}"; do
    set -- $p
    "$apidiff" -w "api/$1.export" "$2"
    echo "api: wrote api/$1.export"
  done
  exit 0
fi

status=0
for p in "${packages[@]}"; do
  set -- $p
  if [ ! -f "api/$1.export" ]; then
    echo "api: api/$1.export is missing; run api/check.sh -w" >&2
    status=1
    continue
  fi
  incompatible=$("$apidiff" -incompatible "api/$1.export" "$2")
  if [ -n "$incompatible" ]; then
    printf 'api: incompatible changes in %s:\n%s\n' "$2" "$incompatible" >&2
    status=1
    continue
  fi
  all=$("$apidiff" "api/$1.export" "$2")
  if [ -n "$all" ]; then
    printf 'api: compatible changes in %s (refresh the snapshot with api/check.sh -w):\n%s\n' "$2" "$all"
  fi
done
if [ $status -ne 0 ]; then
  echo "api: if the change is intended, rewrite the snapshots with api/check.sh -w and say so in the release notes" >&2
fi
exit $status
