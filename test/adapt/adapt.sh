#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# Guest test (-smp 2): adaptive routing's shift and return (eip93-adapt-check
# shift asserts them from the counters), the differential suite with the
# router active on the simulated engine (2000 cases), then a smoke run of the
# benchmark (one short round; its numbers are printed, never asserted).
set -u
# shellcheck source=test/guest/lib.sh
. /opt/eip93/guest-lib.sh
an7581_hooks
insmod /lib/eip93/eip93_sim.ko || { echo "not ok - insmod"; exit 1; }
fail=0
start=$(date +%s)
eip93-adapt-check ${EIP93_ADAPT_MODE:-shift} ${EIP93_ADAPT_ARGS:-} || fail=1
if [ "${EIP93_ADAPT_MODE:-shift}" = shift ]; then
  eip93-diff --seed "${EIP93_DIFF_SEED:-$(date +%s)}" --cases 2000 --require-engine \
    --config $M/adaptive-engine.cnf >/tmp/diff.out 2>&1 &&
    echo "ok - differential with adaptive routing: $(tail -n 1 /tmp/diff.out)" ||
    { echo "not ok - differential with adaptive routing"; cat /tmp/diff.out; fail=1; }
  grep -E '^eip93-diff: seed|counters after' /tmp/diff.out
  eip93-adapt-check bench --rounds 1 --ms 150 >/tmp/bench.out 2>&1 && grep -q '^| 8 |' /tmp/bench.out &&
    echo "ok - benchmark smoke run" || { echo "not ok - benchmark smoke run"; fail=1; }
  cat /tmp/bench.out
fi
echo "adapt: $(( $(date +%s) - start ))s"
exit $fail
