#!/bin/bash
# SPDX-License-Identifier: Apache-2.0
#
# openssl-build.sh 3.0|3.5|4.0|openwrt|openwrt-sf CACHE_ROOT
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
#   openwrt, openwrt-sf (trixie's upstream tarball, below)
#                   prefix/        libcrypto, libssl, headers, .pc files and
#                                  bin/openssl built as OpenWrt builds them,
#                                  with musl; no evp_test, no data/
#   3.0, 3.5, 4.0   data/          the evp_test data files of evp_data (below)
#   all             VERSION        the Debian version built
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
# openwrt and openwrt-sf: an OpenWrt-shaped libcrypto on the x86-64 host.
# Source: the upstream OpenSSL 3.5 tarball that Debian trixie's `openssl`
# package carries (openssl_3.5.N.orig.tar.gz: openssl-src.sh --orig; OpenWrt
# main is at 3.5.7, as trixie), without Debian's patches and without
# OpenWrt's own (package/libs/openssl/patches: none touches AES-GCM, GCM128
# or ChaCha20-Poly1305 on x86-64; main's later
# 160-mips32-add-aes-ctr32-assembly.patch adds an AES_ctr32_encrypt for
# MIPS32 only).  Configure options: OpenWrt's
# package/libs/openssl/Makefile at openwrt/openwrt commit
# 7bc8aa492f5d3a918c7890645ffd992eadf4c234 (pinned in
# shared/third_party/openwrt), with the defaults of package/libs/openssl/
# Config.in at commit 681e01f68cf545c22a2b7e1140e33b73d57510f0 for a target
# that is not x86 (airoha/aarch64, ramips/mt7621) and without
# SMALL_FLASH/LOW_MEMORY_FOOTPRINT: ENGINE (dynamic, neither the afalg nor the
# padlock package), deprecated APIs, error strings, CMS, SRP, PSK, TLS 1.3,
# ChaCha20-Poly1305 and assembly on; OPTIMIZE_SPEED off (its default
# off x86), so TARGET_CFLAGS keep OpenWrt's -Os.  CFLAGS = TARGET_OPTIMIZATION
# "-Os -pipe", FPIC "-fpic" and PKG_BUILD_FLAGS gc-sections
# ("-ffunction-sections -fdata-sections", LDFLAGS "-Wl,--gc-sections");
# OpenWrt's CPU and hardening flags are left out (this is an x86-64 host).
# OpenWrt's target linux-<arch>-openwrt inherits from linux-<arch>: here
# linux-x86_64, compiled by musl-gcc (Debian's musl-tools).  openwrt-sf adds
# -DOPENSSL_SMALL_FOOTPRINT to the options, as the Makefile does with
# CONFIG_OPENSSL_SMALL_FOOTPRINT=y.  Built: build_libs apps/openssl
# install_dev (OpenWrt configures no-tests: no evp_test).  The build fails
# unless `openssl version -f` names -Os (and -DOPENSSL_SMALL_FOOTPRINT for
# openwrt-sf) and bin/openssl runs on musl's loader with this libcrypto.
# musl-gcc leaves /usr/include out, and OpenSSL includes a kernel header
# (crypto/mem_sec.c: linux/mman.h), which OpenWrt's toolchain has in its
# sysroot: include-uapi/ holds links to the kernel's UAPI folders alone
# (linux, asm, asm-generic), given with CPPFLAGS -isystem; never glibc's
# headers.  The provider against this prefix: cmake/toolchain-musl.cmake.
#
# Prints the build's directory (CACHE_ROOT/openssl-<series>/<recipe>/<version>)
# on stdout.  Safe to run concurrently (flock); returns at once when the
# listed version is built with this recipe.
set -euo pipefail
me=openssl-build
die() { echo "$me: error: $*" >&2; exit 1; }
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)

[[ $# -eq 2 ]] || die "usage: $0 3.0|3.5|4.0|openwrt|openwrt-sf CACHE_ROOT"
series=$1
src_opts=(--series "$series")
openwrt=0
case "$series" in
3.0) suite=bookworm ;;
3.5) suite=trixie ;;
4.0) suite=experimental ;;
openwrt | openwrt-sf)
    suite=trixie
    src_opts=(--series 3.5 --orig)
    openwrt=1
    ;;
*) die "unknown OpenSSL series '$series' (3.0, 3.5, 4.0, openwrt or openwrt-sf)" ;;
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
openwrt | openwrt-sf)
    command -v musl-gcc >/dev/null || die "musl-gcc not found (apt-get install musl-tools musl-dev)"
    # OpenWrt's OPENSSL_OPTIONS, in the Makefile's order (header above).
    conf_opts=(linux-x86_64 shared no-tests no-blake2 no-async no-ec2m no-aria no-sm2 no-sm3 no-sm4
        no-camellia no-idea no-seed no-mdc2 no-whirlpool no-rfc3779 no-afalgeng no-padlockeng
        no-dtls no-comp no-nextprotoneg)
    if [[ "$series" == openwrt-sf ]]; then
        conf_opts+=(-DOPENSSL_SMALL_FOOTPRINT)
    fi
    ow_cflags="-Os -pipe -fpic -ffunction-sections -fdata-sections"
    ow_ldflags="-Wl,--gc-sections"
    targets=(build_libs apps/openssl install_dev)
    musl=$(dpkg-query -W -f='${Version}' musl-dev 2>/dev/null) || musl=unknown
    inputs=("source: upstream orig tarball, no patches" "CC=musl-gcc (musl-dev $musl)"
        "CFLAGS=$ow_cflags" "LDFLAGS=$ow_ldflags" "CPPFLAGS=-isystem <include-uapi: linux asm asm-generic>")
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
    [[ $openwrt -eq 0 && -f "$d.complete" && ! -L "${d%/}" ]] || continue
    for f in "${evp_data[@]}"; do
        [[ -f "$d/data/$f" ]] || { stale+=("${d%/}"); break; }
    done
done
if [[ ${#stale[@]} -gt 0 ]]; then
    data_work="$root/.data-work"
    rm -rf "$data_work"
    if data_src=$("$here/openssl-src.sh" "${src_opts[@]}" "$suite" "$data_work" | tail -n 1); then
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

# check_openwrt PREFIX: the build is what it claims: bin/openssl runs on
# musl's loader against PREFIX's libcrypto, which needs musl's libc, and
# `openssl version -f` names -Os (and -DOPENSSL_SMALL_FOOTPRINT for openwrt-sf).
# needs FILE NAME...: every library FILE needs (DT_NEEDED) is one of NAME...
needs() {
    local f=$1 n
    shift
    for n in $(readelf -dW "$f" | sed -n 's/.*(NEEDED).*\[\(.*\)\]$/\1/p'); do
        [[ " $* " == *" $n "* ]] || die "$f needs $n (only $* may be: a musl build of OpenSSL's own)"
    done
}

check_openwrt() {
    local p=$1 lib=$1/lib/libcrypto.so.3 flags elf
    elf=$(readelf -lW "$p/bin/openssl")
    grep -qF 'interpreter: /lib/ld-musl-x86_64.so.1]' <<<"$elf" ||
        die "$p/bin/openssl: not on musl's loader (/lib/ld-musl-x86_64.so.1)"
    elf=$(/lib/ld-musl-x86_64.so.1 --list "$p/bin/openssl" 2>&1) || die "$p/bin/openssl: $elf"
    grep -qF "libcrypto.so.3 => $lib " <<<"$elf" || die "$p/bin/openssl: does not load $lib: $elf"
    # What each may need: musl's libc.so and this build's own libraries, nothing else.
    needs "$lib" libc.so
    needs "$1/lib/libssl.so.3" libcrypto.so.3 libc.so
    needs "$p/bin/openssl" libssl.so.3 libcrypto.so.3 libc.so
    grep -q 'NEEDED.*\[libc\.so\]' <<<"$(readelf -dW "$lib")" || die "$lib: does not need musl's libc.so"
    flags=$("$p/bin/openssl" version -f) || die "$p/bin/openssl does not run"
    echo "$me: $flags" >&2
    [[ "$(grep -o ' -O[^ ]*' <<<" $flags" | tail -n 1)" == " -Os" ]] ||
        die "openssl version -f does not end its -O options with -Os: $flags"
    if [[ "$series" == openwrt-sf ]]; then
        [[ "$flags" == *" -DOPENSSL_SMALL_FOOTPRINT"* ]] || die "openssl version -f does not name -DOPENSSL_SMALL_FOOTPRINT: $flags"
    elif [[ "$flags" == *OPENSSL_SMALL_FOOTPRINT* ]]; then
        die "openssl version -f names OPENSSL_SMALL_FOOTPRINT in the $series build: $flags"
    fi
}

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
if ! src=$("$here/openssl-src.sh" "${src_opts[@]}" "$suite" "$work" "$root/$recipe" | tail -n 1); then
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
mkdir -p "$dest"
[[ $openwrt -eq 1 ]] || mkdir -p "$dest/bin" "$dest/data"
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
openwrt | openwrt-sf)
    [[ -f "$src/.orig" ]] || die "$src is not the upstream tarball (openssl-src.sh --orig)"
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
openwrt | openwrt-sf)
    prefix="$dest/prefix"
    echo "$me: building OpenWrt's OpenSSL ($series, upstream $(cat .orig)) with musl into $prefix" >&2
    # The kernel's UAPI headers (crypto/mem_sec.c: linux/mman.h), as OpenWrt's
    # toolchain has them in its sysroot: links to them alone, never to the
    # rest of /usr/include (glibc's headers).
    uapi="$dest/include-uapi"
    mkdir -p "$uapi"
    ln -sfn /usr/include/linux "$uapi/linux"
    ln -sfn "/usr/include/$(gcc -print-multiarch)/asm" "$uapi/asm"
    ln -sfn /usr/include/asm-generic "$uapi/asm-generic"
    for l in "$uapi"/*; do
        [[ -d "$l/" ]] || die "$l: $(readlink "$l") missing (apt-get install linux-libc-dev)"
    done
    CC=musl-gcc CFLAGS="$ow_cflags" LDFLAGS="$ow_ldflags" CPPFLAGS="-isystem $uapi" ./Configure "${conf_opts[@]}" \
        --prefix="$prefix" --openssldir="$prefix/ssl" --libdir=lib "-Wl,-rpath,$prefix/lib" \
        >"$dest/build.log" 2>&1 || die "Configure failed (see $dest/build.log)"
    { make -j"$jobs" build_libs && make -j"$jobs" apps/openssl && make install_dev; } \
        >>"$dest/build.log" 2>&1 || die "make failed (see $dest/build.log)"
    mkdir -p "$prefix/bin"
    cp apps/openssl "$prefix/bin/openssl"
    check_openwrt "$prefix"
    ;;
esac
if [[ $openwrt -eq 0 ]]; then
    cp test/evp_test "$dest/bin/evp_test"
    cp "${evp_data[@]/#/test/recipes/30-test_evp_data/}" "$dest/data/"
fi
echo "$version" >"$dest/VERSION"
cd "$root"
rm -rf "$work"
# The build time (Configure to install, the download excluded) stays with the build.
echo "$me: OpenSSL $series ($version) built in $(($(date +%s) - start))s" | tee -a "$dest/build.log" >&2
touch "$dest/.complete"
echo "$me: $dest" >&2
use "$dest"
