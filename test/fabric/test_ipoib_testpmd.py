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

import os
import re
import shutil
import subprocess
import sys

from simlib import Fabric, Harness, pmd_plugin_dir, sanitizer_preload, telemetry
from test_ipoib_if import start_opensm

import ipoib_testbed as testbed
from ipoib_testbed import wait_ping

SM_BDF = '0000:10:00.0'
HOSTS = (('b', '0000:11:00.0', 2), ('c', '0000:12:00.0', 3))


class Testpmd(testbed.Testpmd):
    """One dpdk-testpmd host in its namespace, started for a scenario;
    its commands, ip and ping are the test bed's (ipoib_testbed.py)."""

    def __init__(self, h, name, bdf, idx, scenario, plugdir, env):
        self.h, self.name, self.idx = h, name, idx
        self.ns = h.netns(name)
        self.tap = 'ipt' + name
        mode = 'l3' if scenario == 'l3' else 'eth'
        ipoib = 'net_ipoib0,dev=%s,mode=%s' % (bdf, mode)
        if scenario == 'child':
            ipoib += ',pkey=0x8001'
        if scenario == 'l3':
            ipoib += ',ipv4=10.0.0.%d,ipv6=2001:db8::%d' % (idx, idx)
            tap = 'net_tun0,iface=' + self.tap
        else:
            tap = 'net_tap0,iface=' + self.tap
        self.prefix = prefix = 'iptp%s%d' % (name, os.getpid())
        h.on_teardown(lambda: shutil.rmtree('/var/run/dpdk/' + prefix, ignore_errors=True))
        # One forwarding lcore each, on different cores (2-core machines).
        main = '0' if name == 'b' else '1'
        self.p = h.spawn(['stdbuf', '-oL', 'dpdk-testpmd', '-d', plugdir, '--no-huge',
                          '-m', '384', '-l', '0,1', '--main-lcore', main,
                          '--file-prefix', prefix, '-a', bdf, '--vdev=' + ipoib,
                          '--vdev=' + tap, '--log-level=pmd.net.ipoib:info',
                          '--', '-i', '--forward-mode=io', '--total-num-mbufs=4096'],
                         name='testpmd_' + name, stdin=True, env=env, netns=self.ns)
        h.wait_log(self.p, 'testpmd>', timeout=90)


def main():
    scenario = sys.argv[1]
    ibfabric, netfile, sa_host, mthca_so, ipoib_so, preload, ns_tool = (
        os.path.abspath(a) for a in sys.argv[2:9])
    with Harness('ipoib_testpmd_' + scenario, timeout=290) as h:
        for prog in ('dpdk-testpmd', 'opensm', 'unshare', 'ping', 'stdbuf'):
            h.need_program(prog)
        root = h.path('pci')
        Fabric(h, ibfabric, netfile, tag='iptp', extra=['--pci-root', root])
        h.wait_for(lambda: os.path.exists(os.path.join(root, HOSTS[-1][1], 'iommu.sock')),
                   timeout=10, what='the simulated PCI functions')
        plugdir = pmd_plugin_dir(h, (mthca_so, ipoib_so))
        env = dict(sanitizer_preload(h, ipoib_so), SYSFS_PCI_DEVICES=root,
                   LD_LIBRARY_PATH=None)

        run = h.path('umad-sm')
        os.makedirs(run)
        h.on_teardown(lambda: subprocess.run(['umount', '-l', os.path.join(run, 'dev')],
                                             stderr=subprocess.DEVNULL))
        sm_host = h.spawn([sa_host, '--no-huge', '-m', '256', '--file-prefix',
                           'iptpsm%d' % os.getpid(), '-a', SM_BDF, '--', 'idle'],
                          name='sm_host', stdin=True,
                          env={'SYSFS_PCI_DEVICES': root, 'DPDK_IB_UMAD_DIR': run})
        h.wait_for(lambda: os.path.exists(os.path.join(run, 'dev', 'umad0')),
                   timeout=60, what='umad0 of the SM host')
        extra = []
        if scenario == 'child':
            extra = ['-P', h.write_file('partitions.conf',
                                        'Default=0x7fff, ipoib : ALL=full ;\n'
                                        'P1=0x8001, ipoib : ALL=full ;\n')]
        osm = start_opensm(h, ns_tool, run, preload, 'opensm', extra)

        hosts = [Testpmd(h, n, bdf, idx, scenario, plugdir, env) for n, bdf, idx in HOSTS]
        macs = {}
        for t in hosts:
            # net_mthca's ports come first (the PCI bus is probed before
            # the vdevs): the IB port's, owned by net_ipoib0 and hidden,
            # and a second IB port's, not used; then net_ipoib0 and the TAP.
            t.port = int(re.search(r'net_ipoib0: port (\d+) on .* \(ethdev (\d+)\)',
                                   t.p.log()).group(1))
            t.lower = lower = int(re.search(r'net_ipoib0: port \d+ on .* \(ethdev (\d+)\)',
                                            t.p.log()).group(1))
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
            h.wait_for(lambda t=t: re.search(r'Link status: up',
                                             t.cmd('show port info %d' % t.port, r'testpmd>')),
                       timeout=60, interval=1, what='%s: net_ipoib0 link up' % t.name)
            h.check('Port %d: link state change event' % t.port in t.p.log(),
                    '%s: an LSC event for net_ipoib0' % t.name)
        h.info('both net_ipoib0 links up: MACs %s' % macs)

        b, c = hosts
        if scenario == 'l3':
            silent_peer_answers(h, b, c, macs)
        else:
            setup_kernel(h, b, scenario, macs['b'])
        setup_kernel(h, c, scenario, macs['c'])
        if scenario == 'l3':
            wait_ping(h, b, ['10.0.0.3'], 'b -> c IPv4')
            wait_ping(h, c, ['10.0.0.2'], 'c -> b IPv4')
            wait_ping(h, b, ['-6', '2001:db8::3'], 'b -> c IPv6')
            wait_ping(h, c, ['-6', '2001:db8::2'], 'c -> b IPv6')
        else:
            eth_pings(h, b, c, macs, scenario)
        for t in hosts:
            check_telemetry(h, t, hosts, scenario)
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
            check_first_contact(h, t, out, scenario)
            ctrl += int(re.search(r'tx_ctrl_packets: +(\d+)', out).group(1))
        # l3: the interface answers ARP and ND itself, through the control
        # ring, which only the rx_burst flush empties (io mode sends only
        # what it received). eth: packets released from a resolved path
        # take the same way, when the kernel sent before the path was there.
        h.info('control packets sent: %d' % ctrl)
        if scenario == 'l3':
            h.check(ctrl >= 2, 'ARP/ND answers sent by the interfaces: %d' % ctrl)
        for t in hosts:
            t.p.write('quit\n')
        for t in hosts:
            h.wait_for(lambda t=t: not t.p.alive(), timeout=60, what='%s quits' % t.p.name)
            h.check_eq(t.p.popen.returncode, 0, '%s exit status' % t.p.name)
        h.stop(osm)
        sm_host.write('QUIT\n')
        h.wait_for(lambda: not sm_host.alive(), timeout=30, what='sm_host exits')


def check_first_contact(h, t, out, scenario):
    """No packet lost for want of a neighbour while the hosts first
    resolved each other: the kernel answers an ARP/ND from a sender the
    control side has not learned yet (its SRC_NEW event is still on the
    ring), and a host sends to a group before its send-only join
    completed; lib/ipoib holds such packets (3 per unicast destination,
    16 per group) until the neighbour is there. Held packets dropped
    are only those of groups whose join the SM refused."""
    x = {k: int(v) for k, v in re.findall(r'(\w+): +(\d+)', out)}
    h.info('%s: tx_no_neigh_drops %d, tx_held_packets %d sent %d dropped %d' %
           (t.name, x.get('tx_no_neigh_drops', -1), x.get('tx_held_packets', -1),
            x.get('tx_held_sent', -1), x.get('tx_held_drops', -1)))
    if scenario == 'l3':
        return
    h.check_eq(x.get('tx_no_neigh_drops'), 0, '%s: tx_no_neigh_drops after first contact' %
               t.name)
    h.check(x.get('tx_held_packets', 0) >= 1 and x.get('tx_held_sent', 0) >= 1,
            '%s: first packets held and sent: %s' % (t.name, x))


def setup_kernel(h, t, scenario, mac):
    """The kernel side in the namespace: addresses, and for a TAP the MAC
    of net_ipoib0 (the Ethernet view's ARP and ND carry the port's MAC).
    Down and up again once the IB link is up, so that the kernel's MLD
    reports for its solicited-node groups (which lib/ipoib joins) and its
    duplicate address detection happen over a working link."""
    t.ip('link', 'set', t.tap, 'down')
    if scenario != 'l3':
        t.ip('link', 'set', t.tap, 'address', mac)
    t.ip('addr', 'add', '10.0.0.%d/24' % t.idx, 'dev', t.tap)
    t.ip('-6', 'addr', 'add', '2001:db8::%d/64' % t.idx, 'dev', t.tap, 'nodad')
    t.ip('link', 'set', t.tap, 'up')
    if scenario != 'l3':
        h.wait_for(lambda: 'fe80' in t.ip('-6', 'addr', 'show', 'dev', t.tap, 'scope', 'link')
                   and 'tentative' not in t.ip('-6', 'addr', 'show', 'dev', t.tap),
                   timeout=20, interval=0.5, what='%s: link-local address ready' % t.name)


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
            if not v.startswith('hw=00:ff:ff:ff:ff') and 'path=yes' in v]


def silent_peer_answers(h, b, c, macs):
    """mode=l3: C's interface answers B's ARP request for 10.0.0.3 (its
    ipv4= devarg) while C's kernel is down and sends nothing, so C's
    testpmd (io mode) never calls tx_burst: the answer can only leave
    through net_ipoib's rx_burst flush. B learns C from it."""
    c.ip('link', 'set', c.tap, 'down')
    setup_kernel(h, b, 'l3', macs['b'])
    b.ping('10.0.0.3', count=2)
    h.wait_for(lambda: peers(telemetry(b.prefix, '/ipoib/neigh,ib%d' % b.lower)),
               timeout=20, interval=0.5,
               what='B learns C from the ARP answer C\'s silent host flushed')
    h.info('C answered ARP with its kernel down: the rx_burst flush sent it')


def link_local(t):
    out = t.ip('-6', 'addr', 'show', 'dev', t.tap, 'scope', 'link')
    return re.search(r'inet6 (fe80::[0-9a-f:]+)/64', out).group(1)


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
