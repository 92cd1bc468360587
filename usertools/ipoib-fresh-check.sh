#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause
# Copyright(c) 2026 The dpdk-ipoib authors
#
# Run the README's demo command on a fresh Debian 12 (bookworm):
# debootstrap --variant=minbase (plus git and ca-certificates) into a
# directory, mount what a running system has, clone this checkout into
# it, run "./usertools/ipoib-setup.sh demo" there as root in the
# environment of a fresh root login, then tear every mount down, also on
# failure or Ctrl-C (doc/guides/testing.rst, "A fresh Debian 12").
#
# usage: ipoib-fresh-check.sh [-r] [DIR]   (as root; DIR default /srv/deb12)
#   -r   reuse the system already in DIR (the packages the demo installed
#        stay: a quicker run that no longer checks the installation)
#
# Environment: IPOIB_FRESH_MIRROR (default http://deb.debian.org/debian).
# Exit status: the demo's, 1 when the check itself fails.
set -eu

reuse=
if [ "${1:-}" = -r ]; then
	reuse=1
	shift
fi
root=${1:-/srv/deb12}
mirror=${IPOIB_FRESH_MIRROR:-http://deb.debian.org/debian}
src=$(cd "$(dirname "$0")/.." && pwd)
mounts=""

say() { printf 'ipoib-fresh-check: %s\n' "$*"; }
die() { say "error: $*" >&2; exit 1; }
now() { date +%s; }

# Processes still running inside the chroot (the demo stops its own; a
# killed demo may not), then every mount, newest first. Run by the EXIT trap.
# shellcheck disable=SC2317
teardown() {
	set +e
	for p in /proc/[0-9]*; do
		[ "$(readlink "$p/root" 2>/dev/null)" = "$root" ] && kill -9 "${p#/proc/}" 2>/dev/null
	done
	for m in $mounts; do
		umount -l "$m" || say "warning: cannot unmount $m"
	done
	mounts=""
}
trap teardown EXIT
trap 'exit 130' INT TERM

mnt() {	# mnt TARGET ARGS...: mount, private, remembered for teardown
	t=$1
	shift
	mkdir -p "$t"
	mount "$@" "$t" || die "mount $* $t failed"
	mounts="$t $mounts"
	# Where the host's mounts are shared (systemd makes / shared), what
	# is mounted below a bind would also appear on the host: not here.
	mount --make-private "$t"
}

[ "$(id -u)" -eq 0 ] || die "run as root (debootstrap, mounts, chroot)"
root=$(realpath -m "$root")
[ "$root" != / ] || die "DIR must not be /"
if mountpoint -q "$root"; then
	die "$root is a mount point already (another check running?)"
fi
t0=$(now)
if [ -z "$reuse" ]; then
	if [ -d "$root" ] && [ -n "$(ls -A "$root")" ]; then
		die "$root is not empty: remove it (rm -rf $root) or reuse its system with -r"
	fi
	if ! command -v debootstrap >/dev/null; then
		say "installing debootstrap on this host"
		export DEBIAN_FRONTEND=noninteractive
		apt-get -q update >/dev/null || die "apt-get update failed"
		apt-get -q install -y debootstrap >/dev/null || die "cannot install debootstrap"
	fi
	say "debootstrap bookworm --variant=minbase into $root ($mirror)"
	debootstrap --variant=minbase --include=git,ca-certificates bookworm "$root" \
		"$mirror" >"$root.debootstrap.log" 2>&1 ||
		die "debootstrap failed (see $root.debootstrap.log)"
	say "debootstrap done in $(( $(now) - t0 )) s"
elif [ ! -x "$root/bin/sh" ]; then
	die "-r: no system in $root"
fi

# The chroot's root is a mount point: dpdk-ib-ns unshares a mount
# namespace with private propagation, which the kernel refuses (EINVAL)
# for a root that is a plain directory.
mnt "$root" --bind "$root"
mnt "$root/proc" -t proc proc
mnt "$root/sys" -t sysfs sysfs
# /dev: the host's devices (/dev/fuse for the user-MAD service,
# /dev/net/tun for the TAPs); its own /dev/pts and /dev/shm
mnt "$root/dev" --bind /dev
mnt "$root/dev/pts" --bind /dev/pts
mnt "$root/dev/shm" -t tmpfs -o mode=1777,nosuid,nodev tmpfs
mnt "$root/run" -t tmpfs -o mode=755,nosuid,nodev tmpfs
mnt "$root/tmp" -t tmpfs -o mode=1777,nosuid,nodev tmpfs
# the name servers for apt (a running system's resolv.conf)
cp -L /etc/resolv.conf "$root/etc/resolv.conf"

rm -rf "$root/root/dpdk-ipoib"
git clone -q "$src" "$root/root/dpdk-ipoib" || die "git clone $src failed"
say "cloned $(git -C "$src" rev-parse --short HEAD) into $root/root/dpdk-ipoib"

# A fresh root login on minbase: no locale set (POSIX), root's PATH.
t1=$(now)
rc=0
chroot "$root" /usr/bin/env -i HOME=/root TERM="${TERM:-dumb}" \
	PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin \
	/bin/sh -c 'cd /root/dpdk-ipoib && ./usertools/ipoib-setup.sh demo' || rc=$?
t2=$(now)
say "the demo command exited $rc after $((t2 - t1)) s (all: $((t2 - t0)) s)"
exit $rc
