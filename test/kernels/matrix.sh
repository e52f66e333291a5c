#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# Guest test (busybox sh) for one kernel of the matrix: the gate's verdict
# with the simulated EIP93 driver loaded, the doctor's reading of it, a
# differential run and a TLS transfer.  Environment (from run.sh --env):
#   EXPECT    "offload:<composition>" or "refuse:<text the status must name>"
#   RESTRICT  value to write to /proc/sys/crypto/af_alg_restrict first ("-": leave)
#   CASES     eip93-diff cases (reduced set)
#   ALSO      on an offload row, a second composition to run the same checks on in
#             this boot, chosen with kernel-algorithm ("-" or unset: none)
#   CDEV      1: /lib/eip93/cryptodev.ko is there; after the AF_ALG checks the
#             /dev/crypto backend runs the offload checks in this boot (on every
#             kernel: 7.2 and 7.3 refuse the engine to AF_ALG, not to /dev/crypto),
#             and AES-CTR and AES-CBC (eip93-skc-diff, SKC_CASES cases each) too
# Prints "EIP93-KERNEL-ROW|<kver>|<restrict>|<verdict>|<status>|<driver ops>" for the
# docs table, one line per composition run.
set -u
# shellcheck source=test/guest/lib.sh
. /opt/eip93/guest-lib.sh
an7581_hooks
kver=$EIP93_GUEST_KVER
mode=${EXPECT%%:*} want=${EXPECT#*:}
C='ctr(aes-eip93)'

# conf [eip93 section lines...]: /tmp/openssl.cnf preferring eip93.
conf() { eip93_cnf /tmp/openssl.cnf '?provider=eip93' "$@"; }
conf
export OPENSSL_CONF=/tmp/openssl.cnf
# dconf [eip93 section lines...]: /tmp/diff.cnf, eip93-diff's (both providers, no default properties).
dconf() { eip93_cnf /tmp/diff.cnf '' "$@"; }
dconf

insmod /lib/eip93/eip93_sim.ko || { bad "insmod eip93_sim.ko"; exit 1; }
grep -q 'ctr(aes-eip93)' /proc/crypto && ok "$kver: ctr(aes-eip93) registered" ||
  bad "$kver: ctr(aes-eip93) not in /proc/crypto"
r=-
if [ -e /proc/sys/crypto/af_alg_restrict ]; then
  [ "$RESTRICT" = - ] || echo "$RESTRICT" >/proc/sys/crypto/af_alg_restrict ||
    bad "cannot set af_alg_restrict = $RESTRICT"
  r=$(cat /proc/sys/crypto/af_alg_restrict)
  echo "# af_alg_restrict = $r"
elif [ "$RESTRICT" != - ]; then
  bad "$kver has no /proc/sys/crypto/af_alg_restrict"
fi

ntls=0
gc() { eip93-gate-check "$@" >/tmp/gc.out 2>&1; rc=$?; cat /tmp/gc.out; return $rc; }

# tls LABEL: a TLS 1.3 transfer (2 MiB upload) with the provider preferred
# under the current OPENSSL_CONF; sets tls_ops (driver ops during it).
tls() {
  test_cert
  size=2097152
  head -c $size /dev/urandom >/tmp/upload
  want_sum=$(sha256sum /tmp/upload | cut -d' ' -f1)
  : >/tmp/recv
  # A port of its own per transfer (a previous server may still be exiting).
  ntls=$((ntls + 1)) port=$((4454 + ntls))
  (sleep 600 | openssl s_server -accept $port -cert /tmp/cert.pem -key /tmp/key.pem -naccept 1 -quiet \
     -tls1_3 -ciphersuites TLS_AES_256_GCM_SHA384 >/tmp/recv 2>/tmp/server.err) &
  spid=$!
  wait_listen $port
  before=$(ops)
  openssl s_client -connect 127.0.0.1:$port -quiet -no_ign_eof -nocommands -tls1_3 \
    -ciphersuites TLS_AES_256_GCM_SHA384 </tmp/upload >/dev/null 2>/tmp/client.err || true
  i=0
  # Until the server has it all (a loaded TCG guest can take minutes).
  while [ "$(wc -c </tmp/recv)" -lt $size ] && [ $i -lt 1500 ]; do sleep 0.2; i=$((i + 1)); done
  kill $spid 2>/dev/null || true
  got=$(sha256sum /tmp/recv | cut -d' ' -f1)
  tls_ops=$(( $(ops) - before ))
  if [ "$got" = "$want_sum" ]; then
    if [ "$mode" = offload ] && [ "$tls_ops" -le 0 ]; then
      bad "$kver: $1: TLS 1.3 2 MiB: bytes ok but driver ops +$tls_ops (no offload)"
    elif [ "$mode" = refuse ] && [ "$tls_ops" -ne 0 ]; then
      bad "$kver: $1: TLS 1.3 2 MiB: driver ops +$tls_ops on a refusing kernel"
    else
      ok "$kver: $1: TLS 1.3 AES-256-GCM 2 MiB sha256 $got, driver ops +$tls_ops"
    fi
  else
    bad "$kver: $1: TLS transfer: received $(wc -c </tmp/recv) bytes, sha256 $got"
    cat /tmp/server.err /tmp/client.err
  fi
}

# offload KALG: the gate binds KALG (under the current OPENSSL_CONF), the
# differential passes through the engine, a TLS transfer moves the driver;
# prints the row line.
offload() {
  k=$1
  gc enabled "enabled: $k" && ok "$kver: gate binds $k" || bad "$kver: gate does not bind $k"
  status=$(sed -n 's/^eip93-gate: //p' /tmp/gc.out | head -n 1)
  doc=$(eip93-doctor 2>&1)
  echo "$doc" | sed -n '/\[5\]/,/\[6\]/p' | sed 's/^/#   /'
  echo "$doc" | grep -qF "verdict: enabled: $k" && ok "$kver: the doctor's verdict names $k" ||
    bad "$kver: the doctor's verdict does not name $k"
  before=$(ops)
  # eip93-diff reads no OPENSSL_CONF: its own library context loads /tmp/diff.cnf.
  eip93-diff --config /tmp/diff.cnf --seed "${SEED:-1}" --cases "${CASES:-600}" --require-engine \
    >/tmp/diff.out 2>&1 &&
    grep -qxF "eip93 gate: enabled: $k" /tmp/diff.out &&
    ok "$kver: $k: eip93-diff $CASES cases, 0 divergences, driver ops +$(( $(ops) - before ))" ||
    { bad "$kver: $k: eip93-diff"; tail -n 20 /tmp/diff.out; }
  diff_ops=$(( $(ops) - before ))
  grep 'eip93 counters after' /tmp/diff.out | sed 's/^/#   /'
  tls "$k"
  echo "EIP93-KERNEL-ROW|$kver|$r|offload: $k$2|$status|diff +$diff_ops, TLS 1.3 2 MiB +$tls_ops"
}

case $mode in
offload)
  [ "$want" = "$C" ] || bad "$kver: an offload row's default is expected to be $C, not $want"
  # The doctor's first bind is the CTR-only skcipher, and it stops there.
  eip93-doctor >/tmp/doctor.out 2>&1
  grep -qF "bind skcipher (CTR)    $C: ok" /tmp/doctor.out && ! grep -q 'bind aead' /tmp/doctor.out &&
    ok "$kver: the doctor binds $C as an skcipher and stops there" ||
    { bad "$kver: the doctor's binds"; sed 's/^/#   /' /tmp/doctor.out; }
  offload "$want" ""
  if [ "${ALSO:--}" != - ]; then
    echo "# kernel-algorithm = $ALSO"
    conf "kernel-algorithm = $ALSO"
    dconf "kernel-algorithm = $ALSO"
    offload "$ALSO" " (kernel-algorithm)"
    conf
    dconf
  fi
  ;;
refuse)
  gc disabled "$want" && ok "$kver: gate stays off and names: $want" ||
    bad "$kver: gate's status does not name: $want"
  status=$(sed -n 's/^eip93-gate: //p' /tmp/gc.out | head -n 1)
  case "$status" in
  "disabled: kernel: AF_ALG bind $C: "*) ok "$kver: the CTR-only skcipher bind was tried first" ;;
  *) bad "$kver: the gate's text does not start with the CTR-only bind" ;;
  esac
  case $kver in
  7.*) case "$status" in *'gcm_base(ctr(aes-eip93),ghash-lib): '*)
         ok "$kver: the composition order reached ghash-lib" ;;
       *) bad "$kver: ghash-lib not tried" ;; esac ;;
  esac
  doc=$(eip93-doctor 2>&1)
  meaning=$(echo "$doc" | sed -n 's/^ *meaning  *//p' | head -n 1)
  echo "$doc" | grep -qF "$want" && ok "$kver: the doctor says the same ($meaning)" ||
    { bad "$kver: the doctor does not name: $want"; echo "$doc" | sed 's/^/#   /'; }
  echo "$doc" | grep -A1 "meaning" | grep -q -- '->' && ok "$kver: the doctor advises the operator" ||
    bad "$kver: the doctor gives no advice after its meaning line"
  echo "$doc" | sed -n '/\[5\]/,/\[6\]/p' | sed 's/^/#   /'

  # The gate offers nothing, so there is no eip93 implementation to compare:
  # the default provider against the kernel's own gcm(aes) where AF_ALG lets
  # it bind (the driver must not move), else the provider's software path.
  before=$(ops)
  if eip93-diff --self-check --seed "${SEED:-1}" --cases "${CASES:-600}" >/tmp/diff.out 2>&1; then
    ok "$kver: eip93-diff --self-check (default vs kernel gcm(aes)) 0 divergences"
  else
    tail -n 5 /tmp/diff.out
    eip93-diff --self-check --no-kernel --seed "${SEED:-1}" --cases "${CASES:-600}" >/tmp/diff.out 2>&1 &&
      ok "$kver: kernel gcm(aes) not bindable here; eip93-diff --self-check --no-kernel passes" ||
      { bad "$kver: eip93-diff --self-check"; tail -n 20 /tmp/diff.out; }
  fi
  d=$(( $(ops) - before ))
  [ "$d" -eq 0 ] && ok "$kver: driver untouched through the refused path (ops +0)" ||
    bad "$kver: driver ops +$d although AF_ALG refuses it"
  tail -n 2 /tmp/diff.out | sed 's/^/#   /'
  tls "software"
  echo "EIP93-KERNEL-ROW|$kver|$r|software: $want|$status|diff +$d, TLS 1.3 2 MiB +$tls_ops"
  ;;
*) bad "EXPECT=$EXPECT not understood" ;;
esac

# Kernel TLS beside the engine: the rows run with KTLS=1.
if [ "${KTLS:-0}" = 1 ]; then
  . /opt/eip93/ktls.sh
fi

# The /dev/crypto backend, in the same boot (after the kernel TLS checks,
# which expect the engine untouched on a refusing kernel): the CTR-only composition through
# cryptodev's sessions (engine-backend = cryptodev), whatever AF_ALG allows;
# then, with the key unset (auto), the verdict an operator gets with the module.
if [ "${CDEV:-0}" = 1 ]; then
  insmod /lib/eip93/cryptodev.ko && [ -c /dev/crypto ] && ok "$kver: cryptodev.ko loaded, /dev/crypto" ||
    bad "$kver: cryptodev.ko did not load"
  saved_mode=$mode mode=offload
  conf "engine-backend = cryptodev"
  dconf "engine-backend = cryptodev"
  k="$C via /dev/crypto"
  gc enabled "enabled: $k" && ok "$kver: /dev/crypto: gate binds $k" ||
    bad "$kver: /dev/crypto: gate does not bind $k"
  status=$(sed -n 's/^eip93-gate: //p' /tmp/gc.out | head -n 1)
  eip93-doctor 2>&1 | grep -qF "verdict: enabled: $k" && ok "$kver: /dev/crypto: the doctor's verdict names $k" ||
    bad "$kver: /dev/crypto: the doctor's verdict does not name $k"
  before=$(ops)
  # The default provider is the reference (libkcapi's kernel gcm(aes) would need AF_ALG).
  eip93-diff --config /tmp/diff.cnf --seed "${SEED:-1}" --cases "${CASES:-600}" --require-engine \
    --no-kernel >/tmp/diff.out 2>&1 &&
    grep -qxF "eip93 gate: enabled: $k" /tmp/diff.out &&
    ok "$kver: /dev/crypto: eip93-diff $CASES cases, 0 divergences, driver ops +$(( $(ops) - before ))" ||
    { bad "$kver: /dev/crypto: eip93-diff"; tail -n 20 /tmp/diff.out; }
  diff_ops=$(( $(ops) - before ))
  [ "$diff_ops" -gt 0 ] || bad "$kver: /dev/crypto: the driver did not move"
  tls "/dev/crypto"
  echo "EIP93-KERNEL-ROW|$kver|$r|offload: $k (engine-backend = cryptodev)|$status|diff +$diff_ops, TLS 1.3 2 MiB +$tls_ops"
  # AES-CTR and AES-CBC on the same road (cryptodev's CRYPTO_AES_CTR and CRYPTO_AES_CBC
  # sessions on ctr(aes-eip93) and cbc(aes-eip93)), the driver's bugs on and worked around:
  # eip93-skc-diff per mode, 0 divergences, no fault, driver ops moving (lib.sh skc_run).
  seed=${SEED:-1}
  skc_run cryptodev ctr "${SKC_CASES:-200}" --config /tmp/diff.cnf
  skc_ctr=$skc_ops
  skc_run cryptodev cbc "${SKC_CASES:-200}" --config /tmp/diff.cnf
  echo "EIP93-KERNEL-ROW|$kver|$r|offload: AES-CTR, AES-CBC via /dev/crypto (eip93-skc-diff)|$status|skc-diff ${SKC_CASES:-200} cases each: CTR +$skc_ctr, CBC +$skc_ops"
  # auto (the default): AF_ALG first where it binds the engine, else /dev/crypto.
  conf
  if [ "$saved_mode" = offload ]; then want_auto="enabled: $C"; else want_auto="enabled: $k"; fi
  gc enabled "$want_auto" && [ "$(sed -n 's/^eip93-gate: //p' /tmp/gc.out | head -n 1)" = "$want_auto" ] &&
    ok "$kver: engine-backend = auto with cryptodev loaded: $want_auto" ||
    bad "$kver: engine-backend = auto: not $want_auto"
  mode=$saved_mode
  dconf
fi

echo "kernel matrix $kver: $pass passed, $fail failed"
[ "$fail" -eq 0 ]
