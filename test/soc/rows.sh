#!/bin/bash
# SPDX-License-Identifier: Apache-2.0
# The SoC rows' gate verdicts on the host (docs/design.md "SoC rows"): for
# each row of provider/soc.c, the test-hooks provider with that SoC's device
# tree root compatible (EIP93_TEST_DT_PATH), its CPU (EIP93_TEST_CPU) and
# the fake engine, which binds every row's driver names: the EIP93 rows
# (AN7581 aarch64, MT7621 MIPS) open on their own; the others (Armada CESA,
# IPQ40xx QCE, H3 sun8i-ce, K1) stay off until calibrated, open when
# kernel-algorithm names a composition, and follow the verdict of a
# calibration measured on them (eip93-doctor calibrate, which also checks
# every answer of the ECB composition they get against the default
# provider); a CPU with AES instructions or another architecture keeps each
# row off.
# Then AES-GCM messages through each of those rows' compositions
# (eip93-lengths: every length of a range sealed and opened against the
# default provider), the ECB composition on the ECB-only engines among them.
# usage: rows.sh DOCTOR HOOKS_MODULE_DIR LENGTHS
set -euo pipefail
doctor=$1 hooks=$2 lengths=$3
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
pass=0 fail=0
ok() { echo "ok - $*"; pass=$((pass + 1)); }
bad() { echo "not ok - $*"; fail=$((fail + 1)); }
export OPENSSL_MODULES=$hooks EIP93_TEST_ENGINE=fake
unset EIP93_TEST_HWCAP

# conf [eip93 section lines...]
conf() {
  {
    printf 'openssl_conf = openssl_init\n[openssl_init]\nproviders = provider_sect\n'
    printf '[provider_sect]\ndefault = default_sect\neip93 = eip93_sect\n'
    printf '[default_sect]\nactivate = 1\n[eip93_sect]\nactivate = 1\nnotice = no\n'
    printf 'calibration-file = %s\n' "$tmp/none.cal"
    printf '%s\n' "$@"
  } >"$tmp/eip93.cnf"
}
# dt NAME COMPATIBLE...: a root compatible property file.
dt() {
  local f=$tmp/dt-$1
  shift
  printf '%s\0' "$@" >"$f"
  echo "$f"
}
# status DT CPU: the provider's verdict (the doctor prints it).
status() {
  local out
  out=$(EIP93_TEST_DT_PATH=$1 EIP93_TEST_CPU=$2 OPENSSL_CONF=$tmp/eip93.cnf "$doctor" 2>&1 || true)
  sed -n 's/^  status  *//p' <<<"$out" | head -1
}
# expect DESC DT CPU PREFIX: the verdict starts with PREFIX.
expect() {
  local got
  got=$(status "$2" "$3")
  [[ "$got" == "$4"* ]] && ok "$1: $4" || bad "$1: got '$got', want '$4...'"
}

an=$(dt an7581 airoha,an7581)
mt=$(dt mt7621 ubnt,edgerouter-x mediatek,mt7621-soc)
a38=$(dt armada385 linksys,wrt3200acm marvell,armada385 marvell,armada380)
axp=$(dt armadaxp linksys,mamba marvell,armadaxp-mv78230 marvell,armadaxp marvell,armada-370-xp)
a370=$(dt armada370 netgear,readynas-102 marvell,armada370 marvell,armada-370-xp)
ipq=$(dt ipq4019 glinet,gl-b1300 qcom,ipq4019)
ipq18=$(dt ipq4018 glinet,gl-ap1300 qcom,ipq4018)
ipq8064=$(dt ipq8064 netgear,r7800 qcom,ipq8064)
h3=$(dt h3 xunlong,orangepi-pc allwinner,sun8i-h3)
k1=$(dt k1 bananapi,bpi-f3 spacemit,k1-x)
k1m=$(dt k1m bananapi,bpi-f3 spacemit,k1)

echo "# the EIP93 rows: on by themselves"
conf
expect "AN7581 (aarch64, no AES)" "$an" aarch64 "enabled: ctr(aes-eip93)"
expect "AN7581 on a CPU with AES" "$an" aarch64+aes "disabled: cpu: has the ARMv8 AES instructions"
expect "MT7621 (MIPS)" "$mt" mips "enabled: ctr(aes-eip93)"
expect "MT7621 device tree on aarch64" "$mt" aarch64 "disabled: cpu: not MIPS (the MT7621's MIPS 1004Kc)"
expect "AN7581 device tree on MIPS" "$an" mips "disabled: cpu: not aarch64 (the AN7581's Cortex-A53)"
expect "IPQ8064 (no QCE in its device tree)" "$ipq8064" arm "disabled: device tree: not an AN7581/EN7581, MT7621"
g=$(status "$mt" mips)
[[ "$g" == *"GHASH: libcrypto's"* || "$g" == *"enabled: ctr(aes-eip93)"* ]] && ok "MT7621: the CTR-only composition" ||
  bad "MT7621: $g"

echo "# the other engines: off until calibrated"
for c in "Armada 370/XP/375/38x|$a38|arm|mv-ecb-aes" "Armada XP|$axp|arm|mv-ecb-aes" "Armada 370|$a370|arm|mv-ecb-aes" \
  "IPQ40xx|$ipq|arm|ctr-aes-qce" "IPQ4018|$ipq18|arm|ctr-aes-qce" "H3|$h3|arm|ecb-aes-sun8i-ce" \
  "K1|$k1|riscv64|__driver-ecb-aes-spacemit-ce1" "K1 (mainline)|$k1m|riscv64|__driver-ecb-aes-spacemit-ce1"; do
  IFS='|' read -r name file cpu comp <<<"$c"
  conf
  g=$(status "$file" "$cpu")
  [[ "$g" == "disabled: "*": the engine ("*"; $comp binds) stays off until this box's calibration says it wins: run eip93-doctor calibrate"* ]] &&
    ok "$name: off until calibrated ($comp binds)" || bad "$name: '$g'"
  expect "$name on a CPU with AES" "$file" "$cpu+aes" "disabled: cpu: "
  expect "$name on x86-64" "$file" other "disabled: cpu: not "
  conf "kernel-algorithm = $comp"
  expect "$name, kernel-algorithm = $comp" "$file" "$cpu" "enabled: $comp"
done

echo "# a calibration opens such a row or keeps it off, as its verdict says"
# One file measured by eip93-doctor calibrate (on the AN7581 row: the doctor reads the
# real device tree), its composition and verdict set to each row's.
conf
EIP93_TEST_DT_PATH=$an EIP93_TEST_CPU=aarch64 OPENSSL_CONF=$tmp/eip93.cnf \
  "$doctor" calibrate --rounds 3 --time-ms 2 --output "$tmp/base.cal" >"$tmp/out" 2>"$tmp/err" ||
  { bad "calibrate failed"; cat "$tmp/err"; }
grep -qF "composition ecb(aes-eip93): 3 rounds" "$tmp/out" &&
  ok "calibrate measured the ECB composition beside the others (answers checked)" ||
  bad "ecb(aes-eip93) not measured"
for c in "Armada|$a38|arm|mv-ecb-aes" "IPQ40xx|$ipq|arm|ctr-aes-qce" "H3|$h3|arm|ecb-aes-sun8i-ce" \
  "K1|$k1|riscv64|__driver-ecb-aes-spacemit-ce1"; do
  IFS='|' read -r name file cpu comp <<<"$c"
  sed -e "s/^composition = .*/composition = $comp/" -e '/^verdict = /d' -e '/^reason = /d' \
    -e '/^min-size = /d' -e '/^max-size = /d' -e '/^#+ /d' "$tmp/base.cal" >"$tmp/$name-on.cal"
  printf 'verdict = engine\nmin-size = 2048\nmax-size = 65536\n' >>"$tmp/$name-on.cal"
  sed -e '/^verdict = /d' -e '/^min-size = /d' -e '/^max-size = /d' "$tmp/$name-on.cal" >"$tmp/$name-off.cal"
  printf 'verdict = off\nreason = %s: measured slower\n' "$comp" >>"$tmp/$name-off.cal"
  conf "calibration-file = $tmp/$name-on.cal"
  expect "$name, calibrated: the engine wins" "$file" "$cpu" "enabled: $comp; window 2048-65536 bytes (calibration)"
  conf "calibration-file = $tmp/$name-off.cal"
  expect "$name, calibrated: software wins" "$file" "$cpu" "disabled: calibration ("
  conf "calibration-file = $tmp/$name-on.cal" "min-size = 4096" "max-size = 32768"
  expect "$name, calibrated, min-size/max-size in config" "$file" "$cpu" \
    "enabled: $comp; window 4096-32768 bytes (config)"
  sed 's/^kernel-release = .*/kernel-release = 0.0.0-other/' "$tmp/$name-on.cal" >"$tmp/$name-stale.cal"
  conf "calibration-file = $tmp/$name-stale.cal"
  g=$(status "$file" "$cpu")
  [[ "$g" == "disabled: "*"stays off until this box's calibration says it wins"*"stale: ignored"* ]] &&
    ok "$name, a stale calibration: off until calibrated, the staleness named" || bad "$name, stale: '$g'"
done

echo "# kernel-algorithm names another row's composition: off, the row's named"
conf "kernel-algorithm = mv-ecb-aes"
expect "AN7581 with mv-ecb-aes" "$an" aarch64 \
  "disabled: kernel-algorithm = mv-ecb-aes in config is not one of the AN7581's compositions (ctr(aes-eip93), "
conf "kernel-algorithm = gcm_base(ctr(aes-eip93),ghash-neon)"
expect "MT7621 with ghash-neon" "$mt" mips \
  "disabled: kernel-algorithm = gcm_base(ctr(aes-eip93),ghash-neon) in config is not one of the MT7621's"

echo "# AES-GCM messages through each row's compositions, against the default provider"
for c in "AN7581|$an|aarch64|ecb(aes-eip93)|0|20000" "MT7621|$mt|mips|ctr(aes-eip93)|0|6000" \
  "Armada|$a38|arm|mv-ecb-aes|0|6000" "IPQ40xx|$ipq|arm|ctr-aes-qce|0|3000" \
  "IPQ40xx|$ipq|arm|ecb-aes-qce|0|3000" "H3|$h3|arm|ecb-aes-sun8i-ce|0|6000" \
  "K1|$k1|riscv64|__driver-ecb-aes-spacemit-ce1|60000|66000"; do
  IFS='|' read -r name file cpu comp lo hi <<<"$c"
  conf "kernel-algorithm = $comp" "min-size = 16" "max-size = 65536"
  if out=$(EIP93_TEST_DT_PATH=$file EIP93_TEST_CPU=$cpu OPENSSL_CONF=$tmp/eip93.cnf \
    "$lengths" --from "$lo" --to "$hi" --expect-gate "enabled: $comp" 2>&1); then
    ok "$name: $comp, every length $lo-$hi equal to the default provider ($(grep -o '[0-9]* seals and opens, [0-9]* engine messages' <<<"$out"))"
  else
    bad "$name: $comp, lengths $lo-$hi"
    tail -5 <<<"$out"
  fi
done

echo "$pass passed, $fail failed"
[[ $fail -eq 0 ]]
