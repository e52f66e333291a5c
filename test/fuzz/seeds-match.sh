#!/bin/bash
# SPDX-License-Identifier: Apache-2.0
# The checked-in corpus directories are exactly what seeds.c writes.
# usage: seeds-match.sh REPLAY SRCDIR
set -euo pipefail
replay=$1 src=$2
work=$(mktemp -d /tmp/eip93-fuzz-seeds.XXXXXX)
trap 'rm -rf "$work"' EXIT
"$replay" --emit "$work" >/dev/null
rc=0
for d in corpus regress integrity; do
  # Files libFuzzer added to corpus/ by hand (named by their SHA-1) are allowed extra.
  for f in "$work/$d"/*; do
    if ! cmp -s "$f" "$src/$d/$(basename "$f")"; then
      echo "FAIL: $d/$(basename "$f") differs from what seeds.c writes (run: $replay --emit $src)"
      rc=1
    fi
  done
done
[ $rc -eq 0 ] && echo "seeds: $(ls "$work"/*/* | wc -l) files match seeds.c"
exit $rc
