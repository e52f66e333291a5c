#!/bin/bash
# SPDX-License-Identifier: Apache-2.0
# fuzz_smoke: RUNS executions of the libFuzzer target from the seed corpus
# with a fixed libFuzzer seed, into a scratch corpus (the checked-in one is
# never written).  Passes only if libFuzzer finished every run (no
# divergence, no sanitizer report) and the engine path was reached.
# usage: smoke.sh FUZZER SEEDS RUNS
set -euo pipefail
fuzzer=$1 seeds=$2 runs=$3
work=$(mktemp -d /tmp/eip93-fuzz-smoke.XXXXXX)
trap 'rm -rf "$work"' EXIT
mkdir "$work/corpus"
log=$work/log
start=$(date +%s.%N)
# No allocation stacks (malloc_context_size=0): they cost about a tenth of the
# time; a failure replays with full stacks (the input is printed below).
# -max_len=128: up to 14 steps, where nearly all coverage is.  Wall time on a
# shared machine says little; the CPU time is printed too.
set +e
ASAN_OPTIONS=${ASAN_OPTIONS:-detect_leaks=1:abort_on_error=1:malloc_context_size=0} \
UBSAN_OPTIONS=${UBSAN_OPTIONS:-print_stacktrace=1:halt_on_error=1} \
  "$fuzzer" -runs="$runs" -seed=1 -max_len=128 -print_final_stats=1 \
  -artifact_prefix="$work/" "$work/corpus" "$seeds" >"$log" 2>&1
rc=$?
set -e
end=$(date +%s.%N)
times >"$work/times"	# in this shell: a subshell would report its own children
cpu=$(tail -1 "$work/times" | awk '{ split($1, u, /[ms]/); split($2, t, /[ms]/); printf "%.1f", u[1] * 60 + u[2] + t[1] * 60 + t[2] }')
grep -E '^(DIVERGENCE|script:|fault plan:|=>|   ? ?[0-9]+:)' "$log" | head -60 || true
grep -E 'ERROR: (Address|Undefined|Leak)Sanitizer|runtime error' "$log" | head -5 || true
grep -E '^stat::number_of_executed_units|^eip93-fuzz:|Done [0-9]+ runs' "$log" || true
execs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$log" | tail -1)
engine=$(sed -n 's/^eip93-fuzz: executions [0-9]*, reaching the engine \([0-9]*\).*/\1/p' "$log" | tail -1)
secs=$(awk -v a="$start" -v b="$end" 'BEGIN { printf "%.1f", b - a }')
if [ "$rc" -ne 0 ]; then
  echo "FAIL: the fuzzer exited with $rc (a divergence or a sanitizer report; the log's tail:)"
  tail -30 "$log"
  for a in "$work"/crash-* "$work"/leak-* "$work"/timeout-*; do
    [ -e "$a" ] && echo "input: $(od -An -tx1 -v "$a" | tr -d '\n')"
  done
  exit 1
fi
if [ -z "$execs" ] || [ "$execs" -lt "$runs" ]; then
  echo "FAIL: ${execs:-no} executions, $runs asked"
  exit 1
fi
if [ -z "$engine" ] || [ "$engine" -eq 0 ]; then
  echo "FAIL: no execution reached the engine path"
  exit 1
fi
echo "fuzz smoke: $execs executions in ${secs}s wall, ${cpu}s CPU ($(awk -v n="$execs" -v s="$cpu" 'BEGIN { printf "%d", n / s }') exec per CPU second; load $(cut -d' ' -f1 /proc/loadavg)), $engine reached the engine"
