# bench/lib.sh: shared by the bench scripts (sourced, not run).

# need CMD PACKAGE: makes sure CMD exists, installing PACKAGE with apt when root; exits 2 naming CMD otherwise.
need() {
  command -v "$1" >/dev/null 2>&1 && return
  if [ "$(id -u)" = 0 ]; then apt-get update -qq >/dev/null; apt-get install -y -qq "$2" >/dev/null; fi
  command -v "$1" >/dev/null 2>&1 || { echo "$(basename "$0"): $1 is missing" >&2; exit 2; }
}
