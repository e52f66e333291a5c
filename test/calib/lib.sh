# SPDX-License-Identifier: Apache-2.0
# shellcheck shell=sh disable=SC2034
# Helpers of the calibration guest scripts (busybox sh; copied to /opt/eip93/calib-lib.sh).
# The hooks build stands in for the AN7581 (device-tree and hwcap hooks), the
# simulated EIP93 driver is the engine, the calibration goes where the
# provider looks by default (/var/lib/eip93/calibration).
# shellcheck source=test/guest/lib.sh
. /opt/eip93/guest-lib.sh
an7581_hooks
P=/sys/module/eip93_sim/parameters
CAL=/var/lib/eip93/calibration
C='ctr(aes-eip93)'
G='gcm_base(ctr(aes-eip93),ghash-generic)'
N='gcm_base(ctr(aes-eip93),ghash-neon)'
L='gcm_base(ctr(aes-eip93),ghash-lib)'
export OPENSSL_CONF=/tmp/eip93.cnf
start=$(date +%s)

# conf [eip93 section lines...]: /tmp/eip93.cnf preferring eip93.
# shellcheck disable=SC2120 # the scripts that source this pass arguments
conf() { eip93_cnf /tmp/eip93.cnf '?provider=eip93' "$@"; }
conf

# gate DESC enabled|disabled TEXT...: eip93-gate-check (the verdict in
# eip93-gate, ciphers offered exactly when enabled, no fd left, known answer)
# and every TEXT in eip93-status (verdict; window; GHASH; calibration).
gate() {
  desc=$1 want=$2
  shift 2
  good=1
  eip93-gate-check "$want" "$want: " >/tmp/gate.out 2>&1 || { good=0; cat /tmp/gate.out; }
  eip93-calib-check --status >/tmp/status.out 2>&1 || good=0
  st=$(sed -n 's/^eip93-status: //p' /tmp/status.out)
  for t in "$@"; do
    case "$st" in *"$t"*) ;; *) echo "   eip93-status lacks: $t"; good=0 ;; esac
  done
  if [ $good -eq 1 ]; then ok "$desc"; else bad "$desc"; cat /tmp/status.out; fi
}

# doctor DESC TEXT...: eip93-doctor's report contains every TEXT.
doctor() {
  desc=$1
  shift
  eip93-doctor >/tmp/doctor.out 2>&1
  good=1
  for t in "$@"; do
    grep -qF -- "$t" /tmp/doctor.out || { echo "   doctor output lacks: $t"; good=0; }
  done
  if [ $good -eq 1 ]; then ok "doctor: $desc"; else bad "doctor: $desc"; cat /tmp/doctor.out; fi
}

# warm: the first bind of the template in this boot (its self-test: hundreds of
# driver requests) and the CRNG's first wait, before anything is timed.
warm() {
  openssl rand -hex 16 >/dev/null
  openssl list -providers >/dev/null 2>&1
}

# calibrate ARGS...: eip93-doctor calibrate --quick; output in /tmp/calib.out.
calibrate() {
  t0=$(date +%s)
  eip93-doctor calibrate --quick "$@" >/tmp/calib.out 2>/tmp/calib.err
  rc=$?
  cat /tmp/calib.out
  grep -c '^progress:' /tmp/calib.err | sed 's/^/# progress lines: /'
  echo "# calibration took $(( $(date +%s) - t0 ))s, exit $rc"
  return $rc
}

# expected_window COMPOSITION: the window the printed table (/tmp/calib.out)
# implies, recomputed from its numbers (window.awk, the rule of
# docs/performance.md).  Prints "off" or "MIN-MAX".
expected_window() {
  awk -v comp="$1" -f /opt/eip93/window.awk /tmp/calib.out
}

# written_window: "off" or "MIN-MAX" from the calibration file.
written_window() {
  v=$(sed -n 's/^verdict = //p' $CAL)
  if [ "$v" = off ]; then echo off; return; fi
  echo "$(sed -n 's/^min-size = //p' $CAL)-$(sed -n 's/^max-size = //p' $CAL)"
}

# modes_win: does the calibration give AES-CTR or AES-CBC a window (the gate
# then opens for them even when AES-GCM's verdict is off)?
modes_win() { grep -qE '^#\+ (ctr|cbc)-window = [0-9]' $CAL; }

# follows MIN-MAX|off [ctr|cbc]: messages of each size (AES-128-GCM, or
# AES-128-CTR/CBC) go to the engine exactly inside the window.
follows() {
  win=$1 lo=1 hi=0 skc=${2:+--skc $2} what=${2:+AES-$2 }
  [ "$win" = off ] || { lo=${win%-*}; hi=${win#*-}; }
  sizes="1024 2048 4096 8192 16384 32768 49152 65536"
  [ "$win" = off ] || { [ "$lo" -gt 1024 ] && sizes="$sizes $((lo - 16))"; [ "$hi" -lt 65536 ] && sizes="$sizes $((hi + 16))"; }
  # shellcheck disable=SC2086
  eip93-calib-check $skc $sizes >/tmp/check.out 2>&1 || { bad "eip93-calib-check failed"; cat /tmp/check.out; return; }
  sed 's/^/   /' /tmp/check.out
  for s in $sizes; do
    line=$(grep "^size $s:" /tmp/check.out)
    d=$(echo "$line" | sed -n 's/.*driver-ops +\([0-9]*\).*/\1/p')
    e=$(echo "$line" | sed -n 's/.*engine-messages +\([0-9]*\).*/\1/p')
    if [ "$s" -ge "$lo" ] && [ "$s" -le "$hi" ]; then
      [ "${d:-0}" -ge 8 ] && [ "${e:-0}" -eq 8 ] && ok "${what}window $win: $s bytes go to the engine (driver ops +$d)" ||
        bad "${what}window $win: $s bytes: driver ops +$d, engine messages +$e (expected the engine)"
    else
      [ "${d:-1}" -eq 0 ] && [ "${e:-1}" -eq 0 ] && ok "${what}window $win: $s bytes stay in software (driver ops +0)" ||
        bad "${what}window $win: $s bytes: driver ops +$d, engine messages +$e (expected software)"
    fi
  done
}

# chosen COMPOSITION...: the calibration file's composition is the one its
# printed table supports among the measured COMPOSITIONs (given in the gate's
# order): one of them; its written window is what its own table implies; when
# the file says off, every measured table implies off and the file names the
# first in the order.  Sets comp.
chosen() {
  comp=$(sed -n 's/^composition = //p' $CAL)
  w=$(written_window)
  echo "# chosen: $comp, $w"
  found=0
  for c in "$@"; do
    [ "$c" = "$comp" ] && found=1
    echo "#   $c: the table implies $(expected_window "$c")"
  done
  [ $found -eq 1 ] && ok "the chosen composition ($comp) is one that was measured" ||
    bad "chosen composition $comp was not measured"
  [ "$w" = "$(expected_window "$comp")" ] && ok "its window ($w) is what its table implies" ||
    bad "written window $w, its table implies $(expected_window "$comp")"
  if [ "$w" = off ]; then
    [ "$comp" = "$1" ] && ok "off: the file names the first in the order ($1)" ||
      bad "off, but the file names $comp, not the first in the order ($1)"
    for c in "$@"; do
      [ "$(expected_window "$c")" = off ] && ok "off: the table of $c implies off too" ||
        bad "off, but the table of $c implies $(expected_window "$c")"
    done
  fi
}

finish() {
  echo "$1: $pass passed, $fail failed ($(( $(date +%s) - start ))s)"
  [ "$fail" -eq 0 ]
}
