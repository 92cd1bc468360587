#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-3-Clause
# Copyright(c) 2026 The dpdk-ipoib authors
"""Several clients of the user-MAD service at once, one of them stuck, and
the counters/ attributes (issue 14, doc/guides/prog_guide/ibumad_lib.rst):
OpenSM on a DPDK host (sa_host idle on hosta, through
usertools/dpdk-ib-ns) and, next to it:

1. a client that never reads (umad_client.py flood) sends 600 PerfMgt
   requests to the switch: its queue holds 256 and every other answer is
   dropped and counted (<run dir>/stats rx_drops); meanwhile smpquery to
   the switch answers about as fast as before (median of 3 runs), and
   saquery, perfquery, smpquery and sminfo run in four concurrent loops
   next to OpenSM's sweeps, every run succeeding;
2. ports/1/counters/* (Linux sysfs.c show_pma_counter() names and
   formats, from the HCA's PMA PortCounters through the local MAD_IFC),
   read before and after a perfquery of the same port, bracket each of
   perfquery's 16 PortCounters; port_xmit_packets grows with the sweeps.

usage: test_umad_load.py <ibfabric> <netfile> <sa_host> <preload> <dpdk-ib-ns>
"""

import os
import re
import statistics
import threading
import time

from simlib import Harness
from umad_host import UmadHost

RXQ = 256        # rte_ibmad_umad_conf.rx_queue default
FLOOD = 600

# counters/<file> (Linux sysfs.c) -> perfquery's name (infiniband-diags)
PMA = {
    'symbol_error': 'SymbolErrorCounter',
    'link_error_recovery': 'LinkErrorRecoveryCounter',
    'link_downed': 'LinkDownedCounter',
    'port_rcv_errors': 'PortRcvErrors',
    'port_rcv_remote_physical_errors': 'PortRcvRemotePhysicalErrors',
    'port_rcv_switch_relay_errors': 'PortRcvSwitchRelayErrors',
    'port_xmit_discards': 'PortXmitDiscards',
    'port_xmit_constraint_errors': 'PortXmitConstraintErrors',
    'port_rcv_constraint_errors': 'PortRcvConstraintErrors',
    'local_link_integrity_errors': 'LocalLinkIntegrityErrors',
    'excessive_buffer_overrun_errors': 'ExcessiveBufferOverrunErrors',
    'VL15_dropped': 'VL15Dropped',
    'port_xmit_data': 'PortXmitData',
    'port_rcv_data': 'PortRcvData',
    'port_xmit_packets': 'PortXmitPkts',
    'port_rcv_packets': 'PortRcvPkts',
}


def main():
    with Harness('umad_load', timeout=240) as h:
        for prog in ('opensm', 'saquery', 'perfquery', 'smpquery', 'sminfo', 'unshare'):
            h.need_program(prog)
        u = UmadHost(h, 'uld')
        osm = u.opensm()
        sw_lid = int(u.port('sw', '0')['lid'])
        h.wait_for(lambda: u.stats().get('issm') == 1, timeout=10,
                   what='stats: OpenSM holds issm0')
        files = u.stats()['files']

        # 1. a reader that never reads, next to clients that do
        def smpquery_s():
            t = time.monotonic()
            u.tool(['smpquery', 'nodeinfo', str(sw_lid)])
            return time.monotonic() - t
        before = statistics.median(smpquery_s() for _ in range(3))
        drops0 = u.stats().get('rx_drops', 0)
        flood = u.spawn_client('flood', 'flood', str(sw_lid), str(FLOOD))
        h.wait_log(flood, 'FLOODED', timeout=40)
        sent = int(re.search(r'FLOODED sent=(\d+)', flood.log()).group(1))
        h.check_eq(sent, FLOOD, 'requests the slow reader sent')
        # every send ends in one delivery (answer or time-out): past the
        # queue's 256, each is dropped and counted
        h.wait_for(lambda: u.stats().get('rx_drops', 0) - drops0 == FLOOD - RXQ,
                   timeout=15, interval=0.2,
                   what='rx_drops + %d (have %r)' % (FLOOD - RXQ, u.stats()))
        during = statistics.median(smpquery_s() for _ in range(3))
        h.info('smpquery median: %.3f s alone, %.3f s next to the full queue' %
               (before, during))
        h.check(during <= 3.0 * before + 0.5,
                'smpquery slowed by the stuck reader: %.3f s vs %.3f s' % (during, before))

        failures = []
        runs = []

        def loop(argv, n=3):
            for _ in range(n):
                r = u.tool(argv, check=False)
                runs.append(argv[0])
                if r.returncode != 0:
                    failures.append('%s: rc %d %s' % (' '.join(argv), r.returncode,
                                                      r.stderr[-300:]))
        threads = [threading.Thread(target=loop, args=(a,)) for a in (
            ['saquery', '-N'], ['perfquery'],
            ['smpquery', 'nodeinfo', str(sw_lid)], ['sminfo'])]
        t0 = time.monotonic()
        for t in threads:
            t.start()
        for t in threads:
            t.join()
        h.check(not failures, 'concurrent diags failed: %r' % failures)
        h.info('%d diag runs in 4 concurrent loops in %.1f s, all succeeded' %
               (len(runs), time.monotonic() - t0))
        h.check(osm.alive(), 'OpenSM still runs')
        h.stop(flood, sig=9)
        u.stats_are({'files': files}, 'the slow reader killed')

        # 2. counters/ against perfquery (the same PMA, through umad)
        ib = os.path.join(u.run, 'sys/class/infiniband')
        cdir = os.path.join(ib, os.listdir(ib)[0], 'ports/1/counters')

        def counters():
            return {n: int(open(os.path.join(cdir, n)).read()) for n in PMA}
        h.wait_for(lambda: os.path.isdir(cdir), timeout=5, what=cdir)
        for n in PMA:
            with open(os.path.join(cdir, n)) as f:
                text = f.read()
            h.check(re.fullmatch(r'\d+\n', text) is not None,
                    'counters/%s: %r is not "%%u\\n"' % (n, text))
        s1 = counters()
        pq = {name: int(val) for name, val in
              re.findall(r'^(\w+):\.*(\d+)$', u.tool(['perfquery']).stdout, re.M)}
        time.sleep(2.2)          # two refreshes: s2 was read after perfquery
        s2 = counters()
        for n, pqn in PMA.items():
            h.check(pqn in pq, 'perfquery lacks %s: %r' % (pqn, pq))
            h.check(s1[n] <= pq[pqn] <= s2[n],
                    'counters/%s %d .. %d vs perfquery %s %d' % (n, s1[n], s2[n], pqn, pq[pqn]))
        h.check(s2['port_xmit_packets'] > s1['port_xmit_packets'],
                'counters/port_xmit_packets follows OpenSM\'s sweeps: %d -> %d' %
                (s1['port_xmit_packets'], s2['port_xmit_packets']))
        h.info('counters/ bracket perfquery\'s value in %d counters; port_xmit_packets '
               '%d -> %d' % (len(PMA), s1['port_xmit_packets'], s2['port_xmit_packets']))
        u.quit(osm)


if __name__ == '__main__':
    main()
