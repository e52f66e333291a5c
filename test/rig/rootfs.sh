#!/bin/bash
# SPDX-License-Identifier: Apache-2.0
#
# rootfs.sh: the initramfs contents of every guest (sourced by
# test/rig/run.sh, for either architecture).
#
# rootfs_populate fills "$rootfs" from the runner's variables: busybox (the
# static busybox copied in), busybox_list (a busybox runnable here whose
# applet list is used; default $busybox), moddir and kver (the unpacked
# kernel's modules), modules (extra .ko files), adds, add_dirs, script and
# envs (the runner's options), and calls the runner's die and add_libs.

rootfs_populate() {
# Place one host file at an absolute guest path (replacing what is there,
# e.g. a busybox applet link), bringing its libraries along.
put_file() {
    local src=$1 dest=$2
    [[ "$dest" == /* && "$dest" != */ ]] || die "destination '$dest' must be an absolute file path"
    [[ -f "$src" ]] || die "'$src' not found or not a regular file"
    [[ -d "$rootfs$dest" && ! -L "$rootfs$dest" ]] && die "destination '$dest' is a directory in the guest"
    mkdir -p "$rootfs$(dirname "$dest")"
    rm -f "$rootfs$dest"
    cp -L --preserve=mode "$src" "$rootfs$dest"
    add_libs "$src"
}

# ---- busybox ---------------------------------------------------------------

mkdir -p "$rootfs"/{bin,sbin,usr/bin,usr/sbin,etc/eip93,proc,sys,dev,tmp,run,root,var/log,var/tmp,lib/eip93}
ln -s ../run "$rootfs/var/run"
cp "$busybox" "$rootfs/bin/busybox"
while IFS= read -r applet; do
    case "$applet" in
    bin/busybox | linuxrc | */modprobe) continue ;; # no modprobe: no autoloading
    esac
    [[ -e "$rootfs/$applet" || -L "$rootfs/$applet" ]] && continue
    [[ -d "$rootfs/${applet%/*}" ]] || mkdir -p "$rootfs/${applet%/*}"
    ln -s /bin/busybox "$rootfs/$applet"
done < <("${busybox_list:-$busybox}" --list-full)
[[ -L "$rootfs/bin/sh" ]] || die "busybox has no sh applet"

# ---- /etc ------------------------------------------------------------------

cat >"$rootfs/etc/passwd" <<'EOF'
root:x:0:0:root:/root:/bin/sh
www-data:x:33:33:www-data:/var/www:/bin/false
nobody:x:65534:65534:nobody:/nonexistent:/bin/false
EOF
cat >"$rootfs/etc/group" <<'EOF'
root:x:0:
www-data:x:33:
nogroup:x:65534:
EOF
cat >"$rootfs/etc/hosts" <<'EOF'
127.0.0.1 localhost
::1 localhost ip6-localhost ip6-loopback
EOF
cat >"$rootfs/etc/nsswitch.conf" <<'EOF'
passwd: files
group: files
shadow: files
hosts: files
EOF
printf 'ip 0 IP\nicmp 1 ICMP\ntcp 6 TCP\nudp 17 UDP\nipv6-icmp 58 IPv6-ICMP\n' >"$rootfs/etc/protocols"
echo eip93-guest >"$rootfs/etc/hostname"

# ---- kernel modules loaded at boot -----------------------------------------

# crypto_user (NETLINK_CRYPTO) lets libkcapi, the tests' independent reference client, look
# algorithms up.  cbc and ecb: the fallbacks of the simulated driver's
# cbc(aes-eip93) and ecb(aes-eip93) (ecb is a module on Debian 6.1).
base_modules=(af_alg algif_aead algif_skcipher gf128mul ghash-generic ctr cbc ecb gcm crypto_user)
declare -gA mod_path=() mod_deps=() mod_done=()
while IFS= read -r line; do
    path=${line%%:*}
    name=${path##*/}
    name=${name%%.ko*}
    name=${name//-/_}
    mod_path[$name]=$path
    mod_deps[$name]=${line#*:}
done <"$moddir/modules.dep"

load_order=()
resolve_module() {
    local name=${1//-/_} dep depname
    [[ -n "${mod_done[$name]:-}" ]] && return 0
    if [[ -z "${mod_path[$name]:-}" ]]; then
        if grep -Eq "/${name//_/[-_]}\.ko(\.[a-z]+)?\$" "$moddir/modules.builtin"; then
            mod_done[$name]=builtin
            return 0
        fi
        die "kernel module '$1' is neither in modules.dep nor built in ($kver)"
    fi
    mod_done[$name]=pending
    for dep in ${mod_deps[$name]}; do
        depname=${dep##*/}
        resolve_module "${depname%%.ko*}"
    done
    mod_done[$name]=1
    load_order+=("${mod_path[$name]}")
}
# From Linux 7.1 GHASH is a library: there is no ghash-generic module (nor,
# on some configs, a separate gf128mul); on those kernels they are optional.
kmajor=${kver%%.*}
for m in "${base_modules[@]}"; do
    if ((kmajor >= 7)) && [[ "$m" == ghash-generic || "$m" == gf128mul ]] &&
        [[ -z "${mod_path[${m//-/_}]:-}" ]] &&
        ! grep -Eq "/${m//-/[-_]}\.ko(\.[a-z]+)?\$" "$moddir/modules.builtin"; then
        continue
    fi
    resolve_module "$m"
done

: >"$rootfs/etc/eip93/modules"
for rel in "${load_order[@]}"; do
    src="$moddir/$rel"
    dst="/lib/modules/$kver/${rel%.ko*}.ko"
    mkdir -p "$rootfs$(dirname "$dst")"
    case "$rel" in
    *.ko) cp "$src" "$rootfs$dst" ;;
    *.ko.xz) xz -dc "$src" >"$rootfs$dst" ;;
    *.ko.gz) gzip -dc "$src" >"$rootfs$dst" ;;
    *.ko.zst) zstd -qdc "$src" >"$rootfs$dst" ;;
    *) die "unknown module file type: $rel" ;;
    esac
    echo "$dst" >>"$rootfs/etc/eip93/modules"
done

for ko in "${modules[@]}"; do
    [[ -f "$ko" && "$ko" == *.ko ]] || die "--module $ko: not an existing .ko file"
    vermagic=$(modinfo -F vermagic "$ko" 2>/dev/null) || die "--module $ko: modinfo failed"
    [[ "${vermagic%% *}" == "$kver" ]] ||
        die "--module $ko was built for '${vermagic%% *}', the guest kernel is $kver"
    cp "$ko" "$rootfs/lib/eip93/"
done

# ---- user files ------------------------------------------------------------

for spec in "${adds[@]}"; do
    [[ "$spec" == *:* ]] || die "--add $spec: expected SRC:DEST"
    put_file "${spec%:*}" "${spec##*:}"
done

for spec in "${add_dirs[@]}"; do
    [[ "$spec" == *:* ]] || die "--add-dir $spec: expected SRC:DEST"
    src=${spec%:*} dest=${spec##*:}
    [[ -d "$src" ]] || die "--add-dir: '$src' is not a directory"
    [[ "$dest" == /* ]] || die "--add-dir: destination '$dest' must be an absolute path"
    mkdir -p "$rootfs$dest"
    # --remove-destination: never write through a busybox applet link.
    cp -a --remove-destination "$src/." "$rootfs$dest/"
    while IFS= read -r -d '' f; do
        add_libs "$f"
    done < <(find "$src" -type f -print0)
done

cp "$script" "$rootfs/test.sh"
chmod 0755 "$rootfs/test.sh"

: >"$rootfs/etc/eip93/env"
for kv in "${envs[@]}"; do
    name=${kv%%=*}
    [[ "$kv" == *=* && "$name" =~ ^[A-Za-z_][A-Za-z0-9_]*$ ]] || die "--env $kv: expected NAME=VALUE"
    value=${kv#*=}
    printf "export %s='%s'\n" "$name" "${value//\'/\'\\\'\'}" >>"$rootfs/etc/eip93/env"
done
}
