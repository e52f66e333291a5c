# SPDX-License-Identifier: Apache-2.0
# shellcheck shell=sh
# Shared by the servers suite's guest scripts (busybox sh, sourced).
#
# Every server runs twice: an "optimized" instance (eip93 on: the hooks build
# stands in for the AN7581 board, the simulated EIP93 driver is loaded) and an
# "ordinary" one, started from the same files with EIP93_PROVIDER=off in its
# environment.  A client is optimized or ordinary the same way.  Each transfer
# prints one table row:
#   SERVERS-ROW|server|client->server|protocol|cipher|direction|bytes|sha256|ops|seconds|records
# (ops: delta of the simulated driver's operation counter over the transfer).

S=/opt/servers
SHIM=/usr/lib/eip93-counters.so # the provider's counters at exit (counters.c)
# shellcheck source=test/guest/lib.sh
. /opt/eip93/guest-lib.sh
an7581_hooks
export OPENSSL_CONF=/etc/ssl/openssl-eip93.cnf
MiB=1048576
status=0
CRT=/etc/ssl/eip93/server.crt

fail() {
  echo "FAIL: $*"
  # shellcheck disable=SC2034 # read by the scripts that source this file
  status=1
}

# Centiseconds since boot.
now_cs() {
  read -r up _ </proc/uptime
  echo "${up%.*}${up#*.}"
}
secs_since() { # start_cs -> seconds with 2 decimals
  d=$(($(now_cs) - $1))
  printf '%d.%02d' $((d / 100)) $((d % 100))
}

# The rootfs a Debian server expects, the simulated driver, a certificate.
servers_setup() {
  mkdir -p /etc/ssl/eip93 /srv/www/upload/.tmp /var/log/nginx /var/lib/nginx /etc/nginx \
    /etc/haproxy /var/lib/haproxy /run/stunnel4 /var/log/stunnel4 /etc/stunnel
  cp $S/conf/openssl.cnf /etc/ssl/openssl-eip93.cnf
  echo 'haproxy:x:101:101:haproxy:/var/lib/haproxy:/bin/false' >>/etc/passwd
  echo 'haproxy:x:101:' >>/etc/group
  chown -R 33:33 /srv/www/upload
  insmod /lib/eip93/eip93_sim.ko
  # The optimized instances bind the gate's first choice, the engine's AES-CTR alone.
  if eip93-gate-check enabled "enabled: ctr(aes-eip93)" >/tmp/gc.out 2>&1; then
    echo "the optimized instances' gate: $(sed -n 's/^eip93-gate: //p' /tmp/gc.out)"
  else
    fail "the gate does not bind ctr(aes-eip93)"; cat /tmp/gc.out
  fi
  EIP93_PROVIDER=off openssl req -x509 -newkey rsa:2048 -nodes -subj /CN=localhost \
    -addext subjectAltName=DNS:localhost,IP:127.0.0.1 -days 2 \
    -keyout /etc/ssl/eip93/server.key -out $CRT 2>/dev/null
  cat $CRT /etc/ssl/eip93/server.key >/etc/ssl/eip93/server.pem
  chmod 0600 /etc/ssl/eip93/server.key /etc/ssl/eip93/server.pem
}

# make_blob BYTES: /srv/www/blob (the download) and its digest in $BLOB_SHA.
make_blob() {
  head -c "$1" /dev/urandom >/srv/www/blob
  BLOB_SHA=$(sha256sum </srv/www/blob | cut -d' ' -f1)
  BLOB_BYTES=$1
}

# counter DIR NAME: NAME summed over the counter lines in DIR (the processes
# that exited); "none" when no process wrote one.
counter() {
  cat "$1"/* 2>/dev/null | awk -v k="$2" '
    { n++; for (i = 2; i < NF; i++) if ($i == k) s += $(i + 1) }
    END { if (n) print s + 0; else print "none" }'
}

# client_counters WHAT PROTO DIR: the optimized curl's own counters (DIR,
# written at its exit): no wrong engine result and no failed key check
# (engine errors are printed: a request may time out on a loaded TCG host),
# and its records on keystream computed ahead (TLS 1.3's XOR nonces, TLS
# 1.2's counting explicit IVs; alg/gcm/ahead.c): at least a quarter of the
# 16 KiB records the blob needs (a misprediction drops one and asks again).
client_counters() {
  if grep -q 'no-eip93' "$3"/* 2>/dev/null; then
    fail "$1: the optimized curl had no eip93 provider active"
    return 0
  fi
  cc_used=$(counter "$3" keystream-ahead-used)
  if [ "$cc_used" = none ]; then
    fail "$1: the optimized curl wrote no counters"
    return 0
  fi
  for cc_k in engine-faults key-checks-failed; do
    [ "$(counter "$3" $cc_k)" -eq 0 ] || fail "$1: curl's $cc_k $(counter "$3" $cc_k)"
  done
  cc_want=$((BLOB_BYTES / 16384 / 4))
  echo "   curl: engine messages $(counter "$3" engine-messages), errors $(counter "$3" engine-errors)," \
    "keystream ahead used $cc_used, dropped $(counter "$3" keystream-ahead-dropped) ($2)"
  [ "$cc_used" -ge "$cc_want" ] ||
    fail "$1: curl took keystream computed ahead for $cc_used records, expected at least $cc_want"
}

# Wait until something listens on TCP port $1 (busybox netstat).
wait_port() {
  i=0
  while ! netstat -ltn 2>/dev/null | grep -q "[:.]$1 "; do
    i=$((i + 1))
    [ $i -gt 100 ] && { fail "nothing listens on port $1"; return 1; }
    sleep 0.1
  done
}

# nginx_pair: nginx with /etc/nginx/nginx.conf (optimized) on 443 and a copy
# of it on 1443 with EIP93_PROVIDER=off (ordinary; /run/nginx-ord.pid,
# error-ord.log), both listening.
nginx_pair() {
  sed -e 's/listen 443 /listen 1443 /' -e 's#/run/nginx.pid#/run/nginx-ord.pid#' \
    -e 's#/var/log/nginx/error.log#/var/log/nginx/error-ord.log#' \
    /etc/nginx/nginx.conf >/etc/nginx/nginx-ord.conf
  nginx
  EIP93_PROVIDER=off nginx -c /etc/nginx/nginx-ord.conf
  wait_port 443
  wait_port 1443
}

# start_origin: the proxies' origin, an ordinary nginx serving plain HTTP on
# 127.0.0.1:8080 (conf/nginx-backend.conf), listening.
start_origin() {
  cp $S/conf/nginx-backend.conf /etc/nginx/nginx-backend.conf
  echo "== origin: nginx, plain HTTP on 127.0.0.1:8080"
  EIP93_PROVIDER=off nginx -c /etc/nginx/nginx-backend.conf
  wait_port 8080
}

# curl_tls PROTO CIPHER: curl's options for one protocol and cipher.
curl_tls() {
  case "$1" in
  TLSv1.3) echo "--tlsv1.3 --tls-max 1.3 --tls13-ciphers $2" ;;
  TLSv1.2) echo "--tlsv1.2 --tls-max 1.2 --ciphers $2" ;;
  esac
}

CIPHERS="TLSv1.3:TLS_AES_256_GCM_SHA384 TLSv1.3:TLS_AES_128_GCM_SHA256
TLSv1.2:ECDHE-RSA-AES256-GCM-SHA384 TLSv1.2:ECDHE-RSA-AES128-GCM-SHA256"

upload_n=0
# xfer SERVER PAIRING PORT PROTO CIPHER DIR
#   PAIRING: opt-opt, opt-ord, ord-opt, ord-ord (client-server); the caller
#   points PORT at the matching server instance.  DIR: download or upload.
#   Moves the blob ($BLOB_BYTES) once with curl, checks the SHA-256 on both
#   ends, the negotiated cipher, and the driver's counter; an optimized
#   curl's own counters (client_counters).
xfer() {
  server=$1 pairing=$2 port=$3 proto=$4 cipher=$5 dir=$6
  url=https://localhost:$port
  client=${pairing%-*}
  rm -rf /tmp/cnt.curl
  mkdir /tmp/cnt.curl
  if [ "$client" = ord ]; then
    cenv="EIP93_PROVIDER=off"
  else
    cenv="EIP93_COUNTERS_DIR=/tmp/cnt.curl LD_PRELOAD=$SHIM"
  fi
  # shellcheck disable=SC2046
  set -- $(curl_tls "$proto" "$cipher")
  rm -f /tmp/curl.err /tmp/curl.sha
  before=$(ops)
  t0=$(now_cs)
  if [ "$dir" = download ]; then
    # shellcheck disable=SC2086 # $cenv: the client's variables, split
    { env $cenv curl -sS -v --fail --cacert $CRT "$@" \
        -w '%{stderr}BYTES %{size_download}\n' -o - "$url/blob" 2>/tmp/curl.err
      echo $? >/tmp/curl.rc; } | sha256sum | cut -d' ' -f1 >/tmp/curl.sha
    sent_sha=$BLOB_SHA                        # the server's end: the file it served
    got_sha=$(cat /tmp/curl.sha)              # the client's end: what arrived
  else
    upload_n=$((upload_n + 1))
    name=u$upload_n
    # shellcheck disable=SC2086
    env $cenv curl -sS -v --fail --cacert $CRT "$@" \
      -w '%{stderr}BYTES %{size_upload}\n' -o /dev/null -T /srv/www/blob "$url/upload/$name" \
      2>/tmp/curl.err
    echo $? >/tmp/curl.rc
    sent_sha=$BLOB_SHA                        # the client's end: the file it sent
    got_sha=$(sha256sum </srv/www/upload/$name 2>/dev/null | cut -d' ' -f1)
    rm -f /srv/www/upload/$name
  fi
  secs=$(secs_since "$t0")
  delta=$(($(ops) - before))
  rc=$(cat /tmp/curl.rc)
  bytes=$(sed -n 's/^BYTES \([0-9]*\).*/\1/p' /tmp/curl.err | tail -n 1)
  # curl -v: "* SSL connection using TLSv1.3 / TLS_AES_256_GCM_SHA384"
  used=$(sed -n 's/^\* SSL connection using \([^ ]*\) \/ \([^ ]*\).*/\1 \2/p' /tmp/curl.err | head -n 1)
  if [ "$sent_sha" = "$got_sha" ]; then match=match; else match=MISMATCH; fi
  what="$server $pairing $proto $cipher $dir"
  [ "$rc" = 0 ] || { fail "$what: curl exit status $rc"; grep -v '^[<>{}]' /tmp/curl.err | tail -n 5; }
  [ "$bytes" = "$BLOB_BYTES" ] || fail "$what: curl moved ${bytes:-?} bytes, expected $BLOB_BYTES"
  [ "$match" = match ] || fail "$what: SHA-256 mismatch"
  [ "$used" = "$proto $cipher" ] || fail "$what: negotiated '$used'"
  check_ops "$what" "$pairing" "$delta" "$BLOB_BYTES"
  notice=no
  grep -q '^eip93: .*enabled' /tmp/curl.err && notice=yes
  if [ "$client" = opt ] && [ $notice = no ]; then fail "$what: optimized client printed no eip93 notice"; fi
  # The gate's first choice: the engine's AES-CTR alone.
  if [ "$client" = opt ] && [ $notice = yes ] && ! grep -q '^eip93: .*enabled.* via ctr(aes-eip93)$' /tmp/curl.err; then
    fail "$what: the optimized client's notice does not name ctr(aes-eip93): $(grep '^eip93: ' /tmp/curl.err | head -n 1)"
  fi
  if [ "$client" = ord ] && [ $notice = yes ]; then fail "$what: ordinary client printed the eip93 notice"; fi
  [ "$client" = opt ] && client_counters "$what" "$proto" /tmp/cnt.curl
  echo "SERVERS-ROW|$server|$pairing|$proto|$cipher|$dir|${bytes:-0}|$match|$delta|$secs"
}

# check_ops WHAT PAIRING DELTA BYTES: the counter moves only when a side is
# optimized, and then carries the bulk: every optimized side sends or
# receives BYTES in TLS records of at most 16 KiB, each one engine operation
# when it is 4..32 KiB, plus its key check (1 operation on ctr(aes-eip93), 3 on the
# kernel's AES-GCM).  Lower bound: 90% of
# the records a side needs at the very least; upper bound: a side's records
# of at least 4 KiB, its key check and a little slack.
check_ops() {
  sides=0
  case "$2" in
  opt-opt) sides=2 ;;
  opt-ord | ord-opt) sides=1 ;;
  esac
  if [ $sides -eq 0 ]; then
    [ "$3" -eq 0 ] || fail "$1: ordinary client and server, yet the driver counter rose by $3"
    return 0
  fi
  min=$((sides * ($4 / 16384) * 9 / 10))
  max=$((sides * ($4 / 4096 + 4 + 16)))
  [ "$3" -ge $min ] || fail "$1: driver counter +$3, expected at least $min (engine not carrying the bulk)"
  [ "$3" -le $max ] || fail "$1: driver counter +$3, more than $max"
}

# run_matrix SERVER OPT_PORT ORD_PORT: the transfers of one server.
#   Optimized client and server: every cipher suite, download and upload of
#   SERVERS_MIB (default 32) MiB.  Then the three pairings (optimized client /
#   ordinary server, ordinary client / optimized server, both ordinary): for
#   TLS_AES_256_GCM_SHA384 with SERVERS_MIB, for the other suites with
#   SERVERS_PAIR_MIB (default 4) MiB, to keep TCG's time in bounds.
run_matrix() {
  main=${SERVERS_MIB:-32}
  pair=${SERVERS_PAIR_MIB:-4}
  echo "== $1: optimized client and server, $main MiB each way"
  make_blob $((main * MiB))
  for c in $CIPHERS; do
    xfer "$1" opt-opt "$2" "${c%%:*}" "${c#*:}" download
    xfer "$1" opt-opt "$2" "${c%%:*}" "${c#*:}" upload
  done
  pairings "$1" "$2" "$3" "$main" "TLSv1.3:TLS_AES_256_GCM_SHA384"
  pairings "$1" "$2" "$3" "$pair" "TLSv1.3:TLS_AES_128_GCM_SHA256
TLSv1.2:ECDHE-RSA-AES256-GCM-SHA384 TLSv1.2:ECDHE-RSA-AES128-GCM-SHA256"
}

# pairings SERVER OPT_PORT ORD_PORT MIB "PROTO:CIPHER ...": the three pairings.
pairings() {
  echo "== $1: pairings, $4 MiB each way"
  [ "$BLOB_BYTES" -eq $(($4 * MiB)) ] || make_blob $(($4 * MiB))
  for c in $5; do
    for pr in opt-ord:$3 ord-opt:$2 ord-ord:$3; do
      xfer "$1" "${pr%:*}" "${pr#*:}" "${c%%:*}" "${c#*:}" download
      xfer "$1" "${pr%:*}" "${pr#*:}" "${c%%:*}" "${c#*:}" upload
    done
  done
}
