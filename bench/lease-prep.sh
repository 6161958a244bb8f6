#!/usr/bin/env bash
# bench/lease-prep.sh: fills a folder with what ../shared/bench/scale.sh needs on a machine without Go, ripgrep or
# hyperfine (a lent multi-core machine): Scout built from this tree and, optionally, from another commit to compare
# with (each xz-compressed), rg with its libpcre2, hyperfine, taskset, GNU time, a tarball of $(go env GOROOT)/src,
# scale.sh and a run.sh that unpacks them and runs scale.sh against both binaries, then times each on a one-file
# directory against rg (the fixed cost of a call).
# Usage (from the project root): bench/lease-prep.sh DIR [BASE_COMMIT]
#   DIR must be ignored by git (e.g. listed in .git/info/exclude) and is carried as a whole: keep it under the
#   carry limit (the binaries are compressed; about 45 MB with one binary, 57 MB with two).
# On the lent machine: bash DIR/run.sh [scale.sh options, e.g. -c "8 16" -n 1 -r 9]
set -euo pipefail
dir=${1:?usage: bench/lease-prep.sh DIR [BASE_COMMIT]}
base=${2:-}
for t in rg hyperfine taskset; do command -v "$t" >/dev/null || { echo "lease-prep: $t is missing (apt-get install -y ripgrep hyperfine util-linux)" >&2; exit 2; }; done
mkdir -p "$dir"
go build -o "$dir/scout" ./cmd/scout
if [ -n "$base" ]; then
  src=$(mktemp -d)
  trap 'rm -rf "$src"' EXIT
  git archive "$base" | tar -x -C "$src"
  (cd "$src" && go build -o "$OLDPWD/$dir/scout-base" ./cmd/scout)
fi
for b in scout scout-base; do [ -f "$dir/$b" ] && xz -T0 -9 -f "$dir/$b"; done
cp "$(command -v rg)" "$(command -v hyperfine)" "$(command -v taskset)" "$dir/"
[ -x /usr/bin/time ] && cp /usr/bin/time "$dir/gtime"
lib=$(ldd "$(command -v rg)" | awk '/libpcre2-8/ {print $3}')
[ -n "$lib" ] && cp "$lib" "$dir/"
[ -f "$dir/gosrc.tar.xz" ] || tar -C "$(go env GOROOT)" -cJf "$dir/gosrc.tar.xz" src
cp ../shared/bench/scale.sh "$dir/"
cat > "$dir/run.sh" <<'EOF'
#!/usr/bin/env bash
# Unpacks the binaries and runs scale.sh with each Scout binary found here; extra arguments go to scale.sh.
set -euo pipefail
d=$(cd "$(dirname "$0")" && pwd)
export LD_LIBRARY_PATH=$d RG=$d/rg HYPERFINE=$d/hyperfine GOSRC=$d/gosrc.tar.xz PATH=$d:$PATH
for b in scout scout-base; do [ -f "$d/$b.xz" ] && xz -d -k -f "$d/$b.xz"; done
for b in scout scout-base; do
  [ -f "$d/$b" ] || continue
  chmod +x "$d/$b"
  echo "== $b"
  SCOUT=$d/$b bash "$d/scale.sh" "$@"
done
# A whole command on a one-file directory against rg's: the fixed cost of each call (process start, the root's
# checks, a first walk), where a wait of the whole process shows (one was an RCU grace period of ~20 ms).
one=$(mktemp -d); echo needle >"$one/a.txt"
cmds=("$d/rg needle $one")
for b in scout scout-base; do [ -x "$d/$b" ] && cmds+=("$(printf '%q ' "$d/$b" call --toolset amplifier --root "$one" grep '{"pattern":"needle"}')"); done
echo "== one-file directory (rg, scout, scout-base)"
"$d/hyperfine" -N --warmup 3 --runs 30 -i --style basic "${cmds[@]}" 2>&1 | grep -E '^Benchmark|Time \(mean'
EOF
chmod +x "$dir/run.sh"
du -sh "$dir"
