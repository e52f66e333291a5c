#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# arm64 guest (AN7581) with the files of the arm64 Debian packages: the
# packaged eip93.so in the multiarch modules directory, the packaged
# eip93-doctor, the packaged example config as openssl.cnf.
set -u
. /opt/eip93/lib.sh
[ -f /usr/lib/aarch64-linux-gnu/ossl-modules/eip93.so ] && ok "packaged module in place" || bad "no module"
insmod /lib/eip93/eip93_nohwcap.ko || bad "insmod eip93_nohwcap.ko"
insmod /lib/eip93/eip93_sim.ko || bad "insmod eip93_sim.ko"
out=$(openssl list -providers 2>&1)
echo "$out" | sed 's/^/   /'
echo "$out" | grep -q '^  eip93$' && ok "openssl list -providers: eip93" || bad "eip93 not listed"
echo "$out" | grep -qF "(enabled: $C)" && ok "the packaged module is enabled on the AN7581 guest" ||
  bad "not enabled"
doctor "packaged doctor" 0 "activated by config    yes" "verdict: enabled: $C"
before=$(ops)
openssl speed -elapsed -aead -bytes 16384 -seconds 1 -evp aes-256-gcm >/tmp/speed.out 2>&1 ||
  bad "openssl speed"
delta=$(( $(ops) - before ))
grep -i 'aes-256-gcm' /tmp/speed.out | tail -n 1 | sed 's/^/   /'
[ "$delta" -gt 0 ] && ok "openssl speed -evp aes-256-gcm (16 KiB): driver ops +$delta" ||
  { bad "openssl speed: driver ops +$delta"; cat /tmp/speed.out; }
finish "arm64 Debian package"
