#!/bin/bash
# SPDX-License-Identifier: Apache-2.0
# The provider loaded from openssl.cnf by the `openssl` command: it shows up
# in `openssl list -providers -verbose`, and a bad or "off" configuration is
# reported (key and value named) while the application keeps working.
# usage: cli-config.sh OPENSSL MODULES_DIR VERSION HOOKS_MODULES_DIR DATA_DIR
set -euo pipefail
openssl=$1 moddir=$2 version=$3 hooksdir=$4 data=$5
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
pass=0 fail=0
ok() { echo "ok - $*"; pass=$((pass + 1)); }
bad() { echo "not ok - $*"; fail=$((fail + 1)); }

# conf NAME [extra lines for the eip93 section...]
conf() {
  local f=$tmp/$1.cnf
  shift
  {
    printf 'openssl_conf = openssl_init\n[openssl_init]\nproviders = provider_sect\n'
    printf 'alg_section = evp_properties\n[evp_properties]\ndefault_properties = ?provider=eip93\n'
    printf '[provider_sect]\ndefault = default_sect\neip93 = eip93_sect\n'
    printf '[default_sect]\nactivate = 1\n[eip93_sect]\nactivate = 1\n'
    printf '%s\n' "$@"
  } >"$f"
  echo "$f"
}

# expect CASE CONF PATTERN...: `openssl list` exits 0 and prints every pattern.
expect() {
  local name=$1 cnf=$2 out rc=0
  shift 2
  out=$(OPENSSL_MODULES=$moddir OPENSSL_CONF=$cnf "$openssl" list -providers -verbose 2>&1) || rc=$?
  if [ $rc -ne 0 ]; then bad "$name: openssl list exited $rc"; echo "$out"; return; fi
  for pat in "$@"; do
    if grep -qF -- "$pat" <<<"$out"; then ok "$name: shows '$pat'"
    else bad "$name: missing '$pat'"; echo "$out"; fi
  done
}

expect default "$(conf default)" "  eip93" "version: $version" "status: active" \
  "build info: eip93 $version (release" "disabled: device tree: /proc/device-tree/compatible"
expect bad-size "$(conf bad-size 'min-size = abc')" \
  'disabled: invalid config value min-size = "abc" (expected a decimal number of bytes from 16 to 65536)'
expect bad-bool "$(conf bad-bool 'enable = maybe')" 'invalid config value enable = "maybe"'
expect bad-range "$(conf bad-range 'timeout-ms = 0')" 'invalid config value timeout-ms = "0"'
expect bad-cross "$(conf bad-cross 'min-size = 40000')" \
  'invalid config: min-size = 40000 is above max-size = 32768'
expect self-fallback "$(conf self-fallback 'fallback-properties = provider=eip93')" \
  'software delegate: no AES-GCM for fallback-properties "provider=eip93"'
# The same module loaded under another section name must still refuse itself as its
# delegate.  The test-hooks build with its gate open (and the fake engine) offers
# ciphers, so only that refusal keeps it from delegating to itself.
renamed=$tmp/renamed.cnf
printf '%s\n' 'openssl_conf = openssl_init' '[openssl_init]' 'providers = provider_sect' \
  '[provider_sect]' 'default = default_sect' 'myeip = myeip_sect' '[default_sect]' 'activate = 1' \
  '[myeip_sect]' "module = $hooksdir/eip93.so" 'fallback-properties = provider=eip93' \
  'activate = 1' >"$renamed"
EIP93_TEST_DT_PATH=$data/dt-an7581.bin EIP93_TEST_HWCAP=0 EIP93_TEST_ENGINE=fake \
moddir=$hooksdir expect renamed-self-fallback "$renamed" "  myeip" \
  'software delegate: no AES-GCM for fallback-properties "provider=eip93" (it resolves to an eip93 provider'
expect bad-routing "$(conf bad-routing 'routing = sometimes')" \
  'disabled: invalid config value routing = "sometimes" (expected adaptive or fixed)'
expect bad-explore "$(conf bad-explore 'adaptive-explore = 2')" \
  'invalid config value adaptive-explore = "2" (expected a decimal number from 4 to 4096)'
expect enable-no "$(conf enable-no 'enable = no')" 'switched off by config (enable = no)'
EIP93_PROVIDER=off expect env-off "$(conf env-off)" 'switched off by EIP93_PROVIDER=off'

# The calibration file is followed only when it is the administrator's.  A
# symbolic link to a root-only file (here a secret's stand-in), and a file that is not a
# calibration, are refused with the reason in the status, no byte of theirs shown, the
# engine kept off; the hooks build with the fake engine reaches the calibration step.
secret=$tmp/secret
printf 'S3CRET-token = hunter2\n' >"$secret"
chmod 0600 "$secret"
ln -s "$secret" "$tmp/calib-link"
calib_case() {
  local name=$1 file=$2 want=$3 out rc=0 cnf
  cnf=$(conf "$name" "calibration-file = $file")
  out=$(OPENSSL_MODULES=$hooksdir OPENSSL_CONF=$cnf EIP93_TEST_DT_PATH=$data/dt-an7581.bin \
        EIP93_TEST_HWCAP=0 EIP93_TEST_ENGINE=fake "$openssl" list -providers -verbose 2>&1) || rc=$?
  if [ $rc -eq 0 ] && grep -qF -- "(disabled: calibration file $file is invalid ($want" <<<"$out" &&
     ! grep -q 'S3CRET\|hunter2' <<<"$out"; then
    ok "$name: refused ($want), nothing of the file shown"
  else bad "$name (exit $rc)"; echo "$out"; fi
}
calib_case calib-symlink "$tmp/calib-link" "refused: a symbolic link (not followed)"
calib_case calib-not-one "$secret" "corrupt: line 1: unknown key"
chmod 0666 "$secret"
calib_case calib-writable "$secret" "refused: writable by its group or others (mode 0666)"

# The application keeps working with a bad value: AES-GCM still fetches (from default).
cnf=$(conf bad-size2 'max-size = lots')
if out=$(OPENSSL_MODULES=$moddir OPENSSL_CONF=$cnf "$openssl" list -cipher-algorithms 2>&1) &&
   grep -q 'aes-256-gcm.*@ default' <<<"$out"; then
  ok "bad value: AES-256-GCM still available from the default provider"
else bad "bad value: cipher list broken"; echo "$out"; fi

echo "$pass passed, $fail failed"
[ "$fail" -eq 0 ]
