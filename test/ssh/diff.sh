#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# Guest test: eip93-ssh-diff (OpenSSH's SET_IV_FIXED(-1) + IV_GEN shape,
# bad tags, IV_INV-style misuse) against the default provider on the real
# AF_ALG path, then with engine calls failing on purpose (EIP93_TEST_FAULT,
# hooks build) so that messages leave the engine and are replayed in
# software, after which IV_GEN must go on exactly as the default's.  Without
# faults, packets must take keystream computed ahead (IV_GEN's +1 nonces).
set -u
# shellcheck source=test/guest/lib.sh
. /opt/eip93/guest-lib.sh
an7581_hooks
export OPENSSL_CONF=/dev/null
insmod /lib/eip93/eip93_sim.ko || { echo "not ok - insmod"; exit 1; }
fail=0
for f in none sendmsg:9 read:5 read:0; do
  before=$(ops)
  if [ "$f" = none ]; then
    /usr/bin/eip93-ssh-diff --seed "${SEED:-7}" --packets "${PACKETS:-150}" --require-engine \
      --require-ahead >/tmp/d.out 2>&1
  else
    EIP93_TEST_FAULT=$f /usr/bin/eip93-ssh-diff --seed "${SEED:-7}" --packets "${PACKETS:-150}" >/tmp/d.out 2>&1
  fi
  rc=$?
  grep -v '^eip93:' /tmp/d.out | tail -n 2
  if [ $rc -eq 0 ]; then
    echo "ok - ssh shape, fault $f: 0 divergences, driver ops +$(( $(ops) - before ))"
  else
    echo "not ok - ssh shape, fault $f"; grep '^DIFF\|FAIL' /tmp/d.out | head -n 20; fail=1
  fi
done
exit $fail
