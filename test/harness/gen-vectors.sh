#!/bin/bash
# SPDX-License-Identifier: Apache-2.0
#
# gen-vectors.sh BUILD_DIR
#
# Regenerate test/data/vectors/{gcm,ctr,cbc}-large-{engine,software}.txt.xz:
# boot the test guest (BUILD_DIR: a configured and built tree with guest
# tests on), run eip93-vecgen there against the kernel's
# gcm_base(ctr(aes-generic),ghash-generic) and eip93-vecgen-skc against its
# ctr(aes-generic) and cbc(aes-generic), through libkcapi, with the
# simulated EIP93 driver NOT loaded, and store their output xz-compressed.
# The guest test guest_harness_vectors regenerates them on every run and
# fails if they differ from what is checked in.
set -euo pipefail
die() { echo "gen-vectors: error: $*" >&2; exit 1; }
[[ $# -eq 1 ]] || die "usage: $0 BUILD_DIR"
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
build=$(cd "$1" && pwd)
out=$(cd "$here/.." && pwd)/data/vectors
[[ -x "$build/test/guest-run.sh" && -x "$build/test/eip93-vecgen" && -x "$build/test/eip93-vecgen-skc" ]] ||
    die "$build is not a built tree with guest tests (cmake --build $build first)"
# The kernel and the simulated driver's .ko (every guest gets it, unloaded).
ctest --test-dir "$build" -R '^guest_(prepare_kernel|build_driver)$' >/dev/null ||
    die "guest fixtures failed (ctest --test-dir $build -R guest_prepare_kernel)"
work="$build/test/guest-work/vecgen"
log=$("$build/test/guest-run.sh" --work "$work" --script "$here/vecgen-guest.sh" \
    --add "$build/test/eip93-vecgen:/usr/bin/eip93-vecgen" \
    --add "$build/test/eip93-vecgen-skc:/usr/bin/eip93-vecgen-skc" --timeout 300) ||
    die "the guest run failed; console log in $work/console.log"
mkdir -p "$out"
for f in gcm-large-engine gcm-large-software ctr-large-engine ctr-large-software \
    cbc-large-engine cbc-large-software; do
    sed -n "/^EIP93-VECTORS-BEGIN $f.txt\$/,/^EIP93-VECTORS-END $f.txt\$/p" <<<"$log" | sed '1d;$d' |
        base64 -d | gunzip | xz -9 -c >"$out/$f.txt.xz.tmp" || die "no $f in the guest's output"
    [[ $(xz -dc "$out/$f.txt.xz.tmp" | head -c 30) == "# SPDX-License-Identifier: Apa" ]] || die "$f: bad content"
    mv "$out/$f.txt.xz.tmp" "$out/$f.txt.xz"
    echo "gen-vectors: $out/$f.txt.xz ($(xz -dc "$out/$f.txt.xz" | grep -c '^Cipher =') cases)"
done
grep -E '^eip93-vecgen(-skc)?:' <<<"$log" || true
