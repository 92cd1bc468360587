#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-3-Clause
# Copyright(c) 2026 The dpdk-ipoib authors
"""OpenSM's time from start to SUBNET UP on ibfabric and on ibsim, for one
generated fat tree of >= 2,000 CAs, in the same run; and each
simulator's peak RSS (VmHWM). Goal (issue 3): ibfabric <= 1.0x ibsim.

usage: bench_sweep.py <ibfabric> [hosts] [runs]

The net file comes from "ibfabric gen fattree --hosts N" and both
simulators read the same file. ibsim runs with -s -n (started, no
console: with a console at EOF it spins a core, ibsim.c sim_run())
and -N/-S raised above its 2048-node / 256-switch defaults. The
simulators run one after the other, never together, on this 2-core
machine, and alternate which goes first (ibfabric first in even runs,
ibsim in odd ones) so that a load that rises or falls during the bench
does not favour one of them; each run starts a fresh simulator and a
fresh OpenSM with -s 0 attached to the first CA. Time is measured from
spawning OpenSM to "SUBNET UP" in its log (-d2 flushes each line),
polled every 10 ms. Reported: the median of the runs with the
simulator's CPU time over the sweep and its idle CPU over 2 s after it;
the ratio of the medians; and, robust to the load of a shared machine,
the median of the per-run ratios (each pair ran back to back) and the
ratio of the simulators' median CPU times over the sweep.
"""

import os
import statistics
import sys
import time

from simlib import (Fabric, Harness, IbSim, find_umad2sim, first_ca,
                    net_file_nodes, proc_cpu_seconds, proc_peak_rss_kib)


def sweep_once(h, lib, sim, host, proc, tag):
    cache = h.path('cache-%s' % tag)
    os.makedirs(cache, exist_ok=True)
    env = sim.env(lib, host)
    env['OSM_CACHE_DIR'] = cache
    env['OSM_TMP_DIR'] = h.dir
    cpu0 = proc_cpu_seconds(proc.pid)
    t0 = time.monotonic()
    osm = h.spawn(['opensm', '-F', '/dev/null', '-f', '-', '-d2', '-s', '0'],
                  name='opensm-' + tag, env=env, cwd=h.dir)
    h.wait_for(lambda: 'SUBNET UP' in osm.log() or not osm.alive(), timeout=600,
               what='SUBNET UP (%s)' % tag, interval=0.01)
    secs = time.monotonic() - t0
    h.check('SUBNET UP' in osm.log(), '%s: OpenSM exited before SUBNET UP' % tag)
    cpu = proc_cpu_seconds(proc.pid) - cpu0
    time.sleep(0.5)
    c1 = proc_cpu_seconds(proc.pid)
    time.sleep(2.0)
    idle = (proc_cpu_seconds(proc.pid) - c1) / 2.0
    rss = proc_peak_rss_kib(proc.pid)
    h.stop(osm)
    return secs, cpu, idle, rss


def main():
    ibfabric = os.path.abspath(sys.argv[1])
    hosts = int(sys.argv[2]) if len(sys.argv) > 2 else 2016
    runs = int(sys.argv[3]) if len(sys.argv) > 3 else 5
    with Harness('bench_sweep', timeout=3000) as h:
        lib = find_umad2sim(h)
        h.need_program('opensm')
        h.need_program('ibsim')
        netfile = h.path('fattree.net')
        h.run([ibfabric, 'gen', 'fattree', '--hosts', str(hosts), '-o', netfile])
        nodes = net_file_nodes(netfile)
        ncas = sum(1 for t, _, _ in nodes if t == 'ca')
        nsw = len(nodes) - ncas
        h.check(ncas >= 2000, 'only %d CAs generated' % ncas)
        host = [n for t, n, _ in nodes if t == 'ca'][0]

        def run_ibfabric(i):
            fab = Fabric(h, ibfabric, netfile, tag='f%d' % i, extra=['-q'])
            h.check_eq(first_ca(fab.nodes()), host, 'first CA')
            results['ibfabric'].append(sweep_once(h, lib, fab, host, fab.proc, 'ibfabric%d' % i))
            fab.ctl.close()
            h.stop(fab.proc)

        def run_ibsim(i):
            sim = IbSim(h, netfile, tag='s%d' % i,
                        extra=['-N', str(len(nodes) + 64), '-S', str(nsw + 16)])
            results['ibsim'].append(sweep_once(h, lib, sim, host, sim.proc, 'ibsim%d' % i))
            h.stop(sim.proc)

        results = {'ibfabric': [], 'ibsim': []}
        for i in range(runs):
            pair = (run_ibfabric, run_ibsim) if i % 2 == 0 else (run_ibsim, run_ibfabric)
            for run in pair:
                run(i)

        print()
        print('fat tree: %d CAs, %d switches (%s); %d runs each, median' %
              (ncas, nsw, os.path.basename(netfile), runs))
        print('%-10s %14s %12s %12s %12s' % ('simulator', 'SUBNET UP (s)', 'sim CPU (s)',
                                            'idle CPU %', 'VmHWM (MiB)'))
        med = {}
        for name, rs in results.items():
            secs = statistics.median(r[0] for r in rs)
            cpu = statistics.median(r[1] for r in rs)
            idle = statistics.median(r[2] for r in rs)
            rss = max(r[3] for r in rs)
            med[name] = secs
            print('%-10s %14.3f %12.3f %12.1f %12.1f' % (name, secs, cpu, idle * 100, rss / 1024.0))
            print('%-10s %s' % ('', ' '.join('%.3f' % r[0] for r in rs)))
        ratio = med['ibfabric'] / med['ibsim']
        pairs = [f[0] / s[0] for f, s in zip(results['ibfabric'], results['ibsim'])]
        cpu = (statistics.median(r[1] for r in results['ibfabric']) /
               statistics.median(r[1] for r in results['ibsim']))
        print('per-run ratios: %s' % ' '.join('%.2f' % r for r in pairs))
        print('ratio ibfabric/ibsim: %.2fx of the medians, %.2fx median of the per-run '
              'ratios, %.2fx of the sweep CPU (goal <= 1.0x)' %
              (ratio, statistics.median(pairs), cpu))
        sys.stdout.flush()


if __name__ == '__main__':
    main()
