#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# arm64 guest, device tree "airoha,an7581", the release eip93.so and
# eip93-doctor cross-built, openssl.cnf.example as openssl.cnf: the
# calibration as an operator runs it (no hook, no OPENSSL_* variable), its
# window is what its table implies, the provider follows it (openssl speed
# moves the driver's counter inside the window, not outside) and the doctor
# reports it; AES-CTR and AES-CBC the same with their own windows, and the
# doctor's TLS 1.2 suite advice from the calibration's numbers.  (In this guest the user-space OpenSSL runs without the CPU's AES
# instructions, hidden by eip93_nohwcap, while the simulated engine's kernel
# code keeps them: the engine wins from a few KiB up, as on an AN7581 with a
# fast GHASH.)
# a stale calibration (another kernel release) is ignored and reported.
set -u
. /opt/eip93/lib.sh
CAL=/var/lib/eip93/calibration
# status DESC TEXT...: the provider's eip93-status (as the doctor prints it) has every TEXT.
status() {
  desc=$1
  shift
  st=$(eip93-doctor 2>/dev/null | sed -n 's/^  status  *//p')
  good=1
  for t in "$@"; do
    case "$st" in *"$t"*) ;; *) echo "   status lacks: $t"; good=0 ;; esac
  done
  if [ $good -eq 1 ]; then ok "status: $desc"; else bad "status: $desc"; echo "   status: $st"; fi
}
insmod /lib/eip93/eip93_nohwcap.ko || bad "insmod eip93_nohwcap.ko"
insmod /lib/eip93/eip93_sim.ko || bad "insmod eip93_sim.ko"
openssl rand -hex 16 >/dev/null
gate "before: enabled (CTR-only first)" enabled "enabled: $C"
status "uncalibrated" "calibration: uncalibrated (no $CAL"
t0=$(date +%s)
eip93-doctor calibrate --rounds 3 --time-ms 60 >/tmp/calib.out 2>/tmp/calib.err
rc=$?
cat /tmp/calib.out
echo "# calibration took $(( $(date +%s) - t0 ))s"
[ $rc -eq 0 ] && ok "eip93-doctor calibrate (release build, real gate): exit 0" || { bad "calibrate exit $rc"; cat /tmp/calib.err; }
for c in "$C" "$G"; do
  grep -q "^composition $c: 3 rounds" /tmp/calib.out && ok "$c measured" || bad "$c not measured"
done
comp=$(sed -n 's/^composition = //p' $CAL)
case "$comp" in "$C" | "$G") ok "the chosen composition ($comp) was measured" ;; *) bad "chosen: $comp" ;; esac
sed 's/^/   | /' $CAL | grep -v '^   | #'
if [ "$(sed -n 's/^verdict = //p' $CAL)" = engine ]; then
  got="$(sed -n 's/^min-size = //p' $CAL)-$(sed -n 's/^max-size = //p' $CAL)"
else got=off; fi
want=$(awk -v comp="$comp" -f /opt/eip93/window.awk /tmp/calib.out)
[ "$got" = "$want" ] && ok "written window ($got) is what the table of $comp implies" || bad "written $got, table $want"
if [ "$got" = off ]; then
  # Off overall: no composition's table wins, and the file names the first in the order.
  [ "$comp" = "$C" ] && ok "off: the file names $C" || bad "off, but the file names $comp"
  for c in "$C" "$G"; do
    w=$(awk -v comp="$c" -f /opt/eip93/window.awk /tmp/calib.out)
    [ "$w" = off ] && ok "off: the table of $c implies off" || bad "off, but the table of $c implies $w"
  done
fi
# AES-GCM off with AES-CTR or AES-CBC winning opens the gate for them alone.
open=1
[ "$got" = off ] && ! grep -qE '^#\+ (ctr|cbc)-window = [0-9]' $CAL && open=0
if [ "$got" = off ] && [ $open -eq 1 ]; then
  gate "the provider follows it: AES-GCM off, enabled for AES-CTR/CBC" enabled "enabled: $comp"
  status "AES-GCM off" "AES-GCM off (calibration: software)"
elif [ "$got" = off ]; then
  gate "the provider follows it: off" disabled "disabled: calibration ("
else
  gate "the provider follows it: enabled" enabled "enabled: $comp"
  status "window $got" "window $got bytes (calibration)"
fi
# AES-CTR and AES-CBC: measured, each window what its table implies, applied.
for m in ctr cbc; do
  M=$(echo $m | tr a-z A-Z)
  grep -q "^mode aes-$m $m(aes-eip93): 3 rounds" /tmp/calib.out && ok "AES-$M measured" || bad "AES-$M not measured"
  w=$(sed -n "s/^#+ $m-window = //p" $CAL)
  want=$(awk -v comp="aes-$m $m(aes-eip93)" -f /opt/eip93/window.awk /tmp/calib.out)
  [ -n "$w" ] && [ "$w" = "$want" ] && ok "written AES-$M window ($w) is what its table implies" ||
    bad "AES-$M: written '$w', table $want"
  if [ $open -eq 1 ]; then
    case "$w" in
      off) status "AES-$M off" "AES-$M off (calibration: software)" ;;
      *) status "AES-$M window $w" "AES-$M window $w bytes (calibration)" ;;
    esac
  fi
done
cbcw=$(sed -n 's/^#+ cbc-window = //p' $CAL)
# The reference row and the doctor's recommendation from it.
grep -q '^reference ChaCha20-Poly1305: measured (never routed)' /tmp/calib.out &&
  [ "$(grep -c '^# speed [0-9]* chacha20-poly1305:software ' $CAL)" -eq 8 ] &&
  ok "ChaCha20-Poly1305 reference row: measured, 8 sizes in the file" || bad "no ChaCha20-Poly1305 row"
eip93-doctor >/tmp/doctor.out 2>&1
sed -n '/^\[8\]/,$p' /tmp/doctor.out | sed 's/^/   | /'
ch=$(awk '$3 == 16384 && $4 == "chacha20-poly1305:software" { printf "%.1f", $5 }' $CAL)
both=$(sed -n 's/^  peer offering both AEADs: //p' /tmp/doctor.out)
case "$both" in
*"ChaCha20-Poly1305 (software) $ch MB/s"*) ok "the doctor's recommendation is from the calibration ($ch MB/s at 16 KiB)" ;;
*) bad "recommendation: $both" ;;
esac
grep -q '^  AES-GCM-only peer: *eip93 keeps serving it' /tmp/doctor.out && ok "AES-GCM-only peers: eip93" ||
  bad "no AES-GCM-only line"
# Which TLS 1.2 suites: AES-128-CBC-SHA256 as eip93 serves it, with the calibration's numbers.
t12=$(sed -n 's/^  TLS 1.2 suites: *//p' /tmp/doctor.out)
if [ $open -eq 1 ] && [ "$cbcw" != off ] && [ "${cbcw%-*}" -le 16432 ] && [ "${cbcw#*-}" -ge 16432 ]; then
  path=engine v=$(awk '$3 == 16384 && $4 == "aes-128-cbc-hmac-sha256:cbc(aes-eip93)" { printf "%.1f", $5 }' $CAL)
  what="AES-CBC on the engine (eip93, cbc(aes-eip93)) + HMAC-SHA256 in software) $v MB/s"
else
  path=software v=$(awk '$3 == 16384 && $4 == "aes-128-cbc-hmac-sha256:software" { printf "%.1f", $5 }' $CAL)
  what="AES-CBC and HMAC-SHA256 in software) $v MB/s"
fi
case "$t12" in
*"AES-128-CBC-SHA256 ($what"*) ok "TLS 1.2 suites: AES-128-CBC-SHA256 as eip93 serves it ($path, $v MB/s)" ;;
*) bad "TLS 1.2 suites ($path, $v): $t12" ;;
esac
case "$(eip93-doctor --json 2>/dev/null)" in
*'"recommendation":{"measured":true,'*) ok "--json: the recommendation, measured" ;;
*) bad "--json" ;;
esac
# speed SIZE: driver ops during one second of openssl speed at SIZE bytes (AES-128-GCM).
speed_ops() {
  b=$(ops)
  openssl speed -elapsed -seconds 1 -aead -bytes "$1" -evp aes-128-gcm >/tmp/speed.out 2>&1
  echo $(( $(ops) - b ))
}
if [ "$got" != off ]; then
  lo=${got%-*} hi=${got#*-}
  d=$(speed_ops "$lo")
  [ "$d" -gt 0 ] && ok "inside the window ($lo bytes): driver ops +$d" || { bad "inside: ops +$d"; cat /tmp/speed.out; }
  if [ "$lo" -gt 1024 ]; then
    d=$(speed_ops $((lo - 16)))
    [ "$d" -eq 0 ] && ok "below the window ($((lo - 16)) bytes): driver ops +0" || bad "below: ops +$d"
  fi
  if [ "$hi" -lt 65536 ]; then
    d=$(speed_ops $((hi + 16)))
    [ "$d" -eq 0 ] && ok "above the window ($((hi + 16)) bytes): driver ops +0" || bad "above: ops +$d"
  fi
else
  d=$(speed_ops 16384)
  [ "$d" -eq 0 ] && ok "off: 16384 bytes stay in software (driver ops +0)" || bad "off: ops +$d"
fi
# AES-CBC follows its own window (openssl speed's EVP_Cipher calls).
cbc_ops() {
  b=$(ops)
  openssl speed -elapsed -seconds 1 -bytes "$1" -evp aes-128-cbc >/tmp/speed.out 2>&1
  echo $(( $(ops) - b ))
}
if [ $open -eq 1 ] && [ "$cbcw" != off ]; then
  lo=${cbcw%-*} hi=${cbcw#*-}
  d=$(cbc_ops "$lo")
  [ "$d" -gt 0 ] && ok "AES-CBC inside its window ($lo bytes): driver ops +$d" || { bad "AES-CBC inside: ops +$d"; cat /tmp/speed.out; }
  if [ "$lo" -gt 1024 ]; then
    d=$(cbc_ops $((lo - 16)))
    [ "$d" -eq 0 ] && ok "AES-CBC below its window ($((lo - 16)) bytes): driver ops +0" || bad "AES-CBC below: ops +$d"
  fi
elif [ $open -eq 1 ]; then
  d=$(cbc_ops 16384)
  [ "$d" -eq 0 ] && ok "AES-CBC off: 16384 bytes stay in software (driver ops +0)" || bad "AES-CBC off: ops +$d"
fi
doctor "shows the calibration" "$( [ $open -eq 0 ] && echo 1 || echo 0)" "calibration            calibrated 20"
sed -i 's/^kernel-release = .*/kernel-release = 0.0.0-other/' $CAL
gate "stale (another kernel release): enabled, the order" enabled "enabled: $C"
status "stale: ignored, defaults" "window 4096-32768 bytes (config)" \
  "stale: ignored ($CAL): measured on kernel 0.0.0-other, this is $(uname -r)"
doctor "says stale" 0 "the calibration is stale"
finish "arm64 calibration"
