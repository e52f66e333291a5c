#!/bin/bash
# SPDX-License-Identifier: Apache-2.0
# A differential fuzzing campaign (test/fuzz): eip93 with the engine fake
# against the default provider, libFuzzer with ASan+UBSan.
#
#   scripts/fuzz.sh [--time SECONDS | --runs N] [--target NAME] [--cipher C]
#                   [--corpus DIR] [--build DIR] [--no-coverage]
#
#   --time S      wall-clock budget (default 600)
#   --runs N      stop after N executions instead
#   --target T    eip93-fuzz (default: every call, every fault), or
#                 eip93-fuzz-avoid (the calls of the divergences in
#                 test/fuzz/regress left out, logged as avoided(NAME); all
#                 fixed today: for hunting in code that still has them;
#                 configured with -DEIP93_FUZZ_AVOID=ON)
#   --cipher C    gcm, ctr, cbc or skc (AES-CTR or AES-CBC, as each input
#                 says): every input runs with that cipher
#                 (EIP93_FUZZ_CIPHER; default: as each input's header says)
#   --corpus DIR  keep the corpus there across campaigns (default: a new one
#                 under the work directory, seeded from test/fuzz/corpus and
#                 test/fuzz/integrity)
#   --build DIR   clang build directory (default /tmp/eip93-fuzz-build)
#   --no-coverage skip the coverage report of alg/
#
# libFuzzer stops at the first divergence; this script then keeps the input,
# records the divergence and starts again until the budget is spent.  At the
# end: executions, executions per second, how many reached the engine path,
# the divergences grouped by kind (with a replay command each), and the line
# coverage of alg/ and engine/ by the whole corpus (llvm-cov, from a separate coverage
# build of eip93-fuzz-replay).  Exit status 1 if anything diverged.
# One campaign at a time: the machine's two cores are shared.
set -euo pipefail
here=$(cd "$(dirname "$0")/.." && pwd)
budget_time=600 budget_runs=0 target=eip93-fuzz corpus="" build=/tmp/eip93-fuzz-build cov=1 cipher=input
while [ $# -gt 0 ]; do
  case "$1" in
    --time) budget_time=$2; shift 2 ;;
    --runs) budget_runs=$2; budget_time=0; shift 2 ;;
    --target) target=$2; shift 2 ;;
    --cipher) cipher=$2; shift 2 ;;
    --corpus) corpus=$2; shift 2 ;;
    --build) build=$2; shift 2 ;;
    --no-coverage) cov=0; shift ;;
    *) echo "usage: $0 [--time S | --runs N] [--target T] [--cipher C] [--corpus DIR] [--build DIR] [--no-coverage]" >&2
       exit 2 ;;
  esac
done

echo "=== build ($build, clang, EIP93_FUZZ=ON)"
cmake -S "$here" -B "$build" -DCMAKE_C_COMPILER=clang -DCMAKE_BUILD_TYPE=RelWithDebInfo \
  -DEIP93_FUZZ=ON -DEIP93_FUZZ_AVOID="$([ "$target" = eip93-fuzz-avoid ] && echo ON || echo OFF)" \
  -DEIP93_GUEST_TESTS=OFF >/dev/null
cmake --build "$build" -j"$(nproc)" --target "$target" eip93-fuzz-replay >/dev/null
fuzzer=$build/test/fuzz/$target
replay=$build/test/fuzz/eip93-fuzz-replay

work=$(mktemp -d /tmp/eip93-fuzz-campaign.XXXXXX)
if [ -z "$corpus" ]; then
  corpus=$work/corpus
fi
mkdir -p "$corpus" "$work/divergent"
export EIP93_FUZZ_CIPHER=$cipher
echo "=== campaign: $target, cipher $cipher, $( [ "$budget_runs" -gt 0 ] && echo "$budget_runs executions" || echo "${budget_time}s"); work dir $work"

start=$(date +%s)
execs=0 engine=0 rounds=0 found=0
: >"$work/signatures"
while :; do
  now=$(date +%s)
  if [ "$budget_runs" -gt 0 ]; then
    left=$((budget_runs - execs)); [ $left -le 0 ] && break
    limit=(-runs="$left")
  else
    left=$((budget_time - (now - start))); [ $left -le 0 ] && break
    limit=(-max_total_time="$left")
  fi
  rounds=$((rounds + 1))
  log=$work/round-$rounds.log
  set +e
  ASAN_OPTIONS=${ASAN_OPTIONS:-detect_leaks=1:abort_on_error=1:malloc_context_size=0} \
  UBSAN_OPTIONS=${UBSAN_OPTIONS:-print_stacktrace=1:halt_on_error=1} \
    "$fuzzer" "${limit[@]}" -max_len=128 -print_final_stats=1 -artifact_prefix="$work/divergent/" \
    "$corpus" "$here/test/fuzz/corpus" "$here/test/fuzz/integrity" >"$log" 2>&1
  rc=$?
  set -e
  n=$(sed -n 's/^eip93-fuzz: executions \([0-9]*\).*/\1/p' "$log" | tail -1)
  e=$(sed -n 's/^eip93-fuzz: executions [0-9]*, reaching the engine \([0-9]*\).*/\1/p' "$log" | tail -1)
  execs=$((execs + ${n:-0})) engine=$((engine + ${e:-0}))
  if [ $rc -ne 0 ]; then
    found=$((found + 1))
    art=$(sed -n "s/.*Test unit written to \(.*\)$/\1/p" "$log" | tail -1)
    sig=$(grep -m1 -E '^DIVERGENCE at|ERROR: (Address|Undefined|Leak)Sanitizer|runtime error' "$log" |
          sed -E 's/ at step [0-9]+ / /; s/[0-9]+/N/g' | cut -c1-200)
    [ -z "$sig" ] && sig="exit $rc (see $log)"
    echo "$sig	$art" >>"$work/signatures"
    echo "round $rounds: divergence after ${n:-?} executions: $sig"
    [ $((found)) -ge 50 ] && { echo "50 divergences: stopping"; break; }
  fi
done
secs=$(( $(date +%s) - start ))
[ $secs -eq 0 ] && secs=1

echo
echo "=== results"
echo "executions: $execs in ${secs}s ($((execs / secs)) exec/s wall, $(nproc) cores shared, load $(cut -d' ' -f1-3 /proc/loadavg))"
echo "reaching the engine path (eip93-engine-messages moved): $engine ($(awk -v a="$engine" -v b="$execs" 'BEGIN { printf "%.1f", b ? 100 * a / b : 0 }')%)"
echo "corpus: $(ls "$corpus" | wc -l) inputs in $corpus"
echo "divergences: $found"
if [ "$found" -gt 0 ]; then
  cut -f1 "$work/signatures" | sort | uniq -c | sort -rn
  echo "inputs (replay with EIP93_FUZZ_CIPHER=$cipher: $replay --print FILE, or $fuzzer FILE with"
  echo "EIP93_FUZZ_PRINT=1 for $target's own calls; EIP93_FUZZ_TRACE=1 for every call):"
  cut -f2 "$work/signatures" | sed 's/^/  /'
fi

if [ "$cov" -eq 1 ]; then
  echo
  echo "=== coverage of alg/ and engine/ by the corpus (llvm-cov, replayed without the known-defect filter)"
  cb=$build-cov
  cmake -S "$here" -B "$cb" -DCMAKE_C_COMPILER=clang -DCMAKE_BUILD_TYPE=Debug -DEIP93_GUEST_TESTS=OFF \
    -DCMAKE_C_FLAGS="-fprofile-instr-generate -fcoverage-mapping" >/dev/null
  cmake --build "$cb" -j"$(nproc)" --target eip93-fuzz-replay >/dev/null
  rm -f "$work"/cov-*.profraw
  LLVM_PROFILE_FILE="$work/cov-%p.profraw" "$cb/test/fuzz/eip93-fuzz-replay" "$corpus" \
    "$here/test/fuzz/corpus" "$here/test/fuzz/integrity" >/dev/null 2>&1 || true
  llvm-profdata-14 merge -o "$work/cov.profdata" "$work"/cov-*.profraw
  llvm-cov-14 report "$cb/test/fuzz/eip93-fuzz-replay" -instr-profile="$work/cov.profdata" \
    "$here"/alg/*.c "$here"/alg/*/*.c "$here"/engine/*.c
fi
[ "$found" -eq 0 ]
