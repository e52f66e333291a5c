#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# Guest test: the NIST CAVP AES-GCM vectors (gcmEncryptExtIV*.rsp and
# gcmDecrypt*.rsp from Debian's python3-cryptography-vectors) through eip93
# with the gate open: every IV length (8..1024 bits), every tag length
# (32..128 bits), the FAIL vectors refused.  All are shorter than the engine
# window, so the simulated driver must see no request.  Negative control:
# with EIP93_PROVIDER=off the driver cannot fetch its cipher.
set -u
# shellcheck source=test/harness/common.sh
. /opt/eip93/harness/common.sh
C=/opt/eip93/cavp

check_openssl /usr/bin/eip93-cavp
load_driver
eip93_cnf /tmp/prefer.cnf '?provider=eip93'
export OPENSSL_CONF=/tmp/prefer.cnf

before=$(ops)
out=$(/usr/bin/eip93-cavp $C/gcmEncryptExtIV*.rsp $C/gcmDecrypt*.rsp 2>&1)
rc=$?
delta=$(( $(ops) - before ))
printf '%s\n' "$out" | tail -n 60
total=$(printf '%s\n' "$out" | sed -n 's/^eip93-cavp: total \([0-9]*\) vectors.*/\1/p')
[ "$rc" -eq 0 ] && ok "CAVP: all ${total:-?} vectors passed through eip93" || bad "CAVP vectors (exit $rc)"
printf '%s\n' "$out" | grep -q "^eip93-cavp: OpenSSL $EIP93_OPENSSL_SERIES\." &&
  ok "eip93-cavp runs on OpenSSL $EIP93_OPENSSL_SERIES" || bad "eip93-cavp runs on another OpenSSL"
[ "$delta" -eq 0 ] && ok "no engine request for vectors below the window" ||
  bad "$delta engine requests for vectors below the window"

if EIP93_PROVIDER=off /usr/bin/eip93-cavp $C/gcmEncryptExtIV128.rsp >/dev/null 2>&1; then
  bad "provider off: vectors still ran (eip93 was not what served them)"
else
  ok "provider off: AES-GCM with provider=eip93 cannot be fetched"
fi

echo "harness cavp (OpenSSL $EIP93_OPENSSL_SERIES): $pass passed, $fail failed; ${total:-0} vectors"
[ "$fail" -eq 0 ]
