#!/bin/sh
# Make sure the Debian packages kapitza needs are present: install them when running as root,
# otherwise print the exact command to run and fail.
#   sh scripts/deps.sh           what the library, the scenarios and the tests need
#   sh scripts/deps.sh --peers   also the optional peer integrators of `make bench` (GSL, SUNDIALS;
#                                large: libsundials-dev pulls in MPI and PETSc) and GNU parallel
#   sh scripts/deps.sh --lib     only what building lib/libkapitza.so needs (gcc, LAPACK)
set -u
need=""
if [ "${1:-}" != "--lib" ]; then
  command -v luajit  >/dev/null 2>&1 || need="$need luajit"
  [ -f /usr/share/lua/5.1/busted/runner.lua ] || need="$need lua-busted"
  command -v gnuplot >/dev/null 2>&1 || need="$need gnuplot-nox"
fi
command -v cc      >/dev/null 2>&1 || need="$need gcc"
command -v cmark-gfm >/dev/null 2>&1 || need="$need cmark-gfm"
command -v pkg-config >/dev/null 2>&1 || need="$need pkgconf"
# LAPACK (dgetrf/dgetrs for the dense Newton baseline of the variational integrators): a link test
if command -v cc >/dev/null 2>&1; then
  printf 'void dgetrf_(void);\nint main(void){dgetrf_();return 0;}\n' | cc -x c -o /dev/null - -llapack >/dev/null 2>&1 \
    || need="$need liblapack-dev"
else
  need="$need liblapack-dev"
fi
if [ "${1:-}" = "--peers" ]; then
  pkg-config --exists gsl 2>/dev/null || need="$need libgsl-dev pkg-config"
  [ -f /usr/include/cvode/cvode.h ] && [ -f /usr/include/arkode/arkode_erkstep.h ] || need="$need libsundials-dev"
  command -v parallel >/dev/null 2>&1 || need="$need parallel"
fi
[ -z "$need" ] && exit 0
if [ "$(id -u)" = 0 ]; then
  echo "deps: installing$need" >&2
  export DEBIAN_FRONTEND=noninteractive
  # Another apt or dpkg (unattended upgrades, a second make) may hold the package locks: wait for
  # it, saying so, for up to 10 minutes, instead of failing at once.
  log=$(mktemp) || exit 1
  trap 'rm -f "$log"' EXIT
  waited=0
  while :; do
    if apt-get -o DPkg::Lock::Timeout=60 update -q >"$log" 2>&1 \
       && apt-get -o DPkg::Lock::Timeout=60 install -y -q $need >>"$log" 2>&1; then
      cat "$log" >&2
      exit 0
    fi
    if grep -q -i 'lock' "$log" && [ "$waited" -lt 600 ]; then
      [ "$waited" = 0 ] && echo "deps: another apt or dpkg holds the package lock; waiting (up to 10 min)" >&2
      sleep 10
      waited=$((waited + 10))
      continue
    fi
    cat "$log" >&2
    echo "deps: apt-get failed (its messages are above)" >&2
    exit 1
  done
fi
echo "kapitza needs Debian packages that are missing. Run:" >&2
echo "  sudo apt-get install -y$need" >&2
exit 1
