#!/bin/bash
# SPDX-License-Identifier: Apache-2.0
#
# Every regression case keeps its promise (test/fuzz/README.md): each file in
# test/fuzz/regress/ is a CTest fuzz_regress_NAME (test/fuzz/CMakeLists.txt
# globs the folder), a named script in exactly one of two tables -- AES-GCM's
# `eip93-diff --script NAME` (an entry { "NAME", ... } in test/diff/named.c)
# or AES-CTR/AES-CBC's `eip93-skc-diff --script NAME` (test/skc/named.c) --,
# registered as the CTest diff_script_NAME (test/diff/CMakeLists.txt and
# test/skc/host.cmake glob the same folder and take the names their table
# holds, or list the name), and a row of test/fuzz/README.md's regress table.
#
# usage: scripts/check-regress.sh [SOURCE_DIR]   (default: this checkout)
set -euo pipefail

src=${1:-$(cd "$(dirname "$0")/.." && pwd)}
regress=$src/test/fuzz/regress
named=$src/test/diff/named.c
skcnamed=$src/test/skc/named.c
diffcm=$src/test/diff/CMakeLists.txt
skccm=$src/test/skc/host.cmake
fuzzcm=$src/test/fuzz/CMakeLists.txt
readme=$src/test/fuzz/README.md

for f in "$named" "$skcnamed" "$diffcm" "$skccm" "$fuzzcm" "$readme"; do
  [ -f "$f" ] || { echo "check-regress: FAIL: $f is missing" >&2; exit 1; }
done
[ -d "$regress" ] || { echo "check-regress: FAIL: $regress is missing" >&2; exit 1; }

# How the three CMake files register the folder: by globbing it or by name.
glob_fuzz=0 glob_diff=0 glob_skc=0
grep -Eq 'file\(GLOB [A-Z_]+( CONFIGURE_DEPENDS)? RELATIVE \$\{FZ_DIR\}/regress' "$fuzzcm" && glob_fuzz=1
grep -Eq 'file\(GLOB [A-Z_]+( CONFIGURE_DEPENDS)? RELATIVE \$\{DIFF_REGRESS_DIR\}' "$diffcm" && glob_diff=1
grep -Eq 'file\(GLOB [A-Za-z_]+( CONFIGURE_DEPENDS)? RELATIVE \$\{_skc_regress_dir\}' "$skccm" && glob_skc=1

fail=0 n=0
for path in "$regress"/*; do
  [ -f "$path" ] || continue
  name=$(basename "$path")
  n=$((n + 1))
  in_gcm=0 in_skc=0
  grep -Fq "{ \"$name\"," "$named" && in_gcm=1
  grep -Fq "{ \"$name\"," "$skcnamed" && in_skc=1
  if [ $((in_gcm + in_skc)) -eq 0 ]; then
    echo "check-regress: FAIL: regress case '$name' has no named script:" \
      "add { \"$name\", n_... } to n_scripts[] in test/diff/named.c (AES-GCM:" \
      "eip93-diff --script $name) or test/skc/named.c (AES-CTR, AES-CBC:" \
      "eip93-skc-diff --script $name)" >&2
    fail=1
  elif [ $((in_gcm + in_skc)) -eq 2 ]; then
    echo "check-regress: FAIL: regress case '$name' has a named script in both" \
      "test/diff/named.c and test/skc/named.c (two tests diff_script_$name)" >&2
    fail=1
  elif [ "$in_gcm" -eq 1 ] && [ "$glob_diff" -eq 0 ] &&
    ! grep -Eq "(^|[[:space:]])$name([[:space:]]|\)|$)" "$diffcm"; then
    echo "check-regress: FAIL: regress case '$name' is not registered as diff_script_$name" \
      "in test/diff/CMakeLists.txt" >&2
    fail=1
  elif [ "$in_skc" -eq 1 ] && [ "$glob_skc" -eq 0 ] &&
    ! grep -Eq "(^|[[:space:]])$name([[:space:]]|\)|$)" "$skccm"; then
    echo "check-regress: FAIL: regress case '$name' is not registered as diff_script_$name" \
      "in test/skc/host.cmake" >&2
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
