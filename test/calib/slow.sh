#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# Guest test: the calibration with the simulated engine slowed by its timing
# model far below software (every request 5 ms + bytes at 400 kB/s: 7.6 ms for
# 1 KiB, 169 ms for 64 KiB, i.e. at most 0.14-0.39 MB/s, while software in
# the guest runs at several MB/s even on a loaded host; a win needs the
# slowest engine round above the fastest software round at all four rows of
# a size), so no noise can flip it: the calibration writes
# "off" with the measured numbers, the provider then uses software only, and
# its status and the doctor say why with those numbers.
set -u
. /opt/eip93/calib-lib.sh

insmod /lib/eip93/eip93_sim.ko || { echo "not ok - insmod eip93_sim.ko"; exit 1; }
warm
echo 5000 >$P/latency_us
echo 400000 >$P/rate
echo "# timing model: latency_us=$(cat $P/latency_us) rate=$(cat $P/rate) B/s"
if calibrate; then ok "calibrate exits 0"; else bad "calibrate failed"; cat /tmp/calib.err; fi
sed 's/^/   | /' $CAL | grep -v '^   | #'
echo "# modelled engine time: $(cat $P/busy_us) us"
for c in "$C" "$G"; do
  grep -q "^composition $c: binds, measured" /tmp/calib.out && ok "$c measured" || bad "$c not measured"
  [ "$(expected_window "$c")" = off ] && ok "the table of $c implies off" ||
    bad "the table of $c implies $(expected_window "$c")"
done
chosen "$C" "$G"
[ "$(written_window)" = off ] && ok "the calibration says off" || bad "the calibration says $(written_window)"
reason=$(sed -n 's/^reason = //p' $CAL)
echo "$reason" | grep -q 'engine [0-9.]* MB/s .* vs software [0-9.]* MB/s' &&
  ok "its reason has the measured numbers" || bad "reason: $reason"
grep -q '^verdict: off (software only)' /tmp/calib.out && ok "the tool prints the verdict" || bad "verdict line"
for m in ctr cbc; do
  grep -q "^mode aes-$m $m(aes-eip93): binds, measured" /tmp/calib.out && ok "AES-$m measured" || bad "AES-$m not measured"
  [ "$(expected_window "aes-$m $m(aes-eip93)")" = off ] && [ "$(sed -n "s/^#+ $m-window = //p" $CAL)" = off ] &&
    ok "AES-$m: its table implies off, the file says off" ||
    bad "AES-$m: table $(expected_window "aes-$m $m(aes-eip93)"), file $(sed -n "s/^#+ $m-window = //p" $CAL)"
done

gate "the provider offers nothing, says why with the numbers" disabled \
  "disabled: calibration (" "the engine does not beat software" "MB/s [" "vs software"
follows off
doctor "says why" "calibrated 20" ": off (" "MB/s [" "vs software" "the engine stays off"
# The same file on a faster engine is still "off" until calibrated again: that is what the file says.
echo 0 >$P/latency_us
echo 0 >$P/rate
gate "still off after the engine got faster (until calibrated again)" disabled "disabled: calibration ("
finish "calibration, engine slowed"
