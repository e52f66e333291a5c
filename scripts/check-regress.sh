#!/bin/bash
# SPDX-License-Identifier: Apache-2.0
#
# Every regression case keeps its promise (test/fuzz/README.md): each file in
# test/fuzz/regress/ is a CTest fuzz_regress_NAME (test/fuzz/CMakeLists.txt
# globs the folder), a named script `eip93-diff --script NAME` (an entry
# { "NAME", ... } in test/diff/named.c's table), registered as the CTest
# diff_script_NAME (test/diff/CMakeLists.txt globs the same folder, or lists
# the name), and a row of test/fuzz/README.md's regress table.
#
# usage: scripts/check-regress.sh [SOURCE_DIR]   (default: this checkout)
set -euo pipefail

src=${1:-$(cd "$(dirname "$0")/.." && pwd)}
regress=$src/test/fuzz/regress
named=$src/test/diff/named.c
diffcm=$src/test/diff/CMakeLists.txt
fuzzcm=$src/test/fuzz/CMakeLists.txt
readme=$src/test/fuzz/README.md

for f in "$named" "$diffcm" "$fuzzcm" "$readme"; do
  [ -f "$f" ] || { echo "check-regress: FAIL: $f is missing" >&2; exit 1; }
done
[ -d "$regress" ] || { echo "check-regress: FAIL: $regress is missing" >&2; exit 1; }

# How the two CMake files register the folder: by globbing it (every file) or by name.
glob_fuzz=0 glob_diff=0
grep -Eq 'file\(GLOB [A-Z_]+( CONFIGURE_DEPENDS)? RELATIVE \$\{FZ_DIR\}/regress' "$fuzzcm" && glob_fuzz=1
grep -Eq 'file\(GLOB [A-Z_]+( CONFIGURE_DEPENDS)? RELATIVE \$\{DIFF_REGRESS_DIR\}' "$diffcm" && glob_diff=1

fail=0 n=0
for path in "$regress"/*; do
  [ -f "$path" ] || continue
  name=$(basename "$path")
  n=$((n + 1))
  if ! grep -Fq "{ \"$name\"," "$named"; then
    echo "check-regress: FAIL: regress case '$name' has no named script:" \
      "add { \"$name\", n_... } to n_scripts[] in test/diff/named.c" \
      "(eip93-diff --script $name)" >&2
    fail=1
  fi
  if [ "$glob_diff" -eq 0 ] && ! grep -Eq "(^|[[:space:]])$name([[:space:]]|\)|$)" "$diffcm"; then
    echo "check-regress: FAIL: regress case '$name' is not registered as diff_script_$name" \
      "in test/diff/CMakeLists.txt" >&2
    fail=1
  fi
  if [ "$glob_fuzz" -eq 0 ]; then
    echo "check-regress: FAIL: test/fuzz/CMakeLists.txt no longer globs regress/:" \
      "'$name' has no fuzz_regress_$name" >&2
    fail=1
  fi
  if ! grep -Fq "| $name |" "$readme"; then
    echo "check-regress: FAIL: regress case '$name' has no row in test/fuzz/README.md's" \
      "regress table" >&2
    fail=1
  fi
done
if [ "$n" -eq 0 ]; then
  echo "check-regress: FAIL: no regression cases in $regress" >&2
  exit 1
fi
[ "$fail" -eq 0 ] || exit 1
echo "check-regress: $n regression cases, each a fuzz_regress_ test, a named script and a README row"
