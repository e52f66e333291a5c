#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# arm64 guest, device tree "airoha,an7581", CPU without AES (eip93_nohwcap),
# the simulated driver: the release eip93.so on the real gate under seccomp.
# eip93-seccomp-check (test/sandbox/seccomp_check.c, the same
# program as the x86_64 guest's) forks, after the gate opened: an unfiltered
# control that must reach the engine (engine messages and driver ops rise);
# children under an OpenSSH-style filter (socket and prctl kill with
# SIGSYS, openat EACCES) and under a filter leaving /proc readable, which
# must survive a 16 KiB AES-256-GCM message, match the default provider byte
# for byte and count "seccomp" with engine messages and driver ops +0; and
# two negative controls that must die of SIGSYS: a direct socket(AF_ALG)
# and prctl(PR_GET_SECCOMP) under that filter.  The provider's counters are
# read through its gettable parameters; no hook variable is set.
set -u
. /opt/eip93/lib.sh
printf '   compatible: %s\n' "$(tr '\0' ' ' </proc/device-tree/compatible)"
grep -q 'airoha,an7581' /proc/device-tree/compatible && ok "device tree says airoha,an7581" ||
  bad "device tree is not airoha,an7581"
insmod /lib/eip93/eip93_nohwcap.ko || bad "insmod eip93_nohwcap.ko"
insmod /lib/eip93/eip93_sim.ko || bad "insmod eip93_sim.ko"
[ "$(hwcap_aes)" = 0 ] && ok "AT_HWCAP without AES" || bad "AT_HWCAP still has AES"

before=$(ops)
rc=0
eip93-seccomp-check --ops /sys/module/eip93_sim/parameters/ops >/tmp/seccomp.out 2>&1 || rc=$?
sed 's/^/   | /' /tmp/seccomp.out
[ "$rc" -eq 0 ] && ok "eip93-seccomp-check: every child as required" ||
  bad "eip93-seccomp-check exited $rc"
# The same facts, named here so that a changed program cannot pass silently.
grep -q '^seccomp-check: eip93 .*(release, .*; gate: enabled: ctr(aes-eip93)' /tmp/seccomp.out &&
  ok "the release build, gate open" || bad "not the release build with the gate open"
grep -q '^ok - control (no filter): driver ops +[1-9]' /tmp/seccomp.out &&
  ok "control: the unfiltered process reaches the driver" || bad "control did not reach the driver"
for m in 'openssh-style filter' 'filter, /proc readable'; do
  grep -q "^seccomp-check: $m: AES-256-GCM from eip93, 16384 bytes equal" /tmp/seccomp.out &&
    grep -q "^ok - $m: driver ops +0\$" /tmp/seccomp.out &&
    ok "$m: survived, default provider's bytes, driver ops +0" || bad "$m"
done
[ "$(grep -c '^ok - negative control: .*: killed by SIGSYS$' /tmp/seccomp.out)" -eq 2 ] &&
  ok "negative controls: socket(AF_ALG) and prctl under the filter die of SIGSYS" ||
  bad "negative controls"
echo "   simulated engine ops +$(( $(ops) - before )) over the whole run"
finish "arm64 sandbox (seccomp)"
