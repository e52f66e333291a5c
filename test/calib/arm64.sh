#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# arm64 guest, device tree "airoha,an7581", the release eip93.so and
# eip93-doctor cross-built, openssl.cnf.example as openssl.cnf: the
# calibration as an operator runs it (no hook, no OPENSSL_* variable), its
# window is what its table implies, the provider and the doctor report it;
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
gate "before: enabled" enabled "enabled: $G"
status "uncalibrated" "calibration: uncalibrated (no $CAL"
t0=$(date +%s)
eip93-doctor calibrate --quick >/tmp/calib.out 2>/tmp/calib.err
rc=$?
cat /tmp/calib.out
echo "# calibration took $(( $(date +%s) - t0 ))s"
[ $rc -eq 0 ] && ok "eip93-doctor calibrate (release build, real gate): exit 0" || { bad "calibrate exit $rc"; cat /tmp/calib.err; }
grep -q "^composition $G: 3 rounds" /tmp/calib.out && ok "ghash-generic measured" || bad "not measured"
sed 's/^/   | /' $CAL | grep -v '^   | #'
if [ "$(sed -n 's/^verdict = //p' $CAL)" = engine ]; then
  got="$(sed -n 's/^min-size = //p' $CAL)-$(sed -n 's/^max-size = //p' $CAL)"
else got=off; fi
want=$(awk -v comp="$G" -f /opt/eip93/window.awk /tmp/calib.out)
[ "$got" = "$want" ] && ok "written window ($got) is what the table implies" || bad "written $got, table $want"
if [ "$got" = off ]; then
  gate "the provider follows it: off" disabled "disabled: calibration ("
else
  gate "the provider follows it: enabled" enabled "enabled: $G"
  status "window $got" "window $got bytes (calibration)"
fi
doctor "shows the calibration" "$( [ "$got" = off ] && echo 1 || echo 0)" "calibration            calibrated 20"
sed -i 's/^kernel-release = .*/kernel-release = 0.0.0-other/' $CAL
gate "stale (another kernel release): enabled" enabled "enabled: $G"
status "stale: ignored, defaults" "window 4096-32768 bytes (config)" \
  "stale: ignored ($CAL): measured on kernel 0.0.0-other, this is $(uname -r)"
doctor "says stale" 0 "the calibration is stale"
finish "arm64 calibration"
