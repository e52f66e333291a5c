#!/bin/bash
# SPDX-License-Identifier: Apache-2.0
# Every configuration key of the provider is documented.
#
# usage: check-config-docs.sh [DOC...]
#
# The keys are read from the descriptor table in provider/config.c (one
# EIP93_CFG_KEY_<KIND>("name", ...) row per key) and counted against
# enum eip93_config_key in provider/config.h, so a row this script cannot
# read fails too.  Each DOC (default: $EIP93_CONFIG_DOCS, else
# docs/operations.md openssl.cnf.example, relative to the source tree) must
# name every key: a Markdown file as `key`, any other file as a
# "key = value" line (commented out or not).  Exit 0 when all are there;
# otherwise every missing key is named, with its file, and the exit is 1.
set -euo pipefail

root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
table=$root/provider/config.c
header=$root/provider/config.h

if [[ $# -gt 0 ]]; then
  docs=("$@")
else
  read -r -a docs <<<"${EIP93_CONFIG_DOCS:-docs/operations.md openssl.cnf.example}"
fi

die() { echo "check-config-docs: $*" >&2; exit 1; }

# The table's key names, in order: the first string of each row macro.
mapfile -t keys < <(tr '\n' ' ' <"$table" |
  grep -oE 'EIP93_CFG_KEY_[A-Z]+\([[:space:]]*"[^"]+"' | sed -E 's/.*"([^"]+)"$/\1/')
# The enum's entries before EIP93_CONFIG_NKEYS: one per row.
nenum=$(sed -n '/^enum eip93_config_key {/,/EIP93_CONFIG_NKEYS/p' "$header" |
  grep -cE '^[[:space:]]*EIP93_CFG_[A-Z_]+,' || true)
[[ ${#keys[@]} -gt 0 ]] || die "no EIP93_CFG_KEY_*(\"name\", ...) rows found in $table"
[[ ${#keys[@]} -eq $nenum ]] ||
  die "$table has ${#keys[@]} readable key rows but enum eip93_config_key in $header has $nenum entries"

missing=0
for doc in "${docs[@]}"; do
  [[ $doc == /* ]] || doc=$root/$doc
  [[ -r $doc ]] || die "cannot read $doc"
  for key in "${keys[@]}"; do
    re=${key//./\\.}
    if [[ $doc == *.md ]]; then
      grep -qF -- "\`$key\`" "$doc" && continue
    else
      grep -qE -- "^[#[:space:]]*$re[[:space:]]*=" "$doc" && continue
    fi
    echo "check-config-docs: config key '$key' (provider/config.c) is not documented in $doc" >&2
    missing=$((missing + 1))
  done
done
if [[ $missing -gt 0 ]]; then
  echo "check-config-docs: $missing missing; document each key (name, default, accepted values)" >&2
  exit 1
fi
echo "check-config-docs: ${#keys[@]} keys, all documented in ${docs[*]}"
