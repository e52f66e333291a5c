#!/bin/bash
# SPDX-License-Identifier: Apache-2.0
#
# run.sh: boot one QEMU guest (TCG) on a Debian kernel prepared by
# test/rig/prepare.sh and run one test script in it.  The architecture's
# differences (emulator, machine, console, kernel image, where a foreign
# guest's libraries and busybox come from, the device tree) are data in
# test/rig/lib.sh.
#
#   run.sh [--arch x86_64|arm64] --cache DIR --work DIR --script FILE [options]
#
#   --arch ARCH          guest architecture: x86_64 (default), arm64 or mipsel
#                        (QEMU's malta, 24Kf, at most 256 MB: --mem 256)
#   --cache DIR          kernel cache made by prepare.sh (required)
#   --work DIR           scratch dir for the initramfs and the serial log
#                        (required; created; its rootfs/ is rebuilt each run)
#   --script FILE        guest test script, run by busybox sh as /test.sh
#                        (required); its exit status is run.sh's
#   --add SRC:DEST       copy host file SRC to absolute path DEST in the guest;
#                        an ELF of the guest's architecture brings its shared
#                        libraries and the dynamic loader to the same paths
#                        (x86_64: as ldd lists them; arm64: DT_NEEDED,
#                        recursively, from the host's multiarch
#                        /usr/lib/aarch64-linux-gnu; mipsel: the same from
#                        the cache's user/sysroot)
#   --add-dir SRC:DEST   copy a directory tree (its ELF files bring their libs)
#   --module FILE.ko     copy a module to /lib/eip93/ in the guest; it is not
#                        loaded: the script uses insmod
#   --env NAME=VALUE     export NAME into the script's environment (the
#                        script also gets EIP93_GUEST_KVER, the kernel release)
#   --timeout SECONDS    host-side bound on the whole boot (default 180)
#   --mem MB             guest memory (default 512)
#   --smp N              guest CPUs (default 1; MTTCG, slower to boot)
#   --cmdline ARGS       extra kernel command line arguments (e.g. fips=1)
#   --compatible LIST    arm64 only: the root node's "compatible" in the guest's
#                        device tree, comma-separated strings (e.g.
#                        airoha,an7581); "virt" (default) keeps QEMU's own
#                        ("linux,dummy-virt")
#   (--add, --add-dir, --module and --env may be repeated.)
#
# The guest has static busybox (x86_64: the host's busybox-static; arm64:
# busybox-static:arm64 from the cache, its applet list taken from the host's
# busybox of the same Debian release), without modprobe, and with
# /proc/sys/kernel/modprobe emptied, so nothing is autoloaded: a test decides
# what is loaded), the AF_ALG / GCM modules of the guest kernel loaded at
# boot, proc/sys/devtmpfs, tmpfs on /tmp, /run and /dev/shm, loopback up, and
# minimal /etc/passwd, group, hosts and nsswitch.conf.  Note that busybox sh
# runs its own applets before searching PATH (e.g. "ls", "timeout", even
# "modprobe"): call an added binary that shares an applet's name by its
# absolute path.  The script runs in / with stdin from /dev/null; files under
# /lib/modules/<kver> are the boot modules.  The serial console
# log (\r stripped) is printed on stdout after the guest powers off, followed
# by "eip93-guest: <seconds>s" (boot-to-poweroff wall time).  Exit status:
# the script's, taken from the "EIP93-GUEST-EXIT <rc>" line; 1 if that line
# is missing (hang, panic, timeout, setup failure).
set -euo pipefail

me=eip93-guest
die() {
    echo "$me: error: $*" >&2
    exit 1
}

arch=x86_64 cache='' work='' script='' timeout_s=180 mem=512 smp=1 extra_cmdline='' compatible=virt
adds=() add_dirs=() modules=() envs=()

need_arg() {
    [[ $# -ge 2 && -n "$2" ]] || die "option $1 needs a value"
}

while [[ $# -gt 0 ]]; do
    case "$1" in
    --arch) need_arg "$@"; arch=$2; shift 2 ;;
    --cache) need_arg "$@"; cache=$2; shift 2 ;;
    --work) need_arg "$@"; work=$2; shift 2 ;;
    --script) need_arg "$@"; script=$2; shift 2 ;;
    --add) need_arg "$@"; adds+=("$2"); shift 2 ;;
    --add-dir) need_arg "$@"; add_dirs+=("$2"); shift 2 ;;
    --module) need_arg "$@"; modules+=("$2"); shift 2 ;;
    --env) need_arg "$@"; envs+=("$2"); shift 2 ;;
    --timeout) need_arg "$@"; timeout_s=$2; shift 2 ;;
    --mem) need_arg "$@"; mem=$2; shift 2 ;;
    --smp) need_arg "$@"; smp=$2; shift 2 ;;
    --cmdline) need_arg "$@"; extra_cmdline=$2; shift 2 ;;
    --compatible) need_arg "$@"; compatible=$2; shift 2 ;;
    -h | --help) sed -n '4,/^set -euo/p' "${BASH_SOURCE[0]}" | sed '$d; s/^# \{0,1\}//'; exit 0 ;;
    *) die "unknown argument '$1' (see --help)" ;;
    esac
done

[[ -n "$cache" ]] || die "--cache is required"
[[ -n "$work" ]] || die "--work is required"
[[ -n "$script" ]] || die "--script is required"
[[ -f "$script" ]] || die "script $script not found"
[[ "$timeout_s" =~ ^[0-9]+$ && "$timeout_s" -ge 10 ]] || die "--timeout must be an integer >= 10"
[[ "$mem" =~ ^[0-9]+$ && "$mem" -ge 128 ]] || die "--mem must be an integer >= 128"
[[ "$smp" =~ ^[1-8]$ ]] || die "--smp must be an integer from 1 to 8"
[[ "$compatible" =~ ^[a-z0-9,._+-]+$ ]] || die "--compatible '$compatible': letters, digits and , . _ + - only"

here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
# shellcheck source=test/rig/lib.sh
. "$here/lib.sh"
rig_arch "$arch"
((dtb)) || [[ "$compatible" == virt ]] || die "--compatible is for a guest with a device tree (--arch arm64)"
[[ "$arch" == x86_64 ]] && me=eip93-guest || me=eip93-$arch-guest
prep="test/rig/prepare.sh --kernel $([[ "$arch" == x86_64 ]] && echo 6.1 || echo "$arch") $cache"

tools=("$qemu" cpio gzip modinfo timeout)
if ((foreign)); then tools+=("$readelf"); else tools+=(ldd); fi
((dtb)) && tools+=(dtc)
for tool in "${tools[@]}"; do
    command -v "$tool" >/dev/null || die "'$tool' not found"
done
host_busybox=/bin/busybox
[[ -x "$host_busybox" ]] || die "$host_busybox not found (install busybox-static)"
if ((!foreign)) && LC_ALL=C ldd "$host_busybox" >/dev/null 2>&1; then
    die "$host_busybox is dynamically linked (install busybox-static)"
fi

[[ -f "$cache/abi" ]] || die "$cache/abi not found: run $prep"
abi=$(cat "$cache/abi")
kdir="$cache/$abi"
[[ -f "$kdir/.complete" ]] || die "$kdir is incomplete: run $prep"
kver=$(cat "$kdir/kver")
kimage="$kdir/$image"
[[ -s "$kimage" ]] || die "$kimage not found: run $prep"
if ((foreign)); then
    # The guest's own busybox; the host's (same release) lists the applets.
    [[ -f "$cache/user/.complete" ]] || die "$cache/user is incomplete: run $prep"
    busybox="$cache/user/busybox"
    busybox_list=$host_busybox
else
    busybox=$host_busybox
fi
lroot=''
[[ -z "$libroot" ]] || lroot=$(cd "$cache/$libroot" && pwd) || die "$cache/$libroot missing: run $prep"
kroot="$kdir/root"
moddir="$kroot/lib/modules/$kver"
[[ -f "$moddir/modules.dep" ]] || die "$moddir/modules.dep not found"

mkdir -p "$work"
work=$(cd "$work" && pwd)
rootfs="$work/rootfs"
initramfs="$work/initramfs.cpio.gz"
log="$work/serial.log"
dtbfile="$work/guest.dtb"
rm -rf "$rootfs" "$initramfs" "$log" "$work/console.log" "$dtbfile" "$work/virt.dtb" "$work/guest.dts"
mkdir -p "$rootfs"

# ---- helpers ---------------------------------------------------------------

is_elf() {
    [[ -f "$1" && "$(head -c 4 "$1" | od -An -tx1 | tr -d ' \n')" == 7f454c46 ]]
}

# A native guest: copy the shared libraries (and the dynamic loader) a host ELF needs into
# the rootfs, at the paths ldd reports.
add_libs_native() {
    local file=$1 out line lib
    is_elf "$file" || return 0
    if ! out=$(LC_ALL=C ldd "$file" 2>&1); then
        # Static binaries, foreign architectures, kernel modules, ...
        return 0
    fi
    case "$out" in
    *"not a dynamic executable"* | *"statically linked"*) return 0 ;;
    esac
    while IFS= read -r line; do
        case "$line" in
        *"=> not found"*) die "$file: shared library missing on the host: ${line%% *}" ;;
        *"=> /"*) lib=${line#*=> }; lib=${lib%% (*} ;;
        [[:space:]]/*) lib=${line#"${line%%[![:space:]]*}"}; lib=${lib%% (*} ;;
        *) continue ;;
        esac
        [[ -e "$rootfs$lib" ]] && continue
        mkdir -p "$rootfs$(dirname "$lib")"
        cp -L "$lib" "$rootfs$lib" || die "cannot copy $lib (needed by $file)"
    done <<<"$out"
}

is_guest_elf() {
    is_elf "$1" && grep -q "Machine:.*$elfmachine" <<<"$(LC_ALL=C "$readelf" -h "$1" 2>/dev/null)"
}

# A foreign guest: copy the shared libraries (DT_NEEDED, recursively, from
# the multiarch $libdirs under $lroot: the host's, or mipsel's unpacked
# sysroot) and the program interpreter one of its ELF files needs into the
# rootfs, at the same paths as on a Debian system of that architecture.
# Anything else (scripts, data, .ko) needs nothing.
add_libs_foreign() {
    local file=$1 interp needed lib d found
    is_guest_elf "$file" || return 0
    interp=$(LC_ALL=C "$readelf" -l "$file" |
        sed -n 's/.*\[Requesting program interpreter: \(.*\)\]/\1/p')
    if [[ -n "$interp" && ! -e "$rootfs$interp" ]]; then
        [[ -e "$lroot$interp" ]] || die "$file: interpreter $interp missing in '$lroot/' (libc6:$debarch)"
        mkdir -p "$rootfs$(dirname "$interp")"
        cp -L "$lroot$interp" "$rootfs$interp"
    fi
    while IFS= read -r needed; do
        found=
        for d in "${libdirs[@]}"; do
            if [[ -e "$lroot$d/$needed" ]]; then
                found="$d/$needed"
                break
            fi
        done
        [[ -n "$found" ]] || die "$file: shared library $needed not found in ${libdirs[*]} (under '$lroot/')"
        lib=$found
        [[ -e "$rootfs$lib" ]] && continue
        mkdir -p "$rootfs$(dirname "$lib")"
        cp -L "$lroot$lib" "$rootfs$lib" || die "cannot copy $lroot$lib (needed by $file)"
        add_libs_foreign "$lroot$lib"
    done < <(LC_ALL=C "$readelf" -d "$file" | sed -n 's/.*(NEEDED).*\[\(.*\)\]/\1/p')
}

add_libs() {
    if ((foreign)); then add_libs_foreign "$1"; else add_libs_native "$1"; fi
}

# The guest's files: busybox, /etc, kernel modules, the test's files and
# environment.
# shellcheck source=test/rig/rootfs.sh
. "$here/rootfs.sh"
rootfs_populate

# ---- device tree -----------------------------------------------------------

# arm64: QEMU's own tree for exactly this machine (the CPU count and memory must
# match the boot, or secondary CPU bring-up breaks), with the root node's
# compatible replaced.
qemu_machine=("${machine[@]}" -smp "$smp" -m "$mem")
dtb_args=()
if ((dtb)) && [[ "$compatible" != virt ]]; then
    "$qemu" "${qemu_machine[@]}" -M "virt,dumpdtb=$work/virt.dtb" -display none \
        -nodefaults >/dev/null 2>&1 || die "$qemu dumpdtb failed"
    dtc -q -I dtb -O dts -o "$work/guest.dts" "$work/virt.dtb" || die "dtc -I dtb failed"
    # The pairs of the list are "vendor,device": rejoin them.
    dtcompat=$(printf '%s' "$compatible" | awk -F, '{ s = ""; for (i = 1; i < NF; i += 2)
        s = s (s == "" ? "" : ", ") "\"" $i "," $(i + 1) "\""; print s }')
    [[ -n "$dtcompat" ]] || die "--compatible '$compatible': expected vendor,device[,vendor,device...]"
    # The root node's compatible is the first "compatible" line at depth 1.
    awk -v c="$dtcompat" '
        /^\t[a-z#]/ && depth == 1 && !done && $1 == "compatible" { print "\tcompatible = " c ";"; done = 1; next }
        { print }
        /{$/ { depth++ }
        /^[\t]*};$/ { depth-- }
        END { if (!done) exit 1 }' "$work/guest.dts" >"$work/guest.dts.new" ||
        die "no root compatible in QEMU's device tree"
    mv "$work/guest.dts.new" "$work/guest.dts"
    dtc -q -I dts -O dtb -o "$dtbfile" "$work/guest.dts" || die "dtc -O dtb failed"
    dtb_args=(-dtb "$dtbfile")
fi

# Guest-side watchdog: power off a little before the host gives up, so that
# a hung test still ends with a readable log.
if ((timeout_s > 30)); then
    watchdog_s=$((timeout_s - 10))
else
    watchdog_s=$((timeout_s * 2 / 3))
fi

cat >"$rootfs/init" <<EOF
#!/bin/sh
# /init of the eip93 test guest (generated by test/rig/run.sh).
export PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin
export HOME=/root
export EIP93_GUEST_KVER='$kver'
setup_failed() {
    echo "EIP93-GUEST-SETUP-FAILED: \$*"
    poweroff -f
    sleep 5
    echo o >/proc/sysrq-trigger
    exit 1
}
mount -t proc proc /proc || setup_failed "mount /proc"
mount -t sysfs sysfs /sys || setup_failed "mount /sys"
mount -t devtmpfs devtmpfs /dev || setup_failed "mount /dev"
exec </dev/console >/dev/console 2>&1
mkdir -p /dev/pts /dev/shm
mount -t devpts devpts /dev/pts
mount -t tmpfs -o mode=1777 tmpfs /dev/shm
mount -t tmpfs -o mode=1777 tmpfs /tmp || setup_failed "mount /tmp"
mount -t tmpfs -o mode=0755 tmpfs /run
# No module autoloading in this guest (see test/rig/run.sh).
echo >/proc/sys/kernel/modprobe
hostname eip93-guest
ip link set lo up || setup_failed "lo up"
ip -4 addr show dev lo | grep -q 127.0.0.1 || ip addr add 127.0.0.1/8 dev lo # pipe-ok: the guest's /bin/sh, no pipefail
while read -r ko; do
    insmod "\$ko" || setup_failed "insmod \$ko"
done </etc/eip93/modules
# Watchdog on the guest's uptime (a killed sleep does not make it fire early).
( while :; do
      read -r up _ </proc/uptime
      [ "\${up%%.*}" -ge $watchdog_s ] && break
      sleep 1
  done
  echo "EIP93-GUEST-WATCHDOG: test not finished ${watchdog_s}s after boot, powering off"
  echo o >/proc/sysrq-trigger ) &
. /etc/eip93/env
cd /
sh /test.sh </dev/null
echo "EIP93-GUEST-EXIT \$?"
sync
poweroff -f
sleep 5
echo o >/proc/sysrq-trigger
EOF
chmod 0755 "$rootfs/init"

# ---- initramfs -------------------------------------------------------------

# A bodiless newc entry (character devices, trailer) written by hand, so
# that no mknod (root) is needed.  The kernel reads concatenated archives.
cpio_entry() { # name mode(octal, with type bits) rdev-major rdev-minor ino
    local name=$1 namesize=$((${#1} + 1))
    printf '070701%08X%08X%08X%08X%08X%08X%08X%08X%08X%08X%08X%08X%08X' \
        "$5" "$((8#$2))" 0 0 1 0 0 0 0 "$3" "$4" "$namesize" 0
    printf '%s\0' "$name"
    head -c $(((4 - (110 + namesize) % 4) % 4)) /dev/zero
}
{
    (cd "$rootfs" && find . -mindepth 1 -printf '%P\n' | LC_ALL=C sort |
        cpio --quiet -o -H newc -R 0:0)
    cpio_entry dev/console 020600 5 1 1000001
    cpio_entry dev/null 020666 1 3 1000002
    cpio_entry 'TRAILER!!!' 0 0 0 0
} | gzip -1 -n >"$initramfs"

# ---- boot ------------------------------------------------------------------

cmdline="console=$console panic=-1 oops=panic quiet${extra_cmdline:+ $extra_cmdline}"
# x86_64 under TCG on a loaded host: the kernel's check that the 8254 timer
# reaches the IO-APIC can miss its ticks and panic ("IO-APIC + timer doesn't
# work!"); no_timer_check skips that check (a boot fact, not a test subject).
[ "$arch" = x86_64 ] && cmdline="$cmdline no_timer_check"
start=$EPOCHREALTIME
rc_qemu=0
timeout -k 5 "$timeout_s" "$qemu" "${qemu_machine[@]}" \
    -nodefaults -display none -no-reboot \
    -serial "file:$log" \
    -kernel "$kimage" -initrd "$initramfs" "${dtb_args[@]}" \
    -append "$cmdline" </dev/null || rc_qemu=$?
end=$EPOCHREALTIME

[[ -f "$log" ]] || die "QEMU wrote no serial log (exit status $rc_qemu)"
tr -d '\r' <"$log" >"$work/console.log"
cat "$work/console.log"

elapsed=$(awk -v a="$start" -v b="$end" 'BEGIN { printf "%.2f", b - a }')
echo "$me: ${elapsed}s"

marker=$(grep -ao 'EIP93-GUEST-EXIT [0-9]\+' "$work/console.log" | tail -n 1 || true)
if [[ -z "$marker" ]]; then
    if ((rc_qemu == 124 || rc_qemu == 137)); then
        why="QEMU killed after the host timeout of ${timeout_s}s"
    elif grep -aq 'EIP93-GUEST-WATCHDOG' "$work/console.log"; then
        why="the guest watchdog powered off ${watchdog_s}s after boot"
    elif grep -aq 'EIP93-GUEST-SETUP-FAILED' "$work/console.log"; then
        why="guest setup failed: $(grep -a 'EIP93-GUEST-SETUP-FAILED' "$work/console.log" | head -n 1)"
    elif grep -aq 'Kernel panic' "$work/console.log"; then
        why="the guest kernel panicked"
    else
        why="QEMU exited with status $rc_qemu"
    fi
    echo "$me: FAILED: no EIP93-GUEST-EXIT line ($why); serial log: $log" >&2
    exit 1
fi
rc=${marker##* }
if ((rc != 0)); then
    echo "$me: test script exited with status $rc" >&2
fi
exit "$rc"
