#!/bin/bash
# SPDX-License-Identifier: BSD-3-Clause
# Copyright(c) 2026 The dpdk-ipoib authors
#
# The demo: IP over InfiniBand between two DPDK hosts on the simulated
# fabric, managed by the real OpenSM running on one of them.
#
#   1. ibfabric on the default fabric (config/fabrics/default.net: two
#      switches, two MT25208 models host1 and host2, two passive CAs);
#   2. host1: dpdk-ipoib-kernel-link on net_mthca + net_ipoib, its TAP in
#      network namespace 1, and the user-MAD service (DPDK_IB_UMAD_DIR);
#   3. OpenSM on host1 through that service (dpdk-ib-ns);
#   4. host2: the same, in namespace 2;
#   5. the fabric as OpenSM and the diags see it (port states,
#      ibnetdiscover with the DPDK hosts);
#   6. ping, ping -6 (link-local and global), captured on every link;
#   7. iperf3 TCP for 10 s;
#   8. a report: throughput, RTT, packets per link, drops, the capture.
#
# usage: ipoib-demo.sh [BUILD_DIR]
#
# Each step prints its time; a failing step is named and the exit status
# is 1 (130 after Ctrl-C). Everything started is stopped on exit, on
# failure and on Ctrl-C. Needs root (namespaces, the user-MAD service's
# FUSE mount).
set -euo pipefail

top=$(cd "$(dirname "$0")/.." && pwd)
build=$(cd "${1:-$top/build}" && pwd)
net=$top/config/fabrics/default.net
ibfabric=$build/app/ibfabric/ibfabric
klink=$build/examples/ipoib_kernel_link/dpdk-ipoib-kernel-link
mthca=$build/drivers/net/mthca/librte_net_mthca.so
ipoib=$build/drivers/net/ipoib/librte_net_ipoib.so
ibumad=$build/lib/ibumad/librte_ibumad.so
ibns=$top/usertools/dpdk-ib-ns
# The MT25208 models of default.net, in file order: ibfabric gives the
# n-th active CA the PCI function 0000:<0x10+n>:00.0.
HOSTS="host1 host2"
declare -A BDF=([host1]=0000:10:00.0 [host2]=0000:11:00.0)
declare -A IP4=([host1]=192.168.77.1 [host2]=192.168.77.2)
declare -A IP6=([host1]=fd00:77::1 [host2]=fd00:77::2)
IFACE=ib0

die() {
	echo "ipoib-demo: error: $*" >&2
	exit 1
}

[ "$(id -u)" -eq 0 ] || die "needs root (network namespaces, the user-MAD service's FUSE mount)"
for f in "$ibfabric" "$klink" "$mthca" "$ibumad"; do
	[ -e "$f" ] || die "$f not built (run usertools/ipoib-setup.sh)"
done
for p in opensm ibnetdiscover iperf3 ip nsenter ping; do
	command -v $p >/dev/null || die "$p not installed (usertools/ipoib-setup.sh installs it)"
done

work=$(mktemp -d /tmp/ipoib-demo.XXXXXX)
tag=ipoibdemo$$
declare -A pid=()
declare -a order=()
namespaces=()
step_name=
step_start=
nsteps=8
stepno=0

now_ms() {
	date +%s%3N
}

# Stop the process group @1 (spawn() makes each its own) with SIGTERM,
# SIGKILL after 5 s.
stop_pid() {
	kill -TERM -- "-$1" 2>/dev/null || return 0
	local n=0
	while kill -0 "$1" 2>/dev/null && [ $n -lt 50 ]; do
		sleep 0.1
		n=$((n + 1))
	done
	kill -KILL -- "-$1" 2>/dev/null || true
	wait "$1" 2>/dev/null || true
}

cleanup() {
	local rc=$? i
	trap - EXIT HUP INT PIPE TERM
	if [ -n "$step_name" ] && [ $rc -ne 0 ]; then
		echo "ipoib-demo: step $stepno ($step_name) failed after $(( ($(now_ms) - step_start) ))" \
			"ms; logs in $work" >&2
		keep=1
	fi
	for ((i = ${#order[@]} - 1; i >= 0; i--)); do
		stop_pid "${pid[${order[$i]}]}"
	done
	umount -l "$work/umad/dev" 2>/dev/null || true
	for ns in "${namespaces[@]}"; do
		ip netns del "$ns" 2>/dev/null || true
	done
	rm -rf "/var/run/dpdk/${tag}h1" "/var/run/dpdk/${tag}h2"
	if [ -z "${keep:-}" ] && [ -z "${IPOIB_DEMO_KEEP:-}" ]; then
		rm -rf "$work"
	else
		echo "ipoib-demo: kept $work"
	fi
	exit $rc
}
trap cleanup EXIT
trap 'echo; echo "ipoib-demo: interrupted" >&2; exit 130' HUP INT PIPE TERM

step() {
	stepno=$((stepno + 1))
	step_name=$1
	step_start=$(now_ms)
	printf '[%d/%d] %s\n' $stepno $nsteps "$1"
}

step_done() {
	local ms=$(( $(now_ms) - step_start ))
	printf '      done in %d.%01d s\n' $((ms / 1000)) $(((ms % 1000) / 100))
	step_name=
}

# Start "@2..." in the background as @1, output to $work/@1.log.
spawn() {
	local name=$1
	shift
	setsid "$@" >"$work/$name.log" 2>&1 &
	pid[$name]=$!
	order+=("$name")
}

# Wait up to @2 seconds for @3 in $work/@1.log; fail naming @4.
wait_log() {
	local name=$1 secs=$2 text=$3 what=$4 n=0
	until grep -q -- "$text" "$work/$name.log" 2>/dev/null; do
		kill -0 "${pid[$name]}" 2>/dev/null || {
			tail -n 20 "$work/$name.log" >&2; die "$name exited before $what"; }
		n=$((n + 1))
		[ $n -le $((secs * 10)) ] || { tail -n 20 "$work/$name.log" >&2; die "no $what within $secs s"; }
		sleep 0.1
	done
}

ctl() {
	"$ibfabric" ctl "$work/ctl" "$@"
}

ibns() {
	DPDK_IB_UMAD_PRELOAD=$build/lib/ibumad/libibumad_preload.so "$ibns" "$work/umad" "$@"
}

# A DPDK host: the kernel link on its HCA, the TAP in its own namespace.
# nsenter --net, not "ip netns exec": the user-MAD service's FUSE mount
# must be made in the mount namespace OpenSM's dpdk-ib-ns starts from.
start_host() {
	local h=$1 n=$2 umad=() ns=ipoib-demo-$n-$$ eal
	ip netns add "$ns"
	namespaces+=("$ns")
	ip -n "$ns" link set lo up
	[ "$h" = host1 ] && umad=(DPDK_IB_UMAD_DIR="$work/umad")
	eal=(-d "$mthca" -d "$ibumad" --no-huge -m 512 -l 0,1 --main-lcore 1
	     --file-prefix "${tag}h$n" -a "${BDF[$h]},node_desc=$h"
	     --log-level=pmd.net.mthca:warning)
	if [ -e "$ipoib" ]; then
		eal+=(-d "$ipoib" --vdev "net_ipoib0,dev=${BDF[$h]},mode=eth")
		klport=1
	else
		klport=0
	fi
	spawn "$h" env SYSFS_PCI_DEVICES="$work/pci" "${umad[@]}" \
		nsenter --net="/var/run/netns/$ns" stdbuf -oL "$klink" "${eal[@]}" -- \
		--port=$klport --iface=$IFACE --stats-period=0
	NS[$h]=$ns
}
declare -A NS=()

# -- 1 ------------------------------------------------------------------------
step "ibfabric on $(basename "$net")"
spawn ibfabric "$ibfabric" --no-console --sock-name "$tag" --ctl "$work/ctl" \
	--pci-root "$work/pci" "$net"
n=0
until [ -S "$work/pci/${BDF[host2]}/iommu.sock" ]; do
	kill -0 "${pid[ibfabric]}" 2>/dev/null || { cat "$work/ibfabric.log" >&2; die "ibfabric exited"; }
	n=$((n + 1)); [ $n -lt 100 ] || die "no PCI functions within 10 s"
	sleep 0.1
done
echo "      $(ctl show nodes | wc -l) nodes; PCI functions ${BDF[host1]} (host1), ${BDF[host2]} (host2)"
step_done

# -- 2 ------------------------------------------------------------------------
step "host1: kernel link + user-MAD service (namespace ipoib-demo-1-$$)"
mkdir -p "$work/umad"
start_host host1 1
n=0
until [ -e "$work/umad/dev/umad0" ]; do
	kill -0 "${pid[host1]}" 2>/dev/null || { tail -n 20 "$work/host1.log" >&2; die "host1 exited"; }
	n=$((n + 1)); [ $n -lt 600 ] || die "no umad0 within 60 s"
	sleep 0.1
done
wait_log host1 60 "Kernel link:" "the kernel link"
echo "      $(grep -m1 'Kernel link:' "$work/host1.log")"
step_done

# -- 3 ------------------------------------------------------------------------
step "OpenSM on host1 through the user-MAD service"
spawn opensm "$ibns" "$work/umad" env OSM_CACHE_DIR="$work" OSM_TMP_DIR="$work" \
	opensm -F /dev/null -f - -d2 -s 1
wait_log opensm 60 "SUBNET UP" "SUBNET UP"
echo "      $(grep -m1 'SUBNET UP' "$work/opensm.log" | sed 's/^ *//')"
step_done

# -- 4 ------------------------------------------------------------------------
step "host2: kernel link (namespace ipoib-demo-2-$$)"
start_host host2 2
wait_log host2 60 "Kernel link:" "the kernel link"
for h in $HOSTS; do
	wait_log $h 60 "Link up" "$h's link up"
	echo "      $h: $(grep -m1 'Link up' "$work/$h.log")"
done
step_done

# -- 5 ------------------------------------------------------------------------
step "the fabric: port states and ibnetdiscover"
for h in $HOSTS; do
	ctl show ports $h | sed -n 's/^port node="\([^"]*\)" num=\([0-9]*\) .*lid=\([0-9]*\) .*state=\([A-Z]*\) phys=\([A-Z]*\).*/      \1 port \2: LID \3, \4 \/ \5/p'
done
ibns ibnetdiscover >"$work/ibnetdiscover.txt" 2>"$work/ibnetdiscover.err" ||
	die "ibnetdiscover failed: $(cat "$work/ibnetdiscover.err")"
for h in $HOSTS; do
	grep -q "\"$h\"" "$work/ibnetdiscover.txt" || die "ibnetdiscover does not show $h"
done
grep -E '^(Switch|Ca)|^\[' "$work/ibnetdiscover.txt" | sed 's/^/      /'
step_done
