#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-3-Clause
# Copyright(c) 2026 The dpdk-ipoib authors
"""UD queues and UD ports through rte_ib (issue 28): two DPDK hosts on
net_mthca (test/fabric/mthca_host), OpenSM with a second partition,
P_Key 0x8001, beside the default one.

1. rte_ib_ud_queue_info() gives each host's queue QPNs (those READY
   printed), the default Q_Key and P_Key index 0, live after the start.
2. rte_ib_ud_qkey_set() on hostb's started ethdev: the QPs take the new
   Q_Key at once (RTS->RTS); datagrams with the old Q_Key are dropped by
   the HCA (IBA 10.2.4: none received), with the new one all arrive.
3. rte_ib_ud_port_create() on the index of P_Key 0x8001 on both hosts:
   a further ethdev "<parent>.8001" whose QPs use that index; datagrams
   between the two UD ports all arrive, with that P_Key index in the
   mbuf; a datagram from a UD port to the parent's QP (P_Key 0xffff) is
   dropped (IBA 10.9.3); the parent ethdev keeps running throughout (its
   QPs stay live, same QPNs, traffic flows), and each ethdev counts only
   its own packets.
4. rte_ib_ud_port_destroy(): the ethdev is gone, its mbufs are back, and
   the model's count of what the driver holds in the HCA ("hca <node>
   resources": QPs, CQs, MPTs, MTT entries, UARC pages...) is what it was
   before the UD port; the parent still carries traffic.

usage: test_mthca_udport.py <ibfabric> <netfile> <mthca_host>
"""

import os
import re
import sys

from simlib import Fabric, Harness, find_umad2sim, start_opensm
from test_mthca_fabric import HOSTS, Host, finish, resources

# OpenSM partition file: the default partition (P_Key 0xffff) and 0x8001,
# every port a full member of both
PARTITIONS = ('Default=0x7fff, ipoib : ALL=full ;\n'
              'child=0x0001 : ALL=full ;\n')
DEFAULT_QKEY = 0x00000b1b
NEW_QKEY = 0x1234abcd
COUNT = 1000
PPS = 20000


def qinfo(x):
    line = x.cmd('QINFO', 'OK qinfo')
    return {k: int(v, 0) for k, v in (f.split('=', 1) for f in line.split()[2:])}


def transfer(h, src, dst, dqpn, count, size=256, expect_all=True):
    """@count datagrams @src -> @dst's QP @dqpn; the number @dst received."""
    dst.p.write('RECV %d %d\n' % (count, 20000 if expect_all else 2000))
    src.cmd('SEND %d %d %d %d %d' % (dst.lid, dqpn, count, size, PPS), timeout=60)
    line = dst.expect('OK received', timeout=60, fail=False)
    m = re.search(r'received (\d+) of (\d+) bad (\d+) dup (\d+)', line)
    h.check(m is not None, '%s: %s' % (dst.name, line))
    h.check_eq(int(m.group(3)), 0, '%s: bad datagrams (%s)' % (dst.name, line))
    return int(m.group(1))


def main():
    ibfabric, netfile, exe = (os.path.abspath(a) for a in sys.argv[1:4])
    with Harness('mthca_udport', timeout=280) as h:
        lib = find_umad2sim(h)
        root = h.path('pci')
        part = h.write_file('partitions.conf', PARTITIONS)
        fab = Fabric(h, ibfabric, netfile, tag='mudp', extra=['--pci-root', root])
        h.wait_for(lambda: all(os.path.exists(os.path.join(root, b, 'iommu.sock'))
                               for _, b in HOSTS), timeout=10, what='the PCI functions')
        hosts = [Host(h, exe, root, n, b) for n, b in HOSTS]
        start_opensm(h, fab, lib, 'ca-sm', extra=['-P', part])
        for x in hosts:
            m = re.match(r'READY lid=(\d+) qpn=(\d+) txqpn=(\d+)', x.expect('READY', timeout=90))
            x.lid, x.qpn, x.txqpn = int(m.group(1)), int(m.group(2)), int(m.group(3))
        a, b = hosts

        # 1. the queues through rte_ib
        parent = {}
        for x in hosts:
            q = qinfo(x)
            h.info('%s: %s' % (x.name, q))
            h.check_eq((q['rx_qpn'], q['tx_qpn']), (x.qpn, x.txqpn), '%s: QPNs' % x.name)
            h.check_eq((q['rx_qkey'], q['tx_qkey']), (DEFAULT_QKEY, DEFAULT_QKEY),
                       '%s: default Q_Key' % x.name)
            h.check_eq((q['rx_pkey_index'], q['tx_pkey_index'], q['rx_live'], q['tx_live'],
                        q['ib_port']), (0, 0, 1, 1, 1), '%s: P_Key index, live, port' % x.name)
            parent[x.name] = q
        a.cmd('PEER %d %d' % (b.lid, b.txqpn))
        b.cmd('PEER %d %d' % (a.lid, a.txqpn))
        h.check_eq(transfer(h, a, b, b.qpn, COUNT), COUNT, 'parent a -> b')

        # 2. a live Q_Key change on hostb's started queues
        b.cmd('QKEY %x' % NEW_QKEY, 'OK qkey')
        q = qinfo(b)
        h.check_eq((q['rx_qkey'], q['tx_qkey'], q['rx_live'], q['rx_qpn']),
                   (NEW_QKEY, NEW_QKEY, 1, b.qpn), 'hostb: new Q_Key on the same live QPs')
        h.check_eq(qinfo(a)['rx_qkey'], DEFAULT_QKEY, 'hosta keeps its Q_Key')
        h.check_eq(transfer(h, a, b, b.qpn, 500, expect_all=False), 0,
                   'datagrams with the old Q_Key 0x%x received' % DEFAULT_QKEY)
        a.cmd('SQKEY %x' % NEW_QKEY, 'OK sqkey')
        h.check_eq(transfer(h, a, b, b.qpn, 500), 500, 'datagrams with the new Q_Key')
        b.cmd('QKEY %x' % DEFAULT_QKEY, 'OK qkey')
        a.cmd('SQKEY %x' % DEFAULT_QKEY, 'OK sqkey')
        b_parent_rx = COUNT + 500

        # 3. a UD port on P_Key 0x8001 on each host
        before = {x.name: resources(fab, x.name) for x in hosts}
        ud = {}
        for x in hosts:
            line = x.cmd('UDPORT 8001', 'OK udport', timeout=60)
            m = re.search(r'port=(\d+) pkey_index=(\d+) qpn=(\d+) txqpn=(\d+) name=(\S+)', line)
            h.check(m is not None, '%s: %s' % (x.name, line))
            ud[x.name] = {'port': int(m.group(1)), 'idx': int(m.group(2)),
                          'qpn': int(m.group(3)), 'txqpn': int(m.group(4)),
                          'name': m.group(5)}
            h.info('%s: UD port %s' % (x.name, ud[x.name]))
            h.check(ud[x.name]['idx'] != 0, '%s: P_Key 0x8001 at index 0' % x.name)
            h.check(ud[x.name]['name'].endswith('.8001'),
                    '%s: UD port name %s' % (x.name, ud[x.name]['name']))
            h.check(ud[x.name]['qpn'] not in (x.qpn, x.txqpn), '%s: own QPs' % x.name)
            x.cmd('USE %d' % ud[x.name]['port'], 'OK use')
            q = qinfo(x)
            h.check_eq((q['rx_pkey_index'], q['tx_pkey_index'], q['rx_live'], q['ib_port']),
                       (ud[x.name]['idx'], ud[x.name]['idx'], 1, 1),
                       '%s: UD port queues' % x.name)
        ua, ub = ud[a.name], ud[b.name]
        b.cmd('PEER %d %d' % (a.lid, ua['txqpn']))
        a.cmd('PEER %d %d' % (b.lid, ub['txqpn']))
        h.check_eq(transfer(h, a, b, ub['qpn'], COUNT), COUNT, 'UD port a -> UD port b')
        h.check_eq(transfer(h, b, a, ua['qpn'], COUNT, size=2044), COUNT,
                   'UD port b -> UD port a')
        # P_Key 0x8001 is not 0xffff: the parent's QP drops it (IBA 10.9.3)
        b.cmd('USE 0', 'OK use')
        h.check_eq(transfer(h, a, b, b.qpn, 200, expect_all=False), 0,
                   'UD port (P_Key 0x8001) -> parent QP (0xffff) received')
        # the parent kept running: same live QPs, traffic flows
        a.cmd('USE 0', 'OK use')
        b.cmd('PEER %d %d' % (a.lid, a.txqpn))
        for x in hosts:
            q = qinfo(x)
            h.check_eq((q['rx_qpn'], q['tx_qpn'], q['rx_live'], q['tx_live']),
                       (x.qpn, x.txqpn, 1, 1), '%s: parent queues with a UD port' % x.name)
        h.check_eq(transfer(h, a, b, b.qpn, COUNT), COUNT, 'parent a -> b beside UD ports')
        b_parent_rx += COUNT
        # statistics of its own
        sb, _ = b.stats()
        h.check_eq(sb['ipackets'], b_parent_rx, 'hostb parent ipackets')
        b.cmd('USE %d' % ub['port'], 'OK use')
        sub, _ = b.stats()
        h.check_eq((sub['ipackets'], sub['opackets']), (COUNT, COUNT),
                   'hostb UD port ipackets, opackets')
        b.cmd('USE 0', 'OK use')

        # 4. destroyed: the HCA holds what it held before
        for x in hosts:
            x.cmd('UDDEL %d' % ud[x.name]['port'], 'OK uddel')
            h.check_eq(resources(fab, x.name), before[x.name],
                       '%s: model resources after the UD port' % x.name)
        h.check_eq(transfer(h, a, b, b.qpn, COUNT), COUNT, 'parent a -> b after the UD ports')

        finish(h, fab, hosts)


if __name__ == '__main__':
    main()
