#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# stunnel4 in its default mode (server, daemon, a thread per connection)
# terminating TLS in front of a plain-HTTP nginx origin, curl as the client,
# in the guest.
#  - conf/stunnel.conf as it is (port 9443): the optimized server; the same
#    file on port 9543 with EIP93_PROVIDER=off: the ordinary server.
#  - the transfers of lib.sh's run_matrix (cipher suites x download/upload,
#    then the three pairings).
set -eu
# shellcheck source=test/servers/lib.sh
. /opt/servers/lib.sh

servers_setup
cp $S/conf/stunnel.conf /etc/stunnel/eip93.conf
sed -e 's/^accept = 9443/accept = 9543/' -e 's#/run/stunnel4/eip93.pid#/run/stunnel4/eip93-ord.pid#' \
  -e 's#/var/log/stunnel4/eip93.log#/var/log/stunnel4/eip93-ord.log#' \
  /etc/stunnel/eip93.conf >/etc/stunnel/eip93-ord.conf
start_origin
echo "== stunnel: optimized on 9443, ordinary (EIP93_PROVIDER=off) on 9543"
OPENSSL_CONF=/etc/ssl/openssl-eip93.cnf stunnel4 /etc/stunnel/eip93.conf 2>/var/log/stunnel4/eip93.err
OPENSSL_CONF=/etc/ssl/openssl-eip93.cnf EIP93_PROVIDER=off stunnel4 /etc/stunnel/eip93-ord.conf \
  2>/var/log/stunnel4/eip93-ord.err
wait_port 9443
wait_port 9543
i=0
while [ ! -s /run/stunnel4/eip93.pid ] && [ $i -lt 50 ]; do sleep 0.1; i=$((i + 1)); done
pid=$(cat /run/stunnel4/eip93.pid)
echo "   stunnel $pid: $(grep -o 'Threading:[^ ]*' /var/log/stunnel4/eip93.log | head -n 1)"

run_matrix stunnel 9443 9543

kill "$pid" "$(cat /run/stunnel4/eip93-ord.pid)" "$(cat /run/nginx-backend.pid)"
exit $status
