#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# The servers demo, run inside the QEMU guest: Debian's nginx (4 workers,
# test/servers/conf/nginx.conf) serving and receiving 8 MiB over TLS 1.3 and
# TLS 1.2 to Debian's curl, both with eip93 preferred in openssl.cnf; then the
# same with an ordinary curl (EIP93_PROVIDER=off) against the same nginx, and
# both ordinary.  Every transfer is SHA-256 checked on both ends; "driver ops"
# is what the simulated EIP93 CTR engine did meanwhile; an optimized curl's
# own counters (eip93-counters.so at its exit) show its records on keystream
# computed ahead.
set -eu
# shellcheck source=test/servers/lib.sh
. /opt/servers/lib.sh
MIB=${SERVERS_DEMO_MIB:-8}

servers_setup
cp $S/conf/nginx.conf /etc/nginx/nginx.conf
nginx_pair
echo "== nginx $(nginx -v 2>&1 | sed 's/.*\///'), curl $(curl -V | sed -n '1s/^curl \([^ ]*\).*/\1/p'):" \
  "optimized nginx on 443, ordinary (EIP93_PROVIDER=off) on 1443"
make_blob $((MIB * MiB))

show() { # the SERVERS-ROW lines as a table, other lines as they are
  while IFS= read -r line; do
    case "$line" in
    SERVERS-ROW*)
      echo "$line" | while IFS='|' read -r _ _ pr proto cipher dir bytes match ops secs; do
        printf '   %-8s %-7s %-28s %-8s %3s MiB  sha256 %-8s driver ops +%-5s %ss\n' \
          "$pr" "$proto" "$cipher" "$dir" $((bytes / MiB)) "$match" "$ops" "$secs"
      done ;;
    *) echo "$line" ;;
    esac
  done
}

echo "== client / server (opt: eip93 on, ord: EIP93_PROVIDER=off), $MIB MiB each way"
{
  xfer nginx opt-opt 443 TLSv1.3 TLS_AES_256_GCM_SHA384 download
  xfer nginx opt-opt 443 TLSv1.3 TLS_AES_256_GCM_SHA384 upload
  xfer nginx opt-opt 443 TLSv1.2 ECDHE-RSA-AES128-GCM-SHA256 download
  xfer nginx opt-opt 443 TLSv1.2 ECDHE-RSA-AES128-GCM-SHA256 upload
  xfer nginx ord-opt 443 TLSv1.3 TLS_AES_256_GCM_SHA384 download
  xfer nginx opt-ord 1443 TLSv1.3 TLS_AES_256_GCM_SHA384 download
  xfer nginx ord-ord 1443 TLSv1.3 TLS_AES_256_GCM_SHA384 download
} >/tmp/demo.rows
show </tmp/demo.rows
echo "   (driver ops: one per TLS record of 4..32 KiB on each optimized side, plus 4"
echo "    per key for its check; the ordinary pair adds none)"
echo "== activation lines in nginx's error log (one per worker that offloaded)"
grep '^eip93:' /var/log/nginx/error.log | sed 's/^/   /' || true
kill "$(cat /run/nginx.pid)" "$(cat /run/nginx-ord.pid)"
exit $status
