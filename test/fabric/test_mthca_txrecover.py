#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-3-Clause
# Copyright(c) 2026 The dpdk-ipoib authors
"""net_mthca recovers a send queue after an error completion (issue 29),
two DPDK hosts (mthca_host) on one ibfabric with OpenSM:

* the model's fault "hca hosta fail-send <tx QPN>" makes hosta's next send
  WQE complete with a local protection error and its QP go to ERR, as the
  silicon does for a gather entry its MR refuses;
* net_mthca counts it (tx_q0_err_local_prot, oerrors), frees its mbuf,
  and its transmit watch takes the QP through RESET back to RTS
  (tx_q0_recoveries);
* later sends reach hostb, every datagram verified;
* the same with a full burst in flight: the WQEs behind the failed one are
  flushed (tx_q0_flushed), each received datagram is one that was neither
  failed nor flushed;
* no mbuf is lost or freed twice: the sender's mempool in-use count is
  back where it was;
* the console rejects a bad fault naming its value.

usage: test_mthca_txrecover.py <ibfabric> <netfile> <mthca_host>
"""

import os
import re
import sys

from simlib import Fabric, Harness, find_umad2sim, start_opensm
from test_mthca_fabric import HOSTS, Host, finish

ERR_KINDS = ('local_length', 'local_qp_op', 'local_prot', 'local_access', 'other')


def up(x):
    m = re.match(r'READY lid=(\d+) qpn=(\d+) txqpn=(\d+)', x.expect('READY', timeout=90))
    x.lid, x.qpn, x.txqpn = int(m.group(1)), int(m.group(2)), int(m.group(3))


def in_use(x):
    return int(x.cmd('MBUFS').split()[3])


def received(x, timeout=30):
    """The count of a RECV that may fall short ("OK|ERR received <n> of <m> bad <b> ...")."""
    line = x.expect('OK received', timeout=timeout, fail=False)
    m = re.match(r'(OK|ERR) received (\d+) of (\d+) bad (\d+) dup (\d+)', line)
    if m is None:
        raise AssertionError('%s: %s' % (x.name, line))
    return int(m.group(2)), int(m.group(4)), int(m.group(5))


def recovered(h, x, n):
    """Wait until the transmit watch has recovered @x's queue @n times; its stats."""
    got = {}

    def done():
        s, xs = x.stats()
        got['s'], got['xs'] = s, xs
        return xs['tx_q0_recoveries'] >= n
    h.wait_for(done, timeout=10, what='%s: recovery %d of its send queue' % (x.name, n),
               interval=0.2)
    return got['s'], got['xs']


def fail_sends(fab, node):
    out = fab.ctl.cmd('hca "%s" resources' % node)
    line = next(x for x in out if x.startswith('hca_dp '))
    return int(re.search(r'fail_sends=(\d+)', line).group(1))


def main():
    ibfabric, netfile, exe = (os.path.abspath(a) for a in sys.argv[1:4])
    with Harness('mthca_txrecover', timeout=280) as h:
        lib = find_umad2sim(h)
        h.need_program('opensm')
        root = h.path('pci')
        fab = Fabric(h, ibfabric, netfile, tag='mtxr', extra=['--pci-root', root])
        h.wait_for(lambda: all(os.path.exists(os.path.join(root, b, 'iommu.sock'))
                               for _, b in HOSTS), timeout=10, what='the PCI functions')
        a, b = [Host(h, exe, root, n, bdf) for n, bdf in HOSTS]
        start_opensm(h, fab, lib, 'ca-sm')
        up(a)
        up(b)
        b.cmd('PEER %d %d' % (a.lid, a.txqpn))

        # bad faults: rejected naming the value, nothing armed
        out = fab.ctl.cmd('hca "hosta" fail-send 0x1000000', ok=False)
        h.check(out and 'qpn "0x1000000"' in out[-1], 'fail-send 0x1000000: %r' % out)
        out = fab.ctl.cmd('hca "hosta" fail-send 1', ok=False)
        h.check(out and out[-1].startswith('error: ') and 'QP 0x1 is not a UD QP in RTS'
                in out[-1], 'fail-send on QP1: %r' % out)

        # a clean exchange first; then the sender's mbufs in use are the baseline
        b.p.write('RECV 200 20000\n')
        a.cmd('SEND %d %d 200 256 10000' % (b.lid, b.qpn), timeout=60)
        h.check_eq(received(b), (200, 0, 0), 'hostb: datagrams of the clean exchange')
        base = in_use(a)
        s0, _ = a.stats()

        # one send fails: the datagram is lost, nothing else
        out = fab.ctl.cmd('hca "hosta" fail-send %d' % a.txqpn)
        h.check(any(x.startswith('hca_fault ') for x in out), 'fail-send: %r' % out)
        b.p.write('RECV 1 1500\n')
        a.cmd('SEND %d %d 1 256 1000' % (b.lid, b.qpn), timeout=60)
        h.check_eq(received(b), (0, 0, 0), 'hostb: the datagram whose send failed')
        h.check_eq(fail_sends(fab, 'hosta'), 1, 'send WQEs the model failed')

        # the queue works again at once (tx_burst returns 0 while it recovers,
        # mthca_host retries): every datagram reaches hostb
        b.p.write('RECV 1000 20000\n')
        a.cmd('SEND %d %d 1000 512 10000' % (b.lid, b.qpn), timeout=60)
        h.check_eq(received(b), (1000, 0, 0), 'hostb: datagrams sent after the failed one')

        # counted, its mbuf freed, the queue recovered once
        s1, x1 = recovered(h, a, 1)
        h.info('after one failed send: oerrors %d, %s' % (
            s1['oerrors'], ' '.join('%s=%d' % (k, v) for k, v in x1.items()
                                    if k.startswith('tx_q0_'))))
        h.check_eq(x1['tx_q0_err_local_prot'], 1, 'tx_q0_err_local_prot')
        for k in ERR_KINDS:
            if k != 'local_prot':
                h.check_eq(x1['tx_q0_err_' + k], 0, 'tx_q0_err_' + k)
        h.check_eq(x1['tx_q0_flushed'], 0, 'tx_q0_flushed (nothing behind the failed WQE)')
        h.check_eq(x1['tx_q0_recoveries'], 1, 'tx_q0_recoveries')
        h.check_eq(s1['oerrors'] - s0['oerrors'], 1, 'oerrors after one failed send')
        h.check(a.p.log().count('recovered after a send error') == 1,
                'hosta did not log its recovery once')
        h.check_eq(in_use(a), base, 'hosta mbufs in use after one failure and recovery')

        # a full burst in flight: the WQEs behind the failed one are flushed
        fab.ctl.cmd('hca "hosta" fail-send %d' % a.txqpn)
        b.p.write('RECV 2000 8000\n')
        a.cmd('SEND %d %d 2000 256 10000' % (b.lid, b.qpn), timeout=60)
        got, bad, dup = received(b)
        s2, x2 = recovered(h, a, 2)
        flushed = x2['tx_q0_flushed']
        h.info('burst in flight: hostb received %d of 2000, %d flushed' % (got, flushed))
        h.check_eq((bad, dup), (0, 0), 'hostb: bad and duplicate datagrams')
        h.check_eq(x2['tx_q0_err_local_prot'], 2, 'tx_q0_err_local_prot after the second fault')
        h.check(flushed > 0, 'no WQE flushed behind a failed one in a burst of 32')
        h.check_eq(got, 2000 - 1 - flushed, 'datagrams received: sent - failed - flushed')
        h.check_eq(s2['oerrors'] - s1['oerrors'], 1 + flushed, 'oerrors: failed + flushed')
        h.check_eq(in_use(a), base, 'hosta mbufs in use after a flushed burst')

        # and the queue works once more
        b.p.write('RECV 500 20000\n')
        a.cmd('SEND %d %d 500 2044 10000' % (b.lid, b.qpn), timeout=60)
        h.check_eq(received(b), (500, 0, 0), 'hostb: datagrams after the second recovery')
        h.check_eq(in_use(a), base, 'hosta mbufs in use at the end')
        finish(h, fab, (a, b))


if __name__ == '__main__':
    main()
