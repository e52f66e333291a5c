#!/bin/bash
# SPDX-License-Identifier: Apache-2.0
#
# run.sh TAG RESTRICT EXPECT -- RUNARGS...
#
# One row of the kernel matrix: prepare the kernel TAG (a name of
# test/rig/kernels: 6.1 is the suite's own kernel, the others the matrix's),
# build the simulated driver for it and boot it with the rig
# (test/rig/prepare.sh, kmod.sh, run.sh) and matrix.sh.  RUNARGS: the
# common run.sh arguments (the provider builds, openssl, the test programs)
# without --cache/--module; this script adds them.  The EIP93-KERNEL-ROW
# line goes to WORK/row for update-doc.sh.  Env: EIP93_GUEST_CACHE (default
# ~/.cache/eip93/guest), EIP93_KERNEL_WORK (scratch, required),
# EIP93_KERNEL_CASES (default 600), EIP93_KERNEL_ALSO (a second composition for
# an offload row, by kernel-algorithm; default "-": none), EIP93_KERNEL_CDEV_SRC
# (the pinned cryptodev-linux source: cryptodev.ko is built for the kernel and
# the row runs the /dev/crypto backend too, in the same boot; unset: AF_ALG only).
set -euo pipefail
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
src=$(cd "$here/../.." && pwd)
[[ $# -ge 4 && "$4" == -- ]] || { echo "usage: $0 TAG RESTRICT EXPECT -- RUNARGS..." >&2; exit 2; }
tag=$1 restrict=$2 expect=$3
shift 4
cache=${EIP93_GUEST_CACHE:-$HOME/.cache/eip93/guest}
work=${EIP93_KERNEL_WORK:?set EIP93_KERNEL_WORK}/$tag-r$restrict
mkdir -p "$work"
kmod=${EIP93_KERNEL_WORK}/kmod-$tag
rig=$src/test/rig
die() { echo "kernels/run: $*" >&2; exit 1; }
# shellcheck source=test/rig/lib.sh
. "$rig/lib.sh"
rig_kernel "$tag"
"$rig/prepare.sh" --kernel "$tag" "$cache" | grep -v '^Get:' || true
kcache=$cache/$k_cache
[[ "$k_cache" == . ]] && kcache=$cache
[[ -f "$kcache/abi" ]] || die "$tag not prepared"
"$rig/kmod.sh" --kernel "$tag" "$cache" "$kmod" "$src/test/kmod"
cdev=()
if [[ -n "${EIP93_KERNEL_CDEV_SRC:-}" ]]; then
    if [[ "$k_source" == rig ]]; then
        "$src/test/cryptodev/build-module.sh" --kernel "$tag" "$cache" "$EIP93_KERNEL_CDEV_SRC" "$kmod/cdev"
    else
        "$src/test/cryptodev/build-module.sh" "$EIP93_KERNEL_CDEV_SRC" "$kmod/cdev" \
            "$("$rig/kernel-abi.sh" --arch "$k_arch")"
    fi
    cdev=(--module "$kmod/cdev/cryptodev.ko" --env CDEV=1)
fi
# EIP93_KERNEL_KTLS=1: kernel TLS in the same boot (ktls.sh): the kernel's
# own tls.ko (decompressed: the guest loads it with insmod).
ktls=()
if [[ "${EIP93_KERNEL_KTLS:-0}" == 1 ]]; then
    tlsko=$(find -L "$kcache/$(cat "$kcache/abi")/root" -path '*/kernel/net/tls/tls.ko*' -print -quit)
    [[ -n "$tlsko" ]] || { echo "kernels/run: no tls.ko in the $tag kernel" >&2; exit 1; }
    case "$tlsko" in
    *.xz) xz -dc "$tlsko" >"$work/tls.ko" ;;
    *.zst) zstd -qdc "$tlsko" >"$work/tls.ko" ;;
    *.gz) gzip -dc "$tlsko" >"$work/tls.ko" ;;
    *) cp "$tlsko" "$work/tls.ko" ;;
    esac
    ktls=(--module "$work/tls.ko" --add "$here/ktls.sh:/opt/eip93/ktls.sh" --env KTLS=1)
fi
rc=0
"$rig/run.sh" --arch "$k_arch" --cache "$kcache" --work "$work/guest" \
    --module "$kmod/eip93_sim.ko" --script "$here/matrix.sh" --timeout 400 --mem 768 \
    --env "EXPECT=$expect" --env "RESTRICT=$restrict" \
    --env "CASES=${EIP93_KERNEL_CASES:-600}" --env "ALSO=${EIP93_KERNEL_ALSO:--}" "${ktls[@]}" \
    "${cdev[@]}" "$@" \
    >"$work/out.log" 2>&1 || rc=$?
grep -v '^\[ *[0-9.]*\]' "$work/out.log" | grep -av '^$' | tail -n 60
grep -a '^EIP93-KERNEL-ROW|' "$work/out.log" >"$work/row" || true
grep -a '^EIP93-KTLS-ROW|' "$work/out.log" | tail -n 1 >"$work/ktls-row" || true
exit "$rc"
