#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# Guest test: keystream faults after the key check (hooks build, gate open,
# simulated EIP93 driver with its fault knobs).  For each fault mode (and
# tagmask, the driver's fault=5: a bit of the first block of its request,
# the tag mask E_K(J0) under gcm_base) eip93-integrity-check runs 400
# engine-eligible messages on six verified keys and checks what reaches the
# caller, once per engine composition: CTR-only (kernel-algorithm =
# ctr(aes-eip93): the engine's AES-CTR, GHASH and E_K(J0) in libcrypto) and
# gcm_base(ctr(aes-eip93),ghash-generic) with the sampled tag check at its
# default (tag-check = 64), then tagmask again with tag-check = 1, and once
# with the faults starting past each key's first 4 (always checked) tags,
# tag-check = 8 (tagmask-late: what the 1-in-N sampling alone lets through);
# a table sums them up.  Then eip93-diff runs, under each composition, with
# the driver flipping a bit of the last block of every result from its 200th
# request on: no divergence, and the provider caught what the driver did;
# and TLS 1.3 and 1.2 transfers through s_server/s_client under the same
# fault (the default composition, the gate's first choice: CTR-only).
set -u
M=/opt/eip93
P=/sys/module/eip93_sim/parameters
export OPENSSL_MODULES=$M/hooks
export EIP93_TEST_DT_PATH=$M/data/dt-an7581.bin EIP93_TEST_HWCAP=0
pass=0 fail=0
ok() { echo "ok - $*"; pass=$((pass + 1)); }
bad() { echo "not ok - $*"; fail=$((fail + 1)); }

insmod /lib/eip93/eip93_sim.ko || { echo "not ok - insmod eip93_sim.ko"; exit 1; }
openssl rand -hex 16 >/dev/null   # the first getrandom() of the boot waits for the CRNG

CTR='ctr(aes-eip93)'
GCM='gcm_base(ctr(aes-eip93),ghash-generic)'
# composition_cnf FILE KALG [TAG_CHECK]: the provider's configuration for one composition.
composition_cnf() {
  {
    printf '%s\n' 'openssl_conf = openssl_init' '[openssl_init]' 'providers = provider_sect' \
      '[provider_sect]' 'default = default_sect' 'eip93 = eip93_sect' '[default_sect]' \
      'activate = 1' '[eip93_sect]' 'activate = 1' 'notice = no' "kernel-algorithm = $2"
    [ -z "${3:-}" ] || echo "tag-check = $3"
  } >"$1"
}
composition_cnf /tmp/ctr.cnf "$CTR"
composition_cnf /tmp/gcm64.cnf "$GCM" 64
composition_cnf /tmp/gcm1.cnf "$GCM" 1
composition_cnf /tmp/gcm8.cnf "$GCM" 8
: >/tmp/table
# check CNF KALG TAG_CHECK MODE [ARGS...]: one eip93-integrity-check run.
check() {
  cnf=$1 kalg=$2 tc=$3 mode=$4
  shift 4
  echo 0 >$P/fault
  out=$(OPENSSL_CONF=$cnf eip93-integrity-check "$mode" 400 --expect "$kalg" --tag-check "$tc" "$@" 2>&1)
  rc=$?
  echo "$out" | grep -v '^table: '
  echo "$out" | grep '^table: ' >>/tmp/table
  if [ $rc -eq 0 ]; then ok "fault mode $mode $*, $kalg"; else bad "fault mode $mode $*, $kalg (exit $rc)"; fi
}
for mode in first last nowrite edge tail middle random tagmask tagmask-open; do
  check /tmp/ctr.cnf "$CTR" 64 $mode
done
for mode in first last nowrite edge tail middle random tagmask tagmask-open; do
  check /tmp/gcm64.cnf "$GCM" 64 $mode
done
check /tmp/gcm1.cnf "$GCM" 1 tagmask
check /tmp/gcm8.cnf "$GCM" 8 tagmask --warm 4
echo "# integrity table (400 messages per row; faulted: the driver's faults counter,"
echo "# caught: the provider's eip93-engine-faults, wrong: bytes of output and tag released"
echo "# that differ from the default provider's)"
printf '# %-13s %-40s %-9s %8s %7s %12s %11s %10s\n' mode composition tag-check faulted caught \
  "wrong bytes" "wrong tags" "wrong msgs"
while read -r _ mode kalg tc f c wb wt wm; do
  printf '# %-13s %-40s %-9s %8s %7s %12s %11s %10s\n' "$mode" "$kalg" "$tc" "$f" "$c" "$wb" "$wt" "$wm"
done </tmp/table
[ "$(wc -l </tmp/table)" -eq 20 ] || bad "integrity table: $(wc -l </tmp/table) of 20 rows"

# The differential test's traffic (generic, TLS 1.2 and 1.3 records, re-inits, copies)
# with the last block of every engine result wrong from the driver's 200th request on,
# under each composition (eip93-diff --config: the provider's configuration).
diff_faulted() {
  label=$1
  shift
  echo 0 >$P/fault
  echo -1 >$P/fault_block
  echo 200 >$P/fault_after
  f0=$(cat $P/faults)
  echo 1 >$P/fault
  # The kernel reference must not be the faulting driver (it is the kernel's gcm(aes) too).
  out=$(eip93-diff --seed 4242 --cases 2000 --kernel-alg 'gcm_base(ctr(aes-generic),ghash-generic)' \
    --require-engine "$@" 2>&1)
  rc=$?
  echo 0 >$P/fault
  f1=$(cat $P/faults)
  echo "$out" | grep -E "eip93 gate:|passed|FAIL|counters after" | head -n 12
  # The gate line names the composition the configuration chose.
  if [ $rc -eq 0 ] && [ $((f1 - f0)) -gt 0 ] && echo "$out" | grep -qF "eip93 gate: enabled: $label"; then
    ok "eip93-diff, $label, with the last block faulted: no divergence ($((f1 - f0)) engine results faulted)"
  else
    bad "eip93-diff, $label, with the last block faulted (exit $rc, faulted $((f1 - f0)))"
  fi
}
diff_faulted "$CTR" --config /tmp/ctr.cnf
diff_faulted "$GCM" --config /tmp/gcm64.cnf
# TLS transfers between openssl s_server and s_client, both through eip93, with the last
# block of every engine result wrong once the keys passed their checks: the bytes that
# arrive must be the bytes sent (a fault that slipped through would change them).
cat >/tmp/openssl.cnf <<'CNF'
openssl_conf = openssl_init
[openssl_init]
providers = provider_sect
alg_section = evp_properties
[evp_properties]
default_properties = ?provider=eip93,?eip93.offload=yes
[provider_sect]
default = default_sect
eip93 = eip93_sect
[default_sect]
activate = 1
[eip93_sect]
activate = 1
notice = no
CNF
OPENSSL_CONF=/tmp/openssl.cnf openssl req -x509 -newkey ec -pkeyopt ec_paramgen_curve:P-256 \
  -nodes -subj /CN=localhost -days 1 -keyout /tmp/key.pem -out /tmp/cert.pem 2>/tmp/req.err ||
  { bad "a test certificate"; cat /tmp/req.err; }
head -c 2097152 /dev/urandom >/tmp/upload
want=$(sha256sum /tmp/upload | cut -d' ' -f1)
port=4500
transfer() {
  label=$1
  shift
  port=$((port + 1))
  rm -f /tmp/recv
  echo 0 >$P/fault
  echo -1 >$P/fault_block
  echo 24 >$P/fault_after   # the handshake's key checks pass first
  f0=$(cat $P/faults)
  echo 1 >$P/fault
  (sleep 60 | OPENSSL_CONF=/tmp/openssl.cnf openssl s_server -accept "$port" -cert /tmp/cert.pem \
     -key /tmp/key.pem -naccept 1 -quiet "$@" >/tmp/recv 2>/tmp/server.err) &
  sleep 1
  OPENSSL_CONF=/tmp/openssl.cnf openssl s_client -connect "127.0.0.1:$port" -quiet -no_ign_eof \
    -nocommands "$@" </tmp/upload >/dev/null 2>/tmp/client.err || true
  i=0
  while [ "$(wc -c </tmp/recv)" -lt 2097152 ] && [ $i -lt 100 ]; do sleep 0.2; i=$((i + 1)); done
  kill %1 2>/dev/null || true
  echo 0 >$P/fault
  f1=$(cat $P/faults)
  got=$(sha256sum /tmp/recv | cut -d' ' -f1)
  if [ "$got" = "$want" ] && [ $((f1 - f0)) -gt 0 ]; then
    ok "$label, last block faulted: 2 MiB arrive intact ($((f1 - f0)) engine results faulted and caught)"
  else
    bad "$label, last block faulted: sha256 $got (want $want), $((f1 - f0)) faulted"
    cat /tmp/server.err /tmp/client.err | head -n 20
  fi
}
transfer "TLS 1.3 TLS_AES_256_GCM_SHA384" -tls1_3 -ciphersuites TLS_AES_256_GCM_SHA384
transfer "TLS 1.2 ECDHE-ECDSA-AES128-GCM-SHA256" -tls1_2 -cipher ECDHE-ECDSA-AES128-GCM-SHA256

if dmesg | grep -E 'BUG|WARNING|Oops|general protection' >/tmp/dmesg.bad; then
  bad "kernel log is clean"; cat /tmp/dmesg.bad
else ok "kernel log is clean"; fi
echo "integrity: $pass passed, $fail failed"
[ "$fail" -eq 0 ]
