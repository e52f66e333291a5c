# SPDX-License-Identifier: Apache-2.0
# shellcheck shell=sh disable=SC2034
# Helpers shared by the arm64 guest scripts (busybox sh; sourced from /opt).
# The guest has the release eip93.so in /usr/lib/aarch64-linux-gnu/ossl-modules
# and openssl.cnf.example as /usr/lib/ssl/openssl.cnf: no OPENSSL_MODULES,
# OPENSSL_CONF or test hook is set anywhere.
pass=0 fail=0
ok() { echo "ok - $*"; pass=$((pass + 1)); }
bad() { echo "not ok - $*"; fail=$((fail + 1)); }
C='ctr(aes-eip93)'
G='gcm_base(ctr(aes-eip93),ghash-generic)'
L='gcm_base(ctr(aes-eip93),ghash-lib)'
ops() { cat /sys/module/eip93_sim/parameters/ops; }

# gate DESC enabled|disabled TEXT...: eip93-gate-check (verdict, ciphers offered
# exactly when enabled, no fd left by the probe, known answer when enabled).
gate() {
  desc=$1
  shift
  if eip93-gate-check "$@"; then ok "$desc"; else bad "$desc"; fi
}

# doctor DESC RC TEXT...: eip93-doctor exits RC and prints every TEXT.
doctor() {
  desc=$1 want=$2
  shift 2
  rc=0
  eip93-doctor >/tmp/doctor.out 2>&1 || rc=$?
  good=1
  [ "$rc" -eq "$want" ] || { echo "   doctor exited $rc, expected $want"; good=0; }
  for t in "$@"; do
    grep -qF -- "$t" /tmp/doctor.out || { echo "   doctor output lacks: $t"; good=0; }
  done
  if [ $good -eq 1 ]; then ok "doctor: $desc"; else bad "doctor: $desc"; cat /tmp/doctor.out; fi
}

# hwcap_aes: 1 when this shell's children see HWCAP_AES (bit 3) in AT_HWCAP.
hwcap_aes() {
  eip93-doctor 2>/dev/null | grep -q 'AT_HWCAP .*[( ]aes[ )]' && echo 1 || echo 0
}

finish() {
  echo "$1: $pass passed, $fail failed"
  [ "$fail" -eq 0 ]
}
