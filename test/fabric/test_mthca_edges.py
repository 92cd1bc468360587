#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-3-Clause
# Copyright(c) 2026 The dpdk-ipoib authors
"""net_mthca at its edges (issue 29), two DPDK hosts (mthca_host) on one
ibfabric, OpenSM started only after both hosts probed:

* link state: while the port is not ACTIVE (INIT before the SM, ARMED
  while it sweeps) the ethdev link is down; it is up once ACTIVE, with
  exactly one LSC event (up) and none down;
* doorbell record counters across their 16-bit wrap: 70,000 datagrams
  each way, all received intact (the send doorbell's wqe_counter and the
  SQ and RQ records are counted modulo 2^16);
* a transmit ring of 128 slots (at most 255, one doorbell's wqe_cnt)
  filled by one tx_burst from empty, three times, then drained: every
  datagram taken and received;
* rte_eth_stats_reset(): every basic counter and every xstat (queues,
  the PMA's counters, the MAD core's) reads 0 right after it.

usage: test_mthca_edges.py <ibfabric> <netfile> <mthca_host>
"""

import os
import re
import sys
import time

from simlib import Fabric, Harness, find_umad2sim, start_opensm
from test_mthca_fabric import HOSTS, Host

WRAP = 70000	# beyond 2^16
RING = 128


def up(x):
    m = re.match(r'READY lid=(\d+) qpn=(\d+) txqpn=(\d+)', x.expect('READY', timeout=90))
    x.lid, x.qpn, x.txqpn = int(m.group(1)), int(m.group(2)), int(m.group(3))


def check_link(h, x):
    """Up only when ACTIVE, one LSC event (up) before READY."""
    pre = x.p.log().split('READY')[0].splitlines()
    links = [tuple(int(v) for v in re.match(r'LINK state=(-?\d+) up=(-?\d+)', l).groups())
             for l in pre if l.startswith('LINK ')]
    h.info('%s: port state / link seen before READY: %s' % (x.name, links))
    h.check(any(s == 2 for s, _ in links), '%s: never seen INIT before the SM' % x.name)
    for s, u in links:
        h.check(s == 4 or u == 0, '%s: link up with the port in state %d' % (x.name, s))
    h.check(links and links[-1] == (4, 1), '%s: ACTIVE and up last: %s' % (x.name, links[-1:]))
    lsc = [l for l in pre if l.startswith('EVENT LSC')]
    h.check_eq(lsc, ['EVENT LSC up'], '%s: LSC events up to ACTIVE' % x.name)


def one_way(h, src, dst, count, size, pps, what):
    dst.cmd('PEER %d %d' % (src.lid, src.txqpn))
    dst.p.write('RECV %d 120000\n' % count)
    t0 = time.time()
    src.cmd('SEND %d %d %d %d %d' % (dst.lid, dst.qpn, count, size, pps), timeout=150)
    line = dst.expect('OK received', timeout=150)
    h.info('%s: %s in %.1f s' % (what, line, time.time() - t0))
    dst.cmd('PEER 0 0')


def main():
    ibfabric, netfile, exe = (os.path.abspath(a) for a in sys.argv[1:4])
    with Harness('mthca_edges', timeout=400) as h:
        lib = find_umad2sim(h)
        h.need_program('opensm')
        root = h.path('pci')
        fab = Fabric(h, ibfabric, netfile, tag='medg', extra=['--pci-root', root])
        h.wait_for(lambda: all(os.path.exists(os.path.join(root, b, 'iommu.sock'))
                               for _, b in HOSTS), timeout=10, what='the PCI functions')
        a, b = [Host(h, exe, root, n, bdf) for n, bdf in HOSTS]
        # both ports INIT and the links down before there is an SM
        for x in (a, b):
            h.wait_log(x.p, 'LINK state=2 up=0', timeout=60)
        time.sleep(1.0)
        start_opensm(h, fab, lib, 'ca-sm')
        up(a)
        up(b)
        for x in (a, b):
            check_link(h, x)

        # 16-bit wrap of the doorbell counters, each way
        one_way(h, a, b, WRAP, 64, 10000, 'hosta -> hostb, %d datagrams' % WRAP)
        one_way(h, b, a, WRAP, 64, 10000, 'hostb -> hosta, %d datagrams' % WRAP)
        sa, _ = a.stats()
        h.check(sa['opackets'] >= WRAP and sa['ipackets'] >= WRAP,
                'hosta stats after the wrap: %s' % sa)
        h.check_eq(sa['oerrors'], 0, 'hosta oerrors after the wrap')

        # a ring of RING slots filled by one burst from empty, then drained
        a.cmd('TXRING %d' % RING)
        for i in range(3):
            b.cmd('PEER %d %d' % (a.lid, a.txqpn))
            b.p.write('RECV %d 20000\n' % RING)
            line = a.cmd('BURST %d %d %d 256' % (b.lid, b.qpn, RING))
            h.check_eq(line, 'OK burst %d of %d' % (RING, RING), 'burst %d taken' % i)
            h.info('burst %d: %s' % (i, b.expect('OK received', timeout=30)))
            b.cmd('PEER 0 0')

        # stats reset: every counter and xstat 0 right after
        for x in (a, b):
            line = x.cmd('RESET')
            nonzero = [l for l in x.p.log().splitlines() if l.startswith('NONZERO')]
            h.check_eq(nonzero, [], '%s: counters not 0 after rte_eth_stats_reset' % x.name)
            h.info('%s: %s' % (x.name, line))
        for x in (a, b):
            x.p.write('QUIT\n')
        for x in (a, b):
            h.wait_for(lambda: not x.p.alive(), timeout=60, what='%s to exit' % x.name)
            h.check_eq(x.p.popen.returncode, 0, '%s exit status' % x.name)


if __name__ == '__main__':
    main()
