#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# Host test skc_vectors_fake: the large AES-CTR and AES-CBC vectors
# (test/data/vectors/{ctr,cbc}-large-*.txt.xz) through eip93-stanza with the
# hooks build and the fake engine (the environment and openssl.cnf come from
# host.cmake): every case right, its updated IV too, every direction the
# window admits carried by the engine (one eip93 engine message each:
# --count) and no other one; the engine directions must be all those the
# files' headers count.
# usage: skc-vectors-host.sh EIP93_STANZA VECTORS_DIR
set -eu
stanza=$1 dir=$2
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
want=0
for f in ctr-large-engine ctr-large-software cbc-large-engine cbc-large-software; do
  xz -dc "$dir/$f.txt.xz" >"$tmp/$f.txt"
  n=$(sed -n 's/^# eip93-engine-directions: //p' "$tmp/$f.txt")
  want=$((want + n))
done
out=$("$stanza" --count "$tmp"/ctr-large-*.txt "$tmp"/cbc-large-*.txt 2>&1) || {
  printf '%s\n' "$out"
  echo "skc_vectors_fake: eip93-stanza failed"
  exit 1
}
printf '%s\n' "$out"
got=$(printf '%s\n' "$out" | sed -n 's/.*; \([0-9]*\) directions carried by the engine$/\1/p')
if [ "$want" -gt 0 ] && [ "${got:-0}" -eq "$want" ]; then
  echo "skc_vectors_fake: the engine carried all $want eligible directions"
else
  echo "skc_vectors_fake: the engine carried ${got:-0} of $want eligible directions"
  exit 1
fi
