#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# Guest test: the large AES-GCM vectors (test/data/vectors/, 4 KiB..64 KiB
# around the engine window) through OpenSSL's evp_test with the provider
# forced.  First the checked-in vectors are regenerated with eip93-vecgen
# from the kernel's gcm_base(ctr(aes-generic),ghash-generic) (before the
# simulated driver is loaded) and must be identical.  Then, with the gate
# open, evp_test must pass both files (the software-only one without a single
# engine request), and eip93-stanza runs every direction in libssl's order
# and proves each eligible one was carried by the engine (driver requests
# and eip93's engine-message counter) and no other one was.
set -u
# shellcheck source=test/harness/common.sh
. /opt/eip93/harness/common.sh
V=/opt/eip93/data/vectors

check_openssl /usr/bin/evp_test
for f in engine software; do
  xzcat $V/gcm-large-$f.txt.xz >/tmp/$f.txt || bad "xzcat gcm-large-$f.txt.xz"
done

echo "# regenerating the vectors from the kernel (no simulated driver loaded)"
if grep -q 'aes-eip93' /proc/crypto; then
  bad "the simulated driver is loaded before regeneration"
elif /usr/bin/eip93-vecgen /tmp/gen-engine.txt /tmp/gen-software.txt; then
  for f in engine software; do
    cmp -s /tmp/gen-$f.txt /tmp/$f.txt && ok "gcm-large-$f: the kernel's generic GCM reproduces the checked-in vectors" ||
      bad "gcm-large-$f: regenerated vectors differ from the checked-in ones"
  done
else
  bad "eip93-vecgen failed"
fi
rm -f /tmp/gen-engine.txt /tmp/gen-software.txt

load_driver
eip93_cnf /tmp/force.cnf 'provider=eip93'

# run NAME FILE: evp_test passes every case of FILE ("# cases: N"), none
# skipped; dirs: its "# eip93-engine-directions".
run() {
  dirs=$(sed -n 's/^# eip93-engine-directions: //p' "$2")
  evp_run "$1" /tmp/force.cnf "$2" "$(sed -n 's/^# cases: //p' "$2")"
}
run "large vectors, engine-eligible" /tmp/engine.txt
edirs=$dirs
# evp_test sets a decryption tag before the key/IV init, which eip93 does not
# carry across that init: its decryptions run in software, its encryptions
# on the engine.
[ "$delta" -gt 0 ] && ok "evp_test's encryptions went through the engine: +$delta driver requests" ||
  bad "evp_test made no engine request"
run "large vectors, software-only shapes" /tmp/software.txt
[ "$delta" -eq 0 ] && ok "software-only shapes: no engine request" ||
  bad "software-only shapes made $delta engine requests"

# Direction by direction, in libssl's order (tag after the IV init): every
# eligible direction is carried by the engine (driver requests, one eip93
# engine message; a corrupted tag: driver requests and a failure), every
# other one makes no driver request.
export OPENSSL_CONF=/tmp/force.cnf
out=$(/usr/bin/eip93-stanza --ops /sys/module/eip93_sim/parameters/ops /tmp/engine.txt /tmp/software.txt 2>&1)
rc=$?
printf '%s\n' "$out" | tail -n 20
got=$(printf '%s\n' "$out" | sed -n 's/.*; \([0-9]*\) directions carried by the engine$/\1/p')
[ "$rc" -eq 0 ] && ok "eip93-stanza: every case right, every direction on its expected path" ||
  bad "eip93-stanza (exit $rc)"
[ "${got:-0}" -eq "$edirs" ] && [ "$edirs" -gt 0 ] && ok "engine carried all $edirs eligible directions" ||
  bad "engine carried ${got:-0} of $edirs eligible directions"
unset OPENSSL_CONF

echo "harness vectors (OpenSSL $EIP93_OPENSSL_SERIES): $pass passed, $fail failed"
[ "$fail" -eq 0 ]
