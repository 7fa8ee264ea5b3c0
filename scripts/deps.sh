#!/bin/sh
# Make sure the Debian packages kapitza needs are present: install them when running as root,
# otherwise print the exact command to run and fail.
set -u
need=""
command -v luajit  >/dev/null 2>&1 || need="$need luajit"
[ -f /usr/share/lua/5.1/busted/runner.lua ] || need="$need lua-busted"
command -v gnuplot >/dev/null 2>&1 || need="$need gnuplot-nox"
command -v cc      >/dev/null 2>&1 || need="$need gcc"
command -v cmark-gfm >/dev/null 2>&1 || need="$need cmark-gfm"
command -v pkg-config >/dev/null 2>&1 || need="$need pkgconf"
[ -z "$need" ] && exit 0
if [ "$(id -u)" = 0 ]; then
  echo "deps: installing$need" >&2
  export DEBIAN_FRONTEND=noninteractive
  apt-get update -q >&2 && apt-get install -y -q $need >&2 && exit 0
  echo "deps: apt-get failed" >&2
  exit 1
fi
echo "kapitza needs Debian packages that are missing. Run:" >&2
echo "  sudo apt-get install -y$need" >&2
exit 1
