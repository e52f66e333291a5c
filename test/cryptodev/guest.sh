#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# Guest test: the provider's /dev/crypto backend (alg/cryptodev.c) on the
# simulated driver.  cryptodev.ko (built from the pinned upstream source,
# test/cryptodev/build-module.sh) is loaded next to eip93_sim.ko; the rig's
# own client first shows what serves a CRYPTO_AES_CTR and a CRYPTO_AES_GCM
# session (CIOCGSESSINFO) and checks both against OpenSSL; then, with the
# AF_ALG socket modules removed where the kernel lets them go (so that only
# /dev/crypto can reach the engine), the hooks build with
# EIP93_TEST_ENGINE=cryptodev must open its gate on ctr(aes-eip93) and on
# the kernel's AES-GCM, and eip93-diff must find 0 divergences from the
# default provider (--no-kernel: its libkcapi reference needs the AF_ALG
# modules this test removes) with the simulated driver's op counter moving.
set -u
M=/opt/eip93
export OPENSSL_MODULES=$M/hooks
export EIP93_TEST_DT_PATH=$M/data/dt-an7581.bin EIP93_TEST_HWCAP=0
CTR='ctr(aes-eip93)'
G='gcm_base(ctr(aes-eip93),ghash-generic)'
fail=0
ops() { cat /sys/module/eip93_sim/parameters/ops; }
pass() { echo "ok - $*"; }
flunk() { echo "not ok - $*"; fail=1; }

insmod /lib/eip93/eip93_sim.ko || { echo "not ok - insmod eip93_sim"; exit 1; }
insmod /lib/eip93/cryptodev.ko || { echo "not ok - insmod cryptodev"; exit 1; }
[ -c /dev/crypto ] && pass "/dev/crypto is a character device" || flunk "no /dev/crypto"

before=$(ops)
/usr/bin/eip93-cdev-check "$CTR" "$G" || flunk "eip93-cdev-check"
d=$(( $(ops) - before ))
[ "$d" -gt 0 ] && pass "the rig's /dev/crypto requests reached the simulated driver (ops +$d)" ||
  flunk "the rig's /dev/crypto requests did not reach the simulated driver"

# AF_ALG out of the way: the AF_ALG backend must now fail to bind, so the
# cryptodev run below cannot be served by AF_ALG.
afalg_gone=1
for m in algif_aead algif_skcipher; do
  rmmod "$m" 2>/dev/null || afalg_gone=0
done
if [ "$afalg_gone" = 1 ]; then
  /usr/bin/eip93-diff --cases 1 >/tmp/gate-afalg.out 2>&1
  grep '^eip93 gate:' /tmp/gate-afalg.out
  if grep -q '^eip93 gate: disabled' /tmp/gate-afalg.out; then
    pass "with algif_aead and algif_skcipher removed the AF_ALG backend's gate stays closed"
  else
    flunk "the AF_ALG backend's gate did not stay closed with the socket modules removed"
    cat /tmp/gate-afalg.out
  fi
else
  echo "# note: the AF_ALG socket modules could not be removed; the backend is still forced"
fi

export EIP93_TEST_ENGINE=cryptodev
seed=${EIP93_DIFF_SEED:-$(date +%s)}

# run LABEL KALG CASES [eip93-diff arguments...]
run() {
  label=$1 kalg=$2 cases=$3
  shift 3
  before=$(ops)
  start=$(date +%s)
  /usr/bin/eip93-diff --seed "$seed" --cases "$cases" --require-engine --no-kernel "$@" >/tmp/diff.out 2>&1 ||
    flunk "$label: eip93-diff failed"
  cat /tmp/diff.out
  d=$(( $(ops) - before ))
  echo "differential over /dev/crypto ($label): $(( $(date +%s) - start ))s, simulated engine ops +$d"
  grep -qxF "eip93 gate: enabled: $kalg" /tmp/diff.out && pass "$label: the gate bound $kalg through /dev/crypto" ||
    flunk "$label: the gate did not bind $kalg"
  [ "$d" -gt 0 ] && pass "$label: the simulated engine computed (ops +$d)" ||
    flunk "$label: the simulated engine's counter did not move"
}

run "CTR-only composition" "$CTR" "${EIP93_DIFF_CASES:-10000}"

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
