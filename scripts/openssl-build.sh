#!/bin/bash
# SPDX-License-Identifier: Apache-2.0
#
# openssl-build.sh 3.0|3.5 CACHE_ROOT
#
# Build what the OpenSSL test-harness suites need from Debian's `openssl`
# source package (scripts/openssl-src.sh), cached per Debian version in
# CACHE_ROOT/openssl-<series>/<version>/ with CACHE_ROOT/openssl-<series>/current
# pointing at the last complete one:
#
#   3.0 (bookworm)  bin/evp_test   OpenSSL's evp_test, linked against the
#                                  system libcrypto.so.3 (no rpath: in the
#                                  guest it runs on the system's 3.0 library)
#   3.5 (trixie)    prefix/        libcrypto, libssl, headers and .pc files
#                                  (install_dev) and bin/openssl, built with
#                                  an rpath to prefix/lib; never installed
#                                  over the system OpenSSL
#                   bin/evp_test   evp_test of that tree (rpath to prefix/lib)
#   both            data/          the evp_test data files of evp_data (below)
#                   VERSION        the Debian version built
#
# The harness patch (3.0 only, documented in docs/testing.md): 3.0's evp_test
# stanza reader holds one "key = value" line in a 4096-byte buffer
# (test/testutil.h, STANZA.buff); it is raised to 262144 bytes so that values
# of 64 KiB (128 Ki hex digits) fit.  Nothing else in OpenSSL is changed.
#
# Prints the cache directory of the build (…/current) on stdout.  Safe to run
# concurrently (flock); returns at once when the listed version is built.
set -euo pipefail
me=openssl-build
die() { echo "$me: error: $*" >&2; exit 1; }
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)

[[ $# -eq 2 ]] || die "usage: $0 3.0|3.5 CACHE_ROOT"
series=$1
case "$series" in
3.0) suite=bookworm ;;
3.5) suite=trixie ;;
*) die "unknown OpenSSL series '$series' (3.0 or 3.5)" ;;
esac
mkdir -p "$2/openssl-$series"
root=$(cd "$2/openssl-$series" && pwd)
# The test guest mounts tmpfs on these: libraries copied to the same path
# there (run.sh --add) would be hidden.
case "$root/" in
/tmp/* | /run/* | /dev/* | /proc/* | /sys/*)
    die "CACHE_ROOT must not be under /tmp, /run, /dev, /proc or /sys (the guest mounts over them)" ;;
esac
jobs=$(nproc)

exec 9>"$root/.lock"
flock 9

# The evp_test data files the harness reads (test/harness/evp.sh), copied
# from the source's test/recipes/30-test_evp_data/ into data/.  A complete
# build made before a file joined this list gets it here from its version's
# source, without a rebuild.
evp_data=(evpciph_aes_common.txt evpciph_aes_cts.txt evpmac_common.txt evpkdf_krb5.txt)
stale=()
for d in "$root"/*/ "$root"/*/*/; do
    [[ -f "$d.complete" && ! -L "${d%/}" ]] || continue
    for f in "${evp_data[@]}"; do
        [[ -f "$d/data/$f" ]] || { stale+=("${d%/}"); break; }
    done
done
if [[ ${#stale[@]} -gt 0 ]]; then
    data_work="$root/.data-work"
    rm -rf "$data_work"
    if data_src=$("$here/openssl-src.sh" "$suite" "$data_work" | tail -n 1); then
        for d in "${stale[@]}"; do
            [[ "$(cat "$d/VERSION")" == "$(cat "$data_src/.debian-version")" ]] || continue
            cp "${evp_data[@]/#/$data_src/test/recipes/30-test_evp_data/}" "$d/data/"
            echo "$me: $d/data: the evp_test data files of evp_data copied" >&2
        done
    else
        echo "$me: warning: cannot fetch the $suite source for the data files of ${stale[*]}" >&2
    fi
    rm -rf "$data_work"
fi

complete() { [[ -f "$1/.complete" ]]; }

# Fetch the source (this also resolves which listed version downloads).
work="$root/.work"
rm -rf "$work"
if ! src=$("$here/openssl-src.sh" "$suite" "$work" "$root" | tail -n 1); then
    if complete "$root/current"; then
        echo "$me: warning: cannot fetch the $suite source; using the cached build $(cat "$root/current/VERSION")" >&2
        rm -rf "$work"
        echo "$root/current"
        exit 0
    fi
    die "cannot fetch Debian's openssl source for $suite"
fi
if [[ "$src" == "built "* ]]; then
    version=${src#built }
else
    version=$(cat "$src/.debian-version")
fi
dest="$root/$version"
if complete "$dest"; then
    echo "$me: OpenSSL $series: Debian $version already built in $dest" >&2
    rm -rf "$work"
    ln -sfn "$version" "$root/current"
    echo "$root/current"
    exit 0
fi

rm -rf "$dest"
mkdir -p "$dest/bin" "$dest/data"
start=$(date +%s)

# The harness patch (3.0 only): one stanza line may hold 64 KiB of hex.
# 3.5's reader already has a 131072-byte line buffer (test/testutil/stanza.c),
# enough for the largest vector line (65456 bytes: 130925 characters).
case "$series" in
3.0)
    grep -q 'char buff\[4096\];' "$src/test/testutil.h" ||
        die "$src/test/testutil.h: STANZA.buff[4096] not found (the harness patch needs review)"
    sed -i 's/char buff\[4096\];/char buff[262144];/' "$src/test/testutil.h"
    ;;
3.5)
    grep -q 'static char buff\[131072\];' "$src/test/testutil/stanza.c" ||
        die "$src/test/testutil/stanza.c: the 131072-byte line buffer is not there (review the harness)"
    ;;
esac

cd "$src"
case "$series" in
3.0)
    echo "$me: building evp_test of OpenSSL $version (~3 min on 2 cores)" >&2
    ./Configure >"$dest/build.log" 2>&1 || die "Configure failed (see $dest/build.log)"
    { make -j"$jobs" build_generated && make -j"$jobs" test/evp_test; } >>"$dest/build.log" 2>&1 ||
        die "make test/evp_test failed (see $dest/build.log)"
    ;;
3.5)
    prefix="$dest/prefix"
    echo "$me: building OpenSSL $version into $prefix (~7 min on 2 cores)" >&2
    # Tests stay configured (evp_test is built), but only the libraries, the
    # openssl command and evp_test are built: build_sw would build every test.
    ./Configure --prefix="$prefix" --openssldir="$prefix/ssl" --libdir=lib no-docs \
        "-Wl,-rpath,$prefix/lib" >"$dest/build.log" 2>&1 ||
        die "Configure failed (see $dest/build.log)"
    { make -j"$jobs" build_libs && make -j"$jobs" apps/openssl test/evp_test &&
        make install_dev; } >>"$dest/build.log" 2>&1 ||
        die "make failed (see $dest/build.log)"
    mkdir -p "$prefix/bin"
    cp apps/openssl "$prefix/bin/openssl"
    ;;
esac
cp test/evp_test "$dest/bin/evp_test"
cp "${evp_data[@]/#/test/recipes/30-test_evp_data/}" "$dest/data/"
echo "$version" >"$dest/VERSION"
cd "$root"
rm -rf "$work"
touch "$dest/.complete"
ln -sfn "$version" "$root/current"
echo "$me: OpenSSL $series ($version) built in $(($(date +%s) - start))s: $dest" >&2
echo "$root/current"
