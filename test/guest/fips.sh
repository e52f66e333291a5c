#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# Guest test, booted with fips=1: a kernel in FIPS mode keeps the provider
# off even with the board and the CPU right (test hooks).
set -u
# shellcheck source=test/guest/lib.sh
. /opt/eip93/guest-lib.sh
v=$(cat /proc/sys/crypto/fips_enabled 2>/dev/null || echo missing)
if [ "$v" = 1 ]; then ok "kernel reports fips_enabled = 1"; else bad "fips_enabled = $v"; fi
# No insmod here: a FIPS kernel panics on an unsigned module ("signature
# verification failed in FIPS mode"), and the gate asks about FIPS before it
# probes the kernel algorithm anyway.
an7581_hooks
eip93_cnf /tmp/prefer.cnf ''
if OPENSSL_CONF=/tmp/prefer.cnf eip93-gate-check disabled "fips: the kernel runs in FIPS mode"; then
  ok "kernel FIPS mode offers nothing"
else
  bad "kernel FIPS mode"
fi
exit $fail
