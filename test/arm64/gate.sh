#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# arm64 guest, device tree "airoha,an7581": the release eip93.so on the real
# gate, fact by fact (CPU with AES, CPU without AES, no driver, driver, off
# switch, driver removed), a key check, and a TLS 1.3 transfer between
# `openssl s_server` and `openssl s_client` with the driver's counter rising.
set -u
. /opt/eip93/lib.sh

echo "# the machine"
printf '   compatible: %s\n' "$(tr '\0' ' ' </proc/device-tree/compatible)"
echo "   $(openssl version -d) $(openssl version -m)"
grep -q 'airoha,an7581' /proc/device-tree/compatible && ok "device tree says airoha,an7581" ||
  bad "device tree is not airoha,an7581"

echo "# the CPU as QEMU presents it: Crypto Extensions advertised"
[ "$(hwcap_aes)" = 1 ] && ok "AT_HWCAP advertises AES" || bad "AT_HWCAP lacks AES before eip93_nohwcap"
gate "CPU advertises AES: offers nothing" disabled "cpu: has the ARMv8 AES instructions"
doctor "CPU with AES" 1 "AN7581/EN7581: yes" "the CPU has the ARMv8 AES instructions" \
  "verdict: disabled: cpu: has the ARMv8 AES instructions"

echo "# eip93_nohwcap: new processes see a CPU without the Crypto Extensions (as the AN7581's A53)"
insmod /lib/eip93/eip93_nohwcap.ko || bad "insmod eip93_nohwcap.ko"
[ "$(hwcap_aes)" = 0 ] && ok "AT_HWCAP no longer advertises AES" || bad "AT_HWCAP still has AES"
grep -q '^Features.* aes' /proc/cpuinfo && echo "   (/proc/cpuinfo still lists aes: the module changes AT_HWCAP only)"
echo "   eip93_nohwcap hits: $(cat /sys/module/eip93_nohwcap/parameters/hits)"

echo "# no EIP93 driver"
gate "no driver: offers nothing, names every bind error (CTR-only first)" disabled \
  "kernel: AF_ALG bind $C: ENOENT" "kernel: AF_ALG bind $G: ENOENT" "$L: ENOENT"
doctor "no driver" 1 "no AES instructions: yes" "not registered" "the EIP93 driver is not loaded"

echo "# the simulated EIP93 driver"
insmod /lib/eip93/eip93_sim.ko || bad "insmod eip93_sim.ko"
grep -q 'ctr(aes-eip93)' /proc/crypto && ok "ctr(aes-eip93) registered" || bad "driver not in /proc/crypto"
gate "AN7581 + no AES + driver: offers AES-GCM over the CTR-only composition (release build)" \
  enabled "enabled: $C"
out=$(openssl list -providers -verbose 2>&1)
echo "$out" | grep -qF "(enabled: $C)" && ok "openssl list -providers -verbose shows the verdict" ||
  { bad "openssl list -providers"; echo "$out"; }
out=$(openssl list -cipher-algorithms 2>&1)
echo "$out" | grep -q 'aes-256-gcm.*@ eip93' && ok "openssl list -cipher-algorithms lists eip93" ||
  { bad "cipher list"; echo "$out"; }
doctor "enabled" 0 "registered (/proc/crypto)" "bind skcipher (CTR)    $C: ok" \
  "GHASH                  GHASH: libcrypto's, in this process" "verdict: enabled: $C"
sed 's/^/   | /' /tmp/doctor.out
# The doctor stops at the first composition that binds.
grep -q 'bind aead' /tmp/doctor.out && bad "doctor: probed past the CTR-only bind" ||
  ok "doctor: stops at the first bind (CTR-only)"

echo "# kernel-algorithm = ...ghash-generic): the kernel's AES-GCM over the engine's CTR"
# The example config's last section is eip93's: a line appended to it is eip93's.
[ "$(grep '^\[' /usr/lib/ssl/openssl.cnf | tail -n 1)" = '[eip93_sect]' ] ||
  bad "the last section of /usr/lib/ssl/openssl.cnf is not [eip93_sect]"
{ cat /usr/lib/ssl/openssl.cnf; echo "kernel-algorithm = $G"; } >/tmp/kgcm.cnf
(
  export OPENSSL_CONF=/tmp/kgcm.cnf
  gate "kernel-algorithm = ...ghash-generic): enabled over it" enabled "enabled: $G"
  before=$(ops)
  if eip93-offload-check 16384; then ok "kernel AES-GCM: key check + 16 KiB messages equal the default provider"
  else bad "offload check (kernel AES-GCM)"; fi
  delta=$(( $(ops) - before ))
  [ "$delta" -gt 0 ] && ok "kernel AES-GCM: driver ops +$delta" || bad "kernel AES-GCM: driver ops did not rise"
)

echo "# a key check and offloaded messages"
before=$(ops)
if eip93-offload-check 16384; then ok "key check + 16 KiB messages through eip93 equal the default provider"
else bad "offload check"; fi
delta=$(( $(ops) - before ))
[ "$delta" -gt 0 ] && ok "driver ops +$delta" || bad "driver ops did not rise"

(
  export EIP93_PROVIDER=off
  gate "EIP93_PROVIDER=off: offers nothing" disabled "switched off by EIP93_PROVIDER=off"
)

echo "# TLS 1.3 through s_server/s_client (TLS_AES_256_GCM_SHA384, 1 MiB upload)"
openssl req -x509 -newkey ec -pkeyopt ec_paramgen_curve:P-256 -nodes -subj /CN=localhost \
  -days 1 -keyout /tmp/key.pem -out /tmp/cert.pem 2>/dev/null || bad "openssl req"
size=1048576
head -c $size /dev/urandom >/tmp/upload
want=$(sha256sum /tmp/upload | cut -d' ' -f1)
(sleep 120 | openssl s_server -accept 4433 -cert /tmp/cert.pem -key /tmp/key.pem -naccept 1 -quiet \
   -tls1_3 -ciphersuites TLS_AES_256_GCM_SHA384 >/tmp/recv 2>/tmp/server.err) &
i=0
while ! netstat -ltn 2>/dev/null | grep -q ':4433 ' && [ $i -lt 50 ]; do sleep 0.2; i=$((i + 1)); done
before=$(ops)
start=$(date +%s)
openssl s_client -connect 127.0.0.1:4433 -quiet -no_ign_eof -nocommands -tls1_3 \
  -ciphersuites TLS_AES_256_GCM_SHA384 </tmp/upload >/dev/null 2>/tmp/client.err || true
i=0
while [ "$(wc -c </tmp/recv)" -lt $size ] && [ $i -lt 150 ]; do sleep 0.2; i=$((i + 1)); done
kill %1 2>/dev/null || true
delta=$(( $(ops) - before ))
got=$(sha256sum /tmp/recv | cut -d' ' -f1)
echo "   $(wc -c </tmp/recv) bytes in $(( $(date +%s) - start ))s, driver ops +$delta"
grep -h '^eip93:' /tmp/server.err /tmp/client.err | sort -u | sed 's/^/   stderr: /'
[ "$got" = "$want" ] && ok "TLS 1.3 transfer: SHA-256 of what the server received matches" ||
  { bad "TLS 1.3 transfer"; cat /tmp/server.err /tmp/client.err; }
# 1 MiB in 16 KiB records on both sides: each record is an engine operation.
[ "$delta" -ge 64 ] && ok "TLS 1.3: driver ops +$delta (>= 64 records)" || bad "TLS 1.3: driver ops +$delta"
grep -qh "^eip93: .*enabled.*via $C" /tmp/server.err /tmp/client.err &&
  ok "the activation notice names $C" || bad "no activation notice"

echo "# driver removed, then the CPU's AES restored"
rmmod eip93_sim || bad "rmmod eip93_sim"
gate "after rmmod eip93_sim: offers nothing" disabled "kernel: AF_ALG bind $C: ENOENT" \
  "kernel: AF_ALG bind $G: ENOENT"
rmmod eip93_nohwcap || bad "rmmod eip93_nohwcap"
[ "$(hwcap_aes)" = 1 ] && ok "AT_HWCAP advertises AES again" || bad "AT_HWCAP lacks AES after rmmod"
gate "CPU advertises AES again: offers nothing" disabled "cpu: has the ARMv8 AES instructions"

finish "arm64 gate (an7581)"
