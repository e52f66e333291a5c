#!/bin/bash
# SPDX-License-Identifier: Apache-2.0
#
# run.sh OSSL35_FILE BUILD_OPENSSL COMMAND [ARG...]
#
# Host side of the peers run (test/peers/peers.sh): runs COMMAND (the rig's
# run.sh, or build/test/guest-run.sh, with their arguments) with what the
# guest needs beyond the suite's common files appended:
#   - the OpenSSL 3.5 of scripts/openssl-build.sh (the directory named in
#     OSSL35_FILE, written by the peers_openssl35 fixture): its openssl as
#     /usr/bin/openssl-35 (its libraries come along at their own paths) and
#     its engines (afalg.so, devcrypto.so) at their paths, its ENGINESDIR;
#   - the afalg engine of BUILD_OPENSSL (the build's openssl, the guest's
#     /usr/bin/openssl) at its ENGINESDIR: Debian's libssl3 afalg.so for the
#     system OpenSSL 3.0.
set -euo pipefail
me=peers/run
die() { echo "$me: error: $*" >&2; exit 1; }

[[ $# -ge 3 ]] || die "usage: $0 OSSL35_FILE BUILD_OPENSSL COMMAND [ARG...]"
file=$1 build_openssl=$2
shift 2
[[ -f "$file" ]] || die "$file missing: run the fixture first (ctest -R peers_openssl35)"
dir=$(cat "$file")
o35=$dir/prefix/bin/openssl
[[ -x "$o35" ]] || die "$o35 missing (scripts/openssl-build.sh 3.5)"

# enginesdir OPENSSL: the ENGINESDIR compiled into its libcrypto.
enginesdir() { "$1" version -e | sed -n 's/^ENGINESDIR: "\(.*\)"$/\1/p'; }

args=(--add "$o35:/usr/bin/openssl-35")
for o in "$o35" "$build_openssl"; do
    ed=$(enginesdir "$o")
    [[ -n "$ed" ]] || die "$o names no ENGINESDIR"
    for e in afalg devcrypto; do
        [[ -f "$ed/$e.so" ]] && args+=(--add "$ed/$e.so:$ed/$e.so")
    done
done
exec "$@" "${args[@]}"
