#!/bin/bash
# SPDX-License-Identifier: Apache-2.0
# eip93-doctor's recommendation and kTLS lines on the host, with
# the test-hooks build and its user-space fake engine: the calibration
# carries the ChaCha20-Poly1305 reference row; the doctor advises only from
# it (none without a calibration); when ChaCha20-Poly1305 wins, the
# openssl.cnf settings it prints make a real `openssl s_server` choose
# ChaCha20-Poly1305 for a client that lists AES-GCM first (TLS 1.3 and
# 1.2) and still serve an AES-GCM-only client; which TLS 1.2 suites to
# prefer (AES-128-CBC-SHA256, its AES-CBC on the engine by the calibration's
# AES-CBC window or in software, against the AEADs), from the measured row
# and from a fixed one; Options = KTLS is detected;
# an error the provider raises while loading is shown where it was raised
# (the caller of the provider's raise helper, not the helper).
# usage: advice.sh DOCTOR OPENSSL HOOKS_MODULE_DIR TEST_DATA_DIR
set -euo pipefail
doctor=$1 openssl=$2 hooks=$3 data=$4
tmp=$(mktemp -d)
srv=
trap '[[ -n $srv ]] && kill "$srv" 2>/dev/null; rm -rf "$tmp"' EXIT
pass=0 fail=0
ok() { echo "ok - $*"; pass=$((pass + 1)); }
bad() { echo "not ok - $*"; fail=$((fail + 1)); }
export OPENSSL_MODULES=$hooks EIP93_TEST_ENGINE=fake EIP93_TEST_DT_PATH=$data/dt-an7581.bin EIP93_TEST_HWCAP=0
cal=$tmp/calibration

# conf FILE [extra lines...]: eip93 activated with the calibration $cal.
conf() {
  local f=$1
  shift
  {
    printf 'openssl_conf = openssl_init\n[openssl_init]\nproviders = provider_sect\n'
    printf '%s\n' "$@"
    printf '[provider_sect]\ndefault = default_sect\neip93 = eip93_sect\n'
    printf '[default_sect]\nactivate = 1\n[eip93_sect]\nactivate = 1\ncalibration-file = %s\n' "$cal"
  } >"$f"
}
conf "$tmp/eip93.cnf"
export OPENSSL_CONF=$tmp/eip93.cnf

echo "# no calibration: no advice, and how to get one"
out=$("$doctor" 2>&1 || true)
grep -q "no measurement to advise from (uncalibrated (no $cal" <<<"$(sed -n '/^\[8\]/,/^\[9\]/p' <<<"$out")" &&
  grep -q "run eip93-doctor calibrate" <<<"$out" && ! grep -q "peer offering both" <<<"$out" &&
  ok "uncalibrated: says how to get a measurement, advises nothing" || { bad "uncalibrated"; echo "$out"; }

echo "# the calibration's reference row"
"$doctor" calibrate --rounds 3 --time-ms 5 --output "$cal" >"$tmp/out" 2>"$tmp/err" ||
  { bad "calibrate failed"; cat "$tmp/err"; }
grep -q '^reference ChaCha20-Poly1305: measured (never routed)' "$tmp/out" && ok "ChaCha20-Poly1305 measured" ||
  bad "no ChaCha20-Poly1305 line"
n=$(grep -cE '^# speed [0-9]+ chacha20-poly1305:software [0-9.]+ [0-9.]+$' "$cal" || true)
[[ $n -eq 8 ]] && ok "calibration file: ChaCha20-Poly1305 at the 8 sizes" || bad "ChaCha speed lines: $n"
n=$(grep -cE '^# speed [0-9]+ aes-(128|256)-gcm:' "$cal" || true)
[[ $n -eq $((8 * 2 * 6)) ]] && ok "calibration file: software and 5 compositions x 2 key sizes x 8 sizes" ||
  bad "AES speed lines: $n"
# CPU per byte of every row is positive (the process's user+sys time was measured).
awk '/^# speed [0-9]/ && !($6 > 0) { bad = 1 } END { exit bad }' "$cal" && ok "CPU ns/B > 0 on every speed line" ||
  bad "a speed line without CPU time"
grep -qE '^ +16384 .*/.*/' <<<"$(sed -n '/^reference (ChaCha20-Poly1305/,/^ *65536/p' "$tmp/out")" &&
  ok "the printed table shows the reference beside the compositions" || bad "no reference table"

out=$("$doctor" 2>&1 || true)
both=$(sed -n 's/^  peer offering both AEADs: //p' <<<"$out")
ch=$(awk '$3 == 16384 && $4 == "chacha20-poly1305:software" { printf "%.1f", $5 }' "$cal")
[[ -n "$both" && "$both" == *"ChaCha20-Poly1305 (software) $ch MB/s"* ]] &&
  ok "recommendation from the measured numbers ($ch MB/s at 16 KiB)" || { bad "recommendation"; echo "$out"; }
grep -q "^  AES-GCM-only peer: *eip93 keeps serving it" <<<"$out" && ok "AES-GCM-only peers: eip93" ||
  bad "aes-only line"
json=$("$doctor" --json 2>/dev/null || true)
[[ "$json" == '{"version":'*'"recommendation":{"measured":true,'*'"shapes":['*']}' ]] &&
  ok "--json: one object with the recommendation" || { bad "--json"; echo "$json"; }
if command -v python3 >/dev/null; then
  python3 -c 'import json,sys; d=json.load(sys.stdin); assert d["recommendation"]["measured"]' <<<"$json" &&
    ok "--json parses (python3)" || bad "--json does not parse"
fi

echo "# TLS 1.2 suites: AES-128-CBC-SHA256 against the AEADs"
n=$(grep -cE '^# speed 16384 aes-128-cbc-hmac-sha256:(software|cbc\(aes-eip93\)) [0-9.]+ [0-9.]+$' "$cal" || true)
[[ $n -eq 2 ]] && ok "calibration file: AES-128-CBC + HMAC-SHA256 at 16384, software and the engine" ||
  bad "CBC+HMAC speed lines: $n"
# This host's calibration (the fake engine loses: AES-GCM off, the provider offers nothing): software CBC.
t12=$(sed -n 's/^  TLS 1.2 suites: *//p' <<<"$out")
sw=$(awk '$3 == 16384 && $4 == "aes-128-cbc-hmac-sha256:software" { printf "%.1f", $5 }' "$cal")
[[ "$t12" == "prefer "*" over AES-128-CBC-SHA256 (AES-CBC and HMAC-SHA256 in software) $sw MB/s"* ||
  "$t12" == "AES-128-CBC-SHA256 (AES-CBC and HMAC-SHA256 in software) $sw MB/s"*"keep the AEAD suites first"* ]] &&
  ok "TLS 1.2 suites from the measured row ($sw MB/s)" || { bad "TLS 1.2 line: $t12"; echo "$out"; }
grep -q "^  TLS 1.2 peer without AEAD: AES-128-CBC-SHA256 (AES-CBC and HMAC-SHA256 in software) $sw MB/s" <<<"$out" &&
  ok "CBC-only peer: software AES-CBC, said why" || bad "CBC-only line"
# A fixed calibration: AES-GCM on the engine, AES-CBC's window holding a full record (16432 bytes).
cp "$cal" "$tmp/cal.measured"
sed -i -E -e '/^(min-size|max-size|#\+ cbc-window) = /d' -e 's/^verdict = .*/verdict = engine\nmin-size = 4096\nmax-size = 32768\n#+ cbc-window = 4096-16640/' \
  -e 's/^(# speed 16384 aes-128-gcm:software) .*/\1 44.000 22.500/' \
  -e 's/^(# speed 16384 chacha20-poly1305:software) .*/\1 190.000 5.250/' \
  -e 's/^(# speed 16384 aes-128-cbc-hmac-sha256:software) .*/\1 25.000 40.000/' \
  -e 's/^(# speed 16384 aes-128-cbc-hmac-sha256:cbc\(aes-eip93\)) .*/\1 66.000 15.000/' "$cal"
comp=$(sed -n 's/^composition = //p' "$cal")
esc=$(sed 's/[][().*^$]/\\&/g' <<<"$comp")
sed -i -E "s/^(# speed 16384 aes-128-gcm:$esc) .*/\\1 100.000 9.000/" "$cal"
out=$("$doctor" 2>&1 || true)
want="prefer ChaCha20-Poly1305 (ECDHE-*-CHACHA20-POLY1305) 190.0 MB/s over AES-128-CBC-SHA256 (AES-CBC on the engine (eip93, cbc(aes-eip93)) + HMAC-SHA256 in software) 66.0 MB/s, 15.00 CPU ns/B at 16384-byte records: the CBC suite reaches 35% of it"
grep -qF "  TLS 1.2 suites:           $want" <<<"$out" && grep -qF "AES-128-GCM (eip93 on the engine) 100.0 MB/s" <<<"$out" &&
  ok "fixed calibration: prefer the AEAD, with the numbers (CBC on the engine)" || { bad "fixed TLS 1.2 line"; echo "$out"; }
grep -qF "  TLS 1.2 peer without AEAD: AES-128-CBC-SHA256 (AES-CBC on the engine (eip93, cbc(aes-eip93)) + HMAC-SHA256 in software) 66.0 MB/s, 15.00 CPU ns/B; with AES-CBC in software it would be 25.0 MB/s, 40.00 CPU ns/B (eip93 sends these records to the engine by the AES-CBC window 4096-16640)" <<<"$out" &&
  ok "fixed calibration: CBC-only peers on the engine, against software" || { bad "fixed CBC-only line"; echo "$out"; }
json=$("$doctor" --json 2>/dev/null || true)
if command -v python3 >/dev/null; then
  python3 -c 'import json,sys; r=json.load(sys.stdin)["recommendation"]["aes_128_cbc_hmac_sha256"]; assert r["path"] == "engine" and r["mbs"] == 66.0 and not r["preferred"], r' <<<"$json" &&
    ok "--json: the CBC suite's path and figures" || { bad "--json CBC"; echo "$json"; }
fi
# The window missing the full record: the software row, and why.
sed -i 's/^#+ cbc-window = .*/#+ cbc-window = 4096-16384/' "$cal"
out=$("$doctor" 2>&1 || true)
grep -q "^  TLS 1.2 peer without AEAD: .*in software) 25.0 MB/s.*outside the AES-CBC window" <<<"$out" &&
  ok "a CBC window without the full record: software, said why" || { bad "outside window"; echo "$out"; }
cp "$tmp/cal.measured" "$cal"

echo "# ChaCha20-Poly1305 wins: the settings it prints, applied to a real s_server"
# The host's AES-NI beats ChaCha20; the A53's numbers are the other way round:
# raise the ChaCha row (the provider reads only the keys, so the file stays current).
sed -i -E 's/^(# speed [0-9]+ chacha20-poly1305:software) [0-9.]+/\1 99999.000/' "$cal"
out=$("$doctor" 2>&1 || true)
grep -q "make the server prefer ChaCha20-Poly1305" <<<"$out" && ok "advises ChaCha20-Poly1305 when it is faster" ||
  { bad "no ChaCha advice"; echo "$out"; }
for s in nginx haproxy stunnel openssl.cnf; do
  grep -q "^  $s:\$" <<<"$out" || bad "no $s settings"
done
grep -q 'ssl_conf_command Ciphersuites TLS_CHACHA20_POLY1305_SHA256:' <<<"$out" &&
  grep -q 'options = CIPHER_SERVER_PREFERENCE' <<<"$out" && ok "nginx, haproxy, stunnel, openssl.cnf settings" ||
  bad "settings text"
# The openssl.cnf block, as printed, into the server's configuration.
mapfile -t lines < <(sed -n '/^  openssl.cnf:$/,/^$/p' <<<"$out" | sed -n 's/^      //p' | grep -v '^\[openssl_init\]$')
conf "$tmp/server.cnf" "${lines[@]}"
conf "$tmp/plain.cnf"
"$openssl" req -x509 -newkey ec -pkeyopt ec_paramgen_curve:P-256 -nodes -subj /CN=localhost -days 1 \
  -keyout "$tmp/key.pem" -out "$tmp/cert.pem" >/dev/null 2>&1

# negotiated SERVER_CNF CLIENT_ARGS...: the cipher a client with CLIENT_ARGS gets.
negotiated() {
  local cnf=$1 port=$((20000 + RANDOM % 20000)) i
  shift
  OPENSSL_CONF=$cnf "$openssl" s_server -accept "$port" -cert "$tmp/cert.pem" -key "$tmp/key.pem" \
    -naccept 1 -quiet </dev/null >/dev/null 2>&1 &
  srv=$!
  for _ in $(seq 1 100); do
    if OPENSSL_CONF=$data/empty.cnf "$openssl" s_client -connect "127.0.0.1:$port" "$@" </dev/null \
      >"$tmp/client.out" 2>&1; then break; fi
    sleep 0.05
  done
  kill "$srv" 2>/dev/null || true
  wait "$srv" 2>/dev/null || true
  srv=
  sed -n 's/^.*Cipher is //p' "$tmp/client.out" | head -n 1
}
c=$(negotiated "$tmp/plain.cnf" -tls1_3 -ciphersuites TLS_AES_128_GCM_SHA256:TLS_CHACHA20_POLY1305_SHA256)
[[ "$c" == TLS_AES_128_GCM_SHA256 ]] && ok "control: without the settings an AES-first client gets $c" ||
  bad "control TLS 1.3: $c"
c=$(negotiated "$tmp/server.cnf" -tls1_3 -ciphersuites TLS_AES_128_GCM_SHA256:TLS_CHACHA20_POLY1305_SHA256)
[[ "$c" == TLS_CHACHA20_POLY1305_SHA256 ]] && ok "TLS 1.3: with the settings the same client gets $c" ||
  bad "TLS 1.3 with the settings: $c"
c=$(negotiated "$tmp/server.cnf" -tls1_2 -cipher ECDHE-ECDSA-AES128-GCM-SHA256:ECDHE-ECDSA-CHACHA20-POLY1305)
[[ "$c" == ECDHE-ECDSA-CHACHA20-POLY1305 ]] && ok "TLS 1.2: with the settings an AES-first client gets $c" ||
  bad "TLS 1.2 with the settings: $c"
c=$(negotiated "$tmp/server.cnf" -tls1_3 -ciphersuites TLS_AES_128_GCM_SHA256)
[[ "$c" == TLS_AES_128_GCM_SHA256 ]] && ok "TLS 1.3: an AES-GCM-only client is still served ($c)" ||
  bad "AES-only TLS 1.3: $c"
c=$(negotiated "$tmp/server.cnf" -tls1_2 -cipher ECDHE-ECDSA-AES256-GCM-SHA384)
[[ "$c" == ECDHE-ECDSA-AES256-GCM-SHA384 ]] && ok "TLS 1.2: an AES-GCM-only client is still served ($c)" ||
  bad "AES-only TLS 1.2: $c"

echo "# kTLS switched on in openssl.cnf"
conf "$tmp/ktls.cnf" "ssl_conf = ssl_sect" "[ssl_sect]" "system_default = sd" "[sd]" "Options = ServerPreference,KTLS"
out=$(OPENSSL_CONF=$tmp/ktls.cnf "$doctor" 2>&1 || true)
grep -q "^  openssl.cnf  *KTLS on: $tmp/ktls.cnf line 8: Options = ServerPreference,KTLS" <<<"$out" &&
  grep -q '^  kTLS: on: ' <<<"$out" && ok "Options = KTLS detected, with its line" || { bad "KTLS"; echo "$out"; }
out=$("$doctor" 2>&1 || true)
grep -q '^  kTLS: off: ' <<<"$out" && ok "no Options = KTLS: kTLS off" || bad "kTLS off"

echo "# an invalid config value: the raised error names the line that raised it"
# Loaded by the doctor itself (no activate), so the error stays on its queue.
{
  printf 'openssl_conf = openssl_init\n[openssl_init]\nproviders = provider_sect\n'
  printf '[provider_sect]\ndefault = default_sect\neip93 = eip93_sect\n'
  printf '[default_sect]\nactivate = 1\n[eip93_sect]\nmin-size = abc\n'
} >"$tmp/bad.cnf"
src=$(cd "$data/../.." && pwd)
want=$(grep -n 'raise_error(&p->core, EIP93_R_INVALID_CONFIG' "$src/provider/prov.c" | cut -d: -f1)
out=$(OPENSSL_CONF=$tmp/bad.cnf "$doctor" 2>&1 || true)
line=$(grep '^  error raised ' <<<"$out" || true)
[[ -n $want && $line == *'invalid configuration value (engine kept off): invalid config value min-size = "abc"'* &&
  $line == *"prov.c:$want read_config)" ]] &&
  ok "the invalid value is raised from read_config (prov.c:$want)" || { bad "raised error's place: want prov.c:$want"; echo "$out"; }

echo "advice: $pass passed, $fail failed"
[[ $fail -eq 0 ]]
