#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# Guest script (busybox sh): /dev/crypto beside AF_ALG, eip93-bench's section
# 7 (test/bench/cdev.c), on the simulated driver with cryptodev.ko (built with
# its asynchronous requests, test/cryptodev/bench.cmake).  One boot, two runs:
# the gate's first choice ctr(aes-eip93) (sync and async raw /dev/crypto
# loops), then the kernel AES-GCM over it (CIOCAUTHCRYPT).  Arguments come
# from EIP93_BENCH_ARGS (run.sh --env), "--sections 7" at least.  What is
# checked: the three tables are complete for 4/16/32 KiB encrypt and decrypt,
# every row's /dev/crypto provider messages took the engine, the raw loops'
# answers equal the default provider's (eip93-bench exits non-zero
# otherwise), and the async loop ran on ctr(aes-eip93).  No time is judged.
set -u
# shellcheck source=test/guest/lib.sh
. /opt/eip93/guest-lib.sh
an7581_hooks
BENCH=/usr/bin/eip93-bench
ARGS=${EIP93_BENCH_ARGS:---sections 7}
CTR='ctr(aes-eip93)'
G='gcm_base(ctr(aes-eip93),ghash-generic)'

insmod /lib/eip93/eip93_sim.ko || { echo "bench: cannot load the simulated driver"; exit 1; }
insmod /lib/eip93/cryptodev.ko || { echo "bench: cannot load cryptodev.ko"; exit 1; }
[ -c /dev/crypto ] || { echo "bench: no /dev/crypto"; exit 1; }
echo "bench: guest kernel $(uname -r), clocksource" \
  "$(cat /sys/devices/system/clocksource/clocksource0/current_clocksource 2>/dev/null)"

# bench KALG: one run of section 7 with kernel-algorithm = KALG.
bench() {
  eip93_cnf /tmp/bench.cnf '' 'notice = no' "kernel-algorithm = $1"
  before=$(ops)
  # shellcheck disable=SC2086 # ARGS is a list of options
  OPENSSL_CONF=/tmp/bench.cnf $BENCH $ARGS >/tmp/bench.out 2>/tmp/bench.err
  rc=$?
  cat /tmp/bench.out
  sed 's/^/bench stderr: /' /tmp/bench.err
  echo "bench: simulated EIP93 driver requests during the run: $(( $(ops) - before ))"
  [ "$rc" -eq 0 ] || { echo "bench: eip93-bench exited with status $rc"; exit 1; }
  grep -qF "7. /dev/crypto beside AF_ALG (kernel algorithm $1," /tmp/bench.out ||
    { echo "bench: section 7 not measured on $1"; exit 1; }
  for want in 'us per message' 'throughput ratios' 'syscalls per message' '^eip93-bench: done'; do
    grep -q "$want" /tmp/bench.out || { echo "bench: output lacks /$want/"; exit 1; }
  done
  ! grep -q 'failed, see stderr' /tmp/bench.out || { echo "bench: a row failed"; exit 1; }
  rows=$(grep -cE '^   (enc|dec) +(4|16|32) KiB \|' /tmp/bench.out)
  [ "$rows" -eq 18 ] || { echo "bench: $rows table rows, not 18 (6 per table)"; exit 1; }
  engine=$(grep -cE '^   (enc|dec) +(4|16|32) KiB \|.*\| 100%$' /tmp/bench.out)
  [ "$engine" -eq 6 ] || { echo "bench: the /dev/crypto provider took the engine in $engine of 6 rows"; exit 1; }
  echo "bench: section 7 ok on $1 ($rows table rows)"
}

# EIP93_CDEV_BENCH_KALG: only that composition (e.g. for a paired before/after run).
if [ -n "${EIP93_CDEV_BENCH_KALG:-}" ]; then
  bench "$EIP93_CDEV_BENCH_KALG"
  exit 0
fi
bench "$CTR"
# The module must take asynchronous requests (built with ENABLE_ASYNC); a row
# where one failed is reported by eip93-bench and measured without the loop.
grep -q 'raw async: not measured' /tmp/bench.out &&
  { echo "bench: the async loop did not run on $CTR (cryptodev.ko without ENABLE_ASYNC?)"; exit 1; }
echo "bench: async loop measured in $(grep -cE '^   (enc|dec) +(4|16|32) KiB \|.*\| +[0-9.]+ \| (100%|NO)$' /tmp/bench.out) of 6 rows"
bench "$G"
exit 0
