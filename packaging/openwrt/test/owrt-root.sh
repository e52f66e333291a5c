# SPDX-License-Identifier: Apache-2.0
# shellcheck shell=bash
#
# Sourced by check.sh: a scratch root holding OpenWrt's own files, entered
# with chroot, in which OpenWrt's real /etc/init.d/openssl, /etc/rc.common,
# /lib/functions.sh, /lib/functions/service.sh, /lib/config/uci.sh and the
# uci command (built from the pinned sources by uci-build.sh) run under
# busybox's ash, as on the box.  The recipe is the pinned tree's
# README.md "How to run OpenWrt's openssl init script here"; nothing
# upstream is edited, except the one `sed` of %ENGINES_DIR% that the openssl
# package's own install step does (package/libs/openssl/Makefile,
# Package/libopenssl-conf/install).
#
#   owrt_setup TP UCI   the pinned tree (TP/openwrt) and the uci program;
#                       chooses how to enter a root (owrt_enter) and fails
#                       (returns 1, saying why) where no way works
#   owrt_root R         R: what base-files, uci and libopenssl-conf install
#   in_root R CMD...    CMD inside R, environment emptied, as root of R
#
# Entering a root needs either root (chroot, and a /dev/null device node
# made with mknod) or a user and mount namespace (`unshare -rm`: chroot
# there, the host's /dev/null bound onto a file in R).  The first that
# passes a probe is used; where neither works (no root, unprivileged user
# namespaces disabled: kernel.unprivileged_userns_clone=0 or
# user.max_user_namespaces=0) owrt_setup fails: the caller reports it as a
# failure, never as a skip.  EIP93_OWRT_ENTER=chroot or =unshare tries only
# that one.

owrt_enter=
owrt_busybox=

# owrt_files: every file of the pinned tree the roots use.
owrt_files() {
    local o=$owrt_tp/openwrt
    printf '%s\n' "$o/package/base-files/files/etc/rc.common" \
        "$o/package/base-files/files/lib/functions.sh" \
        "$o/package/base-files/files/lib/functions/service.sh" \
        "$o/package/system/uci/files/lib/config/uci.sh" \
        "$o/package/libs/openssl/files/openssl.init" \
        "$o/package/libs/openssl/patches/150-openssl.cnf-add-engines-conf.patch" \
        "$o/include/openssl-module.mk"
}

# _owrt_dev_null R METHOD: R/dev/null as METHOD needs it.
_owrt_dev_null() {
    rm -f "$1/dev/null"
    case $2 in
        chroot) mknod -m 0666 "$1/dev/null" c 1 3 ;;
        unshare) : >"$1/dev/null" ;;                   # a mount point for the host's
    esac
}

owrt_setup() {
    owrt_tp=$1 owrt_uci=$2
    local f m errs=
    while read -r f; do
        [[ -f "$f" ]] || { echo "OpenWrt file missing: $f (the pinned tree: $owrt_tp/README.md)"; return 1; }
    done < <(owrt_files)
    [[ -x "$owrt_uci" ]] || { echo "no uci program at $owrt_uci"; return 1; }
    owrt_busybox=$(command -v busybox) ||
        { echo "busybox not found (Debian: busybox-static)"; return 1; }
    if readelf -lW "$owrt_busybox" | grep -q 'Requesting program interpreter'; then
        echo "$owrt_busybox is not static (Debian: busybox-static, not busybox)"
        return 1
    fi
    command -v chroot >/dev/null || { echo "chroot not found (coreutils)"; return 1; }
    local probe
    probe=$(mktemp -d)
    for m in ${EIP93_OWRT_ENTER:-chroot unshare}; do
        [[ $m == chroot && $(id -u) -ne 0 ]] && { errs+="chroot: not root; "; continue; }
        [[ $m == unshare ]] && ! command -v unshare >/dev/null && { errs+="unshare: not found (util-linux); "; continue; }
        owrt_enter=$m
        rm -rf "$probe/r"
        owrt_root "$probe/r" 2>"$probe/err" || { errs+="$m: $(tr '\n' ' ' <"$probe/err"); "; continue; }
        # /dev/null must be the device: a write leaves it empty.
        if out=$(in_root "$probe/r" /bin/sh -c 'echo probe >/dev/null && [ ! -s /dev/null ] && uci -q get openssl.x; echo "in-root $?"' 2>&1) &&
            [[ "$out" == "in-root 1" ]]; then
            rm -rf "$probe"
            return 0
        fi
        errs+="$m: $(tr '\n' ' ' <<<"$out"); "
    done
    rm -rf "$probe"
    owrt_enter=
    echo "cannot enter a scratch root (${errs}): run as root, or allow unprivileged user namespaces"
    return 1
}

owrt_root() {
    local r=$1 o=$owrt_tp/openwrt a
    mkdir -p "$r"/bin "$r"/sbin "$r"/dev "$r"/etc/config "$r"/etc/rc.d "$r"/etc/init.d \
        "$r"/etc/ssl/modules.cnf.d "$r"/lib/functions "$r"/lib/config "$r"/tmp "$r"/usr/lib/ossl-modules
    chmod 1777 "$r/tmp"
    ln -s tmp "$r/var"                                 # OpenWrt: /var -> /tmp
    _owrt_dev_null "$r" "$owrt_enter"
    cp "$owrt_busybox" "$r/bin/busybox"
    for a in $("$owrt_busybox" --list); do
        [[ -e "$r/bin/$a" ]] || ln -s busybox "$r/bin/$a"
    done
    cp "$owrt_uci" "$r/sbin/uci"
    cp "$o/package/base-files/files/etc/rc.common" "$r/etc/rc.common"
    cp "$o/package/base-files/files/lib/functions.sh" "$r/lib/functions.sh"
    cp "$o/package/base-files/files/lib/functions/service.sh" "$r/lib/functions/service.sh"
    cp "$o/package/system/uci/files/lib/config/uci.sh" "$r/lib/config/uci.sh"
    sed 's!%ENGINES_DIR%!/usr/lib/engines-3!' "$o/package/libs/openssl/files/openssl.init" >"$r/etc/init.d/openssl"
    chmod 755 "$r/etc/rc.common" "$r/etc/init.d/openssl"
    : >"$r/etc/config/openssl"                         # libopenssl-conf: an empty UCI file
    owrt_openssl_cnf >"$r/etc/ssl/openssl.cnf"
}

# owrt_openssl_cnf: /etc/ssl/openssl.cnf where OpenWrt's patch 150 touches
# it: OpenSSL's first line `openssl_conf = openssl_init`, then every hunk of
# the patch as it leaves the file (context and added lines, removed ones
# dropped) -- [openssl_init], [provider_sect] with its .include of
# /var/etc/ssl/providers.cnf, [default_sect], [engines_sect] with
# engines.cnf and modules.cnf.d.  (OpenSSL's apps/openssl.cnf is not pinned
# here; the rest of it is req/ca/tsa sections the provider never reads.)
owrt_openssl_cnf() {
    echo 'openssl_conf = openssl_init'
    awk '/^@@/ { h = 1; next } h && /^[ +]/ { print substr($0, 2) } h && /^$/ { print "" }' \
        "$owrt_tp/openwrt/package/libs/openssl/patches/150-openssl.cnf-add-engines-conf.patch"
}

# owrt_host_cnf R: R's openssl.cnf for the host's `openssl`: the same file,
# its absolute .include paths moved into R (the only edit).
owrt_host_cnf() {
    sed "s#^\\.include /#.include $1/#" "$1/etc/ssl/openssl.cnf" >"$1.host.cnf"
}

in_root() {
    local r=$1
    shift
    case $owrt_enter in
        chroot) env -i PATH=/usr/sbin:/usr/bin:/sbin:/bin chroot "$r" "$@" ;;
        unshare) env -i PATH=/usr/sbin:/usr/bin:/sbin:/bin unshare -rm sh -c \
            'mount --bind /dev/null "$1/dev/null" && exec chroot "$@"' sh "$r" "$@" ;;
        *) echo "in_root: no way to enter a root (owrt_setup)" >&2; return 1 ;;
    esac
}
