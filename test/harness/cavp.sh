#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# Guest test: published vectors through eip93 with the gate open, from
# Debian's python3-cryptography-vectors:
#   AES-GCM  NIST CAVP gcmEncryptExtIV*.rsp and gcmDecrypt*.rsp: every IV
#            length (8..1024 bits), every tag length (32..128 bits), the FAIL
#            vectors refused.  All are shorter than the engine window, so the
#            simulated driver must see no request.
#   AES-CTR  RFC 3686's vectors (aes-{128,192,256}-ctr.txt)
#   AES-CBC  NIST CAVP CBC{GFSbox,KeySbox,VarKey,VarTxt,MMT}{128,192,256}.rsp
#            (the known-answer and multi-block message files; the package has
#            no Monte Carlo file)
# AES-CTR and AES-CBC run where this tree's simulated driver registers the
# mode (has_skc, common.sh), each vector both ways in one update and block
# by block: at the default window with no engine request, then with the
# window opened to 16 bytes (min-size = 16) through the engine: driver
# requests and eip93's engine-message counter must move.  Negative
# controls: with EIP93_PROVIDER=off eip93-cavp cannot fetch its ciphers.
set -u
# shellcheck source=test/harness/common.sh
. /opt/eip93/harness/common.sh
C=/opt/eip93/cavp

check_openssl /usr/bin/eip93-cavp
load_driver
check_skc_offered
eip93_cnf /tmp/prefer.cnf '?provider=eip93'
eip93_cnf /tmp/prefer16.cnf '?provider=eip93' 'min-size = 16'

# cavp_run NAME CONF ARGS...: eip93-cavp under CONF passes every vector of
# ARGS; delta: the driver's requests meanwhile, total: the vectors, em:
# eip93's engine messages.
cavp_run() {
  _name=$1 _conf=$2
  shift 2
  before=$(ops)
  out=$(OPENSSL_CONF=$_conf /usr/bin/eip93-cavp "$@" 2>&1)
  rc=$?
  delta=$(($(ops) - before))
  printf '%s\n' "$out" | tail -n 60
  total=$(printf '%s\n' "$out" | sed -n 's/^eip93-cavp: total \([0-9]*\) vectors.*/\1/p')
  em=$(printf '%s\n' "$out" | sed -n 's/^eip93-cavp: eip93 engine messages: //p')
  echo "# $_name: exit $rc, ${total:-0} vectors, eip93 engine messages ${em:-?}, simulated engine ops +$delta"
  if [ "$rc" -eq 0 ] && [ "${total:-0}" -gt 0 ]; then
    ok "$_name: all $total vectors passed through eip93"
  else
    bad "$_name (exit $rc)"
  fi
}

cavp_run "CAVP AES-GCM" /tmp/prefer.cnf $C/gcmEncryptExtIV*.rsp $C/gcmDecrypt*.rsp
ngcm=${total:-0}
if printf '%s\n' "$out" | grep -q "^eip93-cavp: OpenSSL $EIP93_OPENSSL_SERIES\."; then
  ok "eip93-cavp runs on OpenSSL $EIP93_OPENSSL_SERIES"
else
  bad "eip93-cavp runs on another OpenSSL"
fi
engine_none "CAVP AES-GCM, below the window"
if EIP93_PROVIDER=off OPENSSL_CONF=/tmp/prefer.cnf /usr/bin/eip93-cavp $C/gcmEncryptExtIV128.rsp >/dev/null 2>&1; then
  bad "provider off: vectors still ran (eip93 was not what served them)"
else
  ok "provider off: AES-GCM with provider=eip93 cannot be fetched"
fi
summary="$ngcm AES-GCM"

for m in ctr cbc; do
  has_skc $m || continue
  M=$(printf '%s' "$m" | tr '[:lower:]' '[:upper:]')
  if [ $m = ctr ]; then
    set -- /opt/eip93/cavp-ctr/aes-*-ctr.txt
  else
    set -- /opt/eip93/cavp-cbc/CBC*.rsp
  fi
  cavp_run "AES-$M vectors, default window" /tmp/prefer.cnf "$@"
  n=${total:-0}
  engine_none "AES-$M vectors, default window"
  cavp_run "AES-$M vectors, window from 16 bytes" /tmp/prefer16.cnf --min-engine 1 "$@"
  engine_some "AES-$M vectors, window from 16 bytes"
  summary="$summary + $n AES-$M (window 16: ${em:-0} engine messages, +$delta driver requests)"
  if EIP93_PROVIDER=off OPENSSL_CONF=/tmp/prefer.cnf /usr/bin/eip93-cavp "$1" >/dev/null 2>&1; then
    bad "provider off: AES-$M vectors still ran (eip93 was not what served them)"
  else
    ok "provider off: AES-$M with provider=eip93 cannot be fetched"
  fi
done

echo "harness cavp (OpenSSL $EIP93_OPENSSL_SERIES): $pass passed, $fail failed; vectors: $summary"
[ "$fail" -eq 0 ]
