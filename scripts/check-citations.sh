#!/bin/bash
# SPDX-License-Identifier: Apache-2.0
# The tree cites only itself: no comment, doc or test may point at a contract
# kept outside the repository (SPEC.md) or at an issue tracker's numbers
# ("issue 17", "#12") or review codes ("R7"); the contract is docs/contract.md.
# Fails loudly, naming each place.  usage: check-citations.sh [DIR]
set -euo pipefail
cd "${1:-$(dirname "$0")/..}"
pattern='SPEC\.md|SPEC step|SPEC "|[Ii]ssues? ?#?[0-9]+|\(#[0-9]+\)|\bR[0-9]+\b'
# Regression inputs are bytes, and this script names what it forbids.
found=$(git ls-files -z | grep -zv -e '^test/fuzz/regress/' -e '^scripts/check-citations.sh$' |
  xargs -0 grep -nIE "$pattern" -- 2>/dev/null || true)
if [ -n "$found" ]; then
  echo "check-citations: citations of something outside the tree (cite docs/contract.md instead):" >&2
  echo "$found" >&2
  exit 1
fi
echo "check-citations: the tree cites only itself"
