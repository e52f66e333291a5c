#!/bin/bash
# SPDX-License-Identifier: Apache-2.0
# The module exports exactly OSSL_provider_init; only the hooks build carries
# the test-hook variable names (and the AF_ALG fault seam).
# usage: check-module.sh RELEASE_SO HOOKS_SO
set -euo pipefail
release=$1 hooks=$2
fail=0 pass=0

ok() { echo "ok - $*"; pass=$((pass + 1)); }
bad() { echo "not ok - $*"; fail=$((fail + 1)); }

for so in "$release" "$hooks"; do
  syms=$(nm -D --defined-only "$so" | awk '{print $3}' | sort -u | tr '\n' ' ')
  if [ "$syms" = "OSSL_provider_init " ]; then ok "$so exports only OSSL_provider_init"
  else bad "$so exports: $syms"; fi
done
if grep -q -a -e EIP93_TEST_DT_PATH -e EIP93_TEST_HWCAP -e EIP93_TEST_FAULT \
     -e EIP93_TEST_ENGINE -e EIP93_TEST_VERIFY -e EIP93_TEST_FAKE "$release"; then
  bad "release build contains a test hook"
else ok "release build contains no test hook"; fi
if grep -q -a EIP93_TEST_DT_PATH "$hooks" && grep -q -a EIP93_TEST_HWCAP "$hooks" &&
   grep -q -a EIP93_TEST_FAULT "$hooks" && grep -q -a EIP93_TEST_ENGINE "$hooks" &&
   grep -q -a EIP93_TEST_VERIFY "$hooks"; then
  ok "hooks build contains the hooks, the fault seam and the fake engine"
else bad "hooks build lacks a hook"; fi
echo "$pass passed, $fail failed"
[ "$fail" -eq 0 ]
