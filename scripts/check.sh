#!/bin/sh
# make check: the busted specs (tests/*_spec.lua) under LuaJIT against lib/libkapitza.so, one spec
# file at a time with a progress line each, then the specs tagged #asan again against the sanitizer
# build lib/libkapitza-asan.so. Prints every failure, and last a line "N passed, N failed"; exits
# non-zero on any failure. A spec file whose run ends without its TAP plan line (a crash) counts
# as one failure.
set -u
cd "$(dirname "$0")/.." || exit 2
root=$(pwd)
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
BUSTED="luajit /usr/bin/busted"
LUAP="$root/lib/lua/?.lua;$root/tests/?.lua;;"
passed=0
failed=0
start=$(date +%s)


tally() { # tally TAPFILE LABEL: add its counts, print its failures, check its plan
  p=$(grep -c '^ok ' "$1")
  f=$(grep -c '^not ok ' "$1")
  grep -v '^ok ' "$1" | grep -v '^1\.\.[0-9]' | sed '/^$/d'
  if ! grep -q '^1\.\.[0-9]' "$1"; then
    echo "$2: busted did not finish"
    tail -n 5 "$1"
    f=$((f + 1))
  fi
  passed=$((passed + p))
  failed=$((failed + f))
  echo "   $p ok, $f failed ($(( $(date +%s) - start )) s so far)"
}

specs=$(ls tests/*_spec.lua)
n=$(echo "$specs" | wc -l)
i=0
echo "== busted (libkapitza.so): $n spec files"
for s in $specs; do
  i=$((i + 1))
  echo "[$i/$n] $s"
  LUA_PATH="$LUAP" $BUSTED -o TAP "$s" > "$out/main-$i.tap" 2>&1
  tally "$out/main-$i.tap" "$s"
done

echo "== busted #asan (libkapitza-asan.so, address+undefined sanitizers)"
asanlib=$(gcc -print-file-name=libasan.so)
ubsanlib=$(gcc -print-file-name=libubsan.so)
KZ_LIB="$root/lib/libkapitza-asan.so" LD_PRELOAD="$asanlib $ubsanlib" \
  ASAN_OPTIONS=detect_leaks=0:abort_on_error=0:halt_on_error=1 UBSAN_OPTIONS=halt_on_error=1:print_stacktrace=1 \
  LUA_PATH="$LUAP" $BUSTED -o TAP --tags=asan tests > "$out/asan.tap" 2>&1
tally "$out/asan.tap" "#asan"

echo "make check took $(( $(date +%s) - start )) s"
echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ]
