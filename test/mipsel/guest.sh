#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# mipsel guest (QEMU malta, 24Kf, Debian bookworm's 4kc-malta kernel), one
# boot: the release eip93.so (no hooks) on the real gate with the root
# "compatible" of the live device tree replaced by eip93_dtcompat (QEMU's
# malta passes no device tree; test/mipsel/kmod/eip93_dtcompat.c):
#   Malta's own tree + driver -> off; MT7621 without the driver -> off (bind
#   errors); MT7621 + driver -> on (known answer, openssl list, doctor); the
#   key check and 16 KiB messages equal to the default provider with the
#   driver's counter rising; eip93-diff (AES-GCM, against the default
#   provider and the kernel's gcm(aes)) and eip93-skc-diff (AES-CTR and
#   AES-CBC) with the engine in use; `eip93-doctor calibrate` and its table;
#   EIP93_PROVIDER=off; rmmod of the driver and of eip93_dtcompat -> off.
# Knobs (run.sh --env): MIPSEL_DIFF_CASES (eip93-diff, default 1000),
# MIPSEL_SKC_CASES (eip93-skc-diff per mode, default 300).
set -u
. /opt/eip93/lib.sh
MT=mediatek,mt7621-soc
seed=${EIP93_DIFF_SEED:-$(date +%s)}
t_boot=$(date +%s)

echo "# the machine"
echo "   $(uname -m) $(uname -r); $(grep -m1 '^cpu model' /proc/cpuinfo)"
echo "   $(openssl version) $(openssl version -m)"
malta=$(tr '\0' ' ' </proc/device-tree/compatible)
printf '   compatible (Malta kernel, built-in tree): %s\n' "$malta"
grep -q "$MT" /proc/device-tree/compatible && bad "the tree already says $MT" ||
  ok "Malta's own tree ($malta) is not an MT7621"

echo "# Malta's own device tree, the simulated driver loaded: off"
insmod /lib/eip93/eip93_sim.ko || bad "insmod eip93_sim.ko"
grep -q 'ctr(aes-eip93)' /proc/crypto && ok "ctr(aes-eip93) registered" || bad "driver not in /proc/crypto"
gate "Malta's compatible + driver: offers nothing" disabled "device tree"
rmmod eip93_sim || bad "rmmod eip93_sim"

echo "# eip93_dtcompat: the live tree's root compatible becomes $MT"
insmod /lib/eip93/eip93_dtcompat.ko compatible=$MT || bad "insmod eip93_dtcompat.ko"
now=$(tr '\0' ' ' </proc/device-tree/compatible)
[ "$now" = "$MT " ] && ok "/proc/device-tree/compatible: $now" || bad "/proc/device-tree/compatible: '$now'"
[ "$(tr '\0' ' ' </sys/firmware/devicetree/base/compatible)" = "$MT " ] &&
  ok "/sys/firmware/devicetree/base/compatible too" || bad "sysfs compatible differs"

echo "# MT7621, no EIP93 driver: off, every bind error named"
gate "no driver: offers nothing" disabled "kernel: AF_ALG bind $C: ENOENT"
doctor "no driver" 1 "not registered"

echo "# MT7621 and the simulated EIP93 driver"
insmod /lib/eip93/eip93_sim.ko || bad "insmod eip93_sim.ko"
eip93-gate-check enabled "enabled: " >/tmp/gate.out 2>&1 && ok "MT7621 + driver: enabled (known answer, no fd left)" ||
  bad "MT7621 + driver: not enabled"
sed 's/^/   | /' /tmp/gate.out
comp=$(sed -n 's/^.*enabled: \([^ ;]*(aes-eip93)[^ ;]*\).*$/\1/p' /tmp/gate.out | head -n 1)
echo "   composition bound: ${comp:-none}"
out=$(openssl list -providers -verbose 2>&1)
echo "$out" | grep -qF "(enabled: " && ok "openssl list -providers -verbose shows the verdict" ||
  { bad "openssl list -providers"; echo "$out"; }
out=$(openssl list -cipher-algorithms 2>&1)
echo "$out" | grep -q 'aes-256-gcm.*@ eip93' && ok "openssl list -cipher-algorithms lists eip93" ||
  { bad "cipher list"; echo "$out" | grep -i gcm; }
doctor "enabled" 0 "registered (/proc/crypto)" "verdict: enabled: "
sed 's/^/   | /' /tmp/doctor.out

echo "# the key check and 16 KiB messages through eip93, the driver's counter"
before=$(ops)
if eip93-offload-check 16384; then ok "key check + 16 KiB messages equal the default provider"
else bad "offload check"; fi
delta=$(( $(ops) - before ))
[ "$delta" -gt 0 ] && ok "driver ops +$delta" || bad "driver ops did not rise"

echo "# differential: eip93-diff (AES-GCM) against the default provider and the kernel's gcm(aes)"
t0=$(date +%s) before=$(ops)
eip93-diff --seed "$seed" --cases "${MIPSEL_DIFF_CASES:-1000}" --require-engine --require-no-faults >/tmp/diff.out 2>&1
rc=$?
tail -n 15 /tmp/diff.out | sed 's/^/   | /'
delta=$(( $(ops) - before ))
echo "   eip93-diff: $(( $(date +%s) - t0 ))s, driver ops +$delta"
[ $rc -eq 0 ] && ok "eip93-diff (seed $seed): no divergence, engine used" || bad "eip93-diff exit $rc (seed $seed)"
grep -q '^eip93 gate: enabled: ' /tmp/diff.out && ok "eip93-diff: the gate was enabled" ||
  bad "eip93-diff: gate not enabled"
[ "$delta" -gt 0 ] && ok "eip93-diff: driver ops +$delta" || bad "eip93-diff: driver ops did not rise"
for m in ctr cbc; do
  t0=$(date +%s) before=$(ops)
  eip93-skc-diff --seed "$seed" --mode $m --cases "${MIPSEL_SKC_CASES:-300}" --min-engine 20 \
    --max-faults 0 >/tmp/skc.out 2>&1
  rc=$?
  tail -n 4 /tmp/skc.out | sed 's/^/   | /'
  delta=$(( $(ops) - before ))
  echo "   eip93-skc-diff --mode $m: $(( $(date +%s) - t0 ))s, driver ops +$delta"
  [ $rc -eq 0 ] && [ "$delta" -gt 0 ] && ok "eip93-skc-diff AES-$m: no divergence, >= 20 engine messages, ops +$delta" ||
    bad "eip93-skc-diff AES-$m: exit $rc, ops +$delta"
done

echo "# calibration: eip93-doctor calibrate"
t0=$(date +%s)
eip93-doctor calibrate --rounds 3 --time-ms 60 >/tmp/calib.out 2>/tmp/calib.err
rc=$?
echo "EIP93-MIPSEL-CALIBRATION-BEGIN"
cat /tmp/calib.out
echo "EIP93-MIPSEL-CALIBRATION-END"
echo "   calibration took $(( $(date +%s) - t0 ))s"
[ $rc -eq 0 ] && ok "eip93-doctor calibrate: exit 0" || { bad "calibrate exit $rc"; cat /tmp/calib.err; }
grep -q '^reference ChaCha20-Poly1305: measured' /tmp/calib.out && ok "ChaCha20-Poly1305 reference measured" ||
  bad "no ChaCha20-Poly1305 row"
n=$(grep -c '^composition .*: 3 rounds' /tmp/calib.out)
[ "$n" -ge 1 ] && ok "$n AES-GCM composition(s) measured on the engine" || bad "no composition measured"
for m in ctr cbc; do
  grep -q "^mode aes-$m $m(aes-eip93): 3 rounds" /tmp/calib.out && ok "AES-$m on the engine measured" ||
    bad "AES-$m not measured"
done
CAL=/var/lib/eip93/calibration
[ -f $CAL ] && ok "calibration written ($CAL: verdict $(sed -n 's/^verdict = //p' $CAL))" || bad "no $CAL"
grep -v '^#' $CAL 2>/dev/null | sed 's/^/   | /'

echo "# the off switch, the driver removed, Malta's tree restored"
(
  export EIP93_PROVIDER=off
  gate "EIP93_PROVIDER=off: offers nothing" disabled "switched off by EIP93_PROVIDER=off"
)
rmmod eip93_sim || bad "rmmod eip93_sim"
gate "after rmmod eip93_sim: offers nothing" disabled "kernel: AF_ALG bind $C: ENOENT"
insmod /lib/eip93/eip93_sim.ko || bad "insmod eip93_sim.ko (again)"
rmmod eip93_dtcompat || bad "rmmod eip93_dtcompat"
[ "$(tr '\0' ' ' </proc/device-tree/compatible)" = "$malta" ] && ok "Malta's compatible restored" ||
  bad "compatible after rmmod: $(tr '\0' ' ' </proc/device-tree/compatible)"
gate "Malta's tree again, driver loaded: offers nothing" disabled "device tree"
echo "# guest time: $(( $(date +%s) - t_boot ))s after boot"
finish "mipsel guest (MT7621)"
