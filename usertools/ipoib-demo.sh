#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause
# Copyright(c) 2026 The dpdk-ipoib authors
#
# The demo: ibfabric on the default fabric, the real OpenSM attached to it
# through ibsim's libumad2sim.so, then what the real infiniband-diags see.
#
# usage: ipoib-demo.sh [BUILD_DIR] [NETFILE]
#
# Everything it starts runs in a scratch directory and is stopped on exit,
# also on Ctrl-C or an error.
set -eu

top=$(cd "$(dirname "$0")/.." && pwd)
build=${1:-$top/build}
net=${2:-$top/config/fabrics/default.net}
ibfabric=$build/app/ibfabric/ibfabric
umad2sim=${UMAD2SIM:-$(dpkg -L libumad2sim0 2>/dev/null | grep '/libumad2sim\.so$' | head -n 1)}

die() {
	echo "ipoib-demo: error: $*" >&2
	exit 1
}

[ -x "$ibfabric" ] || die "$ibfabric not built (run usertools/ipoib-setup.sh)"
[ -f "$net" ] || die "no fabric file $net"
[ -n "$umad2sim" ] && [ -f "$umad2sim" ] || die "libumad2sim.so not found (apt-get install libumad2sim0)"
command -v opensm >/dev/null || die "opensm not installed"

work=$(mktemp -d /tmp/ipoib-demo.XXXXXX)
sock=demo$$
fab_pid=
sm_pid=
# Stop @1 with SIGTERM, then SIGKILL after 2 s (a umad2sim client can hang
# in its exit handler).
stop() {
	kill "$1" 2>/dev/null || return 0
	n=0
	while kill -0 "$1" 2>/dev/null && [ $n -lt 20 ]; do
		sleep 0.1
		n=$((n + 1))
	done
	kill -9 "$1" 2>/dev/null || true
	wait "$1" 2>/dev/null || true
}
cleanup() {
	rc=$?
	trap - EXIT HUP INT PIPE TERM
	[ -z "$sm_pid" ] || stop "$sm_pid"
	[ -z "$fab_pid" ] || stop "$fab_pid"
	rm -rf "$work"
	exit $rc
}
trap cleanup EXIT
trap 'exit 130' HUP INT PIPE TERM

# The first CA of the fabric hosts the SM and the diagnostics.
sm_host=$(awk '/^[ \t]*(Hca|Ca)[ \t]/ { match($0, /"[^"]*"/); print substr($0, RSTART + 1, RLENGTH - 2); exit }' "$net")
[ -n "$sm_host" ] || die "no CA in $net"

echo "== ibfabric on $(basename "$net") (socket name $sock)"
"$ibfabric" --no-console --sock-name "$sock" --ctl "$work/ctl" --pci-root "$work/pci" \
	"$net" >"$work/ibfabric.log" 2>&1 &
fab_pid=$!
sleep 0.3
kill -0 "$fab_pid" 2>/dev/null || { cat "$work/ibfabric.log"; die "ibfabric did not start"; }

sim() {
	(cd "$work" && env IBSIM_SOCKNAME="$sock" SIM_HOST="$sm_host" \
		LD_PRELOAD="$umad2sim" "$@")
}

echo "== OpenSM on $sm_host"
mkdir -p "$work/osm"
(cd "$work" && exec env IBSIM_SOCKNAME="$sock" SIM_HOST="$sm_host" \
	LD_PRELOAD="$umad2sim" OSM_CACHE_DIR="$work/osm" OSM_TMP_DIR="$work/osm" \
	opensm -f "$work/opensm.log" -d2 -s 0 -F /dev/null) >"$work/opensm.out" 2>&1 &
sm_pid=$!
i=0
until grep -q "SUBNET UP" "$work/opensm.log" 2>/dev/null; do
	i=$((i + 1))
	[ $i -lt 300 ] || { tail -20 "$work/opensm.log" 2>/dev/null; die "no SUBNET UP within 30 s"; }
	kill -0 "$sm_pid" 2>/dev/null || { cat "$work/opensm.out"; die "opensm exited"; }
	sleep 0.1
done
echo "   $(grep -m1 'SUBNET UP' "$work/opensm.log")"

echo "== ibstat (the SM's port)"
sim ibstat 2>/dev/null | sed -n '/Port 1/,$p'
echo "== ibnetdiscover"
sim ibnetdiscover 2>/dev/null
# CA port lines of ibnetdiscover end in "# lid N lmc M ...".
lids=$(sim ibnetdiscover 2>/dev/null | sed -n 's/^\[[0-9]*\](.*# lid \([0-9]*\) lmc.*/\1/p' | sort -n | tr '\n' ' ')
first=$(echo "$lids" | awk '{print $1}')
last=$(echo "$lids" | awk '{print $NF}')
if [ -n "$first" ] && [ "$first" != "$last" ]; then
	echo "== ibtracert $first $last"
	sim ibtracert "$first" "$last" 2>/dev/null || true
fi
echo "== perfquery (the SM's port)"
sim perfquery 2>/dev/null || true

# CAs marked active=mt25208 in the net file are not passive firmware: each
# is an MT25208 device model behind a PCI function that only a DPDK host
# (the net_mthca PMD) brings up. Until one attaches, its firmware is not
# running and its ports stay Down, so OpenSM and ibnetdiscover do not see
# them; that is expected, not a fault (doc/guides/tools/ibfabric.rst).
active=$(awk '/^[ \t]*(Hca|Ca)[ \t].*active=mt25208/ { match($0, /"[^"]*"/);
	print substr($0, RSTART + 1, RLENGTH - 2) }' "$net")
if [ -n "$active" ]; then
	echo "== HCAs waiting for a DPDK host"
	for hca in $active; do
		"$ibfabric" ctl "$work/ctl" show ports "$hca" 2>/dev/null |
			sed -n 's/^port node="\([^"]*\)" num=\([0-9]*\).* state=\([A-Z]*\) phys=\([A-Z]*\).*/   \1 port \2: \3 \/ \4/p'
	done
	echo "   These are MT25208 models, not passive CAs: each is a PCI function under"
	echo "   $work/pci that a DPDK process drives, e.g."
	echo "     SYSFS_PCI_DEVICES=$work/pci dpdk-testpmd -d $build/drivers/net/mthca/librte_net_mthca.so ..."
	echo "   Their ports come up (and OpenSM sweeps them in) once the host has run"
	echo "   the firmware bring-up (doc/guides/nics/mthca_hw.rst); until then they"
	echo "   stay Down, as an HCA without a driver does."
fi
echo "== done; stopping OpenSM and ibfabric"
