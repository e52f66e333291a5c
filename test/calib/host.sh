#!/bin/bash
# SPDX-License-Identifier: Apache-2.0
# The calibration on the host, with the test-hooks build and its user-space
# fake engine (EIP93_TEST_ENGINE=fake) standing in for the kernel: the
# command end to end (table, verdict, the file; the window is what the table
# implies), the provider reading it (calibrated, off, stale, corrupt, bytes
# outside printable ASCII), the command refusing to write without permission
# before measuring anything, --dry-run, its numeric options refused unless
# plain decimal in range, the new config keys' errors (the application keeps
# working), and engine-backend in a config file choosing the backend the gate
# probes.  AES-CTR and AES-CBC: measured, their windows written as "#+" lines
# (what the table implies), read back (each mode's window, off, a file
# without them, invalid values) and routed by (eip93-calib-check --skc).
# usage: host.sh DOCTOR OPENSSL HOOKS_MODULE_DIR TEST_DATA_DIR CALIB_CHECK
set -euo pipefail
doctor=$1 openssl=$2 hooks=$3 data=$4 check=$5
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
chmod 0755 "$tmp"
pass=0 fail=0
ok() { echo "ok - $*"; pass=$((pass + 1)); }
bad() { echo "not ok - $*"; fail=$((fail + 1)); }
export OPENSSL_MODULES=$hooks EIP93_TEST_ENGINE=fake EIP93_TEST_DT_PATH=$data/dt-an7581.bin EIP93_TEST_HWCAP=0
G='gcm_base(ctr(aes-eip93),ghash-generic)'
N='gcm_base(ctr(aes-eip93),ghash-neon)'
C='ctr(aes-eip93)'
cal=$tmp/lib/eip93/calibration

# conf [eip93 section lines...]
conf() {
  {
    printf 'openssl_conf = openssl_init\n[openssl_init]\nproviders = provider_sect\n'
    printf 'alg_section = evp_properties\n[evp_properties]\ndefault_properties = ?provider=eip93\n'
    printf '[provider_sect]\ndefault = default_sect\neip93 = eip93_sect\n'
    printf '[default_sect]\nactivate = 1\n[eip93_sect]\nactivate = 1\n'
    printf '%s\n' "$@"
  } >"$tmp/eip93.cnf"
}
# expect DESC PATTERN...: `openssl list -providers -verbose` exits 0 and shows every pattern.
expect() {
  local desc=$1 out rc=0
  shift
  out=$(OPENSSL_CONF=$tmp/eip93.cnf "$openssl" list -providers -verbose 2>&1) || rc=$?
  [[ $rc -eq 0 ]] || { bad "$desc: openssl list exited $rc"; echo "$out"; return; }
  for p in "$@"; do
    grep -qF -- "$p" <<<"$out" || { bad "$desc: missing '$p'"; echo "$out"; return; }
  done
  ok "$desc"
}

# default_gcm DESC: the configuration refused, AES-GCM comes from the default provider.
default_gcm() {
  local out
  out=$(OPENSSL_CONF=$tmp/eip93.cnf "$openssl" list -cipher-algorithms 2>&1)
  grep -q 'aes-256-gcm.*@ default' <<<"$out" && ok "$1: AES-GCM from the default provider" ||
    bad "$1: cipher list"
}

# gate: the eip93-status text (the doctor prints it).
gate() { OPENSSL_CONF=$tmp/eip93.cnf "$doctor" 2>&1 | sed -n 's/^  status  *//p'; }

echo "# the command, end to end"
rc=0
"$doctor" calibrate --rounds 3 --time-ms 5 --output "$cal" >"$tmp/out" 2>"$tmp/err" || rc=$?
sed 's/^/   /' "$tmp/out" | grep -vE '^ +[0-9]+ +(128|256) '
[[ $rc -eq 0 ]] && ok "calibrate exits 0" || { bad "calibrate exit $rc"; cat "$tmp/err"; }
grep -q '^progress: 100%' "$tmp/err" && ok "progress lines" || bad "no progress line"
for c in "$C" "$N" "$G" 'gcm_base(ctr(aes-eip93),ghash-lib)' 'ecb(aes-eip93)'; do
  grep -qF "composition $c: 3 rounds" "$tmp/out" && ok "measured $c (the fake engine binds every name)" ||
    bad "not measured: $c"
done
[[ $(grep -cE '^ +[0-9]+ +(128|256) +(enc|dec) ' "$tmp/out") -eq 224 ]] &&
  ok "224 table rows (5 compositions, the ECB one among them, and 2 modes x 8 sizes x 4)" ||
  bad "table rows"
for m in ctr cbc; do
  grep -qF "mode aes-$m $m(aes-eip93): 3 rounds" "$tmp/out" && ok "AES-${m^^} measured" || bad "AES-${m^^} not measured"
  got=$(sed -n "s/^#+ $m-window = //p" "$cal")
  want=$(awk -v comp="aes-$m $m(aes-eip93)" -f "$here/window.awk" "$tmp/out")
  [[ -n "$got" && "$got" == "$want" ]] && ok "written AES-${m^^} window ($got) is what its table implies" ||
    bad "AES-${m^^}: written '$got', table implies $want"
  for b in 128 256; do
    grep -qE "^# speed 16384 aes-$b-$m:(software|$m\(aes-eip93\)) [0-9.]+ [0-9.]+$" "$cal" &&
      [[ $(grep -cE "^# speed 16384 aes-$b-$m:" "$cal") -eq 2 ]] &&
      ok "speed lines of AES-$b-${m^^}: software and the engine" || bad "speed lines of AES-$b-${m^^}"
  done
done
[[ $(grep -cE '^# speed 16384 aes-128-cbc-hmac-sha256:(software|cbc\(aes-eip93\)) [0-9.]+ [0-9.]+$' "$cal") -eq 2 ]] &&
  ok "TLS 1.2 CBC record (AES-128-CBC + HMAC-SHA256) measured: software and the engine" ||
  bad "no aes-128-cbc-hmac-sha256 speed lines"
[[ -f "$cal" ]] && ok "written (parent directories created)" || bad "not written"
comp=$(sed -n 's/^composition = //p' "$cal")
verdict=$(sed -n 's/^verdict = //p' "$cal")
if [[ $verdict == engine ]]; then got="$(sed -n 's/^min-size = //p' "$cal")-$(sed -n 's/^max-size = //p' "$cal")"
else got=off; fi
want=$(awk -v comp="$comp" -f "$here/window.awk" "$tmp/out")
[[ "$got" == "$want" ]] && ok "written window ($got, $comp) is what the table implies" ||
  bad "written $got, table implies $want"
[[ "$(stat -c %a "$cal")" == 644 ]] && ok "mode 0644" || bad "mode $(stat -c %a "$cal")"
left=$(find "$(dirname "$cal")" -name '.eip93-calibration.*')
[[ -z "$left" ]] && ok "no temporary file left" || bad "temporary file left: $left"

echo "# the provider reads it"
conf "calibration-file = $cal"
if [[ $verdict == engine ]]; then
  expect "calibrated: enabled" "(enabled: $comp)"
  [[ "$(gate)" == *"window $got bytes (calibration)"* ]] && ok "its window is the provider's" || bad "gate: $(gate)"
else
  expect "calibrated off: disabled, says why" "(disabled: calibration (" "MB/s ["
fi
# Whatever this host measured, the provider's side of both verdicts:
sed -e '/^min-size/d' -e '/^max-size/d' -e 's/^verdict = .*/verdict = engine\nmin-size = 2048\nmax-size = 49152/' \
  "$cal" >"$tmp/engine.cal"
conf "calibration-file = $tmp/engine.cal"
[[ "$(gate)" == "enabled: "*"window 2048-49152 bytes (calibration)"* ]] && ok "verdict engine: its window" ||
  bad "engine: $(gate)"
# skc MODE WINDOW DESC: AES-128-MODE messages go to the engine exactly inside WINDOW (or off).
skc() {
  local m=$1 win=$2 lo=1 hi=0 s e out sizes=()
  [[ $win == off ]] || { lo=${win%-*}; hi=${win#*-}; }
  for s in 1024 $((lo - 16)) "$lo" "$hi" $((hi + 16)) 65536; do
    [[ $s -ge 16 && $s -le 65536 ]] && sizes+=("$s")
  done
  out=$(OPENSSL_CONF=$tmp/eip93.cnf "$check" --skc "$m" "${sizes[@]}" 2>&1) ||
    { bad "$3: eip93-calib-check --skc $m failed"; echo "$out"; return; }
  for s in "${sizes[@]}"; do
    e=$(sed -n "s/^size $s: .*engine-messages +\([0-9]*\)$/\1/p" <<<"$out" | head -1)
    if [[ $s -ge $lo && $s -le $hi ]]; then
      [[ $e -eq 8 ]] || { bad "$3: AES-${m^^} $s bytes: engine +$e (expected 8)"; echo "$out"; return; }
    else
      [[ $e -eq 0 ]] || { bad "$3: AES-${m^^} $s bytes: engine +$e (expected software)"; echo "$out"; return; }
    fi
  done
  ok "$3: AES-${m^^} follows $win"
}
# Each mode's window from the file: one calibrated, one off; AES-GCM keeps its own.
sed -e '/^#+ /d' "$tmp/engine.cal" >"$tmp/old.cal"
{ cat "$tmp/old.cal"; printf '#+ ctr-window = off\n#+ cbc-window = 1024-16640\n'; } >"$tmp/modes.cal"
conf "calibration-file = $tmp/modes.cal"
[[ "$(gate)" == "enabled: "*"window 2048-49152 bytes (calibration); AES-CTR off (calibration: software); AES-CBC window 1024-16640 bytes (calibration)"* ]] &&
  ok "per-mode windows: each in the status" || bad "modes: $(gate)"
skc cbc 1024-16640 "AES-CBC calibrated"
skc ctr off "AES-CTR calibrated off"
# A file without the lines (older): AES-CTR/CBC on the config's window, AES-GCM on the file's.
conf "calibration-file = $tmp/old.cal"
[[ "$(gate)" == *"window 2048-49152 bytes (calibration); AES-CTR window 4096-32768 bytes (config); AES-CBC window 4096-32768 bytes (config)"* ]] &&
  ok "a file without the mode lines: AES-CTR/CBC on the config's window" || bad "old file: $(gate)"
skc cbc 4096-32768 "a file without the mode lines"
# Invalid: corrupt, the key named, the engine off.
sed 's/^#+ cbc-window = .*/#+ cbc-window = 16640-1024/' "$tmp/modes.cal" >"$tmp/badmode.cal"
conf "calibration-file = $tmp/badmode.cal"
expect "cbc-window 16640-1024: corrupt, the key named" \
  "(disabled: calibration file $tmp/badmode.cal is invalid (corrupt: line" "invalid value of cbc-window"
sed -e '/^min-size/d' -e '/^max-size/d' -e '/^#+ /d' -e 's/^verdict = .*/verdict = off/' "$cal" >"$tmp/off.cal"
grep -q '^reason = ' "$tmp/off.cal" || echo 'reason = measured slower' >>"$tmp/off.cal"
conf "calibration-file = $tmp/off.cal"
expect "verdict off: disabled" "(disabled: calibration ("
# AES-GCM off, AES-CBC winning: enabled for AES-CBC alone.
{ cat "$tmp/off.cal"; printf '#+ ctr-window = off\n#+ cbc-window = 1024-16640\n'; } >"$tmp/cbconly.cal"
conf "calibration-file = $tmp/cbconly.cal"
[[ "$(gate)" == "enabled: "*"; AES-GCM off (calibration: software); AES-CTR off (calibration: software); AES-CBC window 1024-16640 bytes (calibration)"*"AES-GCM off (the engine does not beat software: "* ]] &&
  ok "AES-GCM off, AES-CBC winning: enabled for AES-CBC" || bad "cbc only: $(gate)"
skc cbc 1024-16640 "AES-GCM off, AES-CBC winning"
out=$(OPENSSL_CONF=$tmp/eip93.cnf "$check" 4096 16384 2>&1) || true
[[ "$out" == *"size 4096: driver-ops +0 engine-messages +0"*"size 16384: driver-ops +0 engine-messages +0"* ]] &&
  ok "AES-GCM off, AES-CBC winning: AES-GCM stays in software" || { bad "GCM with cbc only"; echo "$out"; }
sed 's/^kernel-release = .*/kernel-release = 0.0.0-other/' "$tmp/off.cal" >"$tmp/stale.cal"
conf "calibration-file = $tmp/stale.cal"
[[ "$(gate)" == "enabled: $C; window 4096-32768 bytes (config)"*"calibration: stale: ignored ($tmp/stale.cal): measured on kernel 0.0.0-other, this is $(uname -r)"* ]] &&
  ok "stale (another kernel): ignored, the defaults, the order" || bad "stale: $(gate)"
sed 's/^openssl-version = .*/openssl-version = 1.1.1/' "$tmp/off.cal" >"$tmp/stale2.cal"
conf "calibration-file = $tmp/stale2.cal"
[[ "$(gate)" == *"stale: ignored"*"measured with OpenSSL 1.1.1"* ]] && ok "stale (another OpenSSL)" || bad "stale2: $(gate)"
{ cat "$cal"; echo 'verdict = engine'; } >"$tmp/corrupt.cal"
conf "calibration-file = $tmp/corrupt.cal"
expect "corrupt: disabled, names the file and the problem" \
  "(disabled: calibration file $tmp/corrupt.cal is invalid (corrupt: line" "verdict given twice"
out=$(OPENSSL_CONF=$tmp/eip93.cnf "$openssl" list -cipher-algorithms 2>&1)
grep -q 'aes-256-gcm.*@ default' <<<"$out" && ok "corrupt: AES-GCM still there (default provider)" || bad "cipher list"
sed 's/^kernel-release = .*/kernel-release = 6.1\x9b31mX\xff/' "$cal" >"$tmp/high.cal"
conf "calibration-file = $tmp/high.cal"
expect "bytes 0x9b, 0xff in a value: corrupt, the key named" \
  "(disabled: calibration file $tmp/high.cal is invalid (corrupt: line" \
  "invalid value of kernel-release (a byte outside printable ASCII)"
out=$(OPENSSL_CONF=$tmp/eip93.cnf "$openssl" list -providers -verbose 2>&1; gate) || true
! LC_ALL=C grep -q '[^[:print:]]' <<<"$out" && ok "bytes 0x9b, 0xff in a value: the name and status are printable ASCII" ||
  { bad "not printable ASCII:"; LC_ALL=C sed -n 'l' <<<"$out"; }
conf "calibration-file = $tmp/none-such"
[[ "$(gate)" == *"calibration: uncalibrated (no $tmp/none-such"* ]] && ok "absent: uncalibrated" || bad "absent: $(gate)"

echo "# permissions, --dry-run"
mkdir -m 0755 "$tmp/ro"
if command -v setpriv >/dev/null && [[ $(id -u) -eq 0 ]]; then
  rc=0
  # The doctor's own libcrypto for user 65534: a build against an OpenSSL
  # under /root (scripts/openssl-build.sh's cache) would otherwise find none
  # (4.0) or the system's (3.5 built, 3.0 run), so a copy it can read.
  # Listed by its own loader: glibc's ldd refuses a musl program ("not a
  # dynamic executable"), musl's loader lists it with --list.
  nobody_libs=$(mktemp -d)
  chmod 0755 "$nobody_libs"
  list=(ldd "$doctor")
  interp=$(readelf -lW "$doctor" | sed -n 's/.*program interpreter: \(.*\)\]$/\1/p')
  [[ "$interp" == */ld-musl-* ]] && list=("$interp" --list "$doctor")
  "${list[@]}" | awk '$1 ~ /^lib(crypto|ssl)\.so/ && $3 ~ /^\// { print $3 }' |
    while read -r lib; do cp -L "$lib" "$nobody_libs/"; done
  chmod -R a+rX "$nobody_libs"
  setpriv --reuid=65534 --regid=65534 --clear-groups env LD_LIBRARY_PATH="$nobody_libs" \
    "$doctor" calibrate --quick --output "$tmp/ro/cal" >"$tmp/out" 2>"$tmp/err" || rc=$?
  rm -rf "$nobody_libs"
  [[ $rc -eq 1 ]] && grep -q "cannot write $tmp/ro/cal: Permission denied (run it as root" "$tmp/err" &&
    ! grep -q '^progress' "$tmp/err" && ok "refuses to write without permission, before measuring (exit 1)" ||
    { bad "permission refusal (exit $rc)"; cat "$tmp/err"; }
else
  rc=0
  "$doctor" calibrate --quick --output "$tmp/ro/cal" >"$tmp/out" 2>"$tmp/err" || rc=$?
  [[ $(id -u) -ne 0 ]] && chmod 0555 "$tmp/ro"
  grep -q "cannot write" "$tmp/err" && ok "refuses to write without permission" || bad "no refusal (not root?)"
fi
rc=0
"$doctor" calibrate --rounds 3 --time-ms 1 --dry-run --output "$tmp/dry/cal" >"$tmp/out" 2>&1 || rc=$?
[[ $rc -eq 0 && ! -e "$tmp/dry/cal" ]] && grep -q '^dry run: nothing written' "$tmp/out" && ok "--dry-run writes nothing" ||
  bad "--dry-run (exit $rc)"
rc=0
"$doctor" calibrate --rounds 2 >/dev/null 2>&1 || rc=$?
[[ $rc -eq 2 ]] && ok "--rounds 2: usage error (3 needed to judge noise)" || bad "--rounds 2 exit $rc"
# Plain decimal in range only (no engine here: a value taken would end in exit 3, not 2).
for arg in '--rounds 4294967299' '--rounds 5x' '--time-ms 200ms'; do
  rc=0
  # shellcheck disable=SC2086 # the option and its value, split on purpose
  EIP93_TEST_ENGINE='' "$doctor" calibrate $arg --dry-run >"$tmp/out" 2>"$tmp/err" || rc=$?
  [[ $rc -eq 2 ]] && grep -q '^usage: eip93-doctor calibrate' "$tmp/err" && ! grep -q 'rounds of' "$tmp/out" &&
    ok "$arg: usage error, nothing measured" || { bad "$arg: exit $rc"; cat "$tmp/out" "$tmp/err"; }
done
rc=0
"$doctor" calibrate --rounds 4 --time-ms 1 --dry-run --output "$tmp/dry/cal" >"$tmp/out" 2>&1 || rc=$?
[[ $rc -eq 0 ]] && grep -q '^eip93-doctor calibrate: .*, 4 rounds of 1 ms per measurement' "$tmp/out" &&
  grep -qF "composition $C: 4 rounds" "$tmp/out" && ok "--rounds 4 --time-ms 1: taken" ||
  { bad "--rounds 4 --time-ms 1: exit $rc"; cat "$tmp/out"; }
rc=0
EIP93_TEST_ENGINE='' OPENSSL_MODULES=$hooks "$doctor" calibrate --quick --output "$tmp/absent/cal" >"$tmp/out" 2>&1 || rc=$?
[[ $rc -eq 3 && ! -e "$tmp/absent/cal" ]] && grep -q 'engine is not available here' "$tmp/out" &&
  ok "no engine (this host's kernel): exit 3, nothing written" || { bad "no engine: exit $rc"; cat "$tmp/out"; }

rc=0
EIP93_TEST_ENGINE='' "$doctor" calibrate --if-needed --quick --output "$tmp/absent/cal" >"$tmp/out" 2>&1 || rc=$?
grep -q "uncalibrated (no $tmp/absent/cal); calibrating" "$tmp/out" && [[ $rc -eq 3 ]] &&
  ok "--if-needed without a calibration: calibrates (here: no engine, exit 3)" || { bad "--if-needed"; cat "$tmp/out"; }

echo "# the config keys"
conf 'kernel-algorithm = gcm(aes)'
expect "kernel-algorithm = gcm(aes): invalid, named" \
  '(disabled: invalid config value kernel-algorithm = "gcm(aes)" (expected one of'
default_gcm "bad kernel-algorithm"
conf "kernel-algorithm = $G" "calibration-file = none"
expect "kernel-algorithm = ...ghash-generic)" "(enabled: $G)"
conf 'calibration-file = relative'
expect "calibration-file = relative: invalid" 'invalid config value calibration-file = "relative"'

echo "# engine-backend in a config file (the product's backends: this host has neither)"
# verdict: the provider's eip93-gate, through the name `openssl list` prints.
verdict() { EIP93_TEST_ENGINE='' OPENSSL_CONF=$tmp/eip93.cnf "$openssl" list -providers -verbose 2>&1; }
conf 'engine-backend = cryptodev' 'calibration-file = none'
out=$(verdict)
grep -qF '(disabled: kernel: /dev/crypto' <<<"$out" && ! grep -qF 'AF_ALG' <<<"$out" &&
  ok "engine-backend = cryptodev: the gate tries /dev/crypto alone (and says why it is off)" ||
  { bad "engine-backend = cryptodev"; echo "$out"; }
conf 'engine-backend = afalg' 'calibration-file = none'
out=$(verdict)
grep -qF "(disabled: kernel: AF_ALG bind $C: " <<<"$out" && ! grep -qF '/dev/crypto' <<<"$out" &&
  ok "engine-backend = afalg: AF_ALG alone" || { bad "engine-backend = afalg"; echo "$out"; }
conf 'calibration-file = none'
out=$(verdict)
grep -qF "(disabled: kernel: AF_ALG bind $C: " <<<"$out" && grep -qF '; kernel: /dev/crypto' <<<"$out" &&
  ok "engine-backend = auto (default): AF_ALG, then /dev/crypto" || { bad "engine-backend = auto"; echo "$out"; }
conf 'engine-backend = devcrypto'
expect "engine-backend = devcrypto: invalid, named" \
  '(disabled: invalid config value engine-backend = "devcrypto"'
default_gcm "bad engine-backend"
# The fake engine stands in for AF_ALG only: forced onto /dev/crypto it has no backend.
conf 'engine-backend = cryptodev' 'calibration-file = none'
expect "fake engine, engine-backend = cryptodev: no backend" \
  '(disabled: kernel: engine-backend = cryptodev, but this build has no /dev/crypto backend)'
# EIP93_TEST_ENGINE=cryptodev (tests) overrides engine-backend = afalg.
conf 'engine-backend = afalg' 'calibration-file = none'
out=$(EIP93_TEST_ENGINE=cryptodev OPENSSL_CONF=$tmp/eip93.cnf "$openssl" list -providers -verbose 2>&1)
grep -qF '(disabled: kernel: /dev/crypto' <<<"$out" && ! grep -qF 'AF_ALG' <<<"$out" &&
  ok "EIP93_TEST_ENGINE=cryptodev wins over engine-backend = afalg" || { bad "test force"; echo "$out"; }

echo "calibration (host, fake engine): $pass passed, $fail failed"
[[ $fail -eq 0 ]]
