#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# The demo, run inside the QEMU guest: the gate, then TLS 1.3 and TLS 1.2
# transfers between `openssl s_server` and `openssl s_client`, both with
# eip93 loaded as the preferred AES-GCM (default_properties = ?provider=eip93).
# The guest is x86_64, so the test-hooks build stands in for the AN7581 board
# (device tree and hwcaps); the kernel side is real: AF_ALG and the simulated
# EIP93 CTR driver, bound as the gate's first choice (ctr(aes-eip93), the
# engine's AES-CTR alone); the last transfer again through the kernel's AES-GCM
# over it (kernel-algorithm = gcm_base(ctr(aes-eip93),ghash-generic)).
set -eu
# shellcheck source=test/guest/lib.sh
. /opt/eip93/guest-lib.sh
an7581_hooks
eip93_cnf /tmp/openssl.cnf '?provider=eip93,?eip93.offload=yes'
export OPENSSL_CONF=/tmp/openssl.cnf
G='gcm_base(ctr(aes-eip93),ghash-generic)'
{ cat /tmp/openssl.cnf; echo "kernel-algorithm = $G"; } >/tmp/kgcm.cnf
want_kalg='ctr(aes-eip93)'

echo "== loading the simulated EIP93 driver (ctr(aes-eip93), priority 1500)"
insmod /lib/eip93/eip93_sim.ko
grep -A3 'ctr(aes-eip93)' /proc/crypto | sed 's/^/   /'

echo "== openssl list -providers -verbose"
openssl list -providers -verbose | sed -n '/eip93$/,/build info/p'
echo "== AES-GCM implementations offered"
openssl list -cipher-algorithms | grep -i 'aes-256-gcm'

test_cert
head -c 4194304 /dev/urandom >/tmp/upload
want=$(sha256sum /tmp/upload | cut -d' ' -f1)
status=0
port=4433

# transfer LABEL s_server/s_client protocol options...
transfer() {
  label=$1
  shift
  port=$((port + 1))
  tls_send "$port" 4194304 "$@"
  [ "$(wc -c </tmp/recv)" -eq 4194304 ] || { echo "   received $(wc -c </tmp/recv) bytes"; cat /tmp/server.err /tmp/client.err; }
  got=$(sha256sum /tmp/recv | cut -d' ' -f1)
  delta=$(( $(ops) - tls_ops0 ))
  if [ "$got" = "$want" ]; then verdict=OK; else verdict=MISMATCH; status=1; fi
  [ "$delta" -gt 0 ] || { echo "   no engine operations: the offload did not happen"; status=1; }
  printf '   %-40s 4 MiB  sha256 %s  %ss  driver ops +%s\n' "$label" "$verdict" \
    "$(( $(date +%s) - tls_t0 ))" "$delta"
  grep -h '^eip93:' /tmp/server.err /tmp/client.err | sort -u | sed 's/^/      stderr: /'
  [ "$(cat /tmp/server.err /tmp/client.err | grep -c "^eip93: .*enabled.* via $want_kalg\$")" -eq 2 ] ||
    { echo "   the server's and the client's notices do not both name $want_kalg"; status=1; }
}

echo "== TLS transfers through s_server/s_client (client -> server, SHA-256 checked)"
transfer "TLS 1.3 TLS_AES_256_GCM_SHA384" -tls1_3 -ciphersuites TLS_AES_256_GCM_SHA384
transfer "TLS 1.3 TLS_AES_128_GCM_SHA256" -tls1_3 -ciphersuites TLS_AES_128_GCM_SHA256
transfer "TLS 1.2 ECDHE-ECDSA-AES256-GCM-SHA384" -tls1_2 -cipher ECDHE-ECDSA-AES256-GCM-SHA384
echo "== the same through the kernel's AES-GCM: kernel-algorithm = $G"
export OPENSSL_CONF=/tmp/kgcm.cnf
want_kalg=$G
transfer "TLS 1.2 ECDHE-ECDSA-AES256-GCM-SHA384" -tls1_2 -cipher ECDHE-ECDSA-AES256-GCM-SHA384
export OPENSSL_CONF=/tmp/openssl.cnf
echo "   (driver ops: requests the simulated EIP93 CTR engine completed: one per"
echo "    eligible TLS record on each side, plus 1 per new key for its check on"
echo "    ctr(aes-eip93), 3 on the kernel's AES-GCM)"
exit $status
