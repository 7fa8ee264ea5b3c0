#!/bin/sh
# make check: the busted specs (tests/*_spec.lua) under LuaJIT against lib/libkapitza.so, then
# the specs tagged #asan again against the sanitizer build lib/libkapitza-asan.so. Prints every
# failure, and last a line "N passed, N failed"; exits non-zero on any failure.
set -u
cd "$(dirname "$0")/.." || exit 2
root=$(pwd)
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
BUSTED="luajit /usr/bin/busted"
LUAP="$root/lib/?.lua;$root/tests/?.lua;;"

echo "== busted (libkapitza.so)"
LUA_PATH="$LUAP" $BUSTED -o TAP tests > "$out/main.tap" 2>&1
cat "$out/main.tap" | grep -v '^ok ' 

echo "== busted #asan (libkapitza-asan.so, address+undefined sanitizers)"
asanlib=$(gcc -print-file-name=libasan.so)
ubsanlib=$(gcc -print-file-name=libubsan.so)
KZ_LIB="$root/lib/libkapitza-asan.so" LD_PRELOAD="$asanlib $ubsanlib" \
  ASAN_OPTIONS=detect_leaks=0:abort_on_error=0:halt_on_error=1 UBSAN_OPTIONS=halt_on_error=1:print_stacktrace=1 \
  LUA_PATH="$LUAP" $BUSTED -o TAP --tags=asan tests > "$out/asan.tap" 2>&1
cat "$out/asan.tap" | grep -v '^ok '

passed=$(cat "$out/main.tap" "$out/asan.tap" | grep -c '^ok ')
failed=$(cat "$out/main.tap" "$out/asan.tap" | grep -c '^not ok ')
# a suite that crashed (no TAP plan line) counts as a failure
for f in main asan; do
  grep -q '^1\.\.[0-9]' "$out/$f.tap" || { echo "$f: busted did not finish"; failed=$((failed + 1)); }
done
echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ]
