#!/bin/bash
# SPDX-License-Identifier: Apache-2.0
#
# run.sh: boot one x86_64 QEMU guest (TCG) on the Debian kernel prepared by
# prepare.sh and run one test script in it.
#
#   run.sh --cache DIR --work DIR --script FILE [options]
#
#   --cache DIR          kernel cache made by prepare.sh (required)
#   --work DIR           scratch dir for the initramfs and the serial log
#                        (required; created; its rootfs/ is rebuilt each run)
#   --script FILE        guest test script, run by busybox sh as /test.sh
#                        (required); its exit status is run.sh's
#   --add SRC:DEST       copy host file SRC to absolute path DEST in the guest;
#                        a dynamically linked ELF brings the shared libraries
#                        ldd lists (and the dynamic loader) to the same paths
#   --add-dir SRC:DEST   copy a directory tree (its ELF files bring their libs)
#   --module FILE.ko     copy a module to /lib/eip93/ in the guest; it is not
#                        loaded: the script uses insmod
#   --env NAME=VALUE     export NAME into the script's environment (the
#                        script also gets EIP93_GUEST_KVER, the kernel release)
#   --timeout SECONDS    host-side bound on the whole boot (default 180)
#   --mem MB             guest memory (default 512)
#   --smp N              guest CPUs (default 1; MTTCG, slower to boot)
#   --cmdline ARGS       extra kernel command line arguments (e.g. fips=1)
#   (--add, --add-dir, --module and --env may be repeated.)
#
# The guest has static busybox (without modprobe, and with
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

cache='' work='' script='' timeout_s=180 mem=512 smp=1 extra_cmdline=''
adds=() add_dirs=() modules=() envs=()

need_arg() {
    [[ $# -ge 2 && -n "$2" ]] || die "option $1 needs a value"
}

while [[ $# -gt 0 ]]; do
    case "$1" in
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

for tool in qemu-system-x86_64 cpio gzip ldd modinfo timeout; do
    command -v "$tool" >/dev/null || die "'$tool' not found"
done
busybox=/bin/busybox
[[ -x "$busybox" ]] || die "$busybox not found (install busybox-static)"
if LC_ALL=C ldd "$busybox" >/dev/null 2>&1; then
    die "$busybox is dynamically linked (install busybox-static)"
fi

[[ -f "$cache/abi" ]] || die "$cache/abi not found: run test/guest/prepare.sh $cache"
abi=$(cat "$cache/abi")
kdir="$cache/$abi"
[[ -f "$kdir/.complete" ]] || die "$kdir is incomplete: run test/guest/prepare.sh $cache"
kver=$(cat "$kdir/kver")
vmlinux="$kdir/vmlinux"
kroot="$kdir/root"
moddir="$kroot/lib/modules/$kver"
[[ -f "$moddir/modules.dep" ]] || die "$moddir/modules.dep not found"

mkdir -p "$work"
work=$(cd "$work" && pwd)
rootfs="$work/rootfs"
initramfs="$work/initramfs.cpio.gz"
log="$work/serial.log"
rm -rf "$rootfs" "$initramfs" "$log" "$work/console.log"
mkdir -p "$rootfs"

# ---- helpers ---------------------------------------------------------------

is_elf() {
    [[ -f "$1" && "$(head -c 4 "$1" | od -An -tx1 | tr -d ' \n')" == 7f454c46 ]]
}

# Copy the shared libraries (and the dynamic loader) a host ELF needs into
# the rootfs, at the paths ldd reports.
add_libs() {
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

# The guest's files: busybox, /etc, kernel modules, the test's files and
# environment (shared with the arm64 runner).
# shellcheck source=test/guest/rootfs.sh
. "$(dirname "${BASH_SOURCE[0]}")/rootfs.sh"
rootfs_populate

# Guest-side watchdog: power off a little before the host gives up, so that
# a hung test still ends with a readable log.
if ((timeout_s > 30)); then
    watchdog_s=$((timeout_s - 10))
else
    watchdog_s=$((timeout_s * 2 / 3))
fi

cat >"$rootfs/init" <<EOF
#!/bin/sh
# /init of the eip93 test guest (generated by test/guest/run.sh).
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
# No module autoloading in this guest (see run.sh).
echo >/proc/sys/kernel/modprobe
hostname eip93-guest
ip link set lo up || setup_failed "lo up"
ip -4 addr show dev lo | grep -q 127.0.0.1 || ip addr add 127.0.0.1/8 dev lo
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

cmdline="console=ttyS0 panic=-1 oops=panic quiet${extra_cmdline:+ $extra_cmdline}"
start=$EPOCHREALTIME
rc_qemu=0
timeout -k 5 "$timeout_s" qemu-system-x86_64 \
    -machine pc -accel tcg -cpu qemu64 -smp "$smp" -m "$mem" \
    -nodefaults -display none -no-reboot \
    -serial "file:$log" \
    -kernel "$vmlinux" -initrd "$initramfs" \
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
