#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-3-Clause
# Copyright(c) 2026 The dpdk-ipoib authors
"""net_mthca under faults (issue 13, "Show"), two DPDK hosts (mthca_host)
on one ibfabric with OpenSM:

* tx mbufs without an address handle: counted (oerrors, tx_q0_no_ah),
  freed, never sent;
* multi-segment sends: the HCA gathers them into one datagram, verified;
* rx mempool exhausted (the receiver keeps every mbuf): rx_nombuf grows,
  and traffic resumes once the mbufs are freed;
* the DPDK host killed: the model resets the function, a new host
  attaches, comes up under the SM and exchanges datagrams;
* ibfabric killed under traffic: both hosts see their port go down with
  an LSC event, do not crash, and close cleanly.

usage: test_mthca_faults.py <ibfabric> <netfile> <mthca_host>
"""

import os
import re
import signal
import sys
import time

from simlib import Fabric, Harness, find_umad2sim, start_opensm
from test_mthca_fabric import HOSTS, Host


def up(h, x):
    m = re.match(r'READY lid=(\d+) qpn=(\d+) txqpn=(\d+)', x.expect('READY', timeout=90))
    x.lid, x.qpn, x.txqpn = int(m.group(1)), int(m.group(2)), int(m.group(3))


def exchange(h, src, dst, count, size, what):
    dst.p.write('RECV %d 20000\n' % count)
    src.cmd('SEND %d %d %d %d 10000' % (dst.lid, dst.qpn, count, size), timeout=60)
    line = dst.expect('OK received', timeout=60)
    h.info('%s: %s' % (what, line))


def main():
    ibfabric, netfile, exe = (os.path.abspath(a) for a in sys.argv[1:4])
    with Harness('mthca_faults', timeout=280) as h:
        lib = find_umad2sim(h)
        h.need_program('opensm')
        root = h.path('pci')
        fab = Fabric(h, ibfabric, netfile, tag='mflt', extra=['--pci-root', root])
        h.wait_for(lambda: all(os.path.exists(os.path.join(root, b, 'iommu.sock'))
                               for _, b in HOSTS), timeout=10, what='the PCI functions')
        a, b = [Host(h, exe, root, n, bdf) for n, bdf in HOSTS]
        start_opensm(h, fab, lib, 'ca-sm')
        up(h, a)
        up(h, b)

        # no address handle: counted and freed, never sent
        _, xb0 = b.stats()
        a.cmd('NOAH 100')
        sa, xa = a.stats()
        _, xb1 = b.stats()
        h.check_eq(xa['tx_q0_no_ah'], 100, 'tx_q0_no_ah')
        h.check_eq(sa['oerrors'], 100, 'oerrors after 100 mbufs without an AH')
        h.check_eq(sa['opackets'], 0, 'opackets after 100 mbufs without an AH')
        h.check_eq(xb1['rx_q0_packets'], xb0['rx_q0_packets'], 'datagrams received by hostb')

        # gather: 3 segments per datagram, reassembled and verified by the receiver
        b.cmd('PEER %d %d' % (a.lid, a.txqpn))
        b.p.write('RECV 300 20000\n')
        a.cmd('SEGS %d %d 300 1500 3' % (b.lid, b.qpn), timeout=60)
        h.info('3-segment sends: ' + b.expect('OK received', timeout=30))
        b.cmd('PEER 0 0')

        # rx mempool exhausted: rx_nombuf grows, traffic resumes afterwards
        b.p.write('HOLD 16000 6000\n')
        a.cmd('SEND %d %d 12000 64 4000' % (b.lid, b.qpn), timeout=60)
        held = int(b.expect('OK held', timeout=30).split()[2])
        sb, _ = b.stats()
        h.info('hostb held %d mbufs, rx_nombuf %d' % (held, sb['rx_nombuf']))
        h.check(sb['rx_nombuf'] > 0, 'rx_nombuf did not grow with the mempool empty')
        b.cmd('RELEASE')
        exchange(h, a, b, 1000, 256, 'after the mempool came back')

        # the host killed: the model resets the function, a new host comes up
        h.stop(a.p, sig=signal.SIGKILL)
        h.wait_log(fab.proc, 'hosta: host gone', timeout=10)
        a = Host(h, exe, root, *HOSTS[0])
        up(h, a)
        exchange(h, b, a, 1000, 2044, 'with the new hosta')

        # ibfabric killed under traffic: link down and LSC, no crash, clean close
        b.p.write('RECV 1000000 4000\n')
        a.p.write('SEND %d %d 1000000 256 20000\n' % (b.lid, b.qpn))
        time.sleep(1.0)
        h.stop(fab.proc, sig=signal.SIGKILL)
        for x in (a, b):
            h.wait_log(x.p, 'EVENT LSC down', timeout=30)
        h.wait_log(a.p, 'ERR stalled after', timeout=30)
        for x in (a, b):
            x.p.write('QUIT\n')
        for x in (a, b):
            h.wait_for(lambda: not x.p.alive(), timeout=60, what='%s to exit' % x.name)
            h.check_eq(x.p.popen.returncode, 0, '%s exit status' % x.name)
            h.check('OK bye' in x.p.log(), '%s did not close cleanly' % x.name)


if __name__ == '__main__':
    main()
