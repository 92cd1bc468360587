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
#   7. iperf3 TCP for 10 s (IPOIB_DEMO_IPERF_S);
#   8. a report: throughput, RTT, packets per link, drops, the capture.
#
# usage: ipoib-demo.sh [BUILD_DIR [NETFILE]]
#
# NETFILE (default config/fabrics/default.net) must have the MT25208
# models host1 and host2. IPOIB_DEMO_CAPTURE names the capture file kept
# (default /tmp/ipoib-demo.pcapng); IPOIB_DEMO_KEEP=1 keeps the scratch
# directory with every log; IPOIB_DEMO_IPERF_S sets the seconds of step 7
# (default 10; the test of the demo runs it shorter).
#
# Each step prints its time; a failing step is named and the exit status
# is 1 (130 after Ctrl-C). Everything started is stopped on exit, on
# failure and on Ctrl-C. Needs root (namespaces, the user-MAD service's
# FUSE mount).
set -euo pipefail

top=$(cd "$(dirname "$0")/.." && pwd)
build=$(cd "${1:-$top/build}" && pwd)
net=$(realpath "${2:-$top/config/fabrics/default.net}")
ibfabric=$build/app/ibfabric/ibfabric
klink=$build/examples/ipoib_kernel_link/dpdk-ipoib-kernel-link
mthca=$build/drivers/net/librte_net_mthca.so
ipoib=$build/drivers/net/librte_net_ipoib.so
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

[ -f "$net" ] || die "no fabric file $net"
iperf_s=${IPOIB_DEMO_IPERF_S:-10}
case $iperf_s in
''|*[!0-9]*|0) die "IPOIB_DEMO_IPERF_S: seconds, a positive integer: '$iperf_s'" ;;
esac
[ "$(id -u)" -eq 0 ] || die "needs root (network namespaces, the user-MAD service's FUSE mount)"
for f in "$ibfabric" "$klink" "$mthca" "$ibumad"; do
	[ -e "$f" ] || die "$f not built (run usertools/ipoib-setup.sh)"
done
for p in opensm ibnetdiscover iperf3 ip nsenter ping tshark; do
	command -v $p >/dev/null || die "$p not installed (usertools/ipoib-setup.sh installs it)"
done

# EAL loads no plugin (-d) below a world-writable directory ("directory
# path /tmp is world-writable and insecure"): say so before starting.
d=$(dirname "$(realpath "$mthca")")
while [ "$d" != / ]; do
	[ -n "$(find "$d" -maxdepth 0 -perm -o+w)" ] &&
		die "the build tree is below $d, which is world-writable: EAL refuses plugins there; clone and build outside it (e.g. under /root or /srv)"
	d=$(dirname "$d")
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
		ms=$(( $(now_ms) - step_start ))
		echo "ipoib-demo: step $stepno ($step_name) failed after $((ms / 1000)).$(((ms % 1000) / 100)) s;" \
			"logs in $work" >&2
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
	# one data lcore each, on different CPUs (the main lcores mostly sleep)
	eal=(-d "$mthca" -d "$ibumad" --no-huge -m 512 -l 0,1 --main-lcore $((n % 2))
	     --file-prefix "${tag}h$n" -a "${BDF[$h]},node_desc=$h"
	     --log-level=pmd.net.mthca:warning)
	if [ -e "$ipoib" ]; then
		eal+=(-d "$ipoib" --vdev "net_ipoib0,dev=${BDF[$h]},mode=eth")
		klport=net_ipoib0
	else
		klport=0
	fi
	spawn "$h" env SYSFS_PCI_DEVICES="$work/pci" "${umad[@]}" \
		nsenter --net="/var/run/netns/$ns" "$klink" "${eal[@]}" -- \
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
	ctl show ports $h | grep ' peer=' |
		sed -n 's/^port node="\([^"]*\)" num=\([0-9]*\) .* lid=\([0-9]*\) .*state=\([A-Z]*\) phys=\([A-Z]*\).*/      \1 port \2: LID \3, \4 \/ \5/p'
done
ibns ibnetdiscover >"$work/ibnetdiscover.txt" 2>"$work/ibnetdiscover.err" ||
	die "ibnetdiscover failed: $(cat "$work/ibnetdiscover.err")"
for h in $HOSTS; do
	grep -q "\"$h\"" "$work/ibnetdiscover.txt" || die "ibnetdiscover does not show $h"
done
grep -E '^(Switch|Ca)|^\[' "$work/ibnetdiscover.txt" | sed 's/^/      /'
step_done

[ -e "$ipoib" ] || die "$ipoib not built: the demo stops after the bring-up"

# -- 6 ------------------------------------------------------------------------
step "ping and ping -6 between the namespaces (captured on every link)"
for h in $HOSTS; do
	ip -n "${NS[$h]}" addr add "${IP4[$h]}/24" dev $IFACE
	ip -n "${NS[$h]}" -6 addr add "${IP6[$h]}/64" dev $IFACE nodad
done
# the link-local addresses finish duplicate address detection first
n=0
for h in $HOSTS; do
	until ip -n "${NS[$h]}" -6 addr show dev $IFACE scope link | grep -q fe80 &&
	      ! ip -n "${NS[$h]}" -6 addr show dev $IFACE | grep -q tentative; do
		n=$((n + 1)); [ $n -lt 200 ] || die "$h: no link-local address within 20 s"
		sleep 0.1
	done
done
lladdr() {
	ip -n "${NS[$1]}" -6 addr show dev $IFACE scope link |
		sed -n 's/.*inet6 \(fe80::[0-9a-f:]*\)\/64.*/\1/p' | head -n 1
}
declare -A LL=([host1]=$(lladdr host1) [host2]=$(lladdr host2))
ctl capture start "$work/fabric.pcapng" >/dev/null
# @1 from, @2 label, @3... ping's arguments: one answer first (ARP/ND and
# a PathRecord may be on the way), then 3 of 3; the average RTT in ms.
declare -A RTT=()
ping_pair() {
	local from=$1 label=$2 n=0 out
	shift 2
	until ip netns exec "${NS[$from]}" ping -c 1 -W 1 "$@" >/dev/null 2>&1; do
		n=$((n + 1)); [ $n -lt 20 ] || die "$label: no answer within 20 s"
	done
	out=$(ip netns exec "${NS[$from]}" ping -c 3 -i 0.2 -W 2 "$@" 2>&1) ||
		die "$label: $(echo "$out" | tail -n 2)"
	RTT[$label]=$(echo "$out" | sed -n 's/^rtt [^=]*= [0-9.]*\/\([0-9.]*\)\/.*/\1/p')
	printf '      %-34s 3/3, avg %s ms\n' "$label" "${RTT[$label]}"
}
ping_pair host1 "host1 -> host2 IPv4" "${IP4[host2]}"
ping_pair host2 "host2 -> host1 IPv4" "${IP4[host1]}"
ping_pair host1 "host1 -> host2 IPv6 global" -6 "${IP6[host2]}"
ping_pair host2 "host2 -> host1 IPv6 global" -6 "${IP6[host1]}"
ping_pair host1 "host1 -> host2 IPv6 link-local" -6 "${LL[host2]}%$IFACE"
ping_pair host2 "host2 -> host1 IPv6 link-local" -6 "${LL[host1]}%$IFACE"
ctl capture stop >/dev/null
for h in $HOSTS; do
	o=host2; [ $h = host2 ] && o=host1
	echo "      $h: ip neigh: $(ip -n "${NS[$h]}" neigh show dev $IFACE | grep -c lladdr) neighbours," \
		"${IP4[$o]} at $(ip -n "${NS[$h]}" neigh show "${IP4[$o]}" dev $IFACE | awk '{print $3}')"
done
step_done

# -- 7 ------------------------------------------------------------------------
step "iperf3 TCP host1 -> host2, $iperf_s s"
spawn iperf3_s nsenter --net="/var/run/netns/${NS[host2]}" iperf3 -s -1 -B "${IP4[host2]}"
n=0
until ip netns exec "${NS[host2]}" ss -Hltn | grep -q ':5201'; do
	n=$((n + 1)); [ $n -lt 100 ] || die "iperf3 server not listening"
	sleep 0.1
done
ip netns exec "${NS[host1]}" iperf3 -c "${IP4[host2]}" -t "$iperf_s" -J >"$work/iperf3.json" ||
	die "iperf3: $(tail -n 5 "$work/iperf3.json")"
read -r mbps retr < <(python3 -c '
import json, sys
e = json.load(open(sys.argv[1]))["end"]
print("%.1f %d" % (e["sum_received"]["bits_per_second"] / 1e6, e["sum_sent"].get("retransmits", 0)))' \
	"$work/iperf3.json")
echo "      $mbps Mbit/s, $retr retransmits"
step_done

# -- 8 ------------------------------------------------------------------------
step "report"
capture=${IPOIB_DEMO_CAPTURE:-/tmp/ipoib-demo.pcapng}
cp "$work/fabric.pcapng" "$capture"
# Debian 12's tshark (Wireshark 4.0) does not map LINKTYPE_INFINIBAND
# (247) in a pcapng Interface Description Block: a copy says DLT_USER0
# (147) there, bound to the InfiniBand dissector (doc/guides/tools/
# ibfabric.rst, "Captures").
readable=${capture%.pcapng}.user0.pcapng
python3 - "$capture" "$readable" <<'PYEOF'
import struct, sys
data = bytearray(open(sys.argv[1], 'rb').read())
off = 0
while off + 12 <= len(data):
    btype, blen = struct.unpack_from('<II', data, off)
    if blen < 12:
        sys.exit('bad pcapng block at %d' % off)
    if btype == 1:
        struct.pack_into('<H', data, off + 8, 147)
    off += blen
open(sys.argv[2], 'wb').write(data)
PYEOF
tsopt='uat:user_dlts:"User 0 (DLT=147)","infiniband","0","","0",""'
protos=$(tshark -r "$readable" -o "$tsopt" -T fields -e frame.protocols 2>/dev/null) ||
	die "tshark cannot read $readable"
# what the links carried: the PMA counters at both ends of each cable
links=$(for nd in $(ctl show nodes | sed -n 's/^node name="*\([^" ]*\)"* .*/\1/p'); do
		ctl show ports "$nd"; done |
	sed -n 's/^port node="*\([^" ]*\)"* num=\([0-9]*\) .*peer="*\([^" ]*\)"* peer_port=\([0-9]*\).*/\1 \2 \3 \4/p')
# host2 while OpenSM answers its leaves, then OpenSM, then host1 (whose
# user-MAD service OpenSM uses)
stop_pid "${pid[host2]}"
stop_pid "${pid[opensm]}"
stop_pid "${pid[host1]}"
for h in host2 host1; do
	grep -q "Bye (ok)" "$work/$h.log" || die "$h did not stop cleanly: $(tail -n 5 "$work/$h.log")"
done
echo "  ================================================================"
echo "  IP over InfiniBand, two DPDK hosts on ibfabric (default.net), OpenSM on host1"
echo "  throughput   iperf3 TCP host1 -> host2: $mbps Mbit/s ($retr retransmits)"
echo "  RTT (avg)    IPv4 ${RTT[host1 -> host2 IPv4]} ms, IPv6 ${RTT[host1 -> host2 IPv6 global]} ms," \
	"IPv6 link-local ${RTT[host1 -> host2 IPv6 link-local]} ms"
echo "  packets per link (PMA PortXmitPkts, each way)"
echo "$links" | while read -r a ap b bp; do
	# each cable once
	[ -n "$a" ] && [[ "$a[$ap]" < "$b[$bp]" ]] || continue
	xa=$(ctl show counters "$a" "$ap" | sed -n 's/.* xmit_pkts=\([0-9]*\).*/\1/p')
	xb=$(ctl show counters "$b" "$bp" | sed -n 's/.* xmit_pkts=\([0-9]*\).*/\1/p')
	printf '    %-11s -> %-11s %8s    <- %8s\n' "$a[$ap]" "$b[$bp]" "$xa" "$xb"
done
echo "  drops"
for h in $HOSTS; do
	fin=$(grep -m1 '^Final statistics' "$work/$h.log" | sed 's/^Final statistics after [0-9.]* s: //')
	echo "    $h kernel link: $fin"
	xs=$(grep -m1 '(IB side) xstats:' "$work/$h.log" | tr ' ' '\n' |
		{ grep -E 'drop|err|fail' || true; } | tr '\n' ' ')
	echo "    $h net_ipoib0:  ${xs:-no drop counted}"
	xs=$(ctl hca $h resources | grep '^hca_dp ' | tr ' ' '\n' | grep '^drop_' |
		{ grep -v '=0$' || true; } | tr '\n' ' ')
	case "$xs" in
	*drop_no_wqe*) xs="$xs(drop_no_wqe: the receive queue was empty; UD has no flow control)" ;;
	esac
	echo "    $h HCA (model): ${xs:-no drop}"
done
echo "    ibfabric: $(ctl show stats | sed 's/^stats //')"
echo "  capture      $capture: $(echo "$protos" | grep -c .) packets of the ping step on" \
	"every link ($(echo "$protos" | grep -c ':arp$') ARP, $(echo "$protos" | grep -c ':icmp:')" \
	"ICMP, $(echo "$protos" | grep -c ':icmpv6') ICMPv6)"
echo "               Debian 12's tshark reads its copy: tshark -r $readable -o '$tsopt'"
echo "  ================================================================"
step_done
echo "ipoib-demo: done in $SECONDS s"
