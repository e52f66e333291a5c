#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# haproxy (nbthread 2, chroot, user haproxy) terminating TLS in front of a
# plain-HTTP nginx origin, curl as the client, in the guest.
#  - conf/haproxy.cfg as it is (port 8443): the optimized server; the same
#    file on port 8543 with EIP93_PROVIDER=off: the ordinary server.
#  - the transfers of lib.sh's run_matrix (cipher suites x download/upload,
#    then the three pairings).
set -eu
# shellcheck source=test/servers/lib.sh
. /opt/servers/lib.sh

servers_setup
cp $S/conf/haproxy.cfg /etc/haproxy/haproxy.cfg
sed -e 's/bind :8443 /bind :8543 /' -e 's#/run/haproxy.pid#/run/haproxy-ord.pid#' \
  /etc/haproxy/haproxy.cfg >/etc/haproxy/haproxy-ord.cfg
start_origin
echo "== haproxy: optimized on 8443, ordinary (EIP93_PROVIDER=off) on 8543"
haproxy -c -f /etc/haproxy/haproxy.cfg >/dev/null || fail "haproxy -c rejects haproxy.cfg"
haproxy -f /etc/haproxy/haproxy.cfg
EIP93_PROVIDER=off haproxy -f /etc/haproxy/haproxy-ord.cfg
wait_port 8443
wait_port 8543
pid=$(cat /run/haproxy.pid)
threads=$(ls /proc/"$pid"/task | wc -l)
echo "   haproxy $pid: $threads threads, user $(sed -n 's/^Uid:[[:space:]]*\([0-9]*\).*/\1/p' /proc/"$pid"/status), root $(readlink /proc/"$pid"/root)"
[ "$threads" -eq 2 ] || fail "haproxy runs $threads threads, expected 2 (nbthread 2)"

run_matrix haproxy 8443 8543

kill "$pid" "$(cat /run/haproxy-ord.pid)" "$(cat /run/nginx-backend.pid)"
exit $status
