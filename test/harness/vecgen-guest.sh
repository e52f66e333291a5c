#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# Guest side of test/harness/gen-vectors.sh: run eip93-vecgen and
# eip93-vecgen-skc (no simulated driver loaded) and print their six files,
# gzip-compressed and base64-encoded, between marker lines on the console.
set -u
grep -q 'aes-eip93' /proc/crypto && { echo "simulated driver loaded"; exit 1; }
/usr/bin/eip93-vecgen /tmp/gcm-large-engine.txt /tmp/gcm-large-software.txt || exit 1
/usr/bin/eip93-vecgen-skc /tmp || exit 1
for f in gcm-large-engine gcm-large-software ctr-large-engine ctr-large-software \
  cbc-large-engine cbc-large-software; do
  gzip -9 -c /tmp/$f.txt >/tmp/$f.txt.gz || exit 1
  echo "EIP93-VECTORS-BEGIN $f.txt"
  base64 /tmp/$f.txt.gz
  echo "EIP93-VECTORS-END $f.txt"
done
