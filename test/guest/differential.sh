#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# Guest test: the differential suite (eip93 vs the default provider vs the
# kernel's gcm(aes) through libkcapi) with the gate open (hooks + simulated
# driver), on the default composition (the engine's AES-CTR alone,
# ctr(aes-eip93)), then on the kernel's AES-GCM over it
# (kernel-algorithm = gcm_base(ctr(aes-eip93),ghash-generic)), then the ECB
# composition (kernel-algorithm = ecb(aes-eip93)) in the same boot; each run must bind the composition it names and move the simulated
# driver's counter; the first must take keystream computed ahead.  Then AES-CTR and AES-CBC (eip93-skc-diff) on AF_ALG
# with the driver's two bugs on and worked around, and each workaround off:
# faults counted (lib.sh skc_suite).
set -u
# shellcheck source=test/guest/lib.sh
. /opt/eip93/guest-lib.sh
an7581_hooks

insmod /lib/eip93/eip93_sim.ko || { echo "not ok - insmod"; exit 1; }
seed=${EIP93_DIFF_SEED:-$(date +%s)}

diff_run "CTR-only composition (default)" 'ctr(aes-eip93)' "${EIP93_DIFF_CASES:-10000}"
# Its TLS 1.3 streams (test/diff/tls13.c) take keystream computed ahead by the
# AF_ALG backend's worker thread (keystream-ahead = yes, the default).
ahead=$(sed -n 's/^eip93 counters after:.*eip93-keystream-ahead-used=[0-9]* (+\([0-9]*\)).*/\1/p' /tmp/diff.out)
if [ "${ahead:-0}" -gt 0 ]; then
  ok "CTR-only composition: records on keystream computed ahead over AF_ALG (+$ahead)"
else
  bad "CTR-only composition: no record took keystream computed ahead (${ahead:-none})"
fi

G='gcm_base(ctr(aes-eip93),ghash-generic)'
eip93_cnf /tmp/kgcm.cnf '' "kernel-algorithm = $G"
diff_run "kernel AES-GCM composition" "$G" "${EIP93_DIFF_KGCM_CASES:-3000}" --config /tmp/kgcm.cnf

# The ECB composition (what an engine without AES-CTR gets), forced on the EIP93's ECB.
eip93_cnf /tmp/ecb.cnf '' 'kernel-algorithm = ecb(aes-eip93)'
diff_run "ECB composition" 'ecb(aes-eip93)' "${EIP93_DIFF_ECB_CASES:-3000}" --config /tmp/ecb.cnf

start=$(date +%s)
skc_suite af_alg
echo "# time: AES-CTR and AES-CBC on AF_ALG: $(($(date +%s) - start)) s"
[ "$fail" -eq 0 ]
