#!/bin/bash
# SPDX-License-Identifier: Apache-2.0
#
# build-deb.sh BUILD_DIR OUT_DIR
#
# Debian packages from a configured and built CMake tree (native, or the
# aarch64 cross build of cmake/toolchain-aarch64.cmake), assembled from what
# `cmake --install` stages and built with dpkg-deb:
#   openssl-provider-eip93_<ver>-1_<arch>.deb  Multi-Arch: same
#       <multiarch modulesdir>/eip93.so (the release module, stripped)
#       /usr/share/doc/openssl-provider-eip93/{README.md,copyright,changelog.Debian.gz}
#       /usr/share/doc/openssl-provider-eip93/examples/openssl.cnf.example
#       /usr/lib/systemd/system/eip93-ghash.service (arm64 only: loads ghash-ce,
#       the NEON GHASH, at boot where the kernel has it; enabled by postinst
#       with deb-systemd-helper, masked by postrm on removal, purged on purge)
#   eip93-doctor_<ver>-1_<arch>.deb            Multi-Arch: foreign
#       /usr/bin/eip93-doctor, /var/lib/eip93/ (the calibration's directory)
#       /usr/lib/systemd/system/eip93-calibrate.service (at boot, when the
#       calibration is missing or stale), enabled by postinst with
#       deb-systemd-helper as dh_installsystemd does (masked on removal,
#       forgotten on purge); postinst calibrates (skipped with a message where
#       the engine is absent, or when installing into DPKG_ROOT)
# Nothing in /etc is shipped or changed: enabling the provider is an edit of
# /etc/ssl/openssl.cnf that the operator makes (docs/operations.md).
# Prints the paths of the two packages.
set -euo pipefail

die() {
    echo "build-deb: error: $*" >&2
    exit 1
}
[[ $# -eq 2 ]] || die "usage: $0 BUILD_DIR OUT_DIR"
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
src=$(cd "$here/../.." && pwd)
build=$(cd "$1" && pwd)
mkdir -p "$2"
out=$(cd "$2" && pwd)
cache="$build/CMakeCache.txt"
[[ -f "$cache" ]] || die "$build is not a configured CMake build"
cache_get() { sed -n "s/^$1:[A-Z]*=//p" "$cache" | head -n 1; }

version=$(cache_get CMAKE_PROJECT_VERSION)
modulesdir=$(cache_get EIP93_MODULESDIR)
[[ -n "$version" && -n "$modulesdir" ]] || die "no project version or EIP93_MODULESDIR in $cache"
[[ "$(cache_get EIP93_TEST_HOOKS)" == OFF ]] || die "$build has the test hooks on: package a release build"
[[ "$(cache_get EIP93_SANITIZE)" != ON ]] || die "$build is a sanitizer build"
# The multiarch triplet is in the modules directory: /usr/lib/<triplet>/ossl-modules.
triplet=$(sed -n 's|^/usr/lib/\([a-z0-9_]*-linux-gnu[a-z0-9]*\)/ossl-modules$|\1|p' <<<"$modulesdir")
[[ -n "$triplet" ]] || die "EIP93_MODULESDIR=$modulesdir is not a Debian multiarch modules directory"
arch=$(dpkg-architecture -qDEB_HOST_ARCH -t "$triplet" 2>/dev/null) ||
    case "$triplet" in
    x86_64-linux-gnu) arch=amd64 ;;
    aarch64-linux-gnu) arch=arm64 ;;
    *) die "cannot map $triplet to a Debian architecture (install dpkg-dev)" ;;
    esac
strip=$triplet-strip
command -v "$strip" >/dev/null || die "$strip not found (binutils for $triplet)"

stage="$out/stage"
rm -rf "$stage"
DESTDIR="$stage" cmake --install "$build" --prefix /usr >/dev/null
[[ -f "$stage$modulesdir/eip93.so" ]] || die "cmake --install did not stage $modulesdir/eip93.so"
doctor="$stage/usr/bin/eip93-doctor"
if [[ ! -f "$doctor" ]]; then
    # Until the root CMakeLists.txt installs it: the test tree's build.
    for d in "$build/eip93-doctor" "$build/test/eip93-doctor"; do
        [[ -f "$d" ]] && doctor=$d && break
    done
fi
[[ -f "$doctor" ]] || die "eip93-doctor was not built in $build"

deb_version="$version-1"
maintainer="eip93 provider maintainers <eip93@example.org>"
date_r=$(date -R -u -d "@${SOURCE_DATE_EPOCH:-$(stat -c %Y "$src/CMakeLists.txt")}")

# docdir PKGROOT PACKAGE: copyright and changelog as Debian wants them.
docdir() {
    local d="$1/usr/share/doc/$2"
    install -d -m0755 "$d"
    cat >"$d/copyright" <<COPYRIGHT
Format: https://www.debian.org/doc/packaging-manuals/copyright-format/1.0/
Upstream-Name: eip93
Comment: OpenSSL 3 provider offloading AES-GCM to the Airoha AN7581/EN7581
 EIP93 crypto engine through AF_ALG.

Files: *
Copyright: the eip93 provider authors
License: Apache-2.0
 On Debian systems, the full text of the Apache License, Version 2.0 can be
 found in /usr/share/common-licenses/Apache-2.0.
COPYRIGHT
    printf '%s (%s) unstable; urgency=medium\n\n  * Package built from the eip93 source tree.\n\n -- %s  %s\n' \
        "$2" "$deb_version" "$maintainer" "$date_r" | gzip -9n >"$d/changelog.Debian.gz"
    chmod 0644 "$d/copyright" "$d/changelog.Debian.gz"
}

# control PKGROOT: md5sums and Installed-Size, then build the .deb.
finish() {
    local root=$1 name=$2
    (cd "$root" && find . -path ./DEBIAN -prune -o -type f -printf '%P\n' | LC_ALL=C sort |
        xargs -r md5sum) >"$root/DEBIAN/md5sums"
    chmod 0644 "$root/DEBIAN/md5sums" "$root/DEBIAN/control"
    local size
    size=$(du -sk --exclude=DEBIAN "$root" | cut -f1)
    sed -i "s/^Installed-Size: .*/Installed-Size: $size/" "$root/DEBIAN/control"
    dpkg-deb --root-owner-group -Zxz --build "$root" "$out/${name}_${deb_version}_${arch}.deb" >/dev/null
    echo "$out/${name}_${deb_version}_${arch}.deb"
}

# ---- openssl-provider-eip93 ---------------------------------------------------
p=openssl-provider-eip93
root="$out/root-$p"
rm -rf "$root"
install -d -m0755 "$root/DEBIAN" "$root$modulesdir"
install -m0644 "$stage$modulesdir/eip93.so" "$root$modulesdir/eip93.so"
"$strip" --strip-unneeded --remove-section=.comment --remove-section=.note "$root$modulesdir/eip93.so"
docdir "$root" "$p"
install -m0644 "$src/README.md" "$root/usr/share/doc/$p/README.md"
install -d -m0755 "$root/usr/share/doc/$p/examples"
install -m0644 "$src/openssl.cnf.example" "$root/usr/share/doc/$p/examples/openssl.cnf.example"
prov_depends="libc6 (>= 2.34), libssl3 (>= 3.0.0)"
if [[ "$arch" == arm64 ]]; then
    # The NEON GHASH is a module without an alias for its driver name: a unit
    # loads it at boot where the kernel has it (not modules-load.d, which
    # fails on kernels without ghash-ce: eip93-ghash.service says why).
    install -d -m0755 "$root/usr/lib/systemd/system"
    install -m0644 "$here/eip93-ghash.service" "$root/usr/lib/systemd/system/eip93-ghash.service"
    install -m0755 "$here/provider.postinst" "$root/DEBIAN/postinst"
    install -m0755 "$here/provider.postrm" "$root/DEBIAN/postrm"
    prov_depends+=", init-system-helpers (>= 1.54~)"
fi
cat >"$root/DEBIAN/control" <<CONTROL
Package: $p
Version: $deb_version
Architecture: $arch
Multi-Arch: same
Section: libs
Priority: optional
Maintainer: $maintainer
Installed-Size: 0
Depends: $prov_depends
Suggests: eip93-doctor
Description: OpenSSL provider for AES-GCM on the Airoha AN7581/EN7581 EIP93
 eip93.so is an OpenSSL 3 provider registering AES-128/192/256-GCM. On an
 Airoha AN7581/EN7581 (Cortex-A53 without AES instructions) with the EIP93
 driver loaded it sends 4-32 KiB messages to the kernel's hybrid GCM through
 AF_ALG (EIP93 AES-CTR, GHASH on the CPU). Everywhere else it offers no
 cipher and OpenSSL uses its default provider.
 .
 Enable it in /etc/ssl/openssl.cnf; see
 /usr/share/doc/$p/examples/openssl.cnf.example.
CONTROL
finish "$root" "$p"

# ---- eip93-doctor ---------------------------------------------------------------
p=eip93-doctor
root="$out/root-$p"
rm -rf "$root"
install -d -m0755 "$root/DEBIAN" "$root/usr/bin"
install -m0755 "$doctor" "$root/usr/bin/eip93-doctor"
"$strip" --strip-unneeded --remove-section=.comment --remove-section=.note "$root/usr/bin/eip93-doctor"
docdir "$root" "$p"
install -d -m0755 "$root/var/lib/eip93" "$root/usr/lib/systemd/system"
install -m0644 "$here/eip93-calibrate.service" "$root/usr/lib/systemd/system/eip93-calibrate.service"
install -m0755 "$here/doctor.postinst" "$root/DEBIAN/postinst"
install -m0755 "$here/doctor.postrm" "$root/DEBIAN/postrm"
cat >"$root/DEBIAN/control" <<CONTROL
Package: $p
Version: $deb_version
Architecture: $arch
Multi-Arch: foreign
Section: utils
Priority: optional
Maintainer: $maintainer
Installed-Size: 0
Depends: libc6 (>= 2.34), libssl3 (>= 3.0.0), openssl-provider-eip93 (= $deb_version),
 init-system-helpers (>= 1.54~)
Description: explains why the eip93 OpenSSL provider is (not) offloading
 eip93-doctor prints every fact the eip93 provider's gate reads (device tree,
 CPU hwcaps, kernel and OpenSSL FIPS state, AF_ALG policy and binds), the
 provider's own verdict and counters, and what to do about each.
 .
 eip93-doctor calibrate measures the engine against OpenSSL's software
 AES-GCM on the box and writes /var/lib/eip93/calibration, which the provider
 follows (the engine only for the payload sizes where it wins, or off). It
 runs at install and at boot when the calibration is missing or stale.
CONTROL
finish "$root" "$p"
rm -rf "$stage"
