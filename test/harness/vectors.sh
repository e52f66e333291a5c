#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# Guest test: the large vectors of test/data/vectors (AES-GCM 4 KiB..64 KiB,
# AES-CTR and AES-CBC 4080..36864 bytes, around the engine window) through
# OpenSSL's evp_test with the provider forced.  First the checked-in vectors
# are regenerated with eip93-vecgen and eip93-vecgen-skc from the kernel's
# gcm_base(ctr(aes-generic),ghash-generic), ctr(aes-generic) and
# cbc(aes-generic) (before the simulated driver is loaded) and must be
# identical.  Then, with the gate open, evp_test must pass every file (the
# engine-eligible ones with engine requests, the software-only ones without
# a single one; on 3.5 the AES-CTR/CBC engine files (4.0: AES-CTR's) once more in 4096-byte
# updates, evp_test -chunk: a chain of engine messages per case), and
# eip93-stanza runs every direction once more and proves each eligible one
# was carried by the engine (driver requests and eip93's engine-message
# counter) and no other one was.  AES-CTR and AES-CBC run where this tree's
# simulated driver registers the mode (has_skc, common.sh).
set -u
# shellcheck source=test/harness/common.sh
. /opt/eip93/harness/common.sh
V=/opt/eip93/data/vectors
FILES="gcm-large-engine gcm-large-software ctr-large-engine ctr-large-software cbc-large-engine cbc-large-software"

check_openssl /usr/bin/evp_test
for f in $FILES; do
  xzcat $V/$f.txt.xz >/tmp/$f.txt || bad "xzcat $f.txt.xz"
done

echo "# regenerating the vectors from the kernel (no simulated driver loaded)"
mkdir -p /tmp/gen
if grep -q 'aes-eip93' /proc/crypto; then
  bad "the simulated driver is loaded before regeneration"
elif /usr/bin/eip93-vecgen /tmp/gen/gcm-large-engine.txt /tmp/gen/gcm-large-software.txt &&
  /usr/bin/eip93-vecgen-skc /tmp/gen; then
  for f in $FILES; do
    if cmp -s /tmp/gen/$f.txt /tmp/$f.txt; then
      ok "$f: the kernel's generic implementation reproduces the checked-in vectors"
    else
      bad "$f: regenerated vectors differ from the checked-in ones"
    fi
  done
else
  bad "eip93-vecgen or eip93-vecgen-skc failed"
fi
rm -rf /tmp/gen

load_driver
check_skc_offered
force_cnf /tmp/force.cnf

# run NAME FILE: evp_test passes every case of FILE ("# cases: N"), none
# skipped; dirs: its "# eip93-engine-directions".
run() {
  dirs=$(sed -n 's/^# eip93-engine-directions: //p' "$2")
  evp_run "$1" /tmp/force.cnf "$2" "$(sed -n 's/^# cases: //p' "$2")"
}
run "large AES-GCM vectors, engine-eligible" /tmp/gcm-large-engine.txt
edirs=$dirs
engine_some "large AES-GCM vectors, engine-eligible"
run "large AES-GCM vectors, software-only shapes" /tmp/gcm-large-software.txt
engine_none "large AES-GCM vectors, software-only shapes"
files="/tmp/gcm-large-engine.txt /tmp/gcm-large-software.txt"

for m in ctr cbc; do
  has_skc $m || continue
  M=$(printf '%s' "$m" | tr '[:lower:]' '[:upper:]')
  run "large AES-$M vectors, engine-eligible" /tmp/$m-large-engine.txt
  edirs=$((edirs + dirs))
  engine_some "large AES-$M vectors, engine-eligible"
  run "large AES-$M vectors, software-only shapes" /tmp/$m-large-software.txt
  engine_none "large AES-$M vectors, software-only shapes"
  # -chunk: 3.5 and later; 4.0's evp_test skips AES-CBC under it ("does not
  # support fragmentation", cipher_test_valid_fragmentation()).
  if [ "$EIP93_OPENSSL_SERIES" = 3.5 ] || { [ "$EIP93_OPENSSL_SERIES" != 3.0 ] && [ "$m" = ctr ]; }; then
    evp_args="-chunk 4096"
    run "large AES-$M vectors, engine-eligible, in 4096-byte updates (-chunk 4096)" /tmp/$m-large-engine.txt
    evp_args=
    engine_some "large AES-$M vectors in 4096-byte updates"
  fi
  files="$files /tmp/$m-large-engine.txt /tmp/$m-large-software.txt"
done

# Direction by direction (AES-GCM in libssl's order, tag after the IV init):
# every eligible direction is carried by the engine (driver requests, one
# eip93 engine message; a corrupted tag: driver requests and a failure),
# every other one makes no driver request.
export OPENSSL_CONF=/tmp/force.cnf
# shellcheck disable=SC2086 # files: words
out=$(/usr/bin/eip93-stanza --ops /sys/module/eip93_sim/parameters/ops $files 2>&1)
rc=$?
printf '%s\n' "$out" | tail -n 20
got=$(printf '%s\n' "$out" | sed -n 's/.*; \([0-9]*\) directions carried by the engine$/\1/p')
if [ "$rc" -eq 0 ]; then
  ok "eip93-stanza: every case right, every direction on its expected path"
else
  bad "eip93-stanza (exit $rc)"
fi
if [ "${got:-0}" -eq "$edirs" ] && [ "$edirs" -gt 0 ]; then
  ok "engine carried all $edirs eligible directions"
else
  bad "engine carried ${got:-0} of $edirs eligible directions"
fi
unset OPENSSL_CONF

echo "harness vectors (OpenSSL $EIP93_OPENSSL_SERIES): $pass passed, $fail failed; modes: gcm,${EIP93_HARNESS_SKC:-}; $edirs engine directions"
[ "$fail" -eq 0 ]
