#!/bin/bash
# SPDX-License-Identifier: Apache-2.0
#
# openssl-build.sh 3.0|3.5|4.0 CACHE_ROOT
#
# Build what the OpenSSL test-harness suites need from Debian's `openssl`
# source package (scripts/openssl-src.sh), cached per build recipe and Debian
# version in CACHE_ROOT/openssl-<series>/<recipe>/<version>/, with
# CACHE_ROOT/openssl-<series>/current pointing at the last complete one:
#
#   3.0 (bookworm)  bin/evp_test   OpenSSL's evp_test, linked against the
#                                  system libcrypto.so.3 (no rpath: in the
#                                  guest it runs on the system's 3.0 library)
#   3.5 (trixie)    prefix/        libcrypto, libssl, headers and .pc files
#                                  (install_dev) and bin/openssl, built with
#                                  an rpath to prefix/lib; never installed
#                                  over the system OpenSSL
#                   prefix/lib/engines-3/
#                                  OpenSSL's afalg and devcrypto engines
#                                  (enable-devcryptoeng: OpenWrt's
#                                  libopenssl-devcrypto), for test/peers
#                   bin/evp_test   evp_test of that tree (rpath to prefix/lib)
#   4.0 (experimental)
#                   prefix/, bin/evp_test
#                                  as 3.5's, without engines (4.0 removed
#                                  ENGINE)
#   all             data/          the evp_test data files of evp_data (below)
#                   VERSION        the Debian version built
#                   RECIPE         what <recipe> stands for: the Configure
#                                  options, the targets, the patch and headers
#
# <recipe> is a hash of the series' Configure options, make targets and
# patches (and of the cryptodev-linux header the devcrypto engine is
# compiled with), so that a change to any of them builds anew instead of
# reusing a tree built another way; builds of other recipes stay where they
# are (a build tree configured against one keeps working).
#
# The devcrypto engine includes <crypto/cryptodev.h>, which Linux does not
# ship: it comes from the pinned cryptodev-linux source, as OpenWrt builds it
# ($EIP93_CRYPTODEV_SRC, else ../shared/third_party/cryptodev-linux beside
# the checkout, else /work/shared/third_party/cryptodev-linux).  Without it
# 3.5 is built without that engine (a recipe of its own), with a warning.
#
# The harness patch (3.0 only, documented in docs/testing.md): 3.0's evp_test
# stanza reader holds one "key = value" line in a 4096-byte buffer
# (test/testutil.h, STANZA.buff); it is raised to 262144 bytes so that values
# of 64 KiB (128 Ki hex digits) fit.  Nothing else in OpenSSL is changed.
#
# Prints the build's directory (CACHE_ROOT/openssl-<series>/<recipe>/<version>)
# on stdout.  Safe to run concurrently (flock); returns at once when the
# listed version is built with this recipe.
set -euo pipefail
me=openssl-build
die() { echo "$me: error: $*" >&2; exit 1; }
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)

[[ $# -eq 2 ]] || die "usage: $0 3.0|3.5|4.0 CACHE_ROOT"
series=$1
case "$series" in
3.0) suite=bookworm ;;
3.5) suite=trixie ;;
4.0) suite=experimental ;;
*) die "unknown OpenSSL series '$series' (3.0, 3.5 or 4.0)" ;;
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

# The recipe: everything that decides what is built, but the prefix (which
# lies inside the build's own directory).  Its hash names the directory.
case "$series" in
3.0)
    conf_opts=()
    targets=(build_generated test/evp_test)
    inputs=("test/testutil.h: STANZA.buff[4096] -> [262144]")
    ;;
3.5)
    conf_opts=(no-docs)
    engines=(engines/afalg.so)
    inputs=()
    cdev=''
    for cand in "${EIP93_CRYPTODEV_SRC:-}" "$here/../../shared/third_party/cryptodev-linux" \
        /work/shared/third_party/cryptodev-linux; do
        if [[ -n "$cand" && -f "$cand/crypto/cryptodev.h" ]]; then
            cdev=$(cd "$cand" && pwd)
            break
        fi
    done
    if [[ -n "$cdev" ]]; then
        conf_opts+=(enable-devcryptoeng)
        engines+=(engines/devcrypto.so)
        inputs+=("-I <cryptodev-linux>: crypto/cryptodev.h $(sha256sum <"$cdev/crypto/cryptodev.h" | cut -c1-16)")
    else
        echo "$me: warning: no cryptodev-linux source (crypto/cryptodev.h; EIP93_CRYPTODEV_SRC):" \
            "OpenSSL 3.5 is built without its devcrypto engine" >&2
    fi
    targets=(build_libs apps/openssl test/evp_test "${engines[@]}" install_dev)
    ;;
4.0)
    conf_opts=(no-docs)
    engines=()
    inputs=()
    targets=(build_libs apps/openssl test/evp_test install_dev)
    ;;
esac
recipe_text=$(printf 'series %s\nConfigure %s\ntargets %s\ninputs %s\n' "$series" \
    "${conf_opts[*]}" "${targets[*]}" "${inputs[*]:-}")
recipe=r$(printf '%s' "$recipe_text" | sha256sum | cut -c1-12)

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
    if data_src=$("$here/openssl-src.sh" --series "$series" "$suite" "$data_work" | tail -n 1); then
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

# use DIR: the build in DIR is the one to use: `current` points at it.
use() {
    rm -rf "$work"
    ln -sfn "${1#"$root"/}" "$root/current"
    echo "$1"
    exit 0
}

# Fetch the source (this also resolves which listed version downloads).
work="$root/.work"
rm -rf "$work"
if ! src=$("$here/openssl-src.sh" --series "$series" "$suite" "$work" "$root/$recipe" | tail -n 1); then
    # Offline: the newest complete build of this recipe, if any.
    last=''
    for d in "$root/$recipe"/*/; do
        complete "$d" && last=${d%/}
    done
    if [[ -n "$last" ]]; then
        echo "$me: warning: cannot fetch the $suite source; using the cached build $(cat "$last/VERSION")" >&2
        use "$last"
    fi
    die "cannot fetch Debian's openssl source for $suite (and no build of recipe $recipe is cached)"
fi
if [[ "$src" == "built "* ]]; then
    version=${src#built }
else
    version=$(cat "$src/.debian-version")
fi
dest="$root/$recipe/$version"
if complete "$dest"; then
    echo "$me: OpenSSL $series: Debian $version already built in $dest" >&2
    use "$dest"
fi
if [[ "$src" == "built "* ]]; then
    die "openssl-src.sh reported $version built, but $dest is not complete"
fi

rm -rf "$dest"
mkdir -p "$dest/bin" "$dest/data"
printf '%s\n' "$recipe_text" >"$dest/RECIPE"
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
3.5 | 4.0)
    grep -q 'static char buff\[131072\];' "$src/test/testutil/stanza.c" ||
        die "$src/test/testutil/stanza.c: the 131072-byte line buffer is not there (review the harness)"
    ;;
esac

cd "$src"
case "$series" in
3.0)
    echo "$me: building evp_test of OpenSSL $version (~3 min on 2 cores)" >&2
    ./Configure "${conf_opts[@]}" >"$dest/build.log" 2>&1 || die "Configure failed (see $dest/build.log)"
    { make -j"$jobs" "${targets[0]}" && make -j"$jobs" "${targets[@]:1}"; } >>"$dest/build.log" 2>&1 ||
        die "make test/evp_test failed (see $dest/build.log)"
    ;;
3.5 | 4.0)
    prefix="$dest/prefix"
    echo "$me: building OpenSSL $version into $prefix (~7 min on 2 cores)" >&2
    # Tests stay configured (evp_test is built), but only the libraries, the
    # openssl command, evp_test and the two engines are built: build_sw would
    # build every test, build_modules every engine and the legacy provider.
    # The cryptodev-linux header alone on the include path (its source tree
    # has other headers that must not shadow anything).
    inc=()
    if [[ -n "${cdev:-}" ]]; then
        mkdir -p "$dest/include-cryptodev/crypto"
        cp "$cdev/crypto/cryptodev.h" "$dest/include-cryptodev/crypto/"
        inc=("-I$dest/include-cryptodev")
    fi
    ./Configure --prefix="$prefix" --openssldir="$prefix/ssl" --libdir=lib "${conf_opts[@]}" \
        "${inc[@]}" "-Wl,-rpath,$prefix/lib" >"$dest/build.log" 2>&1 ||
        die "Configure failed (see $dest/build.log)"
    # build_libs first (its generated headers), then the rest; install_dev last.
    { make -j"$jobs" build_libs && make -j"$jobs" apps/openssl test/evp_test "${engines[@]}" &&
        make install_dev; } >>"$dest/build.log" 2>&1 ||
        die "make failed (see $dest/build.log)"
    mkdir -p "$prefix/bin"
    cp apps/openssl "$prefix/bin/openssl"
    if [[ ${#engines[@]} -gt 0 ]]; then
        # Where this libcrypto looks for engines (ENGINESDIR, the .pc's enginesdir).
        mkdir -p "$prefix/lib/engines-3"
        cp "${engines[@]}" "$prefix/lib/engines-3/"
    fi
    ;;
esac
cp test/evp_test "$dest/bin/evp_test"
cp "${evp_data[@]/#/test/recipes/30-test_evp_data/}" "$dest/data/"
echo "$version" >"$dest/VERSION"
cd "$root"
rm -rf "$work"
touch "$dest/.complete"
echo "$me: OpenSSL $series ($version) built in $(($(date +%s) - start))s: $dest" >&2
use "$dest"
