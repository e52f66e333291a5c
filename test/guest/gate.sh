#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# Guest test: the gate, case by case, with the real kernel and the simulated
# EIP93 driver.  Runs inside the QEMU guest (busybox sh).
set -u
# shellcheck source=test/guest/lib.sh
. /opt/eip93/guest-lib.sh

eip93_cnf /tmp/prefer.cnf '?provider=eip93'
eip93_cnf /tmp/force.cnf 'provider=eip93'
eip93_cnf /tmp/enable-no.cnf '?provider=eip93' 'enable = no'
eip93_cnf /tmp/fips.cnf 'fips=yes'
eip93_cnf /tmp/kgcm.cnf '?provider=eip93' 'kernel-algorithm = gcm_base(ctr(aes-eip93),ghash-generic)'

# case DESC BUILD CONF DT HWCAP VERDICT TEXT...  (DT/HWCAP "-" = unset)
case_() {
  desc=$1 build=$2 cnf=$3 dt=$4 hw=$5
  shift 5
  if (
    export OPENSSL_MODULES=$M/$build OPENSSL_CONF=$cnf
    [ "$dt" = - ] || export EIP93_TEST_DT_PATH=$M/data/$dt
    [ "$hw" = - ] || export EIP93_TEST_HWCAP=$hw
    eip93-gate-check "$@"
  ); then ok "$desc"; else bad "$desc"; fi
}

C='ctr(aes-eip93)'
G='gcm_base(ctr(aes-eip93),ghash-generic)'
L='gcm_base(ctr(aes-eip93),ghash-lib)'

echo "# no driver loaded"
case_ "release build, no hooks: offers nothing" release /tmp/prefer.cnf dt-an7581.bin 0 \
  disabled "device tree: /proc/device-tree/compatible: ENOENT"
case_ "hooks without the driver: offers nothing, names every bind error (CTR-only first)" hooks \
  /tmp/prefer.cnf dt-an7581.bin 0 disabled "kernel: AF_ALG bind $C: ENOENT" \
  "kernel: AF_ALG bind $G: ENOENT" "$L: ENOENT" "the EIP93 driver is not loaded"

echo "# simulated EIP93 driver loaded"
insmod /lib/eip93/eip93_sim.ko || bad "insmod eip93_sim.ko"
grep -q 'ctr(aes-eip93)' /proc/crypto && ok "driver registered ctr(aes-eip93)" || bad "driver not in /proc/crypto"
case_ "hooks + driver: offers AES-GCM over the CTR-only composition" hooks /tmp/prefer.cnf \
  dt-an7581.bin 0 enabled "enabled: $C"
case_ "hooks + driver, en7581" hooks /tmp/prefer.cnf dt-en7581.bin 0 enabled "enabled: $C"
case_ "default_properties = provider=eip93: delegate never resolves to eip93" hooks /tmp/force.cnf \
  dt-an7581.bin 0 enabled "enabled: $C"
case_ "kernel-algorithm = ...ghash-generic): the kernel's AES-GCM composition" hooks /tmp/kgcm.cnf \
  dt-an7581.bin 0 enabled "enabled: $G"
case_ "release build with the driver: still offers nothing" release /tmp/prefer.cnf dt-an7581.bin 0 \
  disabled "device tree:"
(
  export EIP93_PROVIDER=off
  export OPENSSL_MODULES=$M/hooks OPENSSL_CONF=/tmp/prefer.cnf
  export EIP93_TEST_DT_PATH=$M/data/dt-an7581.bin EIP93_TEST_HWCAP=0
  eip93-gate-check disabled "switched off by EIP93_PROVIDER=off"
) && ok "EIP93_PROVIDER=off offers nothing" || bad "EIP93_PROVIDER=off"
case_ "enable = no offers nothing" hooks /tmp/enable-no.cnf dt-an7581.bin 0 disabled \
  "switched off by config (enable = no)"
case_ "an7583 offers nothing" hooks /tmp/prefer.cnf dt-an7583.bin 0 disabled "AN7583/EN7583"
case_ "CPU with AES instructions offers nothing" hooks /tmp/prefer.cnf dt-an7581.bin 8 disabled \
  "cpu: has the ARMv8 AES instructions"
case_ "OpenSSL default properties fips=yes offer nothing" hooks /tmp/fips.cnf dt-an7581.bin 0 \
  disabled "fips: OpenSSL default properties ask for FIPS"

out=$(OPENSSL_MODULES=$M/hooks OPENSSL_CONF=/tmp/prefer.cnf EIP93_TEST_DT_PATH=$M/data/dt-an7581.bin \
  EIP93_TEST_HWCAP=0 openssl list -providers -verbose 2>&1)
echo "$out" | grep -qF "(enabled: $C)" && ok "openssl list -providers shows the verdict" ||
  { bad "openssl list -providers"; echo "$out"; }
out=$(OPENSSL_MODULES=$M/hooks OPENSSL_CONF=/tmp/prefer.cnf EIP93_TEST_DT_PATH=$M/data/dt-an7581.bin \
  EIP93_TEST_HWCAP=0 openssl list -cipher-algorithms 2>&1)
echo "$out" | grep -q 'aes-256-gcm.*@ eip93' && ok "openssl list -cipher-algorithms lists eip93" ||
  { bad "cipher list"; echo "$out"; }

echo "# driver removed"
rmmod eip93_sim || bad "rmmod eip93_sim"
case_ "after rmmod: offers nothing again" hooks /tmp/prefer.cnf dt-an7581.bin 0 disabled \
  "kernel: AF_ALG bind $C: ENOENT" "kernel: AF_ALG bind $G: ENOENT"

echo "gate: $pass passed, $fail failed"
[ "$fail" -eq 0 ]
