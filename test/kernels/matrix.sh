#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# Guest test (busybox sh) for one kernel of the matrix: the gate's verdict
# with the simulated EIP93 driver loaded, the doctor's reading of it, a
# differential run and a TLS transfer.  Environment (from run.sh --env):
#   EXPECT    "offload:<composition>" or "refuse:<text the status must name>"
#   RESTRICT  value to write to /proc/sys/crypto/af_alg_restrict first ("-": leave)
#   CASES     eip93-diff cases (reduced set)
# Prints "EIP93-KERNEL-ROW|<kver>|<restrict>|<verdict>|<status>" for the docs table.
set -u
M=/opt/eip93
export OPENSSL_MODULES=$M/hooks
export EIP93_TEST_DT_PATH=$M/data/dt-an7581.bin EIP93_TEST_HWCAP=0
pass=0 fail=0
ok() { echo "ok - $*"; pass=$((pass + 1)); }
bad() { echo "not ok - $*"; fail=$((fail + 1)); }
ops() { cat /sys/module/eip93_sim/parameters/ops; }
kver=$EIP93_GUEST_KVER
mode=${EXPECT%%:*} want=${EXPECT#*:}

cat >/tmp/openssl.cnf <<'CNF'
openssl_conf = openssl_init
[openssl_init]
providers = provider_sect
alg_section = evp_properties
[evp_properties]
default_properties = ?provider=eip93
[provider_sect]
default = default_sect
eip93 = eip93_sect
[default_sect]
activate = 1
[eip93_sect]
activate = 1
CNF
export OPENSSL_CONF=/tmp/openssl.cnf

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

gc() { eip93-gate-check "$@" >/tmp/gc.out 2>&1; rc=$?; cat /tmp/gc.out; return $rc; }
case $mode in
offload)
  gc enabled "enabled: $want" && ok "$kver: gate binds $want" ||
    bad "$kver: gate does not bind $want"
  verdict="offload: $want" ;;
refuse)
  gc disabled "$want" && ok "$kver: gate stays off and names: $want" ||
    bad "$kver: gate's status does not name: $want"
  case $kver in
  7.*) eip93-gate-check disabled 'gcm_base(ctr(aes-eip93),ghash-lib): ' &&
         ok "$kver: the composition order reached ghash-lib" || bad "$kver: ghash-lib not tried" ;;
  esac
  verdict="software: $want" ;;
*) bad "EXPECT=$EXPECT not understood"; verdict="?" ;;
esac
status=$(sed -n 's/^eip93-gate: //p' /tmp/gc.out | head -n 1)

doc=$(eip93-doctor 2>&1)
meaning=$(echo "$doc" | sed -n 's/^ *meaning  *//p' | head -n 1)
if [ "$mode" = refuse ]; then
  echo "$doc" | grep -qF "$want" && ok "$kver: the doctor says the same ($meaning)" ||
    { bad "$kver: the doctor does not name: $want"; echo "$doc" | sed 's/^/#   /'; }
  echo "$doc" | grep -A1 "meaning" | grep -q -- '->' && ok "$kver: the doctor advises the operator" ||
    bad "$kver: the doctor gives no advice after its meaning line"
fi
echo "$doc" | sed -n '/\[5\]/,/\[6\]/p' | sed 's/^/#   /'

# Differential, reduced set.
before=$(ops)
if [ "$mode" = offload ]; then
  eip93-diff --seed "${SEED:-1}" --cases "${CASES:-600}" --require-engine >/tmp/diff.out 2>&1 &&
    ok "$kver: eip93-diff $CASES cases, 0 divergences, engine ops +$(( $(ops) - before ))" ||
    { bad "$kver: eip93-diff"; tail -n 20 /tmp/diff.out; }
else
  # The gate offers nothing, so there is no eip93 implementation to compare:
  # the default provider against the kernel's own gcm(aes) where AF_ALG lets
  # it bind (the driver must not move), else the provider's software path.
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
fi
tail -n 2 /tmp/diff.out | sed 's/^/#   /'

# TLS 1.3 transfer with the provider preferred.
openssl req -x509 -newkey ec -pkeyopt ec_paramgen_curve:P-256 -nodes -subj /CN=localhost \
  -days 1 -keyout /tmp/key.pem -out /tmp/cert.pem 2>/dev/null
size=2097152
head -c $size /dev/urandom >/tmp/upload
want_sum=$(sha256sum /tmp/upload | cut -d' ' -f1)
(sleep 600 | openssl s_server -accept 4455 -cert /tmp/cert.pem -key /tmp/key.pem -naccept 1 -quiet \
   -tls1_3 -ciphersuites TLS_AES_256_GCM_SHA384 >/tmp/recv 2>/tmp/server.err) &
# Wait until the server listens (port 4455 = 0x1167, state 0A), however slow
# the guest is; a bound on the attempts, not a timed assertion.
i=0
# s_server listens on IPv6 (dual stack) here: both tables, or this waits the whole bound.
while ! cat /proc/net/tcp /proc/net/tcp6 2>/dev/null | grep -qE ':1167 0+:0000 0A' &&
  [ $i -lt 600 ]; do
  sleep 0.1; i=$((i + 1))
done
before=$(ops)
openssl s_client -connect 127.0.0.1:4455 -quiet -no_ign_eof -nocommands -tls1_3 \
  -ciphersuites TLS_AES_256_GCM_SHA384 </tmp/upload >/dev/null 2>/tmp/client.err || true
i=0
# Until the server has it all (a loaded TCG guest can take minutes).
while [ "$(wc -c </tmp/recv)" -lt $size ] && [ $i -lt 1500 ]; do sleep 0.2; i=$((i + 1)); done
kill %1 2>/dev/null || true
got=$(sha256sum /tmp/recv | cut -d' ' -f1)
d=$(( $(ops) - before ))
if [ "$got" = "$want_sum" ]; then
  if [ "$mode" = offload ] && [ "$d" -le 0 ]; then
    bad "$kver: TLS 1.3 2 MiB: bytes ok but driver ops +$d (no offload)"
  elif [ "$mode" = refuse ] && [ "$d" -ne 0 ]; then
    bad "$kver: TLS 1.3 2 MiB: driver ops +$d on a refusing kernel"
  else
    ok "$kver: TLS 1.3 AES-256-GCM 2 MiB sha256 $got, driver ops +$d"
  fi
else
  bad "$kver: TLS transfer: received $(wc -c </tmp/recv) bytes, sha256 $got"
  cat /tmp/server.err /tmp/client.err
fi

# Kernel TLS beside the engine (issue 22): the rows run with KTLS=1.
if [ "${KTLS:-0}" = 1 ]; then
  . /opt/eip93/ktls.sh
fi

echo "EIP93-KERNEL-ROW|$kver|$r|$verdict|$status"
echo "kernel matrix $kver: $pass passed, $fail failed"
[ "$fail" -eq 0 ]
