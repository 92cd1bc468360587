#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause
#
# Run the README's demo command in a fresh Debian 12 (bookworm) minbase
# chroot: debootstrap, mount what a system needs, clone this checkout,
# run "./usertools/ipoib-setup.sh demo" as root, tear the mounts down.
#
# Usage: ipoib-fresh-check.sh [DIR]   (default /srv/deb12; run as root)
# DRAFT: written at the deadline, not yet run end to end.
set -eu

root=${1:-/srv/deb12}
src=$(cd "$(dirname "$0")/.." && pwd)
mounts=""

say() { printf 'ipoib-fresh-check: %s\n' "$*"; }
die() { say "error: $*" >&2; exit 1; }

teardown() {
	for m in $mounts; do
		umount -l "$m" 2>/dev/null || :
	done
}
trap teardown EXIT INT TERM

mnt() {	# mnt TARGET ARGS...: mount and remember for teardown
	t=$1; shift
	mkdir -p "$t"
	mount "$@" "$t"
	mounts="$t $mounts"
}

[ "$(id -u)" -eq 0 ] || die "run as root"
command -v debootstrap >/dev/null || {
	apt-get update -q >/dev/null
	apt-get install -y -q debootstrap >/dev/null || die "cannot install debootstrap"
}
if [ ! -x "$root/bin/sh" ]; then
	say "debootstrap bookworm minbase into $root"
	debootstrap --variant=minbase --include=git,ca-certificates \
		bookworm "$root" http://deb.debian.org/debian >/dev/null ||
		die "debootstrap failed"
fi
# The chroot root is made a mount point so unshare(1) in dpdk-ib-ns can
# remount it in a new mount namespace.
mnt "$root" --bind "$root"
mnt "$root/proc" -t proc proc
mnt "$root/sys" -t sysfs sysfs
mnt "$root/dev" --bind /dev
mnt "$root/dev/pts" --bind /dev/pts
mnt "$root/dev/shm" -t tmpfs tmpfs
mnt "$root/run" -t tmpfs tmpfs
mnt "$root/tmp" -t tmpfs -o mode=1777 tmpfs

rm -rf "$root/root/dpdk-ipoib"
git clone -q "$src" "$root/root/dpdk-ipoib"
start=$(date +%s)
rc=0
chroot "$root" /usr/bin/env -i HOME=/root PATH=/usr/sbin:/usr/bin:/sbin:/bin \
	LANG=C.UTF-8 sh -c 'cd /root/dpdk-ipoib && ./usertools/ipoib-setup.sh demo' ||
	rc=$?
say "demo exited $rc after $(( $(date +%s) - start )) s"
exit $rc
