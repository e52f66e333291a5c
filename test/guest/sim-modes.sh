#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
#
# Guest script (busybox sh): the simulated EIP93 driver's other modes and
# modelled driver bugs at the kernel interface.  eip93-sim-modes-check
# (test/guest/sim-modes/) on a freshly loaded eip93_sim.ko: cbc(aes-eip93)
# and ecb(aes-eip93) registered as the real driver registers them and equal
# to the kernel's generic templates, bug_direction, bug_ctr32 and
# fault_layout; then the module unloads and the kernel stayed healthy.
# Host side: guest_sim_modes (test/guest/guest.cmake).
set -u
# shellcheck source=test/guest/lib.sh
. /opt/eip93/guest-lib.sh

insmod /lib/eip93/eip93_sim.ko || { echo "not ok - insmod eip93_sim.ko"; exit 1; }
if /usr/bin/eip93-sim-modes-check; then
  ok "eip93-sim-modes-check: every check passed"
else
  bad "eip93-sim-modes-check"
fi
if rmmod eip93_sim; then ok "rmmod eip93_sim (no transform left behind)"; else bad "rmmod eip93_sim"; fi
tainted=$(cat /proc/sys/kernel/tainted)
if [ $((tainted & (128 | 512))) -eq 0 ]; then ok "no kernel warning or oops (tainted=$tainted)"
else bad "kernel warning or oops (tainted=$tainted)"; fi
errs=$(dmesg | grep -E 'BUG:|WARNING:|Oops|Call Trace|alg: .*(fail|error)' || true)
if [ -z "$errs" ]; then ok "no kernel errors in dmesg"
else
  printf '%s\n' "$errs" | sed 's/^/#   /'
  bad "kernel errors in dmesg"
fi
echo "# sim-modes: $pass passed, $fail failed"
[ "$fail" -eq 0 ]
