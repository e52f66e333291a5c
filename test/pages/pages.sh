#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# Faults where the engine really reads and writes, on this host: every
# composition and direction, AAD 0, 13, 16, 64 and 512, the caller's buffers
# at several page offsets (in place and not), through the fake engine (the
# AF_ALG stand-in; it reports the page phases of both roads) and through the
# user-space /dev/crypto (the real cryptodev backend over cdev_shim.c).
#   pages.sh CHECK SHIM KGCM_CNF
# CHECK: eip93-pages-check; SHIM: the cdev-shim library; KGCM_CNF: a
# configuration selecting gcm_base(ctr(aes-eip93),ghash-generic).  The
# environment carries the hooks module and the test device tree.
set -u
check=$1 shim=$2 kgcm=$3
pass=0 fail=0
lines=$(mktemp)
trap 'rm -f "$lines"' EXIT
run() { # LABEL ENV... -- ARGS...
  label=$1
  shift
  envs=
  while [ "$1" != -- ]; do envs="$envs $1"; shift; done
  shift
  # shellcheck disable=SC2086 # the variable assignments are separate words
  if out=$(env $envs "$check" "$@" "$label" 2>&1); then
    pass=$((pass + 1)); echo "ok   $out"
  else
    fail=$((fail + 1)); echo "FAIL $out"
  fi
  echo "$out" | grep '^pages: ' >>"$lines"
}
# Buffers (input offset, output offset or "inplace") per AAD length.
layout() {
  case $1 in
    0) echo "0 0" ;; 13) echo "100 100 inplace" ;; 16) echo "2048 0" ;;
    64) echo "0 3000" ;; *) echo "4000 1000" ;;
  esac
}
for dir in enc dec; do
  for aad in 0 13 16 64 512; do
    # shellcheck disable=SC2046 # the layout is three words
    set -- $(layout $aad)
    lay="$*"
    len=16384
    [ "$aad" = 64 ] && len=5000 # a partial last block
    # The fake as ctr(aes-eip93): the key check is seal call 1.
    site=seal nth=2
    [ $dir = dec ] && site=unseal nth=1
    for f in "kind=page,buf=in,at=0" "kind=page,buf=out,page=1,at=-1" \
      "kind=page,buf=tx,page=1,at=8" "kind=skip,block=100,count=1" "kind=nowrite,block=200,count=1"; do
      # shellcheck disable=SC2086
      run "fake/ctr/${f%%,count=1}" EIP93_TEST_ENGINE=fake \
        "EIP93_TEST_FAKE=site=$site,nth=$nth,every=1,$f" -- $dir $aad $len $lay
    done
    # The fake as gcm_base: the key check seals once and opens twice.
    site=seal nth=2
    [ $dir = dec ] && site=unseal nth=3
    for f in "kind=page,buf=in,at=0" "kind=page,buf=out,page=1,at=-1" \
      "kind=skip,block=100,count=1" "kind=nowrite,block=200,count=1"; do
      # shellcheck disable=SC2086
      run "fake/gcm_base/${f%%,count=1}" EIP93_TEST_ENGINE=fake "OPENSSL_CONF=$kgcm" \
        "EIP93_TEST_FAKE=site=$site,nth=$nth,every=1,$f" -- $dir $aad $len $lay
    done
    # /dev/crypto: the key check is one CIOCCRYPT (ctr) or three CIOCAUTHCRYPTs (gcm_base).
    for f in srcpage=1 dstpage=-1 skip=100; do
      # shellcheck disable=SC2086
      run "cryptodev/ctr/$f" EIP93_TEST_ENGINE=cryptodev "LD_PRELOAD=$shim" \
        "EIP93_TEST_CDEV_FAULT=crypt:$f:2:every" -- $dir $aad $len $lay
      # shellcheck disable=SC2086
      run "cryptodev/gcm_base/$f" EIP93_TEST_ENGINE=cryptodev "LD_PRELOAD=$shim" \
        "OPENSSL_CONF=$kgcm" "EIP93_TEST_CDEV_FAULT=authcrypt:$f:4:every" -- $dir $aad $len $lay
    done
  done
done
# The table: per road, composition and fault, over both directions and every AAD and layout.
echo "# road/composition/fault                       runs messages caught wrong plain_or_stale"
awk '{ split($0, f, " "); k = f[2]; runs[k]++
       for (i = 3; i <= NF; i++) { split($i, kv, "="); v[k, kv[1]] += kv[2] } }
     END { for (k in runs) printf "# %-44s %4d %8d %6d %5d %14d\n", k, runs[k], v[k, "messages"],
                  v[k, "caught"], v[k, "wrong"], v[k, "plain_or_stale"] }' "$lines" | sort
echo "pages: $pass passed, $fail failed"
[ "$fail" -eq 0 ]
