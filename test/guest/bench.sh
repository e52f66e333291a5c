#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# Guest script (busybox sh): run eip93-bench with the gate open (test-hooks
# build standing in for the AN7581 board, the simulated EIP93 driver loaded).
# Host side: scripts/bench.sh (the benchmark) or the guest_bench_smoke test.
# Arguments for eip93-bench come from EIP93_BENCH_ARGS (run.sh --env), e.g.
# "--smoke" (then only the shape of the output is checked) or "--rounds 9".
set -u
M=/opt/eip93
BENCH=/usr/bin/eip93-bench
ARGS=${EIP93_BENCH_ARGS:-}
export OPENSSL_MODULES=$M/hooks
export EIP93_TEST_DT_PATH=$M/data/dt-an7581.bin EIP93_TEST_HWCAP=0

# EIP93_BENCH_KALG: measure that composition (kernel-algorithm) instead of the gate's first.
if [ -n "${EIP93_BENCH_KALG:-}" ]; then
  printf 'openssl_conf = c\n[c]\nproviders = p\n[p]\neip93 = e\ndefault = d\n[d]\nactivate = 1\n[e]\nactivate = 1\nnotice = no\nkernel-algorithm = %s\n' \
    "$EIP93_BENCH_KALG" >/tmp/bench.cnf
  export OPENSSL_CONF=/tmp/bench.cnf
fi
insmod /lib/eip93/eip93_sim.ko || { echo "bench: cannot load the simulated driver"; exit 1; }
ops() { cat /sys/module/eip93_sim/parameters/ops; }
echo "bench: guest kernel $(uname -r), clocksource" \
  "$(cat /sys/devices/system/clocksource/clocksource0/current_clocksource 2>/dev/null)"

before=$(ops)
# shellcheck disable=SC2086 # ARGS is a list of options
$BENCH $ARGS >/tmp/bench.out 2>/tmp/bench.err
rc=$?
cat /tmp/bench.out
sed 's/^/bench stderr: /' /tmp/bench.err
echo "bench: simulated EIP93 driver requests during the run: $(( $(ops) - before ))"
[ "$rc" -eq 0 ] || { echo "bench: eip93-bench exited with status $rc"; exit 1; }

case " $ARGS " in
*" --smoke "*)
  # The smoke test: the table is there, complete; no number is judged.
  for want in '^1\. Engine path vs raw AF_ALG' '^2\. Delegated' '^3\. Memory' '^4\. Per EVP call' \
              'TLS1\.3 enc  *4 KiB' 'TLS1\.2 dec  *32 KiB' 'TLS1\.3 dec  *1 KiB' \
              'TLS1\.3 ctx after init' 'Where prov - raw goes' '^   total  ' '^6\. Key setup' \
              'key checks passed' '^eip93-bench: done'; do
    grep -q "$want" /tmp/bench.out || { echo "bench: output lacks /$want/"; exit 1; }
  done
  rows=$(grep -cE '^   TLS1\.[23] (enc|dec) .*\| .*\| ' /tmp/bench.out)
  [ "$rows" -ge 42 ] || { echo "bench: only $rows table rows"; exit 1; }
  echo "bench: smoke ok ($rows table rows)"
  ;;
esac
exit 0
