#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# Guest test, booted with fips=1: a kernel in FIPS mode keeps the provider
# off even with the board and the CPU right (test hooks).
set -u
M=/opt/eip93
fail=0
v=$(cat /proc/sys/crypto/fips_enabled 2>/dev/null || echo missing)
[ "$v" = 1 ] && echo "ok - kernel reports fips_enabled = 1" || { echo "not ok - fips_enabled = $v"; fail=1; }
# No insmod here: a FIPS kernel panics on an unsigned module ("signature
# verification failed in FIPS mode"), and the gate asks about FIPS before it
# probes the kernel algorithm anyway.
cat >/tmp/prefer.cnf <<'CNF'
openssl_conf = openssl_init
[openssl_init]
providers = provider_sect
[provider_sect]
default = default_sect
eip93 = eip93_sect
[default_sect]
activate = 1
[eip93_sect]
activate = 1
CNF
if OPENSSL_MODULES=$M/hooks OPENSSL_CONF=/tmp/prefer.cnf EIP93_TEST_DT_PATH=$M/data/dt-an7581.bin \
   EIP93_TEST_HWCAP=0 eip93-gate-check disabled "fips: the kernel runs in FIPS mode"; then
  echo "ok - kernel FIPS mode offers nothing"
else
  echo "not ok - kernel FIPS mode"; fail=1
fi
exit $fail
