#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# Guest test: keystream faults after the key check (hooks build, gate open,
# simulated EIP93 driver with its fault knobs).  For each fault mode
# eip93-integrity-check runs 400 engine-eligible messages on six verified
# keys and checks what reaches the caller; then eip93-diff runs with the
# driver flipping a bit of the last block of every result from its 200th
# request on: no divergence, and the provider caught what the driver did.
set -u
M=/opt/eip93
P=/sys/module/eip93_sim/parameters
export OPENSSL_MODULES=$M/hooks
export EIP93_TEST_DT_PATH=$M/data/dt-an7581.bin EIP93_TEST_HWCAP=0
pass=0 fail=0
ok() { echo "ok - $*"; pass=$((pass + 1)); }
bad() { echo "not ok - $*"; fail=$((fail + 1)); }

insmod /lib/eip93/eip93_sim.ko || { echo "not ok - insmod eip93_sim.ko"; exit 1; }
openssl rand -hex 16 >/dev/null   # the first getrandom() of the boot waits for the CRNG

for mode in first last nowrite edge middle random; do
  echo 0 >$P/fault
  if eip93-integrity-check $mode 400; then ok "fault mode $mode"; else bad "fault mode $mode"; fi
done

# The differential test's traffic (generic, TLS 1.2 and 1.3 records, re-inits, copies)
# with the last block of every engine result wrong from the driver's 200th request on.
echo 0 >$P/fault
echo -1 >$P/fault_block
echo 200 >$P/fault_after
f0=$(cat $P/faults)
echo 1 >$P/fault
# The kernel reference must not be the faulting driver (it is the kernel's gcm(aes) too).
out=$(eip93-diff --seed 4242 --cases 2000 --kernel-alg 'gcm_base(ctr(aes-generic),ghash-generic)' 2>&1)
rc=$?
echo 0 >$P/fault
f1=$(cat $P/faults)
echo "$out" | grep -E "passed|FAIL|counters after" | head -n 12
if [ $rc -eq 0 ] && [ $((f1 - f0)) -gt 0 ]; then
  ok "eip93-diff with the last block faulted: no divergence ($((f1 - f0)) engine results faulted)"
else
  bad "eip93-diff with the last block faulted (exit $rc, faulted $((f1 - f0)))"
fi
if dmesg | grep -E 'BUG|WARNING|Oops|general protection' >/tmp/dmesg.bad; then
  bad "kernel log is clean"; cat /tmp/dmesg.bad
else ok "kernel log is clean"; fi
echo "integrity: $pass passed, $fail failed"
[ "$fail" -eq 0 ]
