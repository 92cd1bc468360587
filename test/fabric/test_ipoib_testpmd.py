#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-3-Clause
# Copyright(c) 2026 The dpdk-ipoib authors
"""net_ipoib in Debian's unmodified dpdk-testpmd (issue 26): two DPDK
hosts on ibfabric, each a dpdk-testpmd in io mode between net_ipoib0 (on
its HCA's port, net_mthca) and a net_tap0 whose kernel side is in a
network namespace the test made; OpenSM on a third DPDK host through the
user-MAD service. The kernels of the two namespaces talk over the fabric.

Scenarios, run one after the other on one bed (ipoib_testbed.py: one
ibfabric, one SM host, one OpenSM whose partition file gives every port
0x7fff and 0x8001), each with its own two testpmd hosts and namespaces,
its checks prefixed with its name in the output:

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

usage: test_ipoib_testpmd.py <scenario>[,<scenario>...] <ibfabric> <netfile>
           <sa_host> <librte_net_mthca.so> <librte_net_ipoib.so> <preload>
           <dpdk-ib-ns>
"""

import re
import sys

from simlib import Harness, telemetry

from ipoib_testbed import (HOSTS, Testbed, Testpmd, link_local, link_local_ready,
                           setup_kernel, wait_ping)

SCENARIOS = ('eth', 'l3', 'child')
PARTITIONS = ('Default=0x7fff, ipoib : ALL=full ;\n'
              'P1=0x8001, ipoib : ALL=full ;\n')


def vdevs(scenario, bdf, idx, tap):
    """The --vdev arguments of a host of @scenario: net_ipoib0, and the
    TAP (eth, child) or TUN (l3) it forwards to."""
    ipoib = 'net_ipoib0,dev=%s,mode=%s' % (bdf, 'l3' if scenario == 'l3' else 'eth')
    if scenario == 'child':
        ipoib += ',pkey=0x8001'
    if scenario == 'l3':
        ipoib += ',ipv4=10.0.0.%d,ipv6=2001:db8::%d' % (idx, idx)
        return [ipoib, 'net_tun0,iface=' + tap]
    return [ipoib, 'net_tap0,iface=' + tap]


def main():
    scenarios = sys.argv[1].split(',')
    for sc in scenarios:
        if sc not in SCENARIOS:
            sys.exit('test_ipoib_testpmd: unknown scenario %r' % sc)
    name = 'ipoib_testpmd' + ('' if len(scenarios) > 1 or scenarios == ['eth']
                              else '_' + scenarios[0])
    with Harness(name, timeout=290) as h:
        tb = Testbed(h, 'iptp', sys.argv[2:9])
        tb.partitions(PARTITIONS)
        tb.opensm()
        for sc in scenarios:
            h.info('== scenario %s ==' % sc)
            scenario(h, tb, sc)
            h.info('== scenario %s: passed ==' % sc)
        tb.close(hosts=[])


class Scoped:
    """The harness with every check and message prefixed by a scenario's
    name, so that a failure says which scenario it is in."""

    def __init__(self, h, tag):
        self._h, self._tag = h, tag

    def __getattr__(self, attr):
        return getattr(self._h, attr)

    def info(self, msg):
        self._h.info('%s: %s' % (self._tag, msg))

    def check(self, cond, msg):
        self._h.check(cond, '%s: %s' % (self._tag, msg))

    def check_eq(self, got, expected, what):
        self._h.check_eq(got, expected, '%s: %s' % (self._tag, what))

    def wait_for(self, cond, timeout=10, what='condition', interval=0.02):
        return self._h.wait_for(cond, timeout=timeout, what='%s: %s' % (self._tag, what),
                                interval=interval)


def scenario(h, tb, sc):
    """One scenario on the bed: its hosts started, checked and quit."""
    h = Scoped(h, sc)
    sfx = '' if sc == 'eth' else sc
    hosts = []
    for n, bdf, idx in HOSTS:
        hosts.append(Testpmd(tb, n + sfx, bdf, idx, vdevs(sc, bdf, idx, 'ipt' + n + sfx)))
        hosts[-1].h = h
    macs = {}
    for t in hosts:
        # net_mthca's ports come first (the PCI bus is probed before
        # the vdevs): the IB port's, owned by net_ipoib0 and hidden,
        # and a second IB port's, not used; then net_ipoib0 and the TAP.
        t.port, t.lower = t.ipoib_port()
        lower = t.lower
        out = t.cmd('show port info %d' % t.port, r'Driver name: +\S+[\s\S]*testpmd>')
        h.check('Driver name: net_ipoib' in out, '%s: port %d is net_ipoib0:\n%s' %
                (t.name, t.port, out))
        macs[t.name] = re.search(r'MAC address: ([0-9A-Fa-f:]{17})', out).group(1).lower()
        out = t.cmd('show port summary all', r'testpmd>')
        h.check(not re.search(r'^%d\s' % lower, out, re.M),
                '%s: the IB port\'s ethdev %d is owned, testpmd skips it:\n%s' %
                (t.name, lower, out))
        t.cmd('set portlist %d,%d' % (t.port, t.port + 1), r'testpmd>')
        t.cmd('start', r'testpmd>')
    for t in hosts:
        t.link_up()
        h.check('Port %d: link state change event' % t.port in t.p.log(),
                '%s: an LSC event for net_ipoib0' % t.name)
    h.info('both net_ipoib0 links up: MACs %s' % macs)

    b, c = hosts
    if sc == 'l3':
        silent_peer_answers(h, b, c, macs)
    else:
        kernel(h, b, sc, macs[b.name], wait=False)
    kernel(h, c, sc, macs[c.name], wait=False)
    if sc != 'l3':
        for t in hosts:
            link_local_ready(h, t)
    if sc == 'l3':
        wait_ping(h, b, ['10.0.0.3'], 'b -> c IPv4')
        wait_ping(h, c, ['10.0.0.2'], 'c -> b IPv4')
        wait_ping(h, b, ['-6', '2001:db8::3'], 'b -> c IPv6')
        wait_ping(h, c, ['-6', '2001:db8::2'], 'c -> b IPv6')
    else:
        eth_pings(h, b, c, macs, sc)
    for t in hosts:
        check_telemetry(h, t, hosts, sc)
    ctrl = 0
    for t in hosts:
        out = t.cmd('show port stats %d' % t.port, r'TX-packets: +\d+[\s\S]*testpmd>')
        rx = int(re.search(r'RX-packets: +(\d+)', out).group(1))
        tx = int(re.search(r'TX-packets: +(\d+)', out).group(1))
        h.check(rx >= 10 and tx >= 10, '%s: net_ipoib0 stats count the pings:\n%s' %
                (t.name, out))
        x = t.xstats()
        for name in ('rx_wrong_pkey_drops', 'tx_no_neigh_drops', 'tx_ctrl_packets'):
            h.check(name in x, '%s: xstats lack %s' % (t.name, name))
        check_first_contact(h, t, x, sc)
        ctrl += x['tx_ctrl_packets']
    # l3: the interface answers ARP and ND itself, through the control
    # ring, which only the rx_burst flush empties (io mode sends only
    # what it received). eth: packets released from a resolved path
    # take the same way, when the kernel sent before the path was there.
    h.info('control packets sent: %d' % ctrl)
    if sc == 'l3':
        h.check(ctrl >= 2, 'ARP/ND answers sent by the interfaces: %d' % ctrl)
    tb.quit(hosts)


def check_first_contact(h, t, x, sc):
    """No packet lost for want of a neighbour while the hosts first
    resolved each other: the kernel answers an ARP/ND from a sender the
    control side has not learned yet (its SRC_NEW event is still on the
    ring), and a host sends to a group before its send-only join
    completed; lib/ipoib holds such packets (3 per unicast destination,
    16 per group) until the neighbour is there. @x: the port's xstats."""
    h.info('%s: tx_no_neigh_drops %d, tx_held_packets %d sent %d dropped %d' %
           (t.name, x.get('tx_no_neigh_drops', -1), x.get('tx_held_packets', -1),
            x.get('tx_held_sent', -1), x.get('tx_held_drops', -1)))
    if sc == 'l3':
        return
    h.check_eq(x.get('tx_no_neigh_drops'), 0, '%s: tx_no_neigh_drops after first contact' %
               t.name)
    h.check(x.get('tx_held_packets', 0) >= 1 and x.get('tx_held_sent', 0) >= 1,
            '%s: first packets held and sent: %s' % (t.name, x))


def kernel(h, t, sc, mac, wait=True):
    """The kernel side of @t in its namespace (ipoib_testbed.setup_kernel)."""
    setup_kernel(h, t, sc == 'l3', mac, '10.0.0.%d/24' % t.idx, '2001:db8::%d/64' % t.idx,
                 wait=wait)


def check_telemetry(h, t, hosts, scenario):
    """ethdev's telemetry lists net_ipoib0 and not the ethdev it owns;
    lib/ipoib's endpoints answer for the port's interface."""
    ports = telemetry(t.prefix, '/ethdev/list')['/ethdev/list']
    h.check(t.port in ports and t.lower not in ports,
            '%s: /ethdev/list %s: net_ipoib0 (%d), not its ethdev %d' %
            (t.name, ports, t.port, t.lower))
    ifs = telemetry(t.prefix, '/ipoib/interfaces')['/ipoib/interfaces']
    h.info('%s: /ipoib/interfaces: %s' % (t.name, ifs))
    # lib/ipoib's names: ib<IB port's ethdev> for a parent, <that>.<pkey> for a child
    name = 'ib%d' % t.lower if scenario != 'child' else None
    text = str(ifs)
    h.check(name is None or name in text, '%s: interface %s listed: %s' % (t.name, name, text))
    h.check(scenario != 'child' or re.search(r"'ib\d+\.8001'", text),
            '%s: the child on P_Key 0x8001 listed: %s' % (t.name, text))
    if scenario != 'child':
        neigh = telemetry(t.prefix, '/ipoib/neigh,' + name)
        h.info('%s: /ipoib/neigh,%s: %s' % (t.name, name, neigh))
        h.check(peers(neigh), '%s: /ipoib/neigh,%s lists the peer with a path: %s' %
                (t.name, name, neigh))


def peers(neigh):
    """Unicast neighbours with a path in a /ipoib/neigh answer (a group's
    address starts 00:ff:ff:ff:ff)."""
    return [v for v in neigh['/ipoib/neigh'].values()
            if ' hw=00:ff:ff:ff:ff' not in v and 'path=yes' in v]


def silent_peer_answers(h, b, c, macs):
    """mode=l3: C's interface answers B's ARP request for 10.0.0.3 (its
    ipv4= devarg) while C's kernel is down and sends nothing, so C's
    testpmd (io mode) never calls tx_burst: the answer can only leave
    through net_ipoib's rx_burst flush. B learns C from it."""
    c.ip('link', 'set', c.tap, 'down')
    kernel(h, b, 'l3', macs[b.name])
    # B's kernel asks ARP for 10.0.0.3 (the echo requests go unanswered)
    p = h.spawn(['ping', '-c', '2', '-i', '0.3', '10.0.0.3'], name='ping_' + b.name,
                netns=b.ns)
    h.wait_for(lambda: peers(telemetry(b.prefix, '/ipoib/neigh,ib%d' % b.lower)),
               timeout=20, interval=0.2,
               what='B learns C from the ARP answer C\'s silent host flushed')
    h.stop(p)
    h.info('C answered ARP with its kernel down: the rx_burst flush sent it')


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
