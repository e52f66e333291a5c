#!/bin/bash
# SPDX-License-Identifier: Apache-2.0
# doctor-host.sh DOCTOR OPENSSL: eip93-doctor on the build machine (x86_64, no device
# tree, no AF_ALG): it prints every section and fact, advice for the facts
# that keep the gate closed, the provider's verdict, and exits 1; with
# EIP93_PROVIDER=off it says so first; --help exits 0; a bad argument 2.
set -euo pipefail
doctor=$1 openssl=$2
pass=0 fail=0
ok() { echo "ok - $*"; pass=$((pass + 1)); }
bad() { echo "not ok - $*"; fail=$((fail + 1)); }
rc=0
out=$("$doctor" 2>&1) || rc=$?
echo "$out" | sed 's/^/   /'
[[ $rc -eq 1 ]] && ok "exit status 1 (disabled)" || bad "exit status $rc"
for t in '[1] off switch' '[2] device tree' '[3] CPU' '[4] FIPS' '[5] kernel (AF_ALG)' '[6] the provider' \
    'af_alg_restrict' 'bind skcipher (CTR)    ctr(aes-eip93): ' \
    'bind aead (NEON)       gcm_base(ctr(aes-eip93),ghash-neon): ' \
    'bind aead              gcm_base(ctr(aes-eip93),ghash-generic): ' \
    'bind aead (retry)      gcm_base(ctr(aes-eip93),ghash-lib): ' 'activated by config    yes' \
    '-> no device tree' '-> eip93 runs on the AN7581/EN7581 only on aarch64' 'verdict: disabled: device tree: '; do
    grep -qF -- "$t" <<<"$out" && ok "prints '$t'" || bad "lacks '$t'"
done
# The libcrypto's build as `openssl version -f` records it (the doctor reads
# the same string through OpenSSL_version(OPENSSL_CFLAGS)).
flags=$(OPENSSL_CONF=/dev/null "$openssl" version -f)
want_o=$(grep -o ' -O[^ ]*' <<<"$flags" | tail -n 1 | tr -d ' ')
want_sf='not small-footprint'
grep -q -- '-DOPENSSL_SMALL_FOOTPRINT' <<<"$flags" && want_sf='OPENSSL_SMALL_FOOTPRINT'
grep -qF -- "libcrypto build        ${want_o:-?}, $want_sf (openssl version -f)" <<<"$out" &&
    ok "libcrypto build: ${want_o:-?}, $want_sf, as openssl version -f" ||
    bad "libcrypto build line (openssl version -f: ${want_o:-?}, $want_sf)"
rc=0
out=$(EIP93_PROVIDER=off "$doctor" 2>&1) || rc=$?
[[ $rc -eq 1 ]] && grep -qF 'the environment switches eip93 off' <<<"$out" &&
    grep -qF 'verdict: disabled: switched off by EIP93_PROVIDER=off' <<<"$out" &&
    ok "EIP93_PROVIDER=off: advice and verdict" || { bad "EIP93_PROVIDER=off"; echo "$out"; }
# Captured, not piped into grep -q: musl's stdout writes the first line on its
# own, and grep -q leaving after it makes the second write's SIGPIPE fail the
# pipeline (pipefail).
help=$("$doctor" --help) && grep -q '^usage:' <<<"$help" && ok "--help" || bad "--help"
rc=0
"$doctor" --bogus >/dev/null 2>&1 || rc=$?
[[ $rc -eq 2 ]] && ok "bad argument: exit 2" || bad "bad argument: exit $rc"
echo "doctor (host): $pass passed, $fail failed"
[[ $fail -eq 0 ]]
