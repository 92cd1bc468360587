#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-3-Clause
# Copyright(c) 2026 The dpdk-ipoib authors
"""IPoIB partitions on the fabric (issue 26, "Show"): four DPDK hosts on
one switch (test/data/hca4.net): OpenSM on hosta through the user-MAD
service; hostb and hostc run dpdk-testpmd with a net_ipoib child on
P_Key 0x8001 (pkey=0x8001, mode=eth, to a TAP in a namespace); hostd is
only in the default partition.

1. Before the SM programs 0x8001: OpenSM's partition file has the
   default partition only; B's and C's children stay down. The file then
   gives 0x8001 to B's and C's port GUIDs (and 0x8002, for step 4) and
   OpenSM is sent SIGHUP (it re-reads the file and sweeps): the children
   come up, and B and C ping each other, IPv4 and IPv6.
2. D, in the default partition only (its net_ipoib0 on P_Key 0xffff,
   10.1.0.4/24 beside the children's 10.1.0.2 and .3), cannot reach
   them: its pings fail and its kernel's ARP entry stays unresolved (its
   ARP requests go to the default partition's broadcast group, which
   neither child is in).
3. The hardware enforces it: D's port (now driven by mthca_host, the raw
   UD host of the net_mthca tests) sends 40 datagrams with its P_Key
   (0xffff, index 0) straight to B's child's QP (QPN from the child's MAC,
   rte_ipoib_mac_from_hwaddr()). B's HCA drops each one (IBA 10.9.3, the
   P_Key check of a UD QP; the MT25208 model counts the violation): B's
   port's PortRcvConstraintErrors (perfquery, IBA 16.1.3.5) and
   P_KeyViolations (smpquery portinfo, IBA 14.2.5.6) both rise by at
   least 40, and B's child receives none of them.
4. A child made and removed at run time: in C's testpmd, `port attach
   net_ipoib1,...,pkey=0x8002`, `port start`: it comes up and joins the
   0x8002 broadcast group (ff12:401b:8002::ffff:ffff in saquery -g, C
   its only member, C's port its only member in saquery -m); `port stop`,
   `port detach` (rte_dev_remove()): the port is gone, C's port is no
   member of the group within 10 s (saquery -m), and the 0x8001 children
   still talk. testpmd runs `set port setup on
   iterator` first: its default sets up every ethdev that appears, the
   child's own (owned) UD ethdev too.

usage: test_ipoib_partition.py <ibfabric> <netfile> <sa_host>
           <librte_net_mthca.so> <librte_net_ipoib.so> <preload> <dpdk-ib-ns>
           <mthca_host>
"""

import os
import re
import signal
import sys

from harness import Harness
from ipoib_testbed import Testbed, Testpmd, bcast_members, setup_kernel, start_eth, wait_ping
from test_mthca_fabric import Host

HOSTS = (('b', '0000:11:00.0', 2), ('c', '0000:12:00.0', 3))
D_BDF = '0000:13:00.0'
BCAST_8002 = 'ff12:401b:8002::ffff:ffff'
DEFAULT = 'Default=0x7fff, ipoib : ALL=full ;\n'


def counters(tb, lid):
    """(PortRcvConstraintErrors, P_KeyViolations) of port 1 at @lid."""
    pq = tb.diag('perfquery', str(lid), '1')
    pi = tb.diag('smpquery', 'portinfo', str(lid), '1')
    rc = re.search(r'PortRcvConstraintErrors:\.*(\d+)', pq)
    pv = re.search(r'PkeyViolations:\.*(\d+)|P_KeyViolations:\.*(\d+)', pi)
    tb.h.check(rc is not None and pv is not None,
               'counters of LID %d:\n%s\n%s' % (lid, pq, pi))
    return int(rc.group(1)), int(pv.group(1) or pv.group(2))


def qpn_from_mac(mac, guid):
    """The QPN in an IPoIB address from the MAC the Ethernet view derives
    from it: low 40 bits of the GUID exclusive-or the QPN << 16."""
    v = int(mac.replace(':', ''), 16) & 0xffffffffff
    return ((v ^ (guid & 0xffffffffff)) >> 16) & 0xffffff


def main():
    with Harness('ipoib_partition', timeout=290) as h:
        tb = Testbed(h, 'ippk', sys.argv[1:8], D_BDF)
        mthca_host = os.path.abspath(sys.argv[8])
        tb.partitions(DEFAULT)
        osm = tb.opensm('opensm')

        # 1. children configured before the SM programs their P_Key
        hosts = [Testpmd(tb, n, bdf, idx, ['net_ipoib0,dev=%s,mode=eth,pkey=0x8001' % bdf,
                                           'net_tap0,iface=ipt' + n])
                 for n, bdf, idx in HOSTS]
        for t in hosts:
            t.port, _ = t.ipoib_port()
            t.mac_addr = t.mac(t.port)
            t.tap_port = t.port_of('net_tap0')
            t.cmd('set portlist %d,%d' % (t.port, t.tap_port), r'testpmd>')
            t.cmd('start', r'testpmd>')
        for t in hosts:
            out = t.cmd('show port info %d' % t.port, r'Link status: +\w+[\s\S]*testpmd>')
            h.check('Link status: down' in out,
                    '%s: the child is down while 0x8001 is not in the P_Key table' % t.name)
        guids = {n: int(tb.fabric.ports('host' + n)[0]['guid'], 16) for n in 'abcd'}
        # OpenSM's SA answers a requester only about partitions it shares:
        # the SM host (saquery's port) is in 0x8002 to see its group.
        tb.partitions(DEFAULT + 'P1=0x8001, ipoib : 0x%016x=full, 0x%016x=full ;\n'
                      'P2=0x8002, ipoib : 0x%016x=full, 0x%016x=full, 0x%016x=full ;\n' %
                      (guids['b'], guids['c'], guids['a'], guids['b'], guids['c']))
        os.kill(osm.pid, signal.SIGHUP)
        for t in hosts:
            t.link_up(t.port, timeout=60)
            setup_kernel(h, t, False, t.mac_addr, '10.1.0.%d/24' % t.idx,
                         '2001:db8:1::%d/64' % t.idx)
        h.info('children up once OpenSM, sent SIGHUP, programmed 0x8001')
        b, c = hosts
        wait_ping(h, b, ['10.1.0.3'], 'b -> c IPv4 on 0x8001')
        wait_ping(h, c, ['10.1.0.2'], 'c -> b IPv4 on 0x8001')
        wait_ping(h, b, ['-6', '2001:db8:1::3'], 'b -> c IPv6 on 0x8001')

        # 2. D, in the default partition only
        d = Testpmd(tb, 'd', D_BDF, 4, ['net_ipoib0,dev=%s,mode=eth' % D_BDF,
                                        'net_tap0,iface=iptd'], main_lcore=0)
        dport, _ = d.ipoib_port()
        start_eth(d, dport, d.port_of('net_tap0'), '10.1.0.4/24', '2001:db8:1::4/64')
        rx_before = b.xstats(b.port)
        # both at once: each waits out its unanswered requests
        pings = {dst: h.spawn(['ping', dst, '-c', '3', '-W', '2', '-i', '0.3'],
                              name='ping_d_' + dst, netns=d.ns)
                 for dst in ('10.1.0.2', '10.1.0.3')}
        for dst, p in pings.items():
            h.wait_for(lambda p=p: not p.alive(), timeout=30, what='ping %s ends' % dst)
            h.check(p.popen.returncode != 0 and '100% packet loss' in p.log(),
                    'd -> %s from the default partition fails:\n%s' % (dst, p.log()))
        neigh = d.ip('neigh', 'show', '10.1.0.2', 'dev', d.tap)
        h.check('lladdr' not in neigh, 'D never resolves B\'s child: %r' % neigh)
        h.info('d -> 10.1.0.2, 10.1.0.3: 100%% packet loss; ip neigh: %s' % neigh.strip())
        d.p.write('quit\n')
        h.wait_for(lambda: not d.p.alive(), timeout=60, what='d\'s testpmd quits')
        h.check_eq(d.p.popen.returncode, 0, 'd\'s testpmd exit status')

        # 3. the hardware refuses D's P_Key at B's child's QP
        lid_b = int(tb.fabric.ports('hostb')[0]['lid'])
        qpn = qpn_from_mac(b.mac_addr, guids['b'])
        raw = Host(h, mthca_host, tb.root, 'd_raw', D_BDF)
        raw.expect('READY', timeout=90)
        before = counters(tb, lid_b)
        raw.cmd('SEND %d %d 40 256 200' % (lid_b, qpn))
        h.wait_for(lambda: all(a - z >= 40 for a, z in zip(counters(tb, lid_b), before)),
                   timeout=15, interval=1,
                   what='B\'s port counts 40 P_Key violations (from %s)' % (before,))
        after = counters(tb, lid_b)
        rx_after = b.xstats(b.port)
        got = rx_after['rx_good_packets'] - rx_before['rx_good_packets']
        h.check(got < 40, 'B\'s child received none of D\'s datagrams (%d packets, '
                'the kernels\' own traffic included)' % got)
        h.info('40 datagrams P_Key 0xffff -> B\'s child QP 0x%06x (LID %d): '
               'PortRcvConstraintErrors %d -> %d, P_KeyViolations %d -> %d' %
               (qpn, lid_b, before[0], after[0], before[1], after[1]))
        raw.p.write('QUIT\n')
        h.wait_for(lambda: not raw.p.alive(), timeout=30, what='mthca_host quits')

        # 4. a child made and removed at run time
        c.cmd('stop', r'testpmd>')
        # testpmd's default ("event") sets up every ethdev that appears,
        # owned or not: a child's own UD ethdev too, which the child runs.
        c.cmd('set port setup on iterator', r'testpmd>')
        out = c.cmd('port attach net_ipoib1,dev=%s,mode=eth,pkey=0x8002' % HOSTS[1][1],
                    r'Port \d+ is attached[\s\S]*testpmd>|testpmd>', timeout=30)
        m = re.search(r'Port (\d+) is attached', out)
        h.check(m is not None, 'port attach net_ipoib1:\n' + out)
        child = int(m.group(1))
        c.cmd('port start %d' % child, r'testpmd>', timeout=30)
        c.link_up(child, timeout=60)
        h.wait_for(lambda: BCAST_8002 in tb.diag('saquery', '-g'), timeout=20, interval=1,
                   what='%s in saquery -g (C, its only member, joined)' % BCAST_8002)
        members = []

        def joined():
            members[:] = bcast_members(tb.saquery('-m'), BCAST_8002)
            return members
        h.wait_for(joined, timeout=20, interval=1,
                   what="C's port a member of %s (saquery -m)" % BCAST_8002)
        h.check(len(members) == 1, '%s: members %s, want C\'s port only' %
                (BCAST_8002, members))
        c.cmd('port stop %d' % child, r'testpmd>', timeout=30)
        out = c.cmd('port detach %d' % child, r'testpmd>', timeout=30)
        h.check('detached' in out.lower(), 'port detach %d:\n%s' % (child, out))
        out = c.cmd('show port summary all', r'testpmd>')
        h.check(not re.search(r'^%d\s' % child, out, re.M),
                'port %d gone after detach:\n%s' % (child, out))
        # The child left (IBA 15.2.5.17, MCMemberRecord Delete): C's port
        # is no member any more. The group itself stays in saquery -g
        # (doc/guides/nics/ipoib.rst, Limitations).
        h.wait_for(lambda: members[0] not in bcast_members(tb.saquery('-m'), BCAST_8002),
                   timeout=10, interval=0.5,
                   what="C's port %s no member of %s after the detach (saquery -m)" %
                   (members[0], BCAST_8002))
        h.info("C's port %s left %s at the detach (saquery -m); the group in "
               "saquery -g: %s" % (members[0], BCAST_8002,
                                  BCAST_8002 in tb.diag('saquery', '-g')))
        c.cmd('set portlist %d,%d' % (c.port, c.tap_port), r'testpmd>')
        c.cmd('start', r'testpmd>')
        wait_ping(h, b, ['10.1.0.3'], 'b -> c IPv4 on 0x8001 after the detach')
        h.info('net_ipoib1 on 0x8002 attached (port %d), up, joined, detached' % child)
        tb.close(hosts, osm)


if __name__ == '__main__':
    main()
