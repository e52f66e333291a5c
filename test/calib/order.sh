#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# Guest test: the composition order with a GHASH named ghash-neon (the
# test-only eip93_ghash_neon module): chosen first and really used; the
# generic one once it is gone; kernel-algorithm selects one of the three
# and nothing else; the calibration measures each composition that binds.
set -u
. /opt/eip93/calib-lib.sh
GN=/sys/module/eip93_ghash_neon/parameters

insmod /lib/eip93/eip93_sim.ko || { echo "not ok - insmod eip93_sim.ko"; exit 1; }
echo "# without ghash-neon"
gate "ghash-generic when ghash-neon is absent" enabled "enabled: $G" \
  "GHASH: ghash-generic (table GHASH: slow on this CPU; load ghash-ce"
insmod /lib/eip93/eip93_ghash_neon.ko || bad "insmod eip93_ghash_neon.ko"
grep -q 'ghash-neon' /proc/crypto && ok "ghash-neon registered" || bad "ghash-neon not in /proc/crypto"
echo "# with ghash-neon"
warm
gate "ghash-neon is chosen first" enabled "enabled: $N" "GHASH: ghash-neon"
before=$(cat $GN/ops)
eip93-calib-check 16384 >/tmp/check.out 2>&1 || bad "calib-check"
cat /tmp/check.out | sed 's/^/   /'
d=$(( $(cat $GN/ops) - before ))
[ "$d" -gt 0 ] && ok "the neon GHASH computes the engine messages (its ops +$d)" || bad "ghash-neon ops +$d"
doctor "names ghash-neon" "ghash-neon             registered" "bind aead (NEON)       $N: ok" "GHASH: ghash-neon"

echo "# kernel-algorithm"
conf "kernel-algorithm = $G"
gate "kernel-algorithm = ...ghash-generic) wins over the order" enabled "enabled: $G"
conf "kernel-algorithm = $L"
gate "kernel-algorithm = ...ghash-lib): only that one, its bind error" disabled \
  "kernel: AF_ALG bind $L: ENOENT" "(kernel-algorithm = $L in config)"
conf 'kernel-algorithm = gcm(aes)'
gate "kernel-algorithm = gcm(aes): invalid, named, engine off" disabled \
  'invalid config value kernel-algorithm = "gcm(aes)"'
eip93-calib-check 16384 >/tmp/check.out 2>&1 && grep -q 'from default' /tmp/check.out &&
  ok "the application keeps working (AES-GCM from the default provider)" || { bad "app broken"; cat /tmp/check.out; }
conf

echo "# the calibration measures both compositions that bind"
if calibrate --rounds 3 --time-ms 10; then ok "calibrate exits 0"; else bad "calibrate failed"; cat /tmp/calib.err; fi
grep -q "^composition $N: 3 rounds" /tmp/calib.out && grep -q "^composition $G: 3 rounds" /tmp/calib.out &&
  ok "tables for ghash-neon and ghash-generic" || bad "not both measured"
grep -q "^composition $L: .*ENOENT" /tmp/calib.out && ok "ghash-lib: does not bind, reported" || bad "lib line"
comp=$(sed -n 's/^composition = //p' $CAL)
echo "# chosen: $comp, $(written_window)"
case "$comp" in "$N" | "$G") ok "the chosen composition is one that bound" ;; *) bad "chosen $comp" ;; esac
[ "$(written_window)" = "$(expected_window "$comp")" ] && ok "its window is what its table implies" ||
  bad "window $(written_window), table $(expected_window "$comp")"

echo "# ghash-neon removed: its calibration goes stale, the next one binds"
if [ "$comp" = "$N" ] && [ "$(written_window)" != off ]; then
  rmmod eip93_ghash_neon 2>/dev/null || sleep 1
  rmmod eip93_ghash_neon 2>/dev/null
fi
rmmod eip93_ghash_neon 2>/dev/null
if grep -q 'ghash-neon' /proc/crypto; then
  echo "# (ghash-neon still held by a template instance; not removable in this boot)"
  ok "rmmod refused while in use (the kernel keeps the instance)"
else
  if [ "$comp" = "$N" ]; then
    gate "calibration for ghash-neon, which no longer binds: stale" enabled "enabled: $G" \
      "calibration: stale: ignored ($CAL): its composition $N no longer binds (ENOENT"
  else
    gate "ghash-neon gone: generic" enabled "enabled: $G"
  fi
fi
finish "composition order"
