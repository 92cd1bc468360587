#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-3-Clause
# Copyright(c) 2026 The dpdk-ipoib authors
"""OpenSM's time from start to SUBNET UP on a DPDK host (the user-MAD
service of librte_ibmad, through usertools/dpdk-ib-ns) and on a passive
CA through ibsim's libumad2sim, for the same generated fat tree of
>= 2,000 CAs, in the same run. Goal (issue 14): DPDK host <= 1.25x.

usage: bench_umad_sweep.py <ibfabric> <sa_host> <preload> <dpdk-ib-ns> [hosts] [runs]

The net file is "ibfabric gen fattree --hosts N --active 1": H0001 is an
MT25208 model. In both kinds of run the DPDK host (test/fabric/sa_host,
idle, with its user-MAD service) is attached to H0001, so the fabric
OpenSM sweeps is the same; OpenSM (-s 0, -d2 flushes its log) runs on it
through the wrapper, or on H0002 under LD_PRELOAD=libumad2sim.so. Each
run starts a fresh ibfabric, host and OpenSM; the kinds alternate which
goes first. Time is from spawning OpenSM to "SUBNET UP" in its log,
polled every 10 ms. Medians and per-run ratios are printed; the machine
has 2 cores, shared by ibfabric, the host's threads and OpenSM. With
them, for each process (ibfabric, the host, OpenSM), the CPU seconds and
the context switches of all its threads up to SUBNET UP: a sweep that
keeps four SMPs on the wire is bound by the thread wake-ups each SMP
costs, and these counts say where they are (see the user-MAD guide's
performance section).
"""

import os
import statistics
import subprocess
import sys
import time

from simlib import Fabric, Harness, find_umad2sim, net_file_nodes

BDF = '0000:10:00.0'


def descendants(root):
    """@root and every process below it (OpenSM runs under dpdk-ib-ns)."""
    parent = {}
    for d in os.listdir('/proc'):
        if d.isdigit():
            try:
                with open('/proc/%s/stat' % d) as f:
                    parent[int(d)] = int(f.read().rsplit(')', 1)[1].split()[1])
            except (OSError, ValueError, IndexError):
                pass
    out = [root]
    for pid in parent:
        p = parent.get(pid)
        while p is not None and p > 1:
            if p == root:
                out.append(pid)
                break
            p = parent.get(p)
    return out


def cost(pids):
    """(CPU seconds, context switches) of all threads of @pids."""
    ticks = os.sysconf('SC_CLK_TCK')
    cpu, csw = 0.0, 0
    for pid in pids:
        try:
            for tid in os.listdir('/proc/%d/task' % pid):
                base = '/proc/%d/task/%s/' % (pid, tid)
                with open(base + 'stat') as f:
                    fields = f.read().rsplit(')', 1)[1].split()
                cpu += (int(fields[11]) + int(fields[12])) / ticks
                with open(base + 'status') as f:
                    csw += sum(int(line.split()[1]) for line in f if 'ctxt_switches' in line)
        except (OSError, ValueError, IndexError):
            pass    # a thread that ended meanwhile
    return cpu, csw


def per_thread(pid):
    """'name cpu/switches' of each thread of @pid that ran, busiest first."""
    ticks = os.sysconf('SC_CLK_TCK')
    out = []
    try:
        tids = os.listdir('/proc/%d/task' % pid)
    except OSError:
        return ''
    for tid in tids:
        base = '/proc/%d/task/%s/' % (pid, tid)
        try:
            with open(base + 'stat') as f:
                head, rest = f.read().rsplit(')', 1)
            fields = rest.split()
            cpu = (int(fields[11]) + int(fields[12])) / ticks
            with open(base + 'status') as f:
                csw = sum(int(line.split()[1]) for line in f if 'ctxt_switches' in line)
        except (OSError, ValueError, IndexError):
            continue
        if cpu > 0 or csw > 100:
            out.append((cpu, '%s %.2f/%d' % (head.split('(', 1)[1], cpu, csw)))
    return ', '.join(t for _, t in sorted(out, reverse=True))


def main():
    ibfabric, sa_host, preload, ns = (os.path.abspath(a) for a in sys.argv[1:5])
    hosts = int(sys.argv[5]) if len(sys.argv) > 5 else 2016
    runs = int(sys.argv[6]) if len(sys.argv) > 6 else 5
    with Harness('bench_umad_sweep', timeout=3000) as h:
        lib = find_umad2sim(h)
        h.need_program('opensm')
        netfile = h.path('fattree.net')
        h.run([ibfabric, 'gen', 'fattree', '--hosts', str(hosts), '--active', '1',
               '-o', netfile])
        nodes = net_file_nodes(netfile)
        ncas = sum(1 for t, _, _ in nodes if t == 'ca')
        h.check(ncas >= 2000, 'only %d CAs generated' % ncas)

        def sweep(i, kind):
            tag = '%s%d' % (kind, i)
            root = h.path('pci-' + tag)
            run = h.path('umad-' + tag)
            cache = h.path('cache-' + tag)
            os.makedirs(run)
            os.makedirs(cache)
            fab = Fabric(h, ibfabric, netfile, tag=tag, extra=['-q', '--pci-root', root])
            h.wait_for(lambda: os.path.exists(os.path.join(root, BDF, 'iommu.sock')),
                       timeout=30, what='the simulated PCI function')
            host = h.spawn([sa_host, '--no-huge', '-m', '256', '--file-prefix',
                            'bus%s%d' % (tag, os.getpid()), '-a', BDF, '--', 'idle'],
                           name='host-' + tag, stdin=True,
                           env={'SYSFS_PCI_DEVICES': root, 'DPDK_IB_UMAD_DIR': run})
            h.wait_for(lambda: os.path.exists(os.path.join(
                run, 'sys/class/infiniband_mad/umad0/port')) and os.path.exists(
                os.path.join(run, 'dev', 'umad0')), timeout=120, what='the user-MAD service')
            env = {'OSM_CACHE_DIR': cache, 'OSM_TMP_DIR': h.dir}
            argv = ['opensm', '-F', '/dev/null', '-f', '-', '-d2', '-s', '0']
            if kind == 'dpdk':
                env['DPDK_IB_UMAD_PRELOAD'] = preload
                argv = [ns, run] + argv
            else:
                env.update(fab.env(lib, 'H0002'))
            t0 = time.monotonic()
            osm = h.spawn(argv, name='opensm-' + tag, env=env, cwd=h.dir)
            h.wait_for(lambda: 'SUBNET UP' in osm.log() or not osm.alive(), timeout=900,
                       what='SUBNET UP (%s)' % tag, interval=0.01)
            secs = time.monotonic() - t0
            h.check('SUBNET UP' in osm.log(), '%s: OpenSM exited before SUBNET UP' % tag)
            costs[kind].append([cost([fab.proc.popen.pid]), cost([host.popen.pid]),
                                cost(descendants(osm.popen.pid))])
            if kind == 'dpdk':
                h.info('%s: host threads (CPU s/switches): %s' %
                       (tag, per_thread(host.popen.pid)))
            h.stop(osm)
            host.write('QUIT\n')
            h.wait_for(lambda: not host.alive(), timeout=60, what='the host quits')
            subprocess.run(['umount', '-l', os.path.join(run, 'dev')], stderr=subprocess.DEVNULL)
            fab.ctl.close()
            h.stop(fab.proc)
            h.info('%s: SUBNET UP in %.3f s' % (tag, secs))
            return secs

        results = {'dpdk': [], 'umad2sim': []}
        costs = {'dpdk': [], 'umad2sim': []}
        for i in range(runs):
            order = ('dpdk', 'umad2sim') if i % 2 == 0 else ('umad2sim', 'dpdk')
            for kind in order:
                results[kind].append(sweep(i, kind))

        print()
        print('fat tree: %d CAs, %d switches; %d runs each' % (ncas, len(nodes) - ncas, runs))
        for kind, rs in results.items():
            print('%-9s median %.3f s  runs %s' % (kind, statistics.median(rs),
                                                 ' '.join('%.3f' % r for r in rs)))
        for kind, cs in costs.items():
            print('%-9s median CPU s / context switches: %s' % (kind, '  '.join(
                '%s %.2f / %d' % (who, statistics.median(c[i][0] for c in cs),
                                  statistics.median(c[i][1] for c in cs))
                for i, who in enumerate(('ibfabric', 'host', 'opensm')))))
        pairs = [d / u for d, u in zip(results['dpdk'], results['umad2sim'])]
        print('per-run ratios dpdk/umad2sim: %s' % ' '.join('%.2f' % r for r in pairs))
        print('ratio DPDK host / umad2sim: %.2fx of the medians, %.2fx median of the per-run '
              'ratios (goal <= 1.25x)' % (statistics.median(results['dpdk']) /
                                         statistics.median(results['umad2sim']),
                                         statistics.median(pairs)))
        sys.stdout.flush()


if __name__ == '__main__':
    main()
