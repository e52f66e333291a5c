#!/bin/bash
# SPDX-License-Identifier: Apache-2.0
# clang-tidy and cppcheck over the project's own C code, clang-format
# applied to every C file, and the docs held to the code (every config key
# documented, every regression case with its named script, no citation of
# anything outside the tree); any finding fails.
# usage: lint.sh BUILD_DIR   (a configured build with compile_commands.json)
set -euo pipefail
here=$(cd "$(dirname "$0")/.." && pwd)
build=${1:-build}
cd "$here"
mapfile -t srcs < <(git ls-files 'provider/*.c' 'alg/*.c' 'engine/*.c' 'detect/*.c' 'tools/*.c' 'test/*.c' | grep -v '/kmod/')
[ -f "$build/compile_commands.json" ] || { echo "lint: $build/compile_commands.json missing"; exit 1; }

echo "clang-tidy: ${#srcs[@]} files"
# gcc's link-time optimisation flags (eip93.so) mean nothing to clang: a copy
# of the compilation database without them.
tidy_db=$(mktemp -d)
trap 'rm -rf "$tidy_db"' EXIT
sed -E 's/ -flto(=[A-Za-z0-9]+)?//g; s/ -fno-fat-lto-objects//g' "$build/compile_commands.json" \
  >"$tidy_db/compile_commands.json"
# One clang-tidy per batch of files, as many at once as there are CPUs; each
# batch's output is kept whole (no interleaving) and any finding fails.
jobs=$(nproc)
rc=0
out=$(printf '%s\0' "${srcs[@]}" | xargs -0 -n 8 -P "$jobs" sh -c \
  'o=$(clang-tidy -p "$0" --quiet "$@" 2>&1); r=$?; printf "%s\n" "$o"; exit $r' "$tidy_db") || rc=$?
grep -v -e '^[0-9]* warnings\? generated' -e '^Suppressed [0-9]* warnings' \
  -e '^Use -header-filter' <<<"$out" || true
[ "$rc" -eq 0 ] || { echo "lint: clang-tidy reported findings"; exit 1; }

echo "cppcheck: ${#srcs[@]} files"
cppcheck --quiet -j "$jobs" --error-exitcode=1 --std=c11 --enable=warning,portability,performance \
  --inline-suppr --suppress=missingIncludeSystem -I provider -I alg -I alg/gcm -I alg/skc -I engine -I detect "${srcs[@]}"
echo "clang-format: every C file as .clang-format says"
mapfile -t all < <(git ls-files '*.c' '*.h')
clang-format --dry-run --Werror --style=file "${all[@]}"
echo "docs and code agree"
scripts/check-config-docs.sh docs/operations.md docs/contract.md openssl.cnf.example
scripts/check-regress.sh
scripts/check-citations.sh
scripts/check-pipes.sh
python3 scripts/check-imports.py
echo "lint: clean"
