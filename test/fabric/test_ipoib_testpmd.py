#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-3-Clause
# Copyright(c) 2026 The dpdk-ipoib authors
"""net_ipoib in Debian's unmodified dpdk-testpmd (issue 26): two DPDK
hosts on ibfabric, each a dpdk-testpmd in io mode between net_ipoib0 (on
its HCA's port, net_mthca) and a net_tap0 whose kernel side is in a
network namespace the test made; OpenSM on a third DPDK host through the
user-MAD service. The kernels of the two namespaces talk over the fabric.

Scenarios:

eth    mode=eth and a TAP: the TAP's MAC is set to net_ipoib0's (the
       Ethernet view's ARP and ND carry it); ping and ping -6 (link-local
       and global) both ways; `ip neigh` in each namespace shows the other
       with its derived MAC; the port's stats and xstats count it.
l3     mode=l3 and a TUN (net_tap's net_tun0), ipv4=/ipv6= devargs give
       the interface its addresses (it answers ARP/ND itself): ping and
       ping -6 both ways.
child  mode=eth on P_Key 0x8001 on both hosts (OpenSM's partition file
       gives both 0x8001): ping both ways inside the partition.

testpmd runs inside the namespace (`ip netns exec`), so its TAP is
created there; the simulated PCI functions are files and path sockets,
reachable from any network namespace.

usage: test_ipoib_testpmd.py <eth|l3|child> <ibfabric> <netfile> <sa_host>
                             <librte_net_mthca.so> <librte_net_ipoib.so>
                             <preload> <dpdk-ib-ns>
"""

import re
import sys

from harness import Harness
from ipoib_testbed import Testbed, Testpmd, link_local, setup_kernel, wait_ping

HOSTS = (('b', '0000:11:00.0', 2), ('c', '0000:12:00.0', 3))


def vdevs(bdf, idx, scenario):
    mode = 'l3' if scenario == 'l3' else 'eth'
    ipoib = 'net_ipoib0,dev=%s,mode=%s' % (bdf, mode)
    if scenario == 'child':
        ipoib += ',pkey=0x8001'
    if scenario == 'l3':
        ipoib += ',ipv4=10.0.0.%d,ipv6=2001:db8::%d' % (idx, idx)
        return [ipoib, 'net_tun0,iface=ipt' + ('b' if idx == 2 else 'c')]
    return [ipoib, 'net_tap0,iface=ipt' + ('b' if idx == 2 else 'c')]


def main():
    scenario = sys.argv[1]
    with Harness('ipoib_testpmd_' + scenario, timeout=290) as h:
        tb = Testbed(h, 'iptp', sys.argv[2:9], HOSTS[-1][1])
        extra = []
        if scenario == 'child':
            extra = ['-P', tb.partitions('Default=0x7fff, ipoib : ALL=full ;\n'
                                         'P1=0x8001, ipoib : ALL=full ;\n')]
        osm = tb.opensm('opensm', extra)

        hosts = [Testpmd(tb, n, bdf, idx, vdevs(bdf, idx, scenario), 0 if n == 'b' else 1)
                 for n, bdf, idx in HOSTS]
        macs = {}
        for t in hosts:
            # net_mthca's ports come first (the PCI bus is probed before
            # the vdevs): the IB port's, owned by net_ipoib0 and hidden,
            # and a second IB port's, not used; then net_ipoib0 and the TAP.
            t.port, lower = t.ipoib_port()
            macs[t.name] = t.mac(t.port)
            out = t.cmd('show port summary all', r'testpmd>')
            h.check(not re.search(r'^%d\s' % lower, out, re.M),
                    '%s: the IB port\'s ethdev %d is owned, testpmd skips it:\n%s' %
                    (t.name, lower, out))
            tap = t.port_of('net_tun0' if scenario == 'l3' else 'net_tap0')
            t.cmd('set portlist %d,%d' % (t.port, tap), r'testpmd>')
            t.cmd('start', r'testpmd>')
        for t in hosts:
            t.link_up(t.port)
            h.check('Port %d: link state change event' % t.port in t.p.log(),
                    '%s: an LSC event for net_ipoib0' % t.name)
        h.info('both net_ipoib0 links up: MACs %s' % macs)

        for t in hosts:
            setup_kernel(h, t, scenario == 'l3', macs[t.name], '10.0.0.%d/24' % t.idx,
                         '2001:db8::%d/64' % t.idx)
        b, c = hosts
        if scenario == 'l3':
            wait_ping(h, b, ['10.0.0.3'], 'b -> c IPv4')
            wait_ping(h, c, ['10.0.0.2'], 'c -> b IPv4')
            wait_ping(h, b, ['-6', '2001:db8::3'], 'b -> c IPv6')
            wait_ping(h, c, ['-6', '2001:db8::2'], 'c -> b IPv6')
        else:
            eth_pings(h, b, c, macs, scenario)
        ctrl = 0
        for t in hosts:
            out = t.cmd('show port stats %d' % t.port, r'TX-packets: +\d+[\s\S]*testpmd>')
            rx = int(re.search(r'RX-packets: +(\d+)', out).group(1))
            tx = int(re.search(r'TX-packets: +(\d+)', out).group(1))
            h.check(rx >= 10 and tx >= 10, '%s: net_ipoib0 stats count the pings:\n%s' %
                    (t.name, out))
            out = t.cmd('show port xstats %d' % t.port, r'tx_path_failed_drops: +\d+')
            for name in ('rx_wrong_pkey_drops', 'tx_no_neigh_drops', 'tx_ctrl_packets'):
                h.check(name + ':' in out, '%s: xstats lack %s' % (t.name, name))
            ctrl += int(re.search(r'tx_ctrl_packets: +(\d+)', out).group(1))
        # l3: the interface answers ARP and ND itself, through the control
        # ring, which only the rx_burst flush empties (io mode sends only
        # what it received). eth: packets released from a resolved path
        # take the same way, when the kernel sent before the path was there.
        h.info('control packets sent: %d' % ctrl)
        if scenario == 'l3':
            h.check(ctrl >= 2, 'ARP/ND answers sent by the interfaces: %d' % ctrl)
        tb.close(hosts, osm)



def eth_pings(h, b, c, macs, scenario):
    wait_ping(h, b, ['10.0.0.3'], 'b -> c IPv4')
    wait_ping(h, c, ['10.0.0.2'], 'c -> b IPv4')
    wait_ping(h, b, ['-6', '2001:db8::3'], 'b -> c IPv6 global')
    wait_ping(h, c, ['-6', '2001:db8::2'], 'c -> b IPv6 global')
    if scenario == 'eth':
        wait_ping(h, b, ['-6', '-I', b.tap, link_local(c)], 'b -> c IPv6 link-local')
        wait_ping(h, c, ['-6', '-I', c.tap, link_local(b)], 'c -> b IPv6 link-local')
    for me, other in ((b, c), (c, b)):
        neigh = me.ip('neigh', 'show', 'dev', me.tap)
        h.info('%s: ip neigh:\n%s' % (me.name, neigh))
        h.check(re.search(r'10\.0\.0\.%d lladdr %s' % (other.idx, macs[other.name]), neigh),
                '%s: ip neigh shows %s (10.0.0.%d, %s):\n%s' %
                (me.name, other.name, other.idx, macs[other.name], neigh))
        neigh6 = me.ip('-6', 'neigh', 'show', 'dev', me.tap)
        h.check('2001:db8::%d lladdr %s' % (other.idx, macs[other.name]) in neigh6,
                '%s: ip -6 neigh shows %s:\n%s' % (me.name, other.name, neigh6))


if __name__ == '__main__':
    main()
