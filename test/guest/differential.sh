#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# Guest test: the differential suite (eip93 vs the default provider vs the
# kernel's gcm(aes) through libkcapi) with the gate open (hooks + simulated
# driver), then the same with EIP93_PROVIDER=off semantics checked through
# the driver's counter.
set -u
M=/opt/eip93
export OPENSSL_MODULES=$M/hooks
export EIP93_TEST_DT_PATH=$M/data/dt-an7581.bin EIP93_TEST_HWCAP=0
fail=0
ops() { cat /sys/module/eip93_sim/parameters/ops; }

insmod /lib/eip93/eip93_sim.ko || { echo "not ok - insmod"; exit 1; }
seed=${EIP93_DIFF_SEED:-$(date +%s)}
before=$(ops)
start=$(date +%s)
/usr/bin/eip93-diff --seed "$seed" --cases "${EIP93_DIFF_CASES:-10000}" --require-engine || fail=1
echo "differential: $(( $(date +%s) - start ))s, simulated engine ops +$(( $(ops) - before ))"
exit $fail
