#!/bin/bash
# SPDX-License-Identifier: Apache-2.0
#
# check.sh MODULE DOCTOR OPENSSL VERSION
#
# Validates packaging/openwrt/eip93-provider without an OpenWrt SDK:
#  1. the Makefile evaluates with GNU make against stand-in OpenWrt includes
#     (stub/), its metadata says what a feed needs (version = the project's,
#     license, dependencies on libopenssl and the kernel modules, conffiles,
#     the release build options);
#  2. its install recipes, run for real, put eip93.so into /usr/lib/ossl-modules,
#     the config fragment into /etc/ssl/modules.cnf.d and the doctor into
#     /usr/bin, with OpenWrt's modes;
#  3. postinst (offline, IPKG_INSTROOT set) adds `config provider 'eip93'`
#     once, keeping an operator's existing section;
#  4. on a model of OpenWrt's OpenSSL configuration (openssl.cnf including
#     /var/etc/ssl/providers.cnf and /etc/ssl/modules.cnf.d, providers.cnf
#     generated from the UCI file as /etc/init.d/openssl does), the host's
#     `openssl list -providers -verbose` loads eip93 from the package's
#     files next to the default provider, its preference is in force, and
#     `option enabled '0'` leaves only the default provider, without errors.
# MODULE and DOCTOR are host builds standing in for the cross-built files.
set -euo pipefail
[[ $# -eq 4 ]] || { echo "usage: $0 MODULE DOCTOR OPENSSL VERSION" >&2; exit 2; }
module=$1 doctor=$2 openssl=$3 version=$4
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
pkgdir=$(cd "$here/../eip93-provider" && pwd)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
pass=0 fail=0
ok() { echo "ok - $*"; pass=$((pass + 1)); }
bad() { echo "not ok - $*"; fail=$((fail + 1)); }
expect() { # DESC COMMAND...: the command succeeds
    local desc=$1
    shift
    if "$@"; then ok "$desc"; else bad "$desc"; fi
}

# ---- 1. the Makefile and its metadata --------------------------------------
# `make` runs in a copy (OpenWrt builds in the package directory: ./files/).
cp -a "$pkgdir" "$tmp/pkg"
mk() { make --no-print-directory -C "$tmp/pkg" TOPDIR="$here/stub" INCLUDE_DIR="$here/stub" \
    PKG_INSTALL_DIR="$tmp/install" STUB_ROOT="$tmp/ipkg" "$@"; }
expect "every line of the Makefile's recipes starts with a tab" \
    bash -c "! grep -nP '^ +\\\$\\((INSTALL|CP)' '$pkgdir/Makefile'"
expect "SPDX line" grep -q '^# SPDX-License-Identifier: Apache-2.0$' "$pkgdir/Makefile"
for p in libopenssl-eip93 eip93-doctor; do
    if info=$(mk "stub-info-$p" 2>&1); then ok "$p: the Makefile evaluates"; else
        bad "$p: make stub-info-$p"; echo "$info"; continue; fi
    echo "$info" | sed 's/^/   /'
    field() { sed -n "s/^$1: //p" <<<"$info"; }
    [[ "$(field Version)" == "$version-"* ]] && ok "$p: version $(field Version) is the project's $version" ||
        bad "$p: version $(field Version), project $version"
    [[ "$(field License)" == Apache-2.0 ]] && ok "$p: license" || bad "$p: license"
    [[ -n "$(field Title)" ]] && ok "$p: title" || bad "$p: no title"
done
info=$(mk stub-info-libopenssl-eip93 2>/dev/null)
deps=$(sed -n 's/^Depends: //p' <<<"$info")
for d in +libopenssl +libopenssl-conf +kmod-crypto-user +kmod-crypto-gcm +kmod-crypto-ghash \
    kmod-crypto-hw-eip93 +kmod-crypto-ghash-arm64-ce; do
    [[ " $deps " == *" $d "* || " $deps " == *":$d "* ]] && ok "libopenssl-eip93 depends on $d" ||
        bad "libopenssl-eip93 lacks the dependency $d"
done
grep -qx 'Conffiles: /etc/ssl/modules.cnf.d/eip93.cnf' <<<"$info" && ok "conffiles: the fragment" ||
    bad "conffiles"
# The NEON GHASH kernel package (ghash-ce.ko, autoloaded).
if kinfo=$(mk stub-info-kmod-crypto-ghash-arm64-ce 2>&1); then ok "kmod-crypto-ghash-arm64-ce: evaluates"; else
    bad "kmod-crypto-ghash-arm64-ce"; echo "$kinfo"; fi
echo "$kinfo" | sed 's/^/   /'
grep -qx 'KConfig: CONFIG_CRYPTO_GHASH_ARM64_CE' <<<"$kinfo" && ok "kmod: KCONFIG CONFIG_CRYPTO_GHASH_ARM64_CE" ||
    bad "kmod: KCONFIG"
grep -qx 'Files: $(LINUX_DIR)/arch/arm64/crypto/ghash-ce.ko' <<<"$kinfo" && ok "kmod: ships arch/arm64/crypto/ghash-ce.ko" ||
    bad "kmod: FILES"
grep -qE '^AutoLoad: [0-9]+:ghash-ce$' <<<"$kinfo" && ok "kmod: autoloads ghash-ce" || bad "kmod: AUTOLOAD"
grep -q '^Depends: @aarch64' <<<"$kinfo" && ok "kmod: aarch64 only" || bad "kmod: not aarch64-only"
for o in -DBUILD_TESTING=OFF -DEIP93_TEST_HOOKS=OFF -DEIP93_MODULESDIR=/usr/lib/ossl-modules; do
    grep -q -- "^CMake: .*$o" <<<"$info" && ok "cmake option $o" || bad "cmake option $o missing"
done

# ---- 2. install recipes -----------------------------------------------------
# What `cmake --install` puts into PKG_INSTALL_DIR with the package's options.
install -D -m0755 "$module" "$tmp/install/usr/lib/ossl-modules/eip93.so"
install -D -m0755 "$doctor" "$tmp/install/usr/bin/eip93-doctor"
for p in libopenssl-eip93 eip93-doctor; do
    if out=$(mk "stub-install-$p" 2>&1); then ok "$p: install recipe runs"; else
        bad "$p: install recipe"; echo "$out"; fi
done
lst() { (cd "$tmp/ipkg/$1" && find . -mindepth 1 \( -type f -printf '%m %p\n' \) -o \( -type d -printf '%m %p/\n' \) | sort -k2); }
want_lib=$'755 ./etc/\n755 ./etc/eip93/\n755 ./etc/ssl/\n755 ./etc/ssl/modules.cnf.d/\n644 ./etc/ssl/modules.cnf.d/eip93.cnf\n755 ./usr/\n755 ./usr/lib/\n755 ./usr/lib/ossl-modules/\n755 ./usr/lib/ossl-modules/eip93.so'
want_doc=$'755 ./etc/\n755 ./etc/init.d/\n755 ./etc/init.d/eip93-calibrate\n755 ./usr/\n755 ./usr/bin/\n755 ./usr/bin/eip93-doctor'
[[ "$(lst libopenssl-eip93)" == "$want_lib" ]] && ok "libopenssl-eip93: files and modes" ||
    { bad "libopenssl-eip93: files"; lst libopenssl-eip93; }
[[ "$(lst eip93-doctor)" == "$want_doc" ]] && ok "eip93-doctor: files and modes" ||
    { bad "eip93-doctor: files"; lst eip93-doctor; }

# ---- 3. postinst / postrm ----------------------------------------------------
root=$tmp/root
mkdir -p "$root/etc/config" "$root/etc/ssl/modules.cnf.d" "$root/var/etc/ssl" "$root/usr/lib/ossl-modules"
cp -a "$tmp/ipkg/libopenssl-eip93/." "$root/"
printf "\nconfig provider 'legacy'\n\toption enabled '0'\n" >"$root/etc/config/openssl"
expect "postinst is valid sh" sh -n "$tmp/ipkg/libopenssl-eip93.postinst"
expect "postrm is valid sh" sh -n "$tmp/ipkg/libopenssl-eip93.postrm"
IPKG_INSTROOT=$root sh "$tmp/ipkg/libopenssl-eip93.postinst" && ok "postinst (offline) exits 0" || bad "postinst"
IPKG_INSTROOT=$root sh "$tmp/ipkg/libopenssl-eip93.postinst" && ok "postinst again exits 0" || bad "postinst again"
n=$(grep -c "^config provider 'eip93'" "$root/etc/config/openssl" || true)
[[ "$n" == 1 ]] && ok "UCI: one config provider 'eip93'" || { bad "UCI has $n eip93 sections"; cat "$root/etc/config/openssl"; }
grep -A1 "^config provider 'eip93'" "$root/etc/config/openssl" | grep -q "option enabled '1'" &&
    ok "UCI: enabled '1'" || bad "UCI: not enabled"
grep -q "^config provider 'legacy'" "$root/etc/config/openssl" && ok "UCI: other sections kept" || bad "UCI: legacy lost"
IPKG_INSTROOT=$root sh "$tmp/ipkg/libopenssl-eip93.postrm" && ok "postrm (offline) exits 0" || bad "postrm"
# eip93-doctor: the calibration's init script and postinst.
init=$tmp/ipkg/eip93-doctor/etc/init.d/eip93-calibrate
expect "init script is valid sh" sh -n "$init"
head -n 1 "$init" | grep -qx '#!/bin/sh /etc/rc.common' && ok "init script: rc.common" || bad "init: shebang"
grep -q 'eip93-doctor calibrate --if-needed --output /etc/eip93/calibration' "$init" &&
    ok "init script: calibrates when missing or stale, into /etc/eip93/calibration" || bad "init: command"
grep -q '^calibration-file = /etc/eip93/calibration$' "$root/etc/ssl/modules.cnf.d/eip93.cnf" &&
    ok "the fragment names the same calibration file" || bad "fragment: calibration-file"
expect "doctor postinst is valid sh" sh -n "$tmp/ipkg/eip93-doctor.postinst"
grep -q '/etc/init.d/eip93-calibrate start' "$tmp/ipkg/eip93-doctor.postinst" &&
    IPKG_INSTROOT=$root sh "$tmp/ipkg/eip93-doctor.postinst" && ok "doctor postinst: starts the calibration (offline: nothing)" ||
    bad "doctor postinst"

# ---- 4. the fragment in a model of OpenWrt's OpenSSL configuration ---------
# providers.cnf from the UCI file, as /etc/init.d/openssl makes it: one
# "name=name" line per enabled `config provider` whose section the
# fragments define.
gen_providers() {
    awk -v q="'" '
        function flush() { if (name != "" && en == 1) print name "=" name; name = "" }
        $1 == "config" { flush(); if ($2 == "provider") { name = $3; gsub(q, "", name); en = 1 } }
        $1 == "option" && $2 == "enabled" { v = $3; gsub(q, "", v); en = (v == "1") }
        END { flush() }' "$root/etc/config/openssl" | while IFS= read -r line; do
        grep -qs "^\[ *${line%%=*} *\]" "$root"/etc/ssl/modules.cnf.d/*.cnf && echo "$line"
    done >"$root/var/etc/ssl/providers.cnf"
}
cat >"$root/etc/ssl/openssl.cnf" <<CNF
# Model of OpenWrt's /etc/ssl/openssl.cnf (OpenSSL 3): the default provider
# activated, UCI-enabled providers, and every modules.cnf.d fragment.
openssl_conf = openssl_init
[openssl_init]
providers = provider_sect
engines = engines_sect
[provider_sect]
default = default_sect
.include $root/var/etc/ssl/providers.cnf
[default_sect]
activate = 1
[engines_sect]
.include $root/etc/ssl/modules.cnf.d
[ req ]
distinguished_name = req_dn
[ req_dn ]
CNF
list() { OPENSSL_CONF=$root/etc/ssl/openssl.cnf OPENSSL_MODULES=$root/usr/lib/ossl-modules \
    "$openssl" list "$@" 2>&1; }
gen_providers
grep -qx 'eip93=eip93' "$root/var/etc/ssl/providers.cnf" && ok "providers.cnf: eip93=eip93" ||
    { bad "providers.cnf"; cat "$root/var/etc/ssl/providers.cnf"; }
if out=$(list -providers -verbose); then ok "openssl list -providers: exit 0"; else bad "openssl list: failed"; fi
echo "$out" | sed 's/^/   /'
grep -q '^  eip93$' <<<"$out" && ok "eip93 loaded from the package's files" || bad "eip93 not listed"
grep -q '^  default$' <<<"$out" && ok "default provider still loaded" || bad "default not listed"
grep -q "version: $version" <<<"$out" && ok "eip93 version $version" || bad "eip93 version"
grep -q 'name: eip93 .*(disabled: device tree' <<<"$out" &&
    ok "its verdict on this host: disabled (no AN7581 device tree)" || bad "eip93 verdict"
enc() { echo test | OPENSSL_CONF=$root/etc/ssl/openssl.cnf OPENSSL_MODULES=$root/usr/lib/ossl-modules \
    "$openssl" enc -aes-128-cbc -pbkdf2 -pass pass:x -out /dev/null 2>/dev/null; }
expect "other algorithms still work (default provider)" enc
# The fragment's [openssl_init] alg_section reaches OpenSSL although
# openssl.cnf opened that section first: with "fips=yes" in its place
# (no FIPS provider here) every fetch must fail.
cp "$root/etc/ssl/modules.cnf.d/eip93.cnf" "$tmp/eip93.cnf.orig"
sed -i 's/^default_properties = ?provider=eip93,?eip93.offload=yes$/default_properties = fips=yes/' \
    "$root/etc/ssl/modules.cnf.d/eip93.cnf"
grep -q '^default_properties = fips=yes$' "$root/etc/ssl/modules.cnf.d/eip93.cnf" &&
    ! enc && ok "the fragment's default_properties are in force" || bad "the fragment's default_properties are ignored"
cp "$tmp/eip93.cnf.orig" "$root/etc/ssl/modules.cnf.d/eip93.cnf"
# UCI enabled '0': not loaded, nothing breaks.
sed -i "/^config provider 'eip93'/,/^\$/ s/option enabled '1'/option enabled '0'/" "$root/etc/config/openssl"
gen_providers
[[ ! -s "$root/var/etc/ssl/providers.cnf" ]] && ok "enabled '0': providers.cnf empty" || bad "providers.cnf not empty"
if out=$(list -providers); then ok "enabled '0': openssl list exit 0"; else bad "enabled '0': openssl list failed"; fi
! grep -q '^  eip93$' <<<"$out" && grep -q '^  default$' <<<"$out" &&
    ok "enabled '0': only the default provider" || { bad "enabled '0'"; echo "$out"; }

echo "openwrt package: $pass passed, $fail failed"
[[ $fail -eq 0 ]]
