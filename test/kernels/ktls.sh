#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# Kernel TLS beside the engine, sourced by matrix.sh in the rows
# that set KTLS=1 (6.1 and 7.3): it shares their boot, the simulated driver
# they loaded and their ok/bad counters.  Debian's OpenSSL with
# `Options = KTLS` (no eip93 in that configuration) serves a file with
# s_server -WWW over TLS 1.2 and TLS 1.3 (AES-128-GCM) to s_client, with the
# kernel's tls module (insmod: this guest has no modprobe).  Asserted: the
# kernel did the record crypto (/proc/net/tls_stat), SHA-256 right, the
# simulated driver's counter moves exactly when the kernel's gcm(aes) is
# the engine hybrid (6.1) and not when it is a CPU one (7.3), the doctor's
# kTLS line names the same driver.  Then the same transfers through eip93
# (matrix.sh's /tmp/openssl.cnf) for comparison.  MB/s are TCG emulation.
# shellcheck disable=SC2154 # kver, mode: matrix.sh; ok, bad, ops, test_cert, wait_listen: guest/lib.sh
# Prints "EIP93-KTLS-ROW|kver|gcm(aes)|ops tls1.2|ops tls1.3|MB/s..." for the docs.

KSIZE=${KTLS_SIZE:-1048576}
kt0=$(awk '{ print int($1) }' /proc/uptime)
mkdir -p /tmp/www
head -c "$KSIZE" /dev/urandom >/tmp/www/blob
ksum=$(sha256sum /tmp/www/blob | cut -d' ' -f1)
test_cert
cat >/tmp/ktls.cnf <<'CNF'
openssl_conf = openssl_init
[openssl_init]
ssl_conf = ssl_sect
[ssl_sect]
system_default = system_default_sect
[system_default_sect]
Options = KTLS
CNF

if insmod /lib/eip93/tls.ko; then
  grep -q '^tls ' /proc/modules && ok "$kver: tls module loaded" || bad "$kver: tls not in /proc/modules"
else
  bad "$kver: insmod tls.ko"
fi

# tls_stat NAME: a counter of /proc/net/tls_stat (0 when absent).
tls_stat() { awk -v n="$1" '$1 == n { print $2; f = 1 } END { if (!f) print 0 }' /proc/net/tls_stat 2>/dev/null; }
# centis: /proc/uptime in hundredths of a second.
centis() { awk '{ split($1, a, "."); print a[1] * 100 + a[2] }' /proc/uptime; }

# xfer CNF PORT PROTO-ARGS...: GET /blob over TLS; sets xsum, xops, xtx, xrx, xmbs.
xfer() {
  cnf=$1 port=$2
  shift 2
  (cd /tmp/www && OPENSSL_CONF=$cnf openssl s_server -accept "$port" -cert /tmp/cert.pem \
     -key /tmp/key.pem -naccept 1 -WWW -quiet "$@" </dev/null >/tmp/ks.out 2>&1) &
  spid=$!
  wait_listen "$port"
  o0=$(ops) tx0=$(tls_stat TlsTxSw) rx0=$(tls_stat TlsRxSw) t0=$(centis)
  printf 'GET /blob HTTP/1.0\r\n\r\n' | OPENSSL_CONF=$cnf openssl s_client \
    -connect "127.0.0.1:$port" -quiet "$@" >/tmp/kgot 2>/tmp/kc.err
  t1=$(centis)
  xops=$(( $(ops) - o0 )) xtx=$(( $(tls_stat TlsTxSw) - tx0 )) xrx=$(( $(tls_stat TlsRxSw) - rx0 ))
  wait $spid
  xsum=$(tail -c "$KSIZE" /tmp/kgot | sha256sum | cut -d' ' -f1)
  xmbs=$(awk -v b="$KSIZE" -v d=$((t1 - t0)) 'BEGIN { printf "%.2f", (d > 0 ? b / (d / 100) / 1e6 : 0) }')
  [ "$xsum" = "$ksum" ] || { cat /tmp/ks.out /tmp/kc.err | tail -n 5 | sed 's/^/#   /'; }
}

# The kernel's gcm(aes) as kTLS gets it: the highest-priority one in /proc/crypto.
best_gcm() {
  awk -F' *: *' '$1 == "name" { n = $2 } $1 == "driver" { d = $2 } $1 == "priority" { p = $2 }
    $1 == "type" && n == "gcm(aes)" && $2 == "aead" && p + 0 > bp { bp = p + 0; bd = d }
    END { print bd }' /proc/crypto
}

row="$kver"
n=0
for proto in "-tls1_2 -cipher ECDHE-ECDSA-AES128-GCM-SHA256" "-tls1_3 -ciphersuites TLS_AES_128_GCM_SHA256"; do
  n=$((n + 1))
  name=$( [ $n -eq 1 ] && echo "TLS 1.2" || echo "TLS 1.3")
  # shellcheck disable=SC2086 # $proto is the option list
  xfer /tmp/ktls.cnf $((4460 + n)) $proto
  gcm=$(best_gcm)
  what="$kver: kTLS $name AES-128-GCM $KSIZE B: sha256 $( [ "$xsum" = "$ksum" ] && echo ok || echo WRONG), kernel records tx +$xtx rx +$xrx, gcm(aes) = $gcm, driver ops +$xops, $xmbs MB/s (emulation)"
  if [ "$xsum" != "$ksum" ]; then
    bad "$what"
  elif [ "$xtx" -lt 1 ]; then
    bad "$what: the kernel did not encrypt (no kTLS)"
  else
    case "$gcm" in
    *eip93*) [ "$xops" -gt 0 ] && ok "$what: the engine hybrid" || bad "$what: hybrid, yet ops +0" ;;
    ?*) [ "$xops" -eq 0 ] && ok "$what: a CPU gcm(aes), the engine untouched" ||
          bad "$what: a CPU gcm(aes), yet ops +$xops" ;;
    *) bad "$what: no gcm(aes) in /proc/crypto after a kTLS transfer" ;;
    esac
  fi
  row="$row|$name kTLS: ops +$xops, $xmbs MB/s"
done
case $kver in
6.1.*) case "$gcm" in *eip93*) ok "$kver: kTLS reaches the engine (as expected before 7.x)" ;;
       *) bad "$kver: kTLS's gcm(aes) is $gcm, expected the engine hybrid" ;; esac ;;
7.*) case "$gcm" in *eip93*) bad "$kver: kTLS's gcm(aes) is the hybrid $gcm, expected a CPU one" ;;
     *) ok "$kver: kTLS stays on the CPU ($gcm)" ;; esac ;;
esac

# The doctor's kTLS line, with the kTLS configuration.
OPENSSL_CONF=/tmp/ktls.cnf eip93-doctor >/tmp/kdoc.out 2>&1
kline=$(sed -n 's/^  kTLS: //p' /tmp/kdoc.out)
echo "# doctor: kTLS: $kline"
sed -n '/^\[7\]/,/^\[8\]/p' /tmp/kdoc.out | sed 's/^/#   /'
good=1
case "$kline" in "on: "*"$gcm"*) ;; *) good=0 ;; esac
grep -q '^  tls module  *loaded' /tmp/kdoc.out || good=0
grep -q "^  openssl.cnf  *KTLS on: /tmp/ktls.cnf line 7: Options = KTLS" /tmp/kdoc.out || good=0
case "$gcm" in
*eip93*) case "$kline" in *"goes to the engine (CTR"*) ;; *) good=0 ;; esac ;;
*) case "$kline" in *"runs on the CPU ($gcm), never on the engine"*) ;; *) good=0 ;; esac ;;
esac
[ $good -eq 1 ] && ok "$kver: the doctor's kTLS line names $gcm and where it runs" ||
  bad "$kver: the doctor's kTLS line: $kline"

# The same transfers through eip93 (no kTLS), for comparison.
n=0
for proto in "-tls1_2 -cipher ECDHE-ECDSA-AES128-GCM-SHA256" "-tls1_3 -ciphersuites TLS_AES_128_GCM_SHA256"; do
  n=$((n + 1))
  name=$( [ $n -eq 1 ] && echo "TLS 1.2" || echo "TLS 1.3")
  # shellcheck disable=SC2086
  xfer /tmp/openssl.cnf $((4470 + n)) $proto
  what="$kver: eip93 $name AES-128-GCM $KSIZE B: driver ops +$xops, kernel records tx +$xtx, $xmbs MB/s (emulation)"
  if [ "$xsum" != "$ksum" ]; then
    bad "$what: sha256 wrong"
  elif [ "$xtx" -ne 0 ]; then
    bad "$what: kTLS took the records although the configuration does not ask for it"
  elif [ "$mode" = offload ] && [ "$xops" -le 0 ]; then
    bad "$what: the provider did not reach the engine"
  elif [ "$mode" = refuse ] && [ "$xops" -ne 0 ]; then
    bad "$what: the engine moved on a refusing kernel"
  else
    ok "$what, sha256 ok"
  fi
  row="$row|$name eip93: ops +$xops, $xmbs MB/s"
done
echo "EIP93-KTLS-ROW|$row|$gcm"
echo "# kTLS part: $(( $(awk '{ print int($1) }' /proc/uptime) - kt0 ))s of guest time"
