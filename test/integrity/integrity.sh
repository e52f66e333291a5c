#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# Guest test: keystream faults after the key check (hooks build, gate open,
# simulated EIP93 driver with its fault knobs).  For each fault mode (and
# tagmask, the driver's fault=5: a bit of the first block of its request,
# the tag mask E_K(J0) under gcm_base) eip93-integrity-check runs 400
# engine-eligible messages on six verified keys and checks what reaches the
# caller, once per engine composition: CTR-only (kernel-algorithm =
# ctr(aes-eip93): the engine's AES-CTR, GHASH and E_K(J0) in libcrypto), ECB
# (ecb(aes-eip93): the engine's AES-ECB of the counter blocks; every request
# faulted from its first byte, fault_layout = 1) and
# gcm_base(ctr(aes-eip93),ghash-generic) with the sampled tag check at its
# default (tag-check = 64), then tagmask again with tag-check = 1, and once
# with the faults starting past each key's first 4 (always checked) tags,
# tag-check = 8 (tagmask-late: what the 1-in-N sampling alone lets through);
# then the faults where the engine really reads and writes (the driver's
# fault=6/7/8 at a boundary between two entries of the request's source or
# destination scatterlist, fault_page: a byte read wrong, a byte written
# wrong, 16 bytes never written) on both roads, AF_ALG (engine-backend =
# afalg) and /dev/crypto (cryptodev.ko, engine-backend = cryptodev), under
# both compositions, each mode with its own AAD length (0, 13, 16, 64, 512)
# and page offsets of the caller's buffers; a table sums them all up, and
# every row but the sampled ones (random, middle, tagmask with the sampled
# tag check) must release no wrong output and no plaintext or stale block.
# Then eip93-diff runs, under each composition, with
# the driver flipping a bit of the last block of every result from its 200th
# request on: no divergence, and the provider caught what the driver did;
# and TLS 1.3 and 1.2 transfers through s_server/s_client under the same
# fault (the default composition, the gate's first choice: CTR-only).
# AES-CTR and AES-CBC (alg/skc/) get the driver's faults 1-8 with
# fault_layout = 1 on both roads (eip93-skc-integrity-check, a second table).
set -u
# shellcheck source=test/guest/lib.sh
. /opt/eip93/guest-lib.sh
an7581_hooks
P=/sys/module/eip93_sim/parameters

insmod /lib/eip93/eip93_sim.ko || { echo "not ok - insmod eip93_sim.ko"; exit 1; }
# /dev/crypto (test/cryptodev/suite.cmake's build; without it the cryptodev rows fail).
if [ -f /lib/eip93/cryptodev.ko ] && insmod /lib/eip93/cryptodev.ko && [ -c /dev/crypto ]; then
  ok "cryptodev.ko loaded: /dev/crypto"
else
  bad "cryptodev.ko (built from EIP93_CRYPTODEV_SRC) is not loaded: no /dev/crypto road"
fi
openssl rand -hex 16 >/dev/null   # the first getrandom() of the boot waits for the CRNG

CTR='ctr(aes-eip93)'
ECB='ecb(aes-eip93)'
GCM='gcm_base(ctr(aes-eip93),ghash-generic)'
# composition_cnf FILE KALG BACKEND [TAG_CHECK]: the provider's configuration for one
# composition on one road.
composition_cnf() {
  eip93_cnf "$1" '' 'notice = no' "kernel-algorithm = $2" "engine-backend = $3" \
    ${4:+"tag-check = $4"}
}
composition_cnf /tmp/ctr.cnf "$CTR" afalg
composition_cnf /tmp/gcm64.cnf "$GCM" afalg 64
composition_cnf /tmp/gcm1.cnf "$GCM" afalg 1
composition_cnf /tmp/gcm8.cnf "$GCM" afalg 8
composition_cnf /tmp/cdev-ctr.cnf "$CTR" cryptodev
composition_cnf /tmp/cdev-gcm64.cnf "$GCM" cryptodev 64
composition_cnf /tmp/ecb.cnf "$ECB" afalg
composition_cnf /tmp/cdev-ecb.cnf "$ECB" cryptodev
: >/tmp/table
# check CNF KALG TAG_CHECK MODE [ARGS...]: one eip93-integrity-check run (ARGS: its
# options; MESSAGES, 400 by default).
check() {
  cnf=$1 kalg=$2 tc=$3 mode=$4
  shift 4
  echo 0 >$P/fault
  road=afalg
  case $cnf in /tmp/cdev-*) road=cryptodev ;; esac
  out=$(OPENSSL_CONF=$cnf eip93-integrity-check "$mode" "${MESSAGES:-400}" --expect "$kalg" \
    --backend "$road" --tag-check "$tc" "$@" 2>&1)
  rc=$?
  echo "$out" | grep -v '^table: '
  echo "$out" | grep '^table: ' >>/tmp/table
  if [ $rc -eq 0 ]; then ok "fault mode $mode${*:+ $*}, $kalg via $road"; else
    bad "fault mode $mode${*:+ $*}, $kalg via $road (exit $rc)"; fi
}
mark=$(date +%s)
for mode in first last nowrite edge tail middle random tagmask tagmask-open; do
  check /tmp/ctr.cnf "$CTR" 64 $mode
done
for mode in first last nowrite edge tail middle random tagmask tagmask-open; do
  check /tmp/gcm64.cnf "$GCM" 64 $mode
done
check /tmp/gcm1.cnf "$GCM" 1 tagmask
check /tmp/gcm8.cnf "$GCM" 8 tagmask --warm 4
echo "# time: the keystream modes on AF_ALG: $(($(date +%s) - mark)) s"
mark=$(date +%s)
# Where the engine's DMA reads and writes, on each road and composition: each mode with
# its AAD length, page offsets of input and output, in place or apart (or both), and
# the boundary it faults (--page).  /dev/crypto runs a CTR message whose buffers are not
# both 16-byte aligned through its bounce page, one page-sized request after the other:
# the driver counts the join between two as a boundary of the message (dst-after's input
# offset 100: the first join, payload offset 4096), but cannot fault the bytes before a
# join (the request before it has completed), nor a block of a later request by number
# (skip: the first request's); the other page modes' offsets are aligned (zero-copy).
for cnf in ctr gcm64 cdev-ctr cdev-gcm64; do
  c=/tmp/$cnf.cnf kalg=$GCM
  case $cnf in *ctr) kalg=$CTR ;; esac
  MESSAGES=200
  check "$c" "$kalg" 64 src-after --aad 64
  check "$c" "$kalg" 64 src-before --aad 512 --in-off 2048 --out-off 16 --in-place 0 --page 2
  check "$c" "$kalg" 64 dst-after --aad 512 --in-off 100 --out-off 1024 --in-place 0
  check "$c" "$kalg" 64 dst-before --aad 13 --out-off 3008
  check "$c" "$kalg" 64 skip --aad 0 --in-off 5 --out-off 7
  check "$c" "$kalg" 64 skip-after --aad 16 --in-off 4000 --out-off 48 --in-place 0
  check "$c" "$kalg" 64 skip-before --aad 16 --in-off 1024 --in-place 1 --page 2
  MESSAGES=400
done
echo "# time: the page and skip modes on both roads: $(($(date +%s) - mark)) s"
# The ECB composition (kernel-algorithm = ecb(aes-eip93): the engine's AES-ECB of the
# counter blocks, one request per message, in place in the provider's buffer): the
# driver faults every request from its first byte (--layout 1, its fault_layout), the
# keystream and skip modes on AF_ALG, the page and skip modes on both roads.
mark=$(date +%s)
MESSAGES=200
for mode in first last nowrite edge tail middle random; do
  check /tmp/ecb.cnf "$ECB" 64 $mode --layout 1
done
check /tmp/ecb.cnf "$ECB" 64 skip --aad 0 --in-off 5 --out-off 7 --layout 1
check /tmp/ecb.cnf "$ECB" 64 src-after --aad 64 --layout 1
check /tmp/ecb.cnf "$ECB" 64 dst-before --aad 13 --out-off 3008 --layout 1
check /tmp/cdev-ecb.cnf "$ECB" 64 first --layout 1
check /tmp/cdev-ecb.cnf "$ECB" 64 nowrite --in-off 100 --out-off 1024 --in-place 0 --layout 1
check /tmp/cdev-ecb.cnf "$ECB" 64 skip --aad 16 --in-off 4000 --out-off 48 --in-place 0 --layout 1
check /tmp/cdev-ecb.cnf "$ECB" 64 dst-after --aad 512 --in-off 100 --out-off 1024 --in-place 0 --layout 1
MESSAGES=400
echo "# time: the ECB composition: $(($(date +%s) - mark)) s"
echo "# integrity table (messages per row: 400, the page and skip modes 200; faulted: the"
echo "# driver's faults counter, caught: the provider's eip93-engine-faults, wrong: outputs"
echo "# released that differ from the default provider's, plain/stale: 16-byte blocks released"
echo "# that the engine never wrote (the input's block, or no few-bit variant of the right one),"
echo "# wrong tags: encryptions' tags that differ)"
row='# %-9s %-40s %-3s %-14s %7s %6s %6s %11s %10s  %s\n'
# shellcheck disable=SC2059 # the format is the row's, kept in one place
printf "$row" road composition tc mode faulted caught wrong plain/stale "wrong tags" layout
# A row must release no wrong output and no plaintext or stale block unless its fault is
# caught only by sampling: random, middle, and tagmask (encrypting) with the sampled tag
# check of a kernel composition (tag-check other than 1).
: >/tmp/table.bad
while read -r _ road mode kalg tc f c wm ps wt lay; do
  # shellcheck disable=SC2059
  printf "$row" "$road" "$kalg" "$tc" "$mode" "$f" "$c" "$wm" "$ps" "$wt" "$lay"
  case $mode:$tc in
    random:* | middle:* | tagmask:[2-9]* | tagmask-late:[2-9]*) ;;
    *) [ "$wm" = 0 ] && [ "$ps" = 0 ] || echo "$road $kalg $mode: wrong $wm, plain/stale $ps" >>/tmp/table.bad ;;
  esac
done </tmp/table
[ "$(wc -l </tmp/table)" -eq 62 ] || bad "integrity table: $(wc -l </tmp/table) of 62 rows"
if [ -s /tmp/table.bad ]; then
  bad "integrity table: $(wc -l </tmp/table.bad) rows released wrong outputs or plaintext/stale blocks"
  sed 's/^/#   /' /tmp/table.bad
else
  ok "integrity table: no row but the sampled ones released a wrong output or a plaintext/stale block"
fi

# ---- AES-CTR and AES-CBC (alg/skc/) ----
# The same faults with fault_layout = 1 (every ctr and cbc request, payload from byte 0):
# eip93-skc-integrity-check runs 40 messages (random: 200) round robin on 10 keys verified on
# the healthy engine, per mode, road and fault, each kind with its own page offsets of the
# caller's buffers (on /dev/crypto an input not 16-byte aligned takes cryptodev's bounce
# page, one request per page: offsets 5 and 100; the page kinds need its zero-copy path,
# aligned inputs).  Every row but random must catch every faulted message, release nothing
# wrong and turn the engine off after 8; random (one middle block) is caught by sampling.
mark=$(date +%s)
: >/tmp/skc-table
# skc ROAD MODE KIND [MESSAGES] [ARGS...]: one eip93-skc-integrity-check run.
skc() {
  sroad=$1 smode=$2 skind=$3
  shift 3
  scnf=/tmp/ctr.cnf
  [ "$sroad" = cryptodev ] && scnf=/tmp/cdev-ctr.cnf
  out=$(OPENSSL_CONF=$scnf eip93-skc-integrity-check "$smode" "$skind" "$@" --backend "$sroad" 2>&1)
  rc=$?
  echo "$out" | grep -v '^table: '
  echo "$out" | grep '^table: ' >>/tmp/skc-table
  if [ $rc -eq 0 ]; then ok "AES-$smode fault $skind $*, via $sroad"; else
    bad "AES-$smode fault $skind $*, via $sroad (exit $rc)"; fi
}
for road in af_alg cryptodev; do
  for mode in ctr cbc; do
    skc $road $mode first --in-off 0 --out-off 0
    skc $road $mode last --in-off 5 --out-off 7
    skc $road $mode random 200 --in-off 0 --out-off 0
    skc $road $mode nowrite --in-off 100 --out-off 1024 --in-place 0
    skc $road $mode edge --in-off 2048 --out-off 16 --in-place 0
    skc $road $mode tail --in-off 3008 --in-place 1
    skc $road $mode head --in-off 16 --out-off 4000 --in-place 0
    skc $road $mode src-after --in-off 0 --out-off 0
    skc $road $mode src-before --in-off 2048 --out-off 16 --in-place 0 --page 2
    skc $road $mode dst-after --in-off 1024 --out-off 1024 --in-place 0
    skc $road $mode dst-before --in-off 3008 --out-off 48 --in-place 0
    skc $road $mode skip --in-off 5 --out-off 7
    skc $road $mode skip-after --in-off 4000 --out-off 48 --in-place 0
    skc $road $mode skip-before --in-off 1024 --in-place 1 --page 2
  done
done
# The control: without the integrity check (EIP93_TEST_VERIFY=off, test builds) the same
# fault reaches the caller, and the row fails.
for mode in ctr cbc; do
  out=$(EIP93_TEST_VERIFY=off OPENSSL_CONF=/tmp/ctr.cnf eip93-skc-integrity-check $mode first \
    --backend af_alg 2>&1)
  rc=$?
  # shellcheck disable=SC2046 # the table line's fields
  set -- $(echo "$out" | grep '^table: ')
  if [ $rc -ne 0 ] && [ "${9:-0}" -gt 0 ] && [ "${8:-1}" -eq 0 ]; then
    ok "AES-$mode fault first without the integrity check: ${9} wrong outputs released, the row fails"
  else
    bad "AES-$mode fault first without the integrity check: exit $rc, table \"$*\""
  fi
done
echo 0 >$P/fault
echo 0 >$P/fault_layout   # (the program restores it; a crashed one would not)
echo "# time: AES-CTR and AES-CBC on both roads: $(($(date +%s) - mark)) s"
echo "# AES-CTR/CBC integrity table (fault_layout = 1; 40 messages per row on 10 keys, random 200;"
echo "# faulted: messages the driver faulted (requests: its faults counter), caught: messages"
echo "# the provider caught (eip93-engine-faults), wrong: outputs released that differ from the"
echo "# default provider's, plain/stale: 16-byte blocks released the engine never wrote,"
echo "# engine: off = switched off for the process after 8 faults)"
srow='# %-9s %-4s %-13s %-13s %7s %8s %6s %6s %11s %6s  %s\n'
# shellcheck disable=SC2059 # the format is the row's, kept in one place
printf "$srow" road mode kind fault faulted requests caught wrong plain/stale engine layout
: >/tmp/skc-table.bad
while read -r _ road mode kind spec f q c wm ps eng lay; do
  # shellcheck disable=SC2059
  printf "$srow" "$road" "$mode" "$kind" "$spec" "$f" "$q" "$c" "$wm" "$ps" "$eng" "$lay"
  case $kind in
    random) [ "$ps" = 0 ] && [ "$f" -gt 0 ] || echo "$road $mode $kind: plain/stale $ps" >>/tmp/skc-table.bad ;;
    *) [ "$wm" = 0 ] && [ "$ps" = 0 ] && [ "$f" -gt 0 ] && [ "$f" = "$c" ] && [ "$eng" = off ] ||
      echo "$road $mode $kind: faulted $f, caught $c, wrong $wm, plain/stale $ps, engine $eng" >>/tmp/skc-table.bad ;;
  esac
done </tmp/skc-table
[ "$(wc -l </tmp/skc-table)" -eq 56 ] || bad "AES-CTR/CBC integrity table: $(wc -l </tmp/skc-table) of 56 rows"
if [ -s /tmp/skc-table.bad ]; then
  bad "AES-CTR/CBC integrity table: $(wc -l </tmp/skc-table.bad) rows failed"
  sed 's/^/#   /' /tmp/skc-table.bad
else
  ok "AES-CTR/CBC integrity table: every fault but random caught, nothing wrong released, the engine off after 8"
fi

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
eip93_cnf /tmp/openssl.cnf '?provider=eip93,?eip93.offload=yes' 'notice = no'
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
  echo 0 >$P/fault
  echo -1 >$P/fault_block
  echo 24 >$P/fault_after   # the handshake's key checks pass first
  f0=$(cat $P/faults)
  echo 1 >$P/fault
  OPENSSL_CONF=/tmp/openssl.cnf tls_send "$port" 2097152 "$@"
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
