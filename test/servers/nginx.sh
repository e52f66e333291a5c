#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# nginx (4 workers) as the TLS server, curl as the client, in the guest.
#  - conf/nginx.conf (port 443; keep-alive held longer, see below): the optimized server; the same file
#    on port 1443 with EIP93_PROVIDER=off: the ordinary server.
#  - the transfers of lib.sh's run_matrix (cipher suites x download/upload,
#    then the three pairings).
#  - every worker offloads: each worker holds AF_ALG sockets of its own while
#    connections are open, no AF_ALG socket is shared between processes, and
#    each worker printed the provider's activation line once.
set -eu
# shellcheck source=test/servers/lib.sh
. /opt/servers/lib.sh

servers_setup
# The documented configuration, except that idle keep-alive connections stay
# open for the whole worker check: on a loaded TCG host opening them can take
# longer than nginx's 65 s, and the first one's worker then closes it (and its
# AF_ALG sockets) before the check reads them.
sed 's/keepalive_timeout 65;/keepalive_timeout 900;/' $S/conf/nginx.conf >/etc/nginx/nginx.conf
grep -q 'keepalive_timeout 900;' /etc/nginx/nginx.conf || fail "keepalive_timeout not found in nginx.conf"

echo "== nginx: optimized on 443, ordinary (EIP93_PROVIDER=off) on 1443"
nginx_pair

master=$(cat /run/nginx.pid)
workers=$(for p in /proc/[0-9]*; do
  [ "$(sed -n 's/^PPid:[[:space:]]*//p' $p/status 2>/dev/null)" = "$master" ] && echo ${p#/proc/}
done | sort -n | tr '\n' ' ')
set -- $workers
nworkers=$#
echo "   master $master, workers: $workers"
[ "$nworkers" -eq 4 ] || fail "expected 4 workers, found $nworkers"

# ---- every worker offloads, no AF_ALG socket shared ------------------------
# alg_socks PID: "inode" per AF_ALG socket the process holds.
alg_socks() {
  for fd in /proc/$1/fd/*; do
    l=$(readlink "$fd" 2>/dev/null) || continue
    case "$l" in socket:*) ;; *) continue ;; esac
    proto=$(getfattr --absolute-names --only-values -n system.sockprotoname "$fd" 2>/dev/null | tr -d '\0') || continue
    [ "$proto" = ALG ] && { l=${l#socket:[}; echo "${l%]}"; }
  done
  return 0
}

echo "== every worker offloads (idle keep-alive connections after a 256 KiB download each)"
head -c 262144 /dev/urandom >/srv/www/small-blob
before=$(ops)
t0=$(date +%s)
n=0 pids=''
while [ $n -lt 48 ]; do
  n=$((n + 1))
  : >/tmp/ka.$n
  # A keep-alive connection: one request, then the client stays connected.
  ( printf 'GET /small-blob HTTP/1.1\r\nHost: localhost\r\n\r\n'; sleep 900 ) |
    EIP93_PROVIDER=off openssl s_client -connect 127.0.0.1:443 -quiet -tls1_3 \
      -ciphersuites TLS_AES_256_GCM_SHA384 >/tmp/ka.$n 2>/dev/null &
  pids="$pids $!"
  # Wait until the response arrived (headers + 262144 bytes).
  i=0
  while [ "$(wc -c </tmp/ka.$n)" -lt 262144 ] && [ $i -lt 100 ]; do sleep 0.1; i=$((i + 1)); done
  covered=0
  for w in $workers; do [ -n "$(alg_socks "$w")" ] && covered=$((covered + 1)); done
  [ $covered -eq "$nworkers" ] && [ $n -ge 8 ] && break
done
echo "   $n connections in $(($(date +%s) - t0)) s; driver ops +$(($(ops) - before))"
: >/tmp/inodes
for w in $workers $master; do
  s=$(alg_socks "$w" | tr '\n' ' ')
  c=$(echo $s | wc -w)
  role=worker
  [ "$w" = "$master" ] && role=master
  echo "   $role $w: $c AF_ALG sockets (inodes: ${s:-none})"
  for i in $s; do echo "$i $w" >>/tmp/inodes; done
  if [ $role = worker ]; then
    [ "$c" -gt 0 ] || fail "worker $w holds no AF_ALG socket: it did not offload"
    echo "SERVERS-WORKER|$w|$c"
  else
    [ "$c" -eq 0 ] || fail "the master holds $c AF_ALG sockets"
  fi
done
shared=$(cut -d' ' -f1 /tmp/inodes | sort | uniq -d | tr '\n' ' ')
[ -z "$shared" ] || fail "AF_ALG sockets shared between processes: $shared"
echo "   AF_ALG sockets in all: $(wc -l </tmp/inodes), shared between processes: ${shared:-none}"
for p in $pids; do kill "$p" 2>/dev/null || true; done
pkill_clients() { for p in $(pidof openssl); do kill "$p" 2>/dev/null || true; done; }
pkill_clients
sleep 1
notices=$(grep -c '^eip93: .*enabled' /var/log/nginx/error.log || true)
echo "   activation lines in the error log: $notices (one per worker that offloaded)"
[ "$notices" -eq "$nworkers" ] || fail "expected $nworkers activation lines, found $notices"
grep -q '^eip93' /var/log/nginx/error-ord.log && fail "the ordinary nginx printed an eip93 line"

# ---- transfers --------------------------------------------------------------
run_matrix nginx 443 1443

kill "$(cat /run/nginx.pid)" "$(cat /run/nginx-ord.pid)"
exit $status
