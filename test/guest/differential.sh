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
M=/opt/eip93
export OPENSSL_MODULES=$M/hooks
export EIP93_TEST_DT_PATH=$M/data/dt-an7581.bin EIP93_TEST_HWCAP=0
fail=0
ops() { cat /sys/module/eip93_sim/parameters/ops; }

insmod /lib/eip93/eip93_sim.ko || { echo "not ok - insmod"; exit 1; }
seed=${EIP93_DIFF_SEED:-$(date +%s)}

# run LABEL KALG CASES [eip93-diff arguments...]
run() {
  label=$1 kalg=$2 cases=$3
  shift 3
  before=$(ops)
  start=$(date +%s)
  /usr/bin/eip93-diff --seed "$seed" --cases "$cases" --require-engine "$@" >/tmp/diff.out 2>&1 ||
    { echo "not ok - $label: eip93-diff failed"; fail=1; }
  cat /tmp/diff.out
  d=$(( $(ops) - before ))
  echo "differential ($label): $(( $(date +%s) - start ))s, simulated engine ops +$d"
  grep -qxF "eip93 gate: enabled: $kalg" /tmp/diff.out && echo "ok - $label: the gate bound $kalg" ||
    { echo "not ok - $label: the gate did not bind $kalg"; fail=1; }
  [ "$d" -gt 0 ] && echo "ok - $label: the simulated engine computed (ops +$d)" ||
    { echo "not ok - $label: the simulated engine's counter did not move"; fail=1; }
}

run "CTR-only composition (default)" 'ctr(aes-eip93)' "${EIP93_DIFF_CASES:-10000}"

G='gcm_base(ctr(aes-eip93),ghash-generic)'
cat >/tmp/kgcm.cnf <<CNF
openssl_conf = conf
[conf]
providers = provs
[provs]
eip93 = eip93_sect
default = default_sect
[default_sect]
activate = 1
[eip93_sect]
activate = 1
kernel-algorithm = $G
CNF
run "kernel AES-GCM composition" "$G" "${EIP93_DIFF_KGCM_CASES:-3000}" --config /tmp/kgcm.cnf
exit $fail
