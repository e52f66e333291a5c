#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# Guest test: the composition order.  The engine's AES-CTR alone
# (ctr(aes-eip93) as an skcipher) comes first whenever it binds, even with
# a GHASH named ghash-neon (the test-only eip93_ghash_neon module) present.
# Without algif_skcipher (removed in this boot, so the CTR-only bind fails
# the way it does on a kernel without it) the kernel's AES-GCM compositions
# follow in their own order: ghash-neon chosen first and really used, the
# generic one without it.  kernel-algorithm selects exactly one name; the
# calibration measures each composition that binds.
set -u
. /opt/eip93/calib-lib.sh
GN=/sys/module/eip93_ghash_neon/parameters
SK=$(grep '/algif_skcipher\.ko$' /etc/eip93/modules)

insmod /lib/eip93/eip93_sim.ko || { echo "not ok - insmod eip93_sim.ko"; exit 1; }
echo "# the default order: CTR-only first"
gate "CTR-only composition first" enabled "enabled: $C" "GHASH: libcrypto's, in this process"

echo "# without algif_skcipher: the kernel's AES-GCM compositions, in order"
[ -n "$SK" ] && rmmod algif_skcipher && ok "algif_skcipher removed" || bad "rmmod algif_skcipher ($SK)"
gate "no skcipher, no ghash-neon: ghash-generic" enabled "enabled: $G" \
  "GHASH: ghash-generic (table GHASH: slow on this CPU; load ghash-ce"
doctor "the CTR-only bind fails, ghash-generic binds" "bind skcipher (CTR)    $C: ENOENT" \
  "bind aead (NEON)       $N: ENOENT" "bind aead              $G: ok"
insmod /lib/eip93/eip93_ghash_neon.ko || bad "insmod eip93_ghash_neon.ko"
grep -q 'ghash-neon' /proc/crypto && ok "ghash-neon registered" || bad "ghash-neon not in /proc/crypto"
warm
gate "no skcipher, with ghash-neon: ghash-neon is chosen before ghash-generic" enabled "enabled: $N" \
  "GHASH: ghash-neon"
before=$(cat $GN/ops)
eip93-calib-check 16384 >/tmp/check.out 2>&1 || bad "calib-check"
sed 's/^/   /' /tmp/check.out
d=$(( $(cat $GN/ops) - before ))
[ "$d" -gt 0 ] && ok "the neon GHASH computes the engine messages (its ops +$d)" || bad "ghash-neon ops +$d"
doctor "names ghash-neon" "ghash-neon             registered" "bind skcipher (CTR)    $C: ENOENT" \
  "bind aead (NEON)       $N: ok" "GHASH: ghash-neon"

echo "# algif_skcipher back: CTR-only first again, ghash-neon or not"
insmod "$SK" && ok "algif_skcipher loaded again" || bad "insmod $SK"
gate "with ghash-neon and skcipher: CTR-only first" enabled "enabled: $C" "GHASH: libcrypto's"
before=$(cat $GN/ops)
dbefore=$(cat $P/ops)
eip93-calib-check 16384 >/tmp/check.out 2>&1 || bad "calib-check"
sed 's/^/   /' /tmp/check.out
d=$(( $(cat $GN/ops) - before )) dd=$(( $(cat $P/ops) - dbefore ))
[ "$d" -eq 0 ] && [ "$dd" -gt 0 ] && ok "CTR-only: the engine computes (driver ops +$dd), the kernel GHASH does not (+0)" ||
  bad "CTR-only: driver ops +$dd, ghash-neon ops +$d"
doctor "stops at the CTR-only bind" "bind skcipher (CTR)    $C: ok" "GHASH: libcrypto's"
grep -q 'bind aead' /tmp/doctor.out && bad "doctor: probed past the first bind" || ok "doctor: probes no further"

echo "# kernel-algorithm"
conf "kernel-algorithm = $G"
gate "kernel-algorithm = ...ghash-generic) wins over the order" enabled "enabled: $G"
conf "kernel-algorithm = $N"
gate "kernel-algorithm = ...ghash-neon)" enabled "enabled: $N"
conf "kernel-algorithm = $C"
gate "kernel-algorithm = ctr(aes-eip93)" enabled "enabled: $C"
conf "kernel-algorithm = $L"
gate "kernel-algorithm = ...ghash-lib): only that one, its bind error" disabled \
  "kernel: AF_ALG bind $L: ENOENT" "(kernel-algorithm = $L in config)"
conf 'kernel-algorithm = gcm(aes)'
gate "kernel-algorithm = gcm(aes): invalid, named, engine off" disabled \
  'invalid config value kernel-algorithm = "gcm(aes)"'
eip93-calib-check 16384 >/tmp/check.out 2>&1 && grep -q 'from default' /tmp/check.out &&
  ok "the application keeps working (AES-GCM from the default provider)" || { bad "app broken"; cat /tmp/check.out; }
conf

echo "# the calibration measures the three compositions that bind"
if calibrate --rounds 3 --time-ms 10; then ok "calibrate exits 0"; else bad "calibrate failed"; cat /tmp/calib.err; fi
for c in "$C" "$N" "$G"; do
  grep -q "^composition $c: 3 rounds" /tmp/calib.out && ok "table for $c" || bad "$c not measured"
done
grep -q "^composition $L: .*ENOENT" /tmp/calib.out && ok "ghash-lib: does not bind, reported" || bad "lib line"
chosen "$C" "$N" "$G"

echo "# ghash-neon removed: a calibration for it goes stale, the order applies"
if [ "$comp" = "$N" ] && [ "$(written_window)" != off ]; then
  rmmod eip93_ghash_neon 2>/dev/null || sleep 1
  rmmod eip93_ghash_neon 2>/dev/null
fi
rmmod eip93_ghash_neon 2>/dev/null
if grep -q 'ghash-neon' /proc/crypto; then
  echo "# (ghash-neon still held by a template instance; not removable in this boot)"
  ok "rmmod refused while in use (the kernel keeps the instance)"
elif [ "$comp" = "$N" ]; then
  gate "calibration for ghash-neon, which no longer binds: stale, the order" enabled "enabled: $C" \
    "calibration: stale: ignored ($CAL): its composition $N no longer binds (ENOENT"
elif [ "$(written_window)" = off ]; then
  gate "ghash-neon gone, calibration off: still off" disabled "disabled: calibration ("
else
  gate "ghash-neon gone: the calibrated $comp" enabled "enabled: $comp" "window $(written_window) bytes (calibration)"
fi
finish "composition order"
