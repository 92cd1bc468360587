#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-3-Clause
# Copyright(c) 2026 The dpdk-ipoib authors
"""Clients of the user-MAD service that die, crowd and stall (issue 14,
doc/guides/prog_guide/ibmad_umad.rst "Clients"): OpenSM on a DPDK host
(sa_host idle on hosta, through usertools/dpdk-ib-ns) and, next to it:

1. a raw umad client (umad_client.py hold) with three agents and a send
   outstanding is SIGKILLed mid-transaction: the service's counters
   (<run dir>/stats) go back to what OpenSM alone holds, and a class the
   dead client held (vendor 0x09, method Get), refused to a second
   client while the first lived, is registered by a new one;
2. OpenSM itself is SIGKILLed: no file, agent or issm is left, IsSM
   leaves the port's CapabilityMask, and a new OpenSM registers the SM
   classes again and brings the subnet up;
3. a client that never reads (umad_client.py flood) sends 600 PerfMgt
   requests to the switch: its queue holds 256 and every other answer is
   dropped and counted; meanwhile smpquery to the switch answers as fast
   as before (median of 3 runs), and saquery, perfquery, smpquery and sminfo run
   in four concurrent loops next to OpenSM's sweeps, every run
   succeeding;
4. ports/1/counters/* (Linux sysfs.c show_pma_counter() names and
   formats, from the HCA's PMA PortCounters through the local MAD_IFC)
   equal perfquery's PortCounters of the same port.

usage: test_umad_clients.py <ibfabric> <netfile> <sa_host> <preload> <dpdk-ib-ns>
"""

import os
import re
import statistics
import subprocess
import sys
import threading
import time

from simlib import Fabric, Harness

BDF = '0000:10:00.0'
HERE = os.path.dirname(os.path.abspath(__file__))
CLIENT = os.path.join(HERE, 'umad_client.py')
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


def read_stats(run):
    try:
        with open(os.path.join(run, 'stats')) as f:
            return {k: int(v) for k, v in (ln.split() for ln in f if ln.strip())}
    except FileNotFoundError:
        return {}


def main():
    ibfabric, netfile, sa_host, preload, ns = (os.path.abspath(p) for p in sys.argv[1:6])
    with Harness('umad_clients', timeout=240) as h:
        for prog in ('opensm', 'saquery', 'perfquery', 'smpquery', 'sminfo', 'unshare'):
            h.need_program(prog)
        root = h.path('pci')
        fab = Fabric(h, ibfabric, netfile, tag='ucl', extra=['--pci-root', root])
        h.wait_for(lambda: os.path.exists(os.path.join(root, BDF, 'iommu.sock')),
                   timeout=10, what='the simulated PCI function')
        run = h.path('umad-run')
        os.makedirs(run)
        h.on_teardown(lambda: subprocess.run(['umount', '-l', os.path.join(run, 'dev')],
                                             stderr=subprocess.DEVNULL))
        host = h.spawn([sa_host, '--no-huge', '-m', '256', '--file-prefix',
                        'ucl%d' % os.getpid(), '-a', BDF, '--', 'idle'],
                       name='dpdk-host', stdin=True,
                       env={'SYSFS_PCI_DEVICES': root, 'DPDK_IB_UMAD_DIR': run})
        h.wait_for(lambda: os.path.exists(os.path.join(run, 'dev', 'umad0')), timeout=60,
                   what='umad0 from the DPDK host')
        env = {'DPDK_IB_UMAD_PRELOAD': preload}

        def tool(argv, timeout=30, check=True):
            return h.run([ns, run] + argv, env=env, timeout=timeout, check=check)

        def opensm():
            p = h.spawn([ns, run, 'opensm', '-F', '/dev/null', '-f', '-', '-d2', '-s', '2'],
                        name='opensm', env=env)
            h.wait_log(p, 'SUBNET UP', timeout=90)
            return p

        def stats_are(want, what):
            def ok():
                s = read_stats(run)
                return s and all(s.get(k) == v for k, v in want.items())
            h.wait_for(ok, timeout=10, interval=0.2,
                       what='%s: stats %r (have %r)' % (what, want, read_stats(run)))

        osm = opensm()
        hosta = [p for p in fab.ports('hosta') if p['num'] == '1'][0]
        sw_lid = int([p for p in fab.ports('sw') if p['num'] == '0'][0]['lid'])
        h.wait_for(lambda: read_stats(run).get('issm') == 1, timeout=10,
                   what='stats: OpenSM holds issm0')
        time.sleep(1.5)        # one more refresh: OpenSM's agents all counted
        base = read_stats(run)
        h.info('OpenSM alone: %r' % base)
        h.check(base['files'] >= 1 and base['agents'] >= 2,
                'OpenSM holds a umad file and its agents: %r' % base)

        # 1. a client killed mid-transaction
        holder = h.spawn([ns, run, sys.executable, CLIENT, '/dev/infiniband/umad0',
                          'hold', '0x77'], name='holder', env=env)
        h.wait_log(holder, 'HOLDING', timeout=20)
        stats_are({'files': base['files'] + 1, 'agents': base['agents'] + 3},
                  'the holder open with 3 agents')
        r = tool([sys.executable, CLIENT, '/dev/infiniband/umad0', 'register', '0x09'])
        h.check('REFUSED' in r.stdout, 'vendor class 0x09 Get taken twice: %r' % r.stdout)
        h.info('second registration while the holder lives: %s' % r.stdout.strip())
        h.stop(holder, sig=9)
        stats_are({'files': base['files'], 'agents': base['agents']},
                  'the SIGKILLed holder released')
        r = tool([sys.executable, CLIENT, '/dev/infiniband/umad0', 'register', '0x09'])
        h.check('REGISTERED' in r.stdout, 'class 0x09 after the holder died: %r' % r.stdout)
        stats_are({'files': base['files'], 'agents': base['agents']},
                  'the registering client exited')

        # 2. OpenSM killed: its SM-class agents and issm go, a new one comes up
        h.stop(osm, sig=9)
        stats_are({'files': 0, 'agents': 0, 'issm': 0}, 'OpenSM SIGKILLed')

        def sm_bit():
            p = [p for p in fab.ports('hosta') if p['num'] == '1'][0]
            return int(p['cap_mask'], 16) & 0x2
        h.wait_for(lambda: not sm_bit(), timeout=10, what='IsSM cleared after the kill')
        osm = opensm()
        h.check(sm_bit(), 'IsSM set again by the new OpenSM')
        stats_are({'files': base['files'], 'agents': base['agents'], 'issm': 1},
                  'the new OpenSM registered its agents again')
        r = tool(['sminfo'])
        h.check('sm lid %s' % hosta['lid'] in r.stdout and 'SMINFO_MASTER' in r.stdout,
                'sminfo after the restart: %r' % r.stdout)

        # 3. a reader that never reads, next to clients that do
        def smpquery_s():
            t = time.monotonic()
            tool(['smpquery', 'nodeinfo', str(sw_lid)])
            return time.monotonic() - t
        before = statistics.median(smpquery_s() for _ in range(3))
        drops0 = read_stats(run).get('rx_drops', 0)
        flood = h.spawn([ns, run, sys.executable, CLIENT, '/dev/infiniband/umad0',
                         'flood', str(sw_lid), str(FLOOD)], name='flood', env=env)
        h.wait_log(flood, 'FLOODED', timeout=40)
        sent = int(re.search(r'FLOODED sent=(\d+)', flood.log()).group(1))
        h.check_eq(sent, FLOOD, 'requests the slow reader sent')
        # every send ends in one delivery (answer or time-out): past the
        # queue's 256, each is dropped and counted
        h.wait_for(lambda: read_stats(run).get('rx_drops', 0) - drops0 == FLOOD - RXQ,
                   timeout=15, interval=0.2,
                   what='rx_drops + %d (have %r)' % (FLOOD - RXQ, read_stats(run)))
        during = statistics.median(smpquery_s() for _ in range(3))
        h.info('smpquery median: %.3f s alone, %.3f s next to the full queue' %
               (before, during))
        h.check(during <= 3.0 * before + 0.5,
                'smpquery slowed by the stuck reader: %.3f s vs %.3f s' % (during, before))

        failures = []
        runs = []

        def loop(argv, n=3):
            for _ in range(n):
                r = tool(argv, check=False)
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
        stats_are({'files': base['files'], 'agents': base['agents']},
                  'the slow reader killed')

        # 4. counters/ against perfquery (the same PMA, through umad)
        cdir = None
        for d in os.listdir(os.path.join(run, 'sys/class/infiniband')):
            cdir = os.path.join(run, 'sys/class/infiniband', d, 'ports/1/counters')

        def counters():
            return {n: int(open(os.path.join(cdir, n)).read()) for n in PMA}
        h.wait_for(lambda: os.path.isdir(cdir), timeout=5, what=cdir)
        for n in PMA:
            with open(os.path.join(cdir, n)) as f:
                text = f.read()
            h.check(re.fullmatch(r'\d+\n', text) is not None,
                    'counters/%s: %r is not "%%u\\n"' % (n, text))
        s1 = counters()
        pq = {}
        for name, val in re.findall(r'^(\w+):\.*(\d+)$', tool(['perfquery']).stdout, re.M):
            pq[name] = int(val)
        time.sleep(2.2)          # two refreshes: s2 was read after perfquery
        s2 = counters()
        for n, pqn in PMA.items():
            h.check(pqn in pq, 'perfquery lacks %s: %r' % (pqn, pq))
            h.check(s1[n] <= pq[pqn] <= s2[n],
                    'counters/%s %d .. %d vs perfquery %s %d' % (n, s1[n], s2[n], pqn, pq[pqn]))
        h.check(s2['port_xmit_packets'] > s1['port_xmit_packets'],
                'counters/port_xmit_packets follows OpenSM\'s sweeps: %d -> %d' %
                (s1['port_xmit_packets'], s2['port_xmit_packets']))
        h.info('counters/ within perfquery\'s values in %d counters; port_xmit_packets '
               '%d -> %d' % (len(PMA), s1['port_xmit_packets'], s2['port_xmit_packets']))

        h.stop(osm)
        host.write('QUIT\n')
        h.wait_for(lambda: not host.alive(), timeout=30, what='the DPDK host quits')


if __name__ == '__main__':
    main()
