#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# Guest test: the differential suite (eip93 vs the default provider vs the
# kernel's gcm(aes) through libkcapi) with the gate open (hooks + simulated
# driver), on the default composition (the engine's AES-CTR alone,
# ctr(aes-eip93)), then on the kernel's AES-GCM over it
# (kernel-algorithm = gcm_base(ctr(aes-eip93),ghash-generic)) in the same
# boot; each run must bind the composition it names and move the simulated
# driver's counter.
set -u
# shellcheck source=test/guest/lib.sh
. /opt/eip93/guest-lib.sh
an7581_hooks

insmod /lib/eip93/eip93_sim.ko || { echo "not ok - insmod"; exit 1; }
seed=${EIP93_DIFF_SEED:-$(date +%s)}

# run LABEL KALG CASES [eip93-diff arguments...]
run() {
  label=$1 kalg=$2 cases=$3
  shift 3
  before=$(ops)
  start=$(date +%s)
  /usr/bin/eip93-diff --seed "$seed" --cases "$cases" --require-engine "$@" >/tmp/diff.out 2>&1 ||
    bad "$label: eip93-diff failed"
  cat /tmp/diff.out
  d=$(( $(ops) - before ))
  echo "differential ($label): $(( $(date +%s) - start ))s, simulated engine ops +$d"
  grep -qxF "eip93 gate: enabled: $kalg" /tmp/diff.out && ok "$label: the gate bound $kalg" ||
    bad "$label: the gate did not bind $kalg"
  [ "$d" -gt 0 ] && ok "$label: the simulated engine computed (ops +$d)" ||
    bad "$label: the simulated engine's counter did not move"
}

run "CTR-only composition (default)" 'ctr(aes-eip93)' "${EIP93_DIFF_CASES:-10000}"

G='gcm_base(ctr(aes-eip93),ghash-generic)'
eip93_cnf /tmp/kgcm.cnf '' "kernel-algorithm = $G"
run "kernel AES-GCM composition" "$G" "${EIP93_DIFF_KGCM_CASES:-3000}" --config /tmp/kgcm.cnf
[ "$fail" -eq 0 ]
