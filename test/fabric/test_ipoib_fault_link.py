#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-3-Clause
# Copyright(c) 2026 The dpdk-ipoib authors
"""IPoIB across a link outage (issue 26, Faults): the bed of ipoib_testpmd
(ipoib_testbed.py); B's cable pulled for 6 s (ibfabric's `link down
hostb 1`, then `link up`) while an iperf3 TCP stream runs from B to C and
a 2 MiB file is copied from B to C over TCP, paced to span the outage.
Both move data before the cable is pulled, and the stream's length
(10 s, 7 s in the sanitizer pass) outlasts the outage.

Asserted: net_ipoib0 on B goes down while the port is down (link status
and an LSC event) and up again once OpenSM re-activates the port (another
LSC event); C's port never moved; iperf3 ends normally with bytes > 0
received; the file arrives with the same SHA-256.

usage: test_ipoib_fault_link.py <ibfabric> <netfile> <sa_host>
       <librte_net_mthca.so> <librte_net_ipoib.so> <preload> <dpdk-ib-ns>
"""

import hashlib
import json
import os
import re
import sys
import time

from harness import Harness
from ipoib_testbed import Testbed, by_pass

FILE_SIZE = 2 << 20
RATE = 256 << 10          # bytes/s: the copy lasts ~8 s
OUTAGE_S = 6
# the cable is pulled within ~1 s of the start: the stream ends after
# it is back
IPERF_S = by_pass(10, 7)
TOOL = os.path.join(os.path.dirname(os.path.abspath(__file__)), 'ipoib_tcp_tool.py')


def main():
    with Harness('ipoib_fault_link', timeout=170) as h:
        h.need_program('iperf3')
        tb = Testbed(h, 'ipfl', sys.argv[1:8])
        tb.opensm()
        b, c = tb.eth_pair()
        src = h.path('payload.bin')
        with open(src, 'wb') as f:
            f.write(os.urandom(FILE_SIZE))
        with open(src, 'rb') as f:
            want = hashlib.sha256(f.read()).hexdigest()

        srv = h.spawn(['iperf3', '-s', '-1', '-B', '10.0.0.3'], name='iperf3_s', netns=c.ns)
        rcv = h.spawn([sys.executable, TOOL, 'recv', '5001', h.path('received.bin')],
                      name='recv', netns=c.ns)
        h.wait_log(rcv, 'listening', timeout=10)
        h.wait_for(lambda: ':5201 ' in h.run(['ss', '-ltnH'], netns=c.ns).stdout,
                   timeout=10, interval=0.2, what='iperf3 server listening')
        cli = h.spawn(['iperf3', '-c', '10.0.0.3', '-t', str(IPERF_S), '-J'],
                      name='iperf3_c', netns=b.ns)
        snd = h.spawn([sys.executable, TOOL, 'send', '10.0.0.3', '5001', src, str(RATE)],
                      name='send', netns=b.ns)

        def moving():
            """Both B's iperf3 data connection and the copy's have had 64
            KiB acknowledged (iperf3's control connection carries a few
            hundred bytes)."""
            out = h.run(['ss', '-tinH', 'state', 'established', 'dst', '10.0.0.3'],
                        netns=b.ns).stdout
            return sum(int(n) >= 65536 for n in re.findall(r'bytes_acked:(\d+)', out)) >= 2
        h.wait_for(moving, timeout=20, interval=0.2,
                   what='the stream and the copy moving data before the outage')
        lsc_b = b.lsc_events()
        h.check(snd.alive() and cli.alive(), 'the stream and the copy run before the outage')

        tb.fabric.ctl.cmd('link down hostb 1')
        h.wait_for(lambda: not b.is_up(), timeout=10, interval=0.5,
                   what='B: net_ipoib0 down while its port is down')
        h.check(b.lsc_events() > lsc_b, 'B: an LSC event for the down')
        h.info('B down: LSC events %d -> %d' % (lsc_b, b.lsc_events()))
        time.sleep(OUTAGE_S)
        h.check(not b.is_up(), 'B: still down before the cable returns')
        tb.fabric.ctl.cmd('link up hostb 1')
        t0 = time.monotonic()
        h.wait_for(lambda: b.is_up(), timeout=40, interval=0.5,
                   what='B: net_ipoib0 up once OpenSM re-activated the port')
        h.info('B up again %.1f s after the cable' % (time.monotonic() - t0))
        h.check(b.lsc_events() >= lsc_b + 2, 'B: LSC events down and up: %d -> %d' %
                (lsc_b, b.lsc_events()))
        h.check(c.is_up(), 'C: its link stayed up')

        h.wait_for(lambda: not snd.alive(), timeout=60, interval=0.5, what='the copy ends')
        h.check_eq(snd.popen.returncode, 0, 'sender exit status')
        h.wait_for(lambda: not rcv.alive(), timeout=10, what='the receiver ends')
        got = [ln.split() for ln in rcv.log().splitlines() if ln.startswith('sha256 ')]
        h.check(got, 'receiver result:\n' + rcv.log())
        h.info('file: %d bytes, sha256 %s (sent %s)' % (int(got[0][2]), got[0][1], want))
        h.check_eq(int(got[0][2]), FILE_SIZE, 'bytes received')
        h.check_eq(got[0][1], want, 'SHA-256 of the copy')

        h.wait_for(lambda: not cli.alive(), timeout=60, interval=0.5, what='iperf3 ends')
        h.check_eq(cli.popen.returncode, 0, 'iperf3 client exit status:\n' + cli.log()[-2000:])
        res = json.loads(cli.log())
        rx = res['end']['sum_received']['bytes']
        h.info('iperf3: %d bytes received over %.1f s, %d retransmits' %
               (rx, res['end']['sum_received']['seconds'],
                res['end']['sum_sent'].get('retransmits', -1)))
        h.check(rx > 0 and 'error' not in res, 'iperf3: bytes received %d' % rx)
        h.wait_for(lambda: not srv.alive(), timeout=10, what='the iperf3 server ends (-1)')
        tb.close()


if __name__ == '__main__':
    main()
