#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# Guest script (busybox sh): run eip93-bench with the gate open (test-hooks
# build standing in for the AN7581 board, the simulated EIP93 driver loaded).
# Host side: scripts/bench.sh (the benchmark) or the guest_bench_smoke test.
# Arguments for eip93-bench come from EIP93_BENCH_ARGS (run.sh --env), e.g.
# "--smoke" (then only the shape of the output is checked) or "--rounds 9".
# The smoke test runs twice in its boot: on the gate's first choice
# (ctr(aes-eip93)), then on the kernel's AES-GCM over it
# (kernel-algorithm = gcm_base(ctr(aes-eip93),ghash-generic)).
set -u
# shellcheck source=test/guest/lib.sh
. /opt/eip93/guest-lib.sh
an7581_hooks
BENCH=/usr/bin/eip93-bench
ARGS=${EIP93_BENCH_ARGS:-}

# kalg_conf [KALG]: OPENSSL_CONF measuring that composition (kernel-algorithm;
# none: the gate's first), on the serial path: sections 1-7 set the provider
# against a serial raw loop (keystream-ahead = no); section 8 makes its own
# instances with keystream ahead off and on.
kalg_conf() {
  eip93_cnf /tmp/bench.cnf '' 'notice = no' 'keystream-ahead = no' ${1:+"kernel-algorithm = $1"}
  export OPENSSL_CONF=/tmp/bench.cnf
}
# EIP93_BENCH_KALG: measure that composition (kernel-algorithm) instead of the gate's first.
kalg_conf "${EIP93_BENCH_KALG:-}"
insmod /lib/eip93/eip93_sim.ko || { echo "bench: cannot load the simulated driver"; exit 1; }
echo "bench: guest kernel $(uname -r), clocksource" \
  "$(cat /sys/devices/system/clocksource/clocksource0/current_clocksource 2>/dev/null)"

# bench WANT_KALG: one run; for --smoke, the table is there, complete, on WANT_KALG
# ("" = any); no number is judged.
bench() {
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
    for want in '^1\. Engine path vs raw AF_ALG' '^2\. Delegated' '^3\. Memory' '^4\. Per EVP call' \
                'TLS1\.3 enc  *4 KiB' 'TLS1\.2 dec  *32 KiB' 'TLS1\.3 dec  *1 KiB' \
                'TLS1\.3 ctx after init' 'Where prov - raw goes' '^   total  ' '^6\. Key setup' \
                'key checks passed' '^eip93-bench: done'; do
      grep -q "$want" /tmp/bench.out || { echo "bench: output lacks /$want/"; exit 1; }
    done
    if [ -n "$1" ]; then
      grep -qF "kernel algorithm $1" /tmp/bench.out || { echo "bench: not measured on $1"; exit 1; }
    fi
    rows=$(grep -cE '^   TLS1\.[23] (enc|dec) .*\| .*\| ' /tmp/bench.out)
    [ "$rows" -ge 42 ] || { echo "bench: only $rows table rows"; exit 1; }
    echo "bench: smoke ok${1:+ on $1} ($rows table rows)"
    ;;
  esac
}

case " $ARGS " in
*" --smoke "*)
  if [ -n "${EIP93_BENCH_KALG:-}" ]; then
    bench "$EIP93_BENCH_KALG"
  else
    bench 'ctr(aes-eip93)'
    kalg_conf 'gcm_base(ctr(aes-eip93),ghash-generic)'
    bench 'gcm_base(ctr(aes-eip93),ghash-generic)'
  fi
  ;;
*) bench "" ;;
esac
exit 0
