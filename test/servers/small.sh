#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# A server whose clients send and receive only small TLS records (below
# min-size, 4096 bytes): nginx (conf/nginx.conf) and curl, many requests on
# one keep-alive connection.  With client and server optimized, everything
# must still work and the driver's counter must not move at all: no engine
# message, and no key is even opened or checked (that happens lazily at the
# first large record), so no activation line either.  The same workload
# between an ordinary client and server is the control; the times of both are
# printed (a ratio, not asserted: TCG timing is noisy).
set -eu
# shellcheck source=test/servers/lib.sh
. /opt/servers/lib.sh
N=${SERVERS_SMALL_N:-200}

servers_setup
cp $S/conf/nginx.conf /etc/nginx/nginx.conf
nginx_pair

# N small files of 1..3 KiB on the server, N of 1..3 KiB to upload.
mkdir -p /srv/www/small /tmp/up
i=1
while [ $i -le $N ]; do
  head -c $((1024 + (i * 37) % 2048)) /dev/urandom >/srv/www/small/f$i
  head -c $((1024 + (i * 53) % 2048)) /dev/urandom >/tmp/up/f$i
  i=$((i + 1))
done
chown -R 33:33 /srv/www/upload
digest() { # DIR: one digest over the N files in order
  i=1
  while [ $i -le $N ]; do cat "$1/f$i"; i=$((i + 1)); done | sha256sum | cut -d' ' -f1
}
total() { # DIR: bytes of the N files
  cat "$1"/f* | wc -c
}
down_sha=$(digest /srv/www/small)
down_bytes=$(total /srv/www/small)
up_sha=$(digest /tmp/up)
up_bytes=$(total /tmp/up)

# small PAIRING PORT PROTO CIPHER DIR
small() {
  pairing=$1 port=$2 proto=$3 cipher=$4 dir=$5
  if [ "${pairing%-*}" = ord ]; then cenv=off; else cenv=; fi
  # shellcheck disable=SC2046
  set -- $(curl_tls "$proto" "$cipher")
  rm -rf /tmp/got /srv/www/upload/small
  mkdir -p /tmp/got /srv/www/upload/small
  chown 33:33 /srv/www/upload/small
  before=$(ops)
  t0=$(now_cs)
  if [ "$dir" = download ]; then
    env ${cenv:+EIP93_PROVIDER=$cenv} curl -sS -v --fail --cacert $CRT "$@" \
      -o '/tmp/got/f#1' "https://localhost:$port/small/f[1-$N]" 2>/tmp/curl.err || true
    want=$down_sha wantb=$down_bytes bytes=$(total /tmp/got) got=$(digest /tmp/got)
  else
    env ${cenv:+EIP93_PROVIDER=$cenv} curl -sS -v --fail --cacert $CRT "$@" \
      -T "/tmp/up/f[1-$N]" "https://localhost:$port/upload/small/" -o /dev/null 2>/tmp/curl.err || true
    want=$up_sha wantb=$up_bytes bytes=$(total /srv/www/upload/small) got=$(digest /srv/www/upload/small)
  fi
  cs=$(($(now_cs) - t0))
  secs=$(printf '%d.%02d' $((cs / 100)) $((cs % 100)))
  delta=$(($(ops) - before))
  conns=$(grep -c '^\* SSL connection using' /tmp/curl.err || true)
  what="nginx small $pairing $proto $cipher $dir"
  [ "$bytes" -eq "$wantb" ] || fail "$what: $bytes bytes arrived, expected $wantb"
  if [ "$got" = "$want" ]; then match=match; else match=MISMATCH; fail "$what: SHA-256 mismatch"; fi
  [ "$delta" -eq 0 ] || fail "$what: driver counter +$delta, expected 0 (all records < 4096 bytes)"
  [ "$conns" -eq 1 ] || fail "$what: $conns TLS connections, expected one keep-alive connection"
  grep -q '^eip93:' /tmp/curl.err && fail "$what: the client printed an eip93 line (a key was opened)"
  echo "SERVERS-ROW|nginx (small records)|$pairing|$proto|$cipher|$dir ${N} x 1-3 KiB|$bytes|$match|$delta|$secs"
  case "${pairing%-*}$dir" in
  optdownload) t_opt_download=$((t_opt_download + cs)) ;;
  orddownload) t_ord_download=$((t_ord_download + cs)) ;;
  optupload) t_opt_upload=$((t_opt_upload + cs)) ;;
  ordupload) t_ord_upload=$((t_ord_upload + cs)) ;;
  esac
}

t_opt_download=0 t_ord_download=0 t_opt_upload=0 t_ord_upload=0
echo "== $N small requests (1-3 KiB) each way on one keep-alive connection"
for c in $CIPHERS; do
  for pr in opt-opt:443 ord-ord:1443; do
    small "${pr%:*}" "${pr#*:}" "${c%%:*}" "${c#*:}" download
    small "${pr%:*}" "${pr#*:}" "${c%%:*}" "${c#*:}" upload
  done
done
grep -q '^eip93' /var/log/nginx/error.log && fail "the optimized nginx printed an eip93 line (a key was opened)"
echo "   time, optimized / ordinary: downloads ${t_opt_download}cs / ${t_ord_download}cs," \
  "uploads ${t_opt_upload}cs / ${t_ord_upload}cs"
echo "SERVERS-SMALL-TIMES|$t_opt_download|$t_ord_download|$t_opt_upload|$t_ord_upload"

kill "$(cat /run/nginx.pid)" "$(cat /run/nginx-ord.pid)"
exit $status
