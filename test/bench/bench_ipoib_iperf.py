#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-3-Clause
# Copyright(c) 2026 The dpdk-ipoib authors
"""iperf3 TCP and ping RTT namespace to namespace over the fabric vs over a
net_memif pair (issue 26), the same application on both paths:
dpdk-ipoib-kernel-link with a TAP in each namespace, its "IB side"
net_ipoib0 (mode=eth, on net_mthca, hca3.net, OpenSM on a third DPDK host
through the user-MAD service) or one end of a net_memif pair.

Phases memif, fabric, memif (ABA: the machine is shared, so the ratio is
taken against the mean of the two memif phases around the fabric one),
each: ping 50 packets 20 ms apart (median RTT reported), iperf3 TCP for
BENCH_IPERF_S seconds (default 5), each iperf3 on its host's core and
ibfabric on the receiver's (AFFINITY below). Goal: fabric/memif TCP >= 0.8; the
RTTs are reported.

usage: bench_ipoib_iperf.py <ibfabric> <netfile> <sa_host> <dpdk-ipoib-kernel-link>
                            <librte_net_mthca.so> <librte_net_ipoib.so> <preload> <dpdk-ib-ns>
"""

import json
import os
import re
import signal
import statistics
import sys

from bench_ipoib_fabric import start_sm, stop_sm
from simlib import Fabric, Harness, pmd_plugin_dir
from test_kernel_link_fabric import HOSTS, IFACE, SM_BDF, Host

IPERF_S = int(os.environ.get('BENCH_IPERF_S', '5'))
GOAL = 0.8
# Each namespace's iperf3 on the core of its host's data lcore (b's is
# lcore 1, c's lcore 0, in both phases), as if each host were a machine,
# and ibfabric's thread, the HCAs and the switch that cost a real host no
# CPU, on the receiver's core, the one with time to spare. Left to the
# scheduler, the fabric phase was bimodal: 0.59-0.62 of memif with the
# model on the sender's core (TCP's sender and b's lcore, the bottleneck),
# 0.92-0.93 on the receiver's.
PIN = (os.cpu_count() or 1) >= 2
AFFINITY = {'b': ['-A', '1'], 'c': ['-A', '0']} if PIN else {'b': [], 'c': []}
MODEL_CPU = 0
MAC = {'b': '02:00:00:00:00:0b', 'c': '02:00:00:00:00:0c'}


def measure(h, ns_src, ns_dst, ip, what):
    """(median ping RTT in ms, iperf3 TCP bit/s) from @ns_src to @ip in @ns_dst."""
    r = h.run(['ping', '-c', '50', '-i', '0.02', '-W', '2', ip], netns=ns_src, timeout=60,
              check=False)
    rtts = [float(x) for x in re.findall(r'time=([\d.]+) ms', r.stdout)]
    h.check(len(rtts) >= 45, '%s: ping answered %d of 50:\n%s' % (what, len(rtts), r.stdout))
    rtt = statistics.median(rtts)
    srv = h.spawn(['iperf3', '-s', '-1', '-B', ip] + AFFINITY['c'], name='iperf3_s',
                  netns=ns_dst)
    h.wait_for(lambda: ':5201' in h.run(['ss', '-Hltn'], netns=ns_dst).stdout,
               timeout=10, interval=0.1, what='iperf3 server listening: %s' % srv.log())
    r = h.run(['iperf3', '-c', ip, '-t', str(IPERF_S), '-J'] + AFFINITY['b'], netns=ns_src,
              timeout=IPERF_S + 60)
    end = json.loads(r.stdout)['end']
    bps = end['sum_received']['bits_per_second']
    h.check(bps > 0, '%s: iperf3 moved nothing' % what)
    h.wait_for(lambda: not srv.alive(), timeout=10, what='iperf3 server exits')
    h.info('%s: ping median %.3f ms (%d answers), iperf3 TCP %.1f Mbit/s, '
           '%d retransmits' % (what, rtt, len(rtts), bps / 1e6,
                               end['sum_sent'].get('retransmits', -1)))
    return rtt, bps


def memif_phase(h, exe, n):
    """The kernel-link pair on a net_memif pair, namespaces of its own."""
    ns = {s: h.netns('bkm%s%d' % (s, n)) for s in 'bc'}
    sock = h.path('memif%d.sock' % n)
    procs = []
    for side, role, main in (('c', 'server', '1'), ('b', 'client', '0')):
        vdev = ('net_memif0,role=%s,socket=%s,socket-abstract=no,mac=%s' %
                (role, sock, MAC[side]))
        p = h.spawn([exe, '--no-huge', '-m', '256', '--no-pci', '-l', '0,1',
                     '--main-lcore', main, '--file-prefix', 'bkm%s%d_%d' % (side, os.getpid(), n),
                     '--vdev', vdev, '--', '--kind=tap', '--iface=' + IFACE,
                     '--stats-period=5'], name='klink_memif_' + side, netns=ns[side])
        h.wait_log(p, 'Kernel link:', timeout=30)
        procs.append(p)
    idx = {'b': 2, 'c': 3}
    for p, side in zip(procs, 'cb'):
        h.wait_log(p, 'Link up', timeout=30)
        h.run(['ip', 'addr', 'add', '10.0.0.%d/24' % idx[side], 'dev', IFACE], netns=ns[side])
    res = measure(h, ns['b'], ns['c'], '10.0.0.3', 'memif pair %d' % n)
    for p in procs:
        h.stop(p, sig=signal.SIGINT, timeout=30)
    return res


def main():
    (ibfabric, netfile, sa_host, exe, mthca_so, ipoib_so, preload,
     ns_tool) = (os.path.abspath(a) for a in sys.argv[1:9])
    with Harness('bench_ipoib_iperf', timeout=900) as h:
        for prog in ('opensm', 'unshare', 'ping', 'iperf3', 'ss'):
            h.need_program(prog)
        root = h.path('pci')
        fab = Fabric(h, ibfabric, netfile, tag='bki', extra=['--pci-root', root])
        if PIN:
            os.sched_setaffinity(fab.proc.popen.pid, {MODEL_CPU})
        h.wait_for(lambda: os.path.exists(os.path.join(root, HOSTS[-1][1], 'iommu.sock')),
                   timeout=10, what='the simulated PCI functions')
        plugdir = pmd_plugin_dir(h, (mthca_so, ipoib_so))
        sm_host, osm = start_sm(h, sa_host, root, SM_BDF, ns_tool, preload, [])

        m1 = memif_phase(h, exe, 1)

        hosts = [Host(h, exe, n, bdf, idx, 'eth', plugdir) for n, bdf, idx in HOSTS]
        b, c = hosts
        for t in hosts:
            h.wait_log(t.p, 'Link up', timeout=90)
            t.ip('addr', 'add', '10.0.0.%d/24' % t.idx, 'dev', IFACE)
        # the first packets wait for ARP and a PathRecord
        h.wait_for(lambda: b.ping('10.0.0.3', count=1).returncode == 0, timeout=40,
                   interval=0.5, what='a first answer over the fabric')
        f = measure(h, b.ns, c.ns, '10.0.0.3', 'fabric (net_ipoib on net_mthca)')
        # where the fabric lost datagrams: the models' own counters
        for node in ('hostb', 'hostc'):
            for line in fab.ctl.cmd('hca "%s" resources' % node, ok=False):
                if line.startswith('hca_dp '):
                    h.info(line)
        for t in hosts:
            h.stop(t.p, sig=signal.SIGINT, timeout=30)
            for line in re.findall(r'^(?:Final statistics|Port \d.*xstats).*$', t.p.log(),
                                   re.M):
                h.info('host %s: %s' % (t.name, line))

        m2 = memif_phase(h, exe, 2)

        mem_bps = (m1[1] + m2[1]) / 2
        mem_rtt = (m1[0] + m2[0]) / 2
        h.info('ping median RTT: fabric %.3f ms, memif %.3f ms, ratio %.2f' %
               (f[0], mem_rtt, f[0] / mem_rtt))
        h.info('iperf3 TCP: fabric %.1f Mbit/s, memif %.1f Mbit/s, ratio %.3f (goal >= %.1f)' %
               (f[1] / 1e6, mem_bps / 1e6, f[1] / mem_bps, GOAL))
        stop_sm(h, sm_host, osm)
        fab.stop_clean()
        h.info('iperf3 fabric/memif %.3f, goal >= %.1f %s' %
               (f[1] / mem_bps, GOAL, 'met' if f[1] / mem_bps >= GOAL else 'NOT met'))


if __name__ == '__main__':
    main()
