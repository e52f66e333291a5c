#!/bin/bash
# SPDX-License-Identifier: Apache-2.0
#
# check.sh MODULE DOCTOR OPENSSL VERSION HOOKS_MODULE STANZA OFFLOAD_CHECK
#
# Validates packaging/openwrt/eip93-provider without an OpenWrt SDK, against
# models of OpenWrt's own scripts (model/, stub/), written in this project's
# words from the upstream files at
OWRT_REV=e3c5e563f5d52267e482d543274e89e630525afc # github.com/openwrt/openwrt
# (the OpenSSL 3 openssl.init: MODULES_DIR=/usr/lib/ossl-modules,
# PROVIDERS_CNF=/var/etc/ssl/providers.cnf), which are:
#   package/libs/openssl/files/openssl.init      -> model/openssl.init
#       start/reload, write_cnf_header, enable_module (enabled/force/builtin,
#       the "[NAME_sect]" grep over /etc/ssl/*.cnf.d/*, the .so test),
#       config_provider -> providers.cnf "NAME=NAME_sect"
#   /lib/functions.sh (config_load, config_foreach, config_get_bool) and the
#       uci command (-q get, -q delete, commit)  -> model/uci-lib.sh, model/uci
#   include/openssl-module.mk (Package/openssl/add-provider: conffiles,
#       install, postinst, postrm)              -> stub/openssl-module.mk
#       (read at ab86e8a85a0e595ceceb07c74b00fe0e2b7507fe, the version at
#       hand; OWRT_REV's package/libs/openssl/Makefile calls it the same way
#       for libopenssl-legacy)
#   package/libs/openssl/patches/150-openssl.cnf-add-engines-conf.patch
#       (providers.cnf inside [provider_sect]; engines.cnf, engines.cnf.d and
#       modules.cnf.d inside [engines_sect])    -> owrt_openssl_cnf below
#   package/libs/openssl/Makefile, Package/libopenssl-conf/install
#       (/etc/ssl/modules.cnf.d, an empty /etc/config/openssl, the init
#       script)                                  -> owrt_root below
# A change upstream is one diff of those files between OWRT_REV and the new
# revision, to be carried into these models.  Nothing is downloaded here.
#
#  1. the Makefile evaluates with GNU make against the stand-in includes, its
#     metadata (version, license, the minimal dependencies, no kernel package
#     of its own, conffiles, release build options);
#  2. its install recipes (OpenWrt's add-provider and the doctor's), run for
#     real, with OpenWrt's modes;
#  3. image build and first boot: postinst into IPKG_INSTROOT, then the
#     openssl init script's start: "Enabling eip93", eip93=eip93_sect in
#     providers.cnf; the same with the 0.1.0 fragment (section [eip93]) must
#     fail as OpenWrt fails it (the negative control);
#  4. the result: the host's `openssl list -providers` with the generated
#     configuration loads eip93 from the package's files next to the default
#     provider; its AES-GCM is what the configuration selects, and known
#     answers (test/data/vectors, STANZA: eip93-stanza) come out of it, and
#     messages go through its engine path (OFFLOAD_CHECK: eip93-offload-check
#     and the provider's counters); HOOKS_MODULE, the test-hooks build, stands
#     in for the module there, its gate opened on this host, the user-space
#     fake engine in place of AF_ALG;
#  5. on a running box: postinst (uci, reload), reinstall, enabled '0',
#     removal (postrm): UCI, providers.cnf and `openssl list` after each;
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
echo "   OpenWrt model: openwrt/openwrt $OWRT_REV"

# ---- 1. the Makefile and its metadata --------------------------------------
# `make` runs in a copy (OpenWrt builds in the package directory: ./files/).
cp -a "$pkgdir" "$tmp/pkg"
mk() { make --no-print-directory -C "$tmp/pkg" TOPDIR="$here/stub" INCLUDE_DIR="$here/stub" \
    PKG_INSTALL_DIR="$tmp/install" STUB_ROOT="$tmp/ipkg" "$@"; }
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
deps=$(sed -n 's/^Depends: //p' <<<"$info")
want_deps="+libopenssl +libopenssl-conf +kmod-crypto-user +kmod-crypto-gcm +TARGET_airoha:kmod-crypto-hw-eip93"
[[ "$deps" == "$want_deps" ]] && ok "libopenssl-eip93 depends on exactly: $want_deps" ||
    bad "libopenssl-eip93 depends on: $deps (want $want_deps)"
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
for p in libopenssl-eip93 eip93-doctor; do
    if out=$(mk "stub-install-$p" 2>&1); then ok "$p: install recipe runs"; else
        bad "$p: install recipe"; echo "$out"; fi
done
lst() { (cd "$tmp/ipkg/$1" && find . -mindepth 1 \( -type f -printf '%m %p\n' \) -o \( -type d -printf '%m %p/\n' \) | sort -k2); }
want_lib=$'755 ./etc/\n755 ./etc/ssl/\n755 ./etc/ssl/modules.cnf.d/\n644 ./etc/ssl/modules.cnf.d/eip93.cnf\n755 ./usr/\n755 ./usr/lib/\n755 ./usr/lib/ossl-modules/\n755 ./usr/lib/ossl-modules/eip93.so'
want_doc=$'755 ./etc/\n755 ./etc/eip93/\n755 ./etc/init.d/\n755 ./etc/init.d/eip93-calibrate\n755 ./usr/\n755 ./usr/bin/\n755 ./usr/bin/eip93-doctor'
[[ "$(lst libopenssl-eip93)" == "$want_lib" ]] && ok "libopenssl-eip93: files and modes" ||
    { bad "libopenssl-eip93: files"; lst libopenssl-eip93; }
[[ "$(lst eip93-doctor)" == "$want_doc" ]] && ok "eip93-doctor: files and modes" ||
    { bad "eip93-doctor: files"; lst eip93-doctor; }
frag=$tmp/ipkg/libopenssl-eip93/etc/ssl/modules.cnf.d/eip93.cnf
# modules.cnf.d is included inside [engines_sect]: the first key must follow
# a section header of the fragment's own.
first=$(grep -v -e '^[[:space:]]*#' -e '^[[:space:]]*$' "$frag" | head -n 1)
[[ "$first" == '[eip93_sect]' ]] && ok "the fragment opens its own section [eip93_sect] before any key" ||
    bad "the fragment's first line is $first"

# ---- 3. image build and first boot ------------------------------------------
# owrt_openssl_cnf ROOT: /etc/ssl/openssl.cnf as libopenssl-conf installs it
# (OpenSSL 3's file with patch 150 applied; only the lines that matter).
owrt_openssl_cnf() {
    cat >"$1/etc/ssl/openssl.cnf" <<CNF
openssl_conf = openssl_init
[openssl_init]
providers = provider_sect
engines = engines_sect
[provider_sect]
default = default_sect
.include $1/var/etc/ssl/providers.cnf
[default_sect]
activate = 1
[engines_sect]
.include $1/var/etc/ssl/engines.cnf
.include $1/etc/ssl/engines.cnf.d
.include $1/etc/ssl/modules.cnf.d
[ req ]
distinguished_name = req_dn
[ req_dn ]
CNF
}
# owrt_root ROOT: libopenssl-conf installed (empty UCI file, the init script
# model), then the packages' files.
owrt_root() {
    mkdir -p "$1/etc/ssl/modules.cnf.d" "$1/etc/config" "$1/etc/init.d" "$1/usr/lib/ossl-modules"
    : >"$1/etc/config/openssl"
    install -m0755 "$here/model/openssl.init" "$1/etc/init.d/openssl"
    install -D -m0644 "$here/model/uci-lib.sh" "$1/lib/functions.sh"
    owrt_openssl_cnf "$1"
    cp -a "$tmp/ipkg/libopenssl-eip93/." "$tmp/ipkg/eip93-doctor/." "$1/"
}
boot() { OWRT_ROOT=$1 "$1/etc/init.d/openssl" start 2>&1 || true; }
root=$tmp/root
owrt_root "$root"
expect "postinst is valid sh" sh -n "$tmp/ipkg/libopenssl-eip93.postinst"
expect "postrm is valid sh" sh -n "$tmp/ipkg/libopenssl-eip93.postrm"
IPKG_INSTROOT=$root sh "$tmp/ipkg/libopenssl-eip93.postinst" && ok "postinst (image build) exits 0" || bad "postinst"
n=$(grep -c "^config provider 'eip93'" "$root/etc/config/openssl" || true)
[[ "$n" == 1 ]] && ok "UCI: one config provider 'eip93'" || { bad "UCI has $n eip93 sections"; cat "$root/etc/config/openssl"; }
grep -A1 "^config provider 'eip93'" "$root/etc/config/openssl" | grep -q "option enabled '1'" &&
    ok "UCI: enabled '1'" || bad "UCI: not enabled"
IPKG_INSTROOT=$root sh "$tmp/ipkg/libopenssl-eip93.postrm" && ok "postrm (image build) exits 0, changes nothing" ||
    bad "postrm"
out=$(boot "$root")
echo "$out" | sed 's/^/   boot: /'
grep -qx 'Enabling eip93' <<<"$out" && ok "first boot: /etc/init.d/openssl enables eip93" ||
    bad "first boot: eip93 not enabled"
grep -qx 'eip93=eip93_sect' "$root/var/etc/ssl/providers.cnf" && ok "providers.cnf: eip93=eip93_sect" ||
    { bad "providers.cnf"; cat "$root/var/etc/ssl/providers.cnf"; }
# Negative control: the same image with the 0.1.0 fragment ([eip93]).
old=$tmp/old
owrt_root "$old"
sed -i 's/^\[eip93_sect\]$/[eip93]/' "$old/etc/ssl/modules.cnf.d/eip93.cnf"
IPKG_INSTROOT=$old sh "$tmp/ipkg/libopenssl-eip93.postinst"
out=$(boot "$old")
grep -qx 'eip93: Could not find section \[eip93_sect\] in config files.' <<<"$out" &&
    ! grep -q eip93 "$old/var/etc/ssl/providers.cnf" &&
    ok "control: a fragment with [eip93] is refused (\"Could not find section [eip93_sect]\")" ||
    { bad "control: the model accepts [eip93]"; echo "$out"; }

# ---- 4. the generated configuration, on this host's OpenSSL ----------------
osl() { # ROOT MODULES_DIR ARGS...
    local r=$1 m=$2
    shift 2
    OPENSSL_CONF=$r/etc/ssl/openssl.cnf OPENSSL_MODULES=$m "$openssl" "$@" 2>&1
}
if out=$(osl "$root" "$root/usr/lib/ossl-modules" list -providers -verbose); then
    ok "openssl list -providers: exit 0"; else bad "openssl list: failed"; fi
echo "$out" | sed 's/^/   /'
grep -q '^  eip93$' <<<"$out" && ok "eip93 loaded from the package's files" || bad "eip93 not listed"
grep -q '^  default$' <<<"$out" && ok "default provider still loaded" || bad "default not listed"
grep -q "version: $version" <<<"$out" && ok "eip93 version $version" || bad "eip93 version"
grep -q 'name: eip93 .*(disabled: device tree' <<<"$out" &&
    ok "its verdict on this host: disabled (no AN7581 device tree)" || bad "eip93 verdict"
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
        OPENSSL_CONF=$root/etc/ssl/openssl.cnf OPENSSL_MODULES=$(cd "$(dirname "$hooks")" && pwd) \
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
    sed -i '/^engines = engines_sect$/d' "$root/etc/ssl/openssl.cnf"
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
if out=$(OPENSSL_CONF=$root/etc/ssl/openssl.cnf OPENSSL_MODULES=$hooksdir "$stanza" "$tmp/kat.txt" 2>&1); then
    ok "known-answer AES-GCM through eip93 with the generated configuration"; else
    bad "known-answer AES-GCM through eip93"; fi
echo "$out" | sed 's/^/   /'
grep -Eq '^eip93-stanza: [1-9][0-9]* cases, 0 failed;' <<<"$out" && ok "every known answer right" ||
    bad "eip93-stanza: no case or a failed one"
# That eip93 is the one the generated configuration loaded, with the
# fragment's section: "enable = no" there leaves eip93-stanza no AES-GCM.
sed -i 's/^# enable = yes .*/enable = no/' "$root/etc/ssl/modules.cnf.d/eip93.cnf"
if grep -qx 'enable = no' "$root/etc/ssl/modules.cnf.d/eip93.cnf" &&
    ! OPENSSL_CONF=$root/etc/ssl/openssl.cnf OPENSSL_MODULES=$hooksdir "$stanza" "$tmp/kat.txt" >/dev/null 2>&1; then
    ok "control: with enable = no in the fragment the same run finds no eip93 AES-GCM"
else bad "control: eip93-stanza ignores the fragment"; fi
cp "$tmp/eip93.cnf.orig" "$root/etc/ssl/modules.cnf.d/eip93.cnf"
# The same configuration and module: one 16 KiB message each way, eip93
# against the default provider, must be carried by the (fake) engine.
if out=$(OPENSSL_CONF=$root/etc/ssl/openssl.cnf OPENSSL_MODULES=$hooksdir "$offload" 16384 2>&1); then
    ok "eip93-offload-check: eip93 and default agree, corrupted tag refused"; else
    bad "eip93-offload-check"; fi
echo "$out" | sed 's/^/   /'
grep -Eq '^eip93 counters: engine-messages \+[1-9][0-9]*, .*engine-errors \+0$' <<<"$out" &&
    ok "the messages went through the engine path, no engine error" || bad "no engine message"
unset EIP93_TEST_DT_PATH EIP93_TEST_HWCAP EIP93_TEST_ENGINE

# ---- 5. on a running box: install, reinstall, enabled '0', removal ----------
# The scripts as the box runs them (IPKG_INSTROOT empty), their absolute
# paths moved into the scratch root (the only edit), model/uci as `uci`.
box=$tmp/box
owrt_root "$box"
boot "$box" >/dev/null
onbox() { # SCRIPT: run it on the "box"
    sed "s|/etc/|$box/etc/|g" "$1" >"$tmp/onbox.sh"
    OWRT_ROOT=$box PATH="$here/model:$PATH" IPKG_INSTROOT='' sh "$tmp/onbox.sh" 2>&1
}
prov_on() { grep -qx 'eip93=eip93_sect' "$box/var/etc/ssl/providers.cnf"; }
listed() { osl "$box" "$box/usr/lib/ossl-modules" list -providers | grep -q '^  eip93$'; }
out=$(onbox "$tmp/ipkg/libopenssl-eip93.postinst") && ok "box: postinst exits 0" || bad "box: postinst"
grep -qx 'Enabling eip93' <<<"$out" && prov_on && listed &&
    ok "box: postinst reloads /etc/init.d/openssl: providers.cnf and openssl list have eip93" ||
    { bad "box: eip93 not enabled after postinst"; echo "$out"; }
onbox "$tmp/ipkg/libopenssl-eip93.postinst" >/dev/null
n=$(grep -c "^config provider 'eip93'" "$box/etc/config/openssl" || true)
[[ "$n" == 1 ]] && ok "box: reinstall (postinst again) keeps one UCI section" || bad "box: $n UCI sections"
sed -i "/^config provider 'eip93'/,/^\$/ s/option enabled '1'/option enabled '0'/" "$box/etc/config/openssl"
onbox "$tmp/ipkg/libopenssl-eip93.postinst" >/dev/null
grep -q "option enabled '0'" "$box/etc/config/openssl" && ok "box: postinst keeps the operator's enabled '0'" ||
    bad "box: enabled '0' overwritten"
OWRT_ROOT=$box "$box/etc/init.d/openssl" reload >/dev/null 2>&1 || true
! prov_on && ! listed && osl "$box" "$box/usr/lib/ossl-modules" list -providers | grep -q '^  default$' &&
    ok "box: enabled '0' + reload: not loaded, the default provider is" || bad "box: enabled '0'"
sed -i "s/option enabled '0'/option enabled '1'/" "$box/etc/config/openssl"
OWRT_ROOT=$box "$box/etc/init.d/openssl" reload >/dev/null 2>&1 || true
prov_on && ok "box: enabled '1' + reload: back" || bad "box: enabled '1'"
# Removal: the package's files go first, then postrm.
rm -f "$box/usr/lib/ossl-modules/eip93.so" "$box/etc/ssl/modules.cnf.d/eip93.cnf"
out=$(onbox "$tmp/ipkg/libopenssl-eip93.postrm") && ok "box: postrm exits 0" || bad "box: postrm"
! grep -q eip93 "$box/etc/config/openssl" && ok "box: postrm deletes the UCI section" ||
    bad "box: UCI section left"
if ! prov_on && out=$(osl "$box" "$box/usr/lib/ossl-modules" list -providers) &&
    grep -q '^  default$' <<<"$out" && ! grep -q eip93 <<<"$out"; then
    ok "box: after removal providers.cnf has no eip93, openssl works with the default provider"
else bad "box: after removal"; echo "$out"; fi

# ---- 6. eip93-doctor: the calibration's init script and postinst -----------
init=$tmp/ipkg/eip93-doctor/etc/init.d/eip93-calibrate
expect "init script is valid sh" sh -n "$init"
head -n 1 "$init" | grep -qx '#!/bin/sh /etc/rc.common' && ok "init script: rc.common" || bad "init: shebang"
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
