#!/bin/bash
# SPDX-License-Identifier: Apache-2.0
#
# check.sh MODULE DOCTOR OPENSSL VERSION HOOKS_MODULE STANZA OFFLOAD_CHECK
#
# Validates packaging/openwrt/eip93-provider for both of its targets
# (airoha: AN7581/EN7581, aarch64; ramips/mt7621: MT7621, mipsel) without an
# OpenWrt SDK, against OpenWrt's own files: the pinned tree
# (EIP93_THIRD_PARTY, default ../shared/third_party beside the checkout or
# /work/shared/third_party; its README.md names the commit, 7bc8aa49 of
# openwrt/openwrt, and the uci/libubox commits) provides
#   include/openssl-module.mk   Package/openssl/add-provider: the package's
#                               install recipe, conffile, postinst, postrm
#   package/libs/openssl/files/openssl.init, package/base-files/files/etc/
#   rc.common, lib/functions.sh, lib/functions/service.sh,
#   package/system/uci/files/lib/config/uci.sh, and the uci command built
#   from uci/ and libubox/ (uci-build.sh, cached in EIP93_OPENWRT_CACHE,
#   default ~/.cache/eip93/openwrt-uci)
#                               run for real, under busybox's ash, in scratch
#                               roots (owrt-root.sh)
#   package/libs/openssl/patches/150-openssl.cnf-add-engines-conf.patch
#                               what /etc/ssl/openssl.cnf says about
#                               providers, engines and modules.cnf.d
# Where the pinned tree, the tools or a way into a scratch root (root, or
# unprivileged user namespaces) are missing, the check fails, saying which.
# Stand-ins remain only for what needs an SDK: stub/rules.mk (install
# macros), stub/cmake.mk, stub/package.mk (BuildPackage: metadata, the
# install recipe into a folder, postinst/postrm into files; the control
# file's Depends by include/package-pack.mk's filter_deps, taken from the
# pinned tree when it has that file).
#
#  1. the Makefile evaluates with GNU make and OpenWrt's openssl-module.mk,
#     its metadata (version, license, the exact dependencies and, per
#     target, the control file's Depends: kmod-crypto-hw-eip93 on airoha
#     and ramips/mt7621 only, libatomic on mipsel; no kernel package of its
#     own; conffiles,
#     release build options);
#  2. its install recipes (add-provider's and the doctor's), run for real,
#     with OpenWrt's modes; the same files for both targets;
#  3. image build and first boot: the real postinst into IPKG_INSTROOT
#     appends the UCI section, then the real /etc/rc.d/S13openssl boot
#     writes eip93=eip93_sect into providers.cnf, with the init script's
#     own messages; a fragment with [eip93] instead of [eip93_sect] and a
#     missing eip93.so are refused as OpenWrt refuses them (controls);
#  4. the result: the host's `openssl list -providers` with the generated
#     configuration loads eip93 from the package's files next to the default
#     provider; its AES-GCM is what the configuration selects (on OpenSSL 4
#     only without patch 150's `engines = engines_sect`, which the doctor
#     names), known answers (test/data/vectors, STANZA: eip93-stanza) come out
#     of it, and messages go through its engine path (OFFLOAD_CHECK:
#     eip93-offload-check and the provider's counters); HOOKS_MODULE, the
#     test-hooks build, stands in for the module there, its gate opened on
#     this host, the user-space fake engine in place of AF_ALG;
#  5. on a running box: install (files, then postinst, which reloads
#     /etc/init.d/openssl), reinstall, disable with uci + reload, an
#     upgrade keeping it disabled, enable again, removal (files, then
#     postrm): /etc/config/openssl, `uci show`, providers.cnf, the init
#     script's messages and `openssl list` after each; then install,
#     upgrade and removal again through the scripts apk runs (OpenWrt's
#     default_postinst / default_prerm wrapped around them);
#  6. the doctor's init script and postinst.
# MODULE and DOCTOR are host builds standing in for the cross-built files.
set -euo pipefail
[[ $# -eq 7 ]] || { echo "usage: $0 MODULE DOCTOR OPENSSL VERSION HOOKS_MODULE STANZA OFFLOAD_CHECK" >&2; exit 2; }
module=$1 doctor=$2 openssl=$3 version=$4 hooks=$5 stanza=$6 offload=$7
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
pkgdir=$(cd "$here/../eip93-provider" && pwd)
src=$(cd "$here/../../.." && pwd)
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
fatal() { bad "$*"; echo "openwrt package: $pass passed, $fail failed (stopped: the rest cannot run)"; exit 1; }
# shellcheck source=owrt-root.sh
. "$here/owrt-root.sh"

# ---- 0. OpenWrt's files, uci, a way into a scratch root ---------------------
tp=${EIP93_THIRD_PARTY:-}
if [[ -z "$tp" ]]; then
    for c in "$src/../shared/third_party" /work/shared/third_party; do
        [[ -f "$c/openwrt/include/openssl-module.mk" ]] && { tp=$(cd "$c" && pwd); break; }
    done
fi
[[ -n "$tp" && -f "$tp/openwrt/include/openssl-module.mk" ]] ||
    fatal "the pinned OpenWrt tree was not found (../shared/third_party beside the checkout, /work/shared/third_party, or EIP93_THIRD_PARTY)"
owrt=$tp/openwrt
echo "   OpenWrt's files: $owrt ($(sed -n 's/.*every file from one commit: \([0-9a-f]\{8\}\).*/openwrt\/openwrt \1/p' "$tp/README.md" | head -n 1))"
cache=${EIP93_OPENWRT_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/eip93/openwrt-uci}
t0=$(date +%s)
if uci=$("$here/uci-build.sh" "$tp" "$cache" 2>"$tmp/uci-build.err"); then
    ok "uci built from the pinned uci and libubox sources ($uci, $(($(date +%s) - t0)) s)"
else
    cat "$tmp/uci-build.err"
    fatal "uci could not be built from $tp/uci and $tp/libubox"
fi
# Not in a subshell: it sets how in_root enters a root.
if owrt_setup "$tp" "$uci" >"$tmp/setup.out" 2>&1; then
    ok "scratch roots entered with: $owrt_enter"
else
    fatal "$(cat "$tmp/setup.out")"
fi

# ---- 1. the Makefile and its metadata --------------------------------------
# `make` runs in a copy (OpenWrt builds in the package directory: ./files/).
# INCLUDE_DIR: the stand-ins, and OpenWrt's own openssl-module.mk.
cp -a "$pkgdir" "$tmp/pkg"
mkdir -p "$tmp/include"
cp "$here/stub/"*.mk "$tmp/include/"
cp "$owrt/include/openssl-module.mk" "$tmp/include/openssl-module.mk"
pack_deps=
if [[ -f "$owrt/include/package-pack.mk" ]]; then
    # filter_deps and mergelist with what they use, as OpenWrt defines them.
    { echo 'comma:=,'; echo 'empty:='; echo 'space:=$(empty) $(empty)'
      sed -n -e '/^PARENL :=/,/^filter_deps=/p' -e '/^_addsep=/,/^mergelist=/p' "$owrt/include/package-pack.mk"
    } >"$tmp/include/package-pack-deps.mk"
    pack_deps=$tmp/include/package-pack-deps.mk
fi
mk() { make --no-print-directory -C "$tmp/pkg" TOPDIR="$tmp/include" INCLUDE_DIR="$tmp/include" \
    PKG_INSTALL_DIR="$tmp/install" STUB_ROOT="$tmp/ipkg" STUB_PACK_DEPS="$pack_deps" "$@"; }
expect "every line of the Makefile's recipes starts with a tab" \
    bash -c "! grep -nP '^ +\\\$\\((INSTALL|CP)' '$pkgdir/Makefile'"
expect "SPDX line" grep -q '^# SPDX-License-Identifier: Apache-2.0$' "$pkgdir/Makefile"
expect "built on OpenWrt's openssl-module.mk: add-provider,eip93" \
    grep -qx '\$(eval \$(call Package/openssl/add-provider,eip93))' "$pkgdir/Makefile"
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
# OpenWrt's add-module announces what it makes, with $(info): the provider
# eip93, in /usr/lib/ossl-modules, for this package.
grep -qx "MOD_TYPE='provider'; MOD_NAME='eip93'; MOD_DIR='/usr/lib/ossl-modules' OSSL_PKG='libopenssl-eip93'" <<<"$info" &&
    ok "OpenWrt's add-module: provider eip93 in /usr/lib/ossl-modules, package libopenssl-eip93" ||
    bad "OpenWrt's add-module did not make the provider eip93 for libopenssl-eip93"
deps=$(sed -n 's/^Depends: //p' <<<"$info")
want_deps="+libopenssl +libopenssl-conf +kmod-crypto-user +kmod-crypto-gcm +TARGET_airoha:kmod-crypto-hw-eip93 +TARGET_ramips_mt7621:kmod-crypto-hw-eip93 +mipsel:libatomic"
[[ "$deps" == "$want_deps" ]] && ok "libopenssl-eip93 depends on exactly: $want_deps" ||
    bad "libopenssl-eip93 depends on: $deps (want $want_deps)"
# The control file's Depends per target (the CONFIG_TARGET_* symbols OpenWrt
# sets for a target/subtarget, and its architecture's).  The driver's
# package exists on exactly airoha and ramips/mt7621 (OpenWrt crypto.mk:
# @(TARGET_ramips_mt7621||TARGET_airoha)): named there, nowhere else;
# libatomic on mipsel (MIPS32: no 8-byte atomics).
base="libopenssl, libopenssl-conf, kmod-crypto-user, kmod-crypto-gcm"
echo "   control Depends computed by: $(sed -n 's/^Control-Depends-From: //p' <<<"$info")"
for t in "airoha/an7581:TARGET_airoha TARGET_airoha_an7581 aarch64:$base, kmod-crypto-hw-eip93" \
    "ramips/mt7621:TARGET_ramips TARGET_ramips_mt7621 mipsel:$base, kmod-crypto-hw-eip93, libatomic" \
    "ramips/mt7620:TARGET_ramips TARGET_ramips_mt7620 mipsel:$base, libatomic" \
    "x86/64:TARGET_x86 TARGET_x86_64 x86_64:$base"; do
    name=${t%%:*} rest=${t#*:}
    syms=${rest%%:*} want=${rest#*:}
    vars=()
    for s in $syms; do vars+=("CONFIG_$s=y"); done
    got=$(mk stub-info-libopenssl-eip93 "${vars[@]}" 2>/dev/null | sed -n 's/^Control-Depends: //p')
    [[ "$got" == "$want" ]] && ok "$name: the package's Depends: $got" ||
        bad "$name: the package's Depends: $got (want $want)"
done
# A feed KernelPackage whose KCONFIG the target's kernel lacks is empty on
# SDK/buildbot images: nothing may depend on one, none is defined.
! grep -q '^\$(eval \$(call KernelPackage' "$pkgdir/Makefile" && [[ "$deps" != *kmod-crypto-ghash-arm64-ce* ]] &&
    ok "no kernel package of its own (kmod-crypto-ghash-arm64-ce is empty on stock images)" ||
    bad "the Makefile still defines or names a kernel package"
# kmod-cryptodev is a documented recommendation (only 7.2+ kernels need
# /dev/crypto), never a dependency: the Makefile and the description say so.
[[ "$deps" != *cryptodev* ]] && grep -q '^# kmod-cryptodev: recommended, not a dependency' "$pkgdir/Makefile" &&
    grep -q 'install kmod-cryptodev' "$pkgdir/Makefile" &&
    ok "kmod-cryptodev: recommended (Makefile comment, description), not a dependency" ||
    bad "kmod-cryptodev: a dependency, or the recommendation is not written down"
grep -qx 'Conffiles: /etc/ssl/modules.cnf.d/eip93.cnf' <<<"$info" && ok "conffiles: the fragment" ||
    bad "conffiles"
for o in -DBUILD_TESTING=OFF -DEIP93_TEST_HOOKS=OFF -DEIP93_MODULESDIR=/usr/lib/ossl-modules; do
    grep -q -- "^CMake: .*$o" <<<"$info" && ok "cmake option $o" || bad "cmake option $o missing"
done

# ---- 2. install recipes -----------------------------------------------------
# What `cmake --install` puts into PKG_INSTALL_DIR with the package's options.
install -D -m0755 "$module" "$tmp/install/usr/lib/ossl-modules/eip93.so"
install -D -m0755 "$doctor" "$tmp/install/usr/bin/eip93-doctor"
lst() { (cd "$tmp/ipkg/$1" && find . -mindepth 1 \( -type f -printf '%m %p\n' \) -o \( -type d -printf '%m %p/\n' \) | sort -k2); }
want_lib=$'755 ./etc/\n755 ./etc/ssl/\n755 ./etc/ssl/modules.cnf.d/\n644 ./etc/ssl/modules.cnf.d/eip93.cnf\n755 ./usr/\n755 ./usr/lib/\n755 ./usr/lib/ossl-modules/\n755 ./usr/lib/ossl-modules/eip93.so'
want_doc=$'755 ./etc/\n755 ./etc/eip93/\n755 ./etc/init.d/\n755 ./etc/init.d/eip93-calibrate\n755 ./usr/\n755 ./usr/bin/\n755 ./usr/bin/eip93-doctor'
# Per target (the recipes do not depend on it; the .so is the target's own
# cross build): the same files, modes, postinst and postrm.
for t in airoha ramips_mt7621; do
    for p in libopenssl-eip93 eip93-doctor; do
        if out=$(mk "stub-install-$p" "CONFIG_TARGET_${t%%_*}=y" "CONFIG_TARGET_$t=y" 2>&1); then
            ok "$t: $p: install recipe runs"; else bad "$t: $p: install recipe"; echo "$out"; fi
    done
    [[ "$(lst libopenssl-eip93)" == "$want_lib" ]] && ok "$t: libopenssl-eip93: files and modes" ||
        { bad "$t: libopenssl-eip93: files"; lst libopenssl-eip93; }
    [[ "$(lst eip93-doctor)" == "$want_doc" ]] && ok "$t: eip93-doctor: files and modes" ||
        { bad "$t: eip93-doctor: files"; lst eip93-doctor; }
    for s in postinst postrm; do cp "$tmp/ipkg/libopenssl-eip93.$s" "$tmp/$t.$s"; done
done
cmp -s "$tmp/airoha.postinst" "$tmp/ramips_mt7621.postinst" && cmp -s "$tmp/airoha.postrm" "$tmp/ramips_mt7621.postrm" &&
    ok "postinst and postrm: the same for both targets" || bad "postinst/postrm differ between the targets"
echo "   MT7621 (ramips/mt7621) libopenssl-eip93 installs:"
lst libopenssl-eip93 | sed 's/^/     /'
frag=$tmp/ipkg/libopenssl-eip93/etc/ssl/modules.cnf.d/eip93.cnf
# modules.cnf.d is included inside [engines_sect]: the first key must follow
# a section header of the fragment's own.
first=$(grep -m 1 -v -e '^[[:space:]]*#' -e '^[[:space:]]*$' "$frag")
[[ "$first" == '[eip93_sect]' ]] && ok "the fragment opens its own section [eip93_sect] before any key" ||
    bad "the fragment's first line is $first"
postinst=$tmp/ipkg/libopenssl-eip93.postinst postrm=$tmp/ipkg/libopenssl-eip93.postrm
expect "postinst is valid sh" sh -n "$postinst"
expect "postrm is valid sh" sh -n "$postrm"
# They are add-provider's, as OpenWrt's own four-line driver (the pinned
# tree's README, step 3) writes them for libopenssl-eip93.
cat >"$tmp/driver.mk" <<'EOF'
include $(OPENWRT)/include/openssl-module.mk
$(eval $(call Package/openssl/add-provider,eip93))
export POSTINST=$(Package/libopenssl-eip93/postinst)
export POSTRM=$(Package/libopenssl-eip93/postrm)
all: ; @printf '%s\n' "$$POSTINST" >$(OUT).postinst; printf '%s\n' "$$POSTRM" >$(OUT).postrm
EOF
make -s -f "$tmp/driver.mk" OPENWRT="$owrt" OUT="$tmp/driver" >/dev/null
cmp -s "$postinst" "$tmp/driver.postinst" && cmp -s "$postrm" "$tmp/driver.postrm" &&
    ok "postinst and postrm are OpenWrt's add-provider scripts for libopenssl-eip93, unchanged" ||
    { bad "postinst/postrm differ from add-provider's"; diff "$tmp/driver.postinst" "$postinst" || true; }

# ---- 3. image build and first boot ------------------------------------------
# inst ROOT: the two packages' files into ROOT (what apk/opkg unpack).
inst() { cp -a "$tmp/ipkg/libopenssl-eip93/." "$tmp/ipkg/eip93-doctor/." "$1/"; }
hdr='# This file is automatically generated from /etc/config/openssl.'
uci_sect=$'\nconfig provider \'eip93\'\n\toption enabled \'1\''
root=$tmp/root
owrt_root "$root"
inst "$root"
: >"$tmp/uci.before"
IPKG_INSTROOT=$root sh "$postinst" && ok "image: postinst (IPKG_INSTROOT set) exits 0" || bad "image: postinst"
[[ "$(cat "$root/etc/config/openssl")" == "$uci_sect" ]] &&
    ok "image: /etc/config/openssl is exactly: config provider 'eip93' / option enabled '1'" ||
    { bad "image: /etc/config/openssl"; cat -A "$root/etc/config/openssl"; }
out=$(in_root "$root" uci show openssl 2>&1) || true
[[ "$out" == $'openssl.eip93=provider\nopenssl.eip93.enabled=\'1\'' ]] &&
    ok "image: uci show openssl: openssl.eip93=provider, enabled='1'" || { bad "image: uci show openssl"; echo "$out"; }
cp "$root/etc/config/openssl" "$tmp/uci.img"
IPKG_INSTROOT=$root sh "$postrm" && cmp -s "$root/etc/config/openssl" "$tmp/uci.img" &&
    ok "image: postrm (IPKG_INSTROOT set) exits 0 and changes nothing" || bad "image: postrm"
# libopenssl-conf's postinst enables the init script into the image (rc.common
# enable); first boot runs /etc/rc.d/S13openssl boot.
out=$(in_root "$root" /etc/init.d/openssl enable 2>&1) && [[ "$(readlink "$root/etc/rc.d/S13openssl")" == ../init.d/openssl ]] &&
    ok "image: /etc/init.d/openssl enable -> /etc/rc.d/S13openssl" || { bad "image: enable"; echo "$out"; }
rc=0
out=$(in_root "$root" /etc/rc.d/S13openssl boot 2>&1) || rc=$?
echo "$out" | sed 's/^/   boot: /'
[[ $rc -eq 0 && "$out" == $'Generating engines.cnf\nGenerating providers.cnf\nEnabling eip93' ]] &&
    ok "first boot: S13openssl boot says Generating engines.cnf, Generating providers.cnf, Enabling eip93 (exit 0)" ||
    bad "first boot: exit $rc"
[[ "$(cat "$root/var/etc/ssl/providers.cnf")" == "$hdr"$'\neip93=eip93_sect' ]] &&
    ok "first boot: /var/etc/ssl/providers.cnf is the header and eip93=eip93_sect" ||
    { bad "providers.cnf"; cat "$root/var/etc/ssl/providers.cnf"; }
[[ "$(cat "$root/var/etc/ssl/engines.cnf")" == "$hdr" ]] && ok "first boot: engines.cnf has no engine" ||
    bad "engines.cnf"
echo "   MT7621 libopenssl-eip93 enables: /etc/config/openssl:"
sed 's/^/     /' "$root/etc/config/openssl"
echo "   /var/etc/ssl/providers.cnf:"
sed 's/^/     /' "$root/var/etc/ssl/providers.cnf"
# Controls: the 0.1.0 fragment ([eip93]) and a missing module, each as
# OpenWrt refuses them: its message, exit 1, no eip93 line.
for c in section so; do
    r=$tmp/ctl-$c
    owrt_root "$r"
    inst "$r"
    IPKG_INSTROOT=$r sh "$postinst"
    case $c in
        section) sed -i 's/^\[eip93_sect\]$/[eip93]/' "$r/etc/ssl/modules.cnf.d/eip93.cnf"
                 msg='eip93: Could not find section [eip93] in config files.' ;;
        so) rm "$r/usr/lib/ossl-modules/eip93.so"
            msg='Skipping eip93: /usr/lib/ossl-modules/eip93.so not found.' ;;
    esac
    rc=0
    out=$(in_root "$r" /etc/init.d/openssl start 2>&1) || rc=$?
    [[ $rc -eq 1 && "$out" == $'Generating engines.cnf\nGenerating providers.cnf\n'"$msg" ]] &&
        ! grep -q eip93 "$r/var/etc/ssl/providers.cnf" &&
        ok "control ($c): refused with \"$msg\", exit 1, no eip93 line" ||
        { bad "control ($c): exit $rc"; echo "$out"; }
done

# ---- 4. the generated configuration, on this host's OpenSSL ----------------
# The host's openssl reads ROOT.host.cnf: ROOT's openssl.cnf with its
# .include paths moved into ROOT.
owrt_host_cnf "$root"
osl() { # ROOT MODULES_DIR ARGS...
    local r=$1 m=$2
    shift 2
    OPENSSL_CONF=$r.host.cnf OPENSSL_MODULES=$m "$openssl" "$@" 2>&1
}
if out=$(osl "$root" "$root/usr/lib/ossl-modules" list -providers -verbose); then
    ok "openssl list -providers: exit 0"; else bad "openssl list: failed"; fi
echo "$out" | sed 's/^/   /'
grep -q '^  eip93$' <<<"$out" && ok "eip93 loaded from the package's files" || bad "eip93 not listed"
grep -q '^  default$' <<<"$out" && ok "default provider still loaded" || bad "default not listed"
grep -q "version: $version" <<<"$out" && ok "eip93 version $version" || bad "eip93 version"
grep -q 'name: eip93 .*(disabled: device tree' <<<"$out" &&
    ok "its verdict on this host: disabled (no EIP93 SoC's device tree)" || bad "eip93 verdict"
enc() { echo test | osl "$1" "$1/usr/lib/ossl-modules" enc -aes-128-cbc -pbkdf2 -pass pass:x -out /dev/null >/dev/null; }
expect "other algorithms still work (default provider)" enc "$root"
# The fragment's [openssl_init] alg_section reaches OpenSSL although
# openssl.cnf opened that section first: with "fips=yes" in its place
# (no FIPS provider here) every fetch must fail.
cp "$root/etc/ssl/modules.cnf.d/eip93.cnf" "$tmp/eip93.cnf.orig"
sed -i 's/^default_properties = ?provider=eip93,?eip93.offload=yes$/default_properties = fips=yes/' \
    "$root/etc/ssl/modules.cnf.d/eip93.cnf"
grep -q '^default_properties = fips=yes$' "$root/etc/ssl/modules.cnf.d/eip93.cnf" ||
    bad "the fips=yes stand-in was not written"
if [[ "$("$openssl" version)" == "OpenSSL 3."* ]]; then
    ! enc "$root" && ok "the fragment's default_properties are in force" ||
        bad "the fragment's default_properties are ignored"
else
    # OpenSSL 4.0 has no "engines" module: [openssl_init] is applied line by
    # line and stops at patch 150's "engines = engines_sect", before the
    # alg_section the fragment appends (crypto/conf/conf_mod.c, 4.0.2).  An
    # OpenWrt on 4.0 must drop that line (docs/operations.md).
    enc "$root" && ok "OpenSSL 4: openssl.cnf's 'engines = engines_sect' ends [openssl_init]: the fragment's default_properties are not reached" ||
        bad "OpenSSL 4: the fragment's default_properties are reached past 'engines = engines_sect'"
    # The doctor says so (the test-hooks build, its gate open, the real fragment).
    doc() {
        OPENSSL_CONF=$root.host.cnf OPENSSL_MODULES=$(cd "$(dirname "$hooks")" && pwd) \
            EIP93_TEST_DT_PATH=$src/test/data/dt-an7581.bin EIP93_TEST_HWCAP=0 \
            EIP93_TEST_ENGINE=fake "$doctor" 2>&1 || true
    }
    cp "$tmp/eip93.cnf.orig" "$root/etc/ssl/modules.cnf.d/eip93.cnf"
    out=$(doc)
    grep -q 'AES-128-GCM without a query comes from default' <<<"$out" &&
        grep -q 'on OpenSSL 4 a line naming engines there' <<<"$out" &&
        ok "OpenSSL 4: the doctor names the engines line" ||
        { bad "OpenSSL 4: the doctor does not name the engines line"; grep -i -A1 preferred <<<"$out"; }
    # From here on the file is as an OpenWrt on OpenSSL 4 must have it: the
    # rest of this test (and of section 4) runs without the engines line.
    sed -i '/^engines = engines_sect$/d' "$root.host.cnf"
    out=$(doc)
    grep -q 'AES-128-GCM without a query comes from eip93' <<<"$out" &&
        ! grep -q 'a line naming engines' <<<"$out" &&
        ok "OpenSSL 4: without it, the doctor finds eip93 preferred" ||
        { bad "OpenSSL 4: the doctor without the engines line"; grep -i -A1 preferred <<<"$out"; }
    sed -i 's/^default_properties = ?provider=eip93,?eip93.offload=yes$/default_properties = fips=yes/' \
        "$root/etc/ssl/modules.cnf.d/eip93.cnf"
    ! enc "$root" && ok "OpenSSL 4: without the engines line, the fragment's default_properties are in force" ||
        bad "OpenSSL 4: the fragment's default_properties are ignored even without the engines line"
fi
cp "$tmp/eip93.cnf.orig" "$root/etc/ssl/modules.cnf.d/eip93.cnf"
# The engine path on this host: the test-hooks build in place of the
# package's module (its gate opened by the test hooks, the fake engine), the
# same generated configuration.
hooksdir=$(cd "$(dirname "$hooks")" && pwd)
export EIP93_TEST_DT_PATH=$src/test/data/dt-an7581.bin EIP93_TEST_HWCAP=0 EIP93_TEST_ENGINE=fake
out=$(osl "$root" "$hooksdir" list -cipher-algorithms) || true
grep -qi '^  *{[^}]*AES-128-GCM[^}]*} @ eip93$' <<<"$out" &&
    ok "with the gate open, AES-128-GCM comes from eip93 (the fragment's properties)" ||
    { bad "AES-128-GCM not from eip93"; grep -i gcm <<<"$out"; }
xz -dc "$src/test/data/vectors/gcm-large-engine.txt.xz" | awk 'NR == 1 || /^$/ { n++ } n <= 4' >"$tmp/kat.txt"
if out=$(OPENSSL_CONF=$root.host.cnf OPENSSL_MODULES=$hooksdir "$stanza" "$tmp/kat.txt" 2>&1); then
    ok "known-answer AES-GCM through eip93 with the generated configuration"; else
    bad "known-answer AES-GCM through eip93"; fi
echo "$out" | sed 's/^/   /'
grep -Eq '^eip93-stanza: [1-9][0-9]* cases, 0 failed;' <<<"$out" && ok "every known answer right" ||
    bad "eip93-stanza: no case or a failed one"
# That eip93 is the one the generated configuration loaded, with the
# fragment's section: "enable = no" there leaves eip93-stanza no AES-GCM.
sed -i 's/^# enable = yes .*/enable = no/' "$root/etc/ssl/modules.cnf.d/eip93.cnf"
if grep -qx 'enable = no' "$root/etc/ssl/modules.cnf.d/eip93.cnf" &&
    ! OPENSSL_CONF=$root.host.cnf OPENSSL_MODULES=$hooksdir "$stanza" "$tmp/kat.txt" >/dev/null 2>&1; then
    ok "control: with enable = no in the fragment the same run finds no eip93 AES-GCM"
else bad "control: eip93-stanza ignores the fragment"; fi
cp "$tmp/eip93.cnf.orig" "$root/etc/ssl/modules.cnf.d/eip93.cnf"
# The same configuration and module: one 16 KiB message each way, eip93
# against the default provider, must be carried by the (fake) engine.
if out=$(OPENSSL_CONF=$root.host.cnf OPENSSL_MODULES=$hooksdir "$offload" 16384 2>&1); then
    ok "eip93-offload-check: eip93 and default agree, corrupted tag refused"; else
    bad "eip93-offload-check"; fi
echo "$out" | sed 's/^/   /'
grep -Eq '^eip93 counters: engine-messages \+[1-9][0-9]*, .*engine-errors \+0$' <<<"$out" &&
    ok "the messages went through the engine path, no engine error" || bad "no engine message"
unset EIP93_TEST_DT_PATH EIP93_TEST_HWCAP EIP93_TEST_ENGINE

# ---- 5. on a running box: install, reinstall, disable, upgrade, removal -----
# The scripts run inside the root as the box runs them (IPKG_INSTROOT unset),
# the package's files unpacked first; removal deletes them before postrm.
box=$tmp/box
owrt_root "$box"
owrt_host_cnf "$box"
[[ "$("$openssl" version)" == "OpenSSL 3."* ]] || sed -i '/^engines = engines_sect$/d' "$box.host.cnf"
in_root "$box" /etc/init.d/openssl enable
out=$(in_root "$box" /etc/rc.d/S13openssl boot 2>&1) || true
[[ "$out" == $'Generating engines.cnf\nGenerating providers.cnf' && "$(cat "$box/var/etc/ssl/providers.cnf")" == "$hdr" ]] &&
    ok "box before the package: boot generates a providers.cnf with no provider" || { bad "box: boot"; echo "$out"; }
cp "$postinst" "$box/tmp/postinst"
cp "$postrm" "$box/tmp/postrm"
prov() { cat "$box/var/etc/ssl/providers.cnf"; }
# Captured, not piped into grep -q (its early exit can fail a pipefail pipeline).
listed() { grep -q '^  eip93$' <<<"$(osl "$box" "$box/usr/lib/ossl-modules" list -providers)"; }
deflt() { grep -q '^  default$' <<<"$(osl "$box" "$box/usr/lib/ossl-modules" list -providers)"; }
inst "$box"
rc=0
out=$(in_root "$box" /bin/sh /tmp/postinst 2>&1) || rc=$?
echo "$out" | sed 's/^/   postinst: /'
[[ $rc -eq 0 && "$out" == $'Generating engines.cnf\nGenerating providers.cnf\nEnabling eip93' ]] &&
    ok "box install: postinst reloads /etc/init.d/openssl: Enabling eip93 (exit 0)" || bad "box install: postinst exit $rc"
[[ "$(cat "$box/etc/config/openssl")" == "$uci_sect" ]] &&
    ok "box install: /etc/config/openssl is exactly: config provider 'eip93' / option enabled '1'" ||
    { bad "box install: /etc/config/openssl"; cat -A "$box/etc/config/openssl"; }
[[ "$(prov)" == "$hdr"$'\neip93=eip93_sect' ]] && listed && deflt &&
    ok "box install: providers.cnf has eip93=eip93_sect; openssl list: eip93 and default" ||
    { bad "box install: providers.cnf or openssl list"; prov; }
# Reinstall (same version, or an upgrade: apk/opkg unpack, then postinst).
inst "$box"
rc=0
out=$(in_root "$box" /bin/sh /tmp/postinst 2>&1) || rc=$?
[[ $rc -eq 0 && -z "$out" && "$(cat "$box/etc/config/openssl")" == "$uci_sect" ]] &&
    ok "box reinstall: postinst finds openssl.eip93 and stops: one section, no reload" ||
    { bad "box reinstall: exit $rc"; echo "$out"; cat "$box/etc/config/openssl"; }
[[ "$(grep -c '^eip93=' "$box/var/etc/ssl/providers.cnf")" == 1 ]] && ok "box reinstall: one eip93 line in providers.cnf" ||
    bad "box reinstall: providers.cnf"
# Disable, as docs/operations.md says.
rc=0
out=$(in_root "$box" /bin/sh -c 'uci set openssl.eip93.enabled=0 && uci commit openssl && /etc/init.d/openssl reload' 2>&1) || rc=$?
echo "$out" | sed 's/^/   disable: /'
# enable_module returns 1 for a disabled provider, and start returns what
# config_foreach last returned: the real script's reload exits 1 here.
[[ $rc -eq 1 && "$out" == $'Generating engines.cnf\nGenerating providers.cnf' ]] &&
    ok "box disable: uci set enabled=0, commit, reload: no 'Enabling eip93' (the script's exit 1 for a disabled provider)" ||
    bad "box disable: exit $rc"
[[ "$(in_root "$box" uci -q get openssl.eip93.enabled)" == 0 ]] && [[ "$(prov)" == "$hdr" ]] && ! listed && deflt &&
    ok "box disable: enabled='0' in UCI, providers.cnf without eip93, openssl list: default only" ||
    { bad "box disable: state"; prov; }
# An upgrade keeps the operator's choice.
inst "$box"
out=$(in_root "$box" /bin/sh /tmp/postinst 2>&1) || true
[[ "$(in_root "$box" uci -q get openssl.eip93.enabled)" == 0 && -z "$out" ]] && [[ "$(prov)" == "$hdr" ]] &&
    ok "box upgrade while disabled: postinst keeps enabled='0', eip93 stays off" || bad "box upgrade: enabled '0' lost"
rc=0
out=$(in_root "$box" /bin/sh -c 'uci set openssl.eip93.enabled=1 && uci commit openssl && /etc/init.d/openssl reload' 2>&1) || rc=$?
[[ $rc -eq 0 && "$out" == $'Generating engines.cnf\nGenerating providers.cnf\nEnabling eip93' ]] &&
    [[ "$(prov)" == "$hdr"$'\neip93=eip93_sect' ]] && listed &&
    ok "box enable again: Enabling eip93, eip93=eip93_sect, listed" || { bad "box enable again"; echo "$out"; }
# Removal: the package's files go first, then postrm.
rm -f "$box/usr/lib/ossl-modules/eip93.so" "$box/etc/ssl/modules.cnf.d/eip93.cnf"
rc=0
out=$(in_root "$box" /bin/sh /tmp/postrm 2>&1) || rc=$?
echo "$out" | sed 's/^/   postrm: /'
[[ $rc -eq 0 && "$out" == $'Generating engines.cnf\nGenerating providers.cnf' ]] &&
    ok "box remove: postrm deletes the section and reloads (exit 0)" || bad "box remove: postrm exit $rc"
rc=0
in_root "$box" uci -q get openssl.eip93 >/dev/null 2>&1 || rc=$?
[[ $rc -ne 0 ]] && ! grep -q eip93 "$box/etc/config/openssl" && [[ -z "$(in_root "$box" uci show openssl 2>&1)" ]] &&
    ok "box remove: no openssl.eip93 in UCI, /etc/config/openssl without eip93" ||
    { bad "box remove: UCI section left"; cat "$box/etc/config/openssl"; }
if [[ "$(prov)" == "$hdr" ]] && out=$(osl "$box" "$box/usr/lib/ossl-modules" list -providers) &&
    grep -q '^  default$' <<<"$out" && ! grep -q eip93 <<<"$out"; then
    ok "box remove: providers.cnf has no eip93, openssl works with the default provider"
else bad "box remove: after removal"; echo "$out"; fi

# ---- 5b. the same through apk's scripts --------------------------------------
# apk never runs the postinst alone: OpenWrt's include/package-pack.mk (read
# at openwrt/openwrt 7fbdb3b7e031; not in the pinned tree, so its few lines
# are restated here) makes the package's post-install of /lib/functions.sh's
# default_postinst followed by the postinst's body in the same shell,
# post-upgrade of the same after `export PKG_UPGRADE=1`, pre-deinstall of
# default_prerm, and keeps the postrm as post-deinstall; the package's file
# list is /lib/apk/packages/libopenssl-eip93.list.  default_postinst and
# default_prerm are OpenWrt's own (functions.sh, pinned).
apk_box=$tmp/apkbox
owrt_root "$apk_box"
owrt_host_cnf "$apk_box"
[[ "$("$openssl" version)" == "OpenSSL 3."* ]] || sed -i '/^engines = engines_sect$/d' "$apk_box.host.cnf"
in_root "$apk_box" /etc/init.d/openssl start >/dev/null 2>&1 || true
{
    echo '#!/bin/sh'
    echo '[ "${IPKG_NO_SCRIPT}" = "1" ] && exit 0'
    echo '[ -s ${IPKG_INSTROOT}/lib/functions.sh ] || exit 0'
    echo '. ${IPKG_INSTROOT}/lib/functions.sh'
    echo 'export root="${IPKG_INSTROOT}"'
    echo 'export pkgname="libopenssl-eip93"'
    echo 'add_group_and_user'
    echo 'default_postinst'
    cat "$postinst"                        # its own #! line stays, a comment here
} >"$apk_box/tmp/post-install"
{ echo '#!/bin/sh'; echo 'export PKG_UPGRADE=1'; cat "$apk_box/tmp/post-install"; } >"$apk_box/tmp/post-upgrade"
{
    echo '#!/bin/sh'
    echo '[ -s ${IPKG_INSTROOT}/lib/functions.sh ] || exit 0'
    echo '. ${IPKG_INSTROOT}/lib/functions.sh'
    echo 'export root="${IPKG_INSTROOT}"'
    echo 'export pkgname="libopenssl-eip93"'
    echo 'default_prerm'
} >"$apk_box/tmp/pre-deinstall"
cp "$postrm" "$apk_box/tmp/post-deinstall"
aprov() { cat "$apk_box/var/etc/ssl/providers.cnf"; }
alisted() { grep -q '^  eip93$' <<<"$(osl "$apk_box" "$apk_box/usr/lib/ossl-modules" list -providers)"; }
cp -a "$tmp/ipkg/libopenssl-eip93/." "$apk_box/"
mkdir -p "$apk_box/lib/apk/packages"
(cd "$tmp/ipkg/libopenssl-eip93" && find . -type f,l -printf '/%P\n') >"$apk_box/lib/apk/packages/libopenssl-eip93.list"
rc=0
out=$(in_root "$apk_box" /bin/sh /tmp/post-install 2>&1) || rc=$?
[[ $rc -eq 0 && "$out" == $'Generating engines.cnf\nGenerating providers.cnf\nEnabling eip93' ]] &&
    [[ "$(cat "$apk_box/etc/config/openssl")" == "$uci_sect" && "$(aprov)" == "$hdr"$'\neip93=eip93_sect' ]] && alisted &&
    ok "apk add: default_postinst, then the postinst: the section, Enabling eip93, eip93=eip93_sect, listed" ||
    { bad "apk add: exit $rc"; echo "$out"; }
rc=0
out=$(in_root "$apk_box" /bin/sh /tmp/post-upgrade 2>&1) || rc=$?
[[ $rc -eq 0 && -z "$out" && "$(cat "$apk_box/etc/config/openssl")" == "$uci_sect" ]] &&
    [[ "$(aprov)" == "$hdr"$'\neip93=eip93_sect' ]] &&
    ok "apk upgrade: post-upgrade is silent, one section, eip93 still enabled" || { bad "apk upgrade: exit $rc"; echo "$out"; }
rc=0
out=$(in_root "$apk_box" /bin/sh /tmp/pre-deinstall 2>&1) || rc=$?
[[ $rc -eq 0 && -z "$out" ]] && ok "apk del: pre-deinstall (default_prerm: no init script in this package) exits 0, silent" ||
    { bad "apk del: pre-deinstall exit $rc"; echo "$out"; }
while read -r f; do rm -f "$apk_box$f"; done <"$apk_box/lib/apk/packages/libopenssl-eip93.list"
rm -f "$apk_box/lib/apk/packages/libopenssl-eip93.list"
rc=0
out=$(in_root "$apk_box" /bin/sh /tmp/post-deinstall 2>&1) || rc=$?
[[ $rc -eq 0 && "$out" == $'Generating engines.cnf\nGenerating providers.cnf' ]] &&
    ! grep -q eip93 "$apk_box/etc/config/openssl" && [[ "$(aprov)" == "$hdr" ]] && ! alisted &&
    ok "apk del: post-deinstall: no section, no eip93 line, not listed" || { bad "apk del: exit $rc"; echo "$out"; }

# ---- 6. eip93-doctor: the calibration's init script and postinst -----------
init=$tmp/ipkg/eip93-doctor/etc/init.d/eip93-calibrate
expect "init script is valid sh" sh -n "$init"
[[ $(head -n 1 "$init") == '#!/bin/sh /etc/rc.common' ]] && ok "init script: rc.common" || bad "init: shebang"
grep -q 'eip93-doctor calibrate --if-needed --output /etc/eip93/calibration' "$init" &&
    ok "init script: calibrates when missing or stale, into /etc/eip93/calibration" || bad "init: command"
grep -q '^calibration-file = /etc/eip93/calibration$' "$frag" &&
    ok "the fragment names the same calibration file" || bad "fragment: calibration-file"
expect "doctor postinst is valid sh" sh -n "$tmp/ipkg/eip93-doctor.postinst"
grep -q '/etc/init.d/eip93-calibrate start' "$tmp/ipkg/eip93-doctor.postinst" &&
    IPKG_INSTROOT=$root sh "$tmp/ipkg/eip93-doctor.postinst" && ok "doctor postinst: starts the calibration (image build: nothing)" ||
    bad "doctor postinst"

echo "openwrt package: $pass passed, $fail failed"
[[ $fail -eq 0 ]]
