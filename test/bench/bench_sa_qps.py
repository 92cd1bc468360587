#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-3-Clause
# Copyright(c) 2026 The dpdk-ipoib authors
"""SA PathRecord queries per second from a DPDK host to OpenSM on another
DPDK host, 64 outstanding, and the same queries sent through ibsim's
libumad2sim from a passive CA, in the same run. Goal (issue 14): DPDK
host >= 1.0x.

usage: bench_sa_qps.py <ibfabric> <sa_host> <sa_qps_umad> <preload> <dpdk-ib-ns>
                       [runs] [ms] [depth]

Fabric: "ibfabric gen fattree --hosts 128" (126 passive CAs, 14
switches) with H0001 and H0128 MT25208 models. DPDK host B (sa_host,
idle) on H0001 runs OpenSM through usertools/dpdk-ib-ns and its
user-MAD service; DPDK host A (sa_host) on H0128 asks with librte_ibmad's
SA client (the QPS command, test/fabric/sa_host_qps.c); the peer,
test/bench/sa_qps_umad on libibumad, asks from the passive CA H0127 (on
A's leaf, as many hops from B) under LD_PRELOAD=libumad2sim.so. Both send
PathRecord Get (DGID, SGID, NumbPath 1, P_Key, as Linux IPoIB's
path_rec_start()) to every CA of the fabric in turn, keep <depth> queries
outstanding for <ms> ms, and check each answer's SLID, DLID, SGID and
DGID against the path asked for (test/lib/sa_qps.c counts for both).

One fabric, one OpenSM; <runs> rounds, each one window of each client,
alternating which goes first. Printed: queries/s of the window and the
median of its 100 ms slices, per run and as medians; the per-round ratio
DPDK/umad2sim and its median. Errors, wrong paths, failed sends and
time-outs fail the bench (a time-out is a MAD lost somewhere: on a loaded
machine it is reported rather than hidden).
"""

import ipaddress
import os
import statistics
import subprocess
import sys

from simlib import Fabric, Harness, find_umad2sim, sa_host_answer, sanitizer_preload

BDF = {'sm': '0000:10:00.0', 'a': '0000:11:00.0'}
NODE = {'sm': 'H0001', 'a': 'H0128', 'peer': 'H0127'}
HOSTS = 128


def parse_result(line):
    """'OK qps=1.0 done=3 ...' -> {'qps': 1.0, 'done': 3, ...}."""
    out = {}
    for w in line.split()[1:]:
        k, v = w.split('=', 1)
        out[k] = float(v) if '.' in v else int(v)
    return out


def main():
    ibfabric, sa_host, umad_peer, preload, ns = (os.path.abspath(a) for a in sys.argv[1:6])
    runs = int(sys.argv[6]) if len(sys.argv) > 6 else 5
    ms = int(sys.argv[7]) if len(sys.argv) > 7 else 5000
    depth = int(sys.argv[8]) if len(sys.argv) > 8 else 64
    with Harness('bench_sa_qps', timeout=600 + runs * 2 * (ms / 1000 + 30)) as h:
        lib = find_umad2sim(h)
        for prog in ('opensm', 'unshare'):
            h.need_program(prog)
        net = h.path('fattree.net')
        h.run([ibfabric, 'gen', 'fattree', '--hosts', str(HOSTS), '--active', '1', '-o', net])
        with open(net) as f:
            text = f.read()
        tail = 'Ca\t1 "%s"' % NODE['a']
        h.check(tail in text, '%s not in the generated fat tree' % NODE['a'])
        with open(net, 'w') as f:
            f.write(text.replace(tail, tail + ' active=mt25208'))
        root = h.path('pci')
        fab = Fabric(h, ibfabric, net, tag='qps', extra=['-q', '--pci-root', root])
        sm_run = h.path('umad-sm')
        os.makedirs(sm_run)
        h.on_teardown(lambda: subprocess.run(['umount', '-l', os.path.join(sm_run, 'dev')],
                                             stderr=subprocess.DEVNULL))
        hosts = {}
        for t in ('sm', 'a'):
            h.wait_for(lambda: os.path.exists(os.path.join(root, BDF[t], 'iommu.sock')),
                       timeout=30, what='the simulated PCI function %s' % BDF[t])
            env = {'SYSFS_PCI_DEVICES': root}
            if t == 'sm':
                env['DPDK_IB_UMAD_DIR'] = sm_run
            hosts[t] = h.spawn([sa_host, '--no-huge', '-m', '256', '--file-prefix',
                                'qps%s%d' % (t, os.getpid()), '-a', BDF[t], '--'] +
                               (['idle'] if t == 'sm' else []), name='host-' + t,
                               stdin=True, env=env)
        h.wait_for(lambda: os.path.exists(os.path.join(
            sm_run, 'sys/class/infiniband_mad/umad0/port')) and os.path.exists(
            os.path.join(sm_run, 'dev', 'umad0')), timeout=120,
            what='the user-MAD service of the SM host')
        osm = h.spawn([ns, sm_run, 'opensm', '-F', '/dev/null', '-f', '-', '-d2', '-s', '0'],
                      name='opensm', env={'DPDK_IB_UMAD_PRELOAD': preload,
                                          'OSM_CACHE_DIR': h.dir, 'OSM_TMP_DIR': h.dir})
        h.wait_log(osm, 'SUBNET UP', timeout=300)
        h.wait_log(hosts['a'], 'READY', timeout=120)

        # Every CA of the fabric by LID and GID, as ibfabric has them.
        dests, me = [], {}
        for n in fab.nodes():
            if n['type'] != 'ca':
                continue
            p = fab.ports(n['name'])
            p1 = [x for x in p if int(x['num']) == 1][0]
            h.check_eq(p1['state'], 'ACTIVE', '%s after SUBNET UP' % n['name'])
            gid = str(ipaddress.IPv6Address((0xfe80 << 112) | int(p1['guid'], 16)))
            dests.append('%d %s' % (int(p1['lid']), gid))
            me[n['name']] = (int(p1['lid']), gid)
        h.check_eq(len(dests), HOSTS, 'CAs in the fabric')
        dest_file = h.write_file('dests.txt', '\n'.join(dests) + '\n')
        ready = hosts['a'].log().split('READY ', 1)[1].split('\n', 1)[0]
        h.check('lid=%d ' % me[NODE['a']][0] in ready + ' ' and
                'gid=%s ' % me[NODE['a']][1] in ready + ' ',
                'host A: %r, fabric: %s' % (ready, me[NODE['a']]))

        peer_env = fab.env(lib, NODE['peer'])
        san = sanitizer_preload(h, umad_peer).get('LD_PRELOAD')
        if san:
            peer_env['LD_PRELOAD'] = san + ':' + lib

        def window(kind, i):
            if kind == 'dpdk':
                line = sa_host_answer(h, hosts['a'], 'QPS %s %d %d' % (dest_file, ms, depth),
                                      timeout=ms / 1000 + 60)[-1]
                notes = []
            else:
                lid, gid = me[NODE['peer']]
                r = h.run([umad_peer, dest_file, str(ms), str(depth), str(lid), gid],
                          env=peer_env, timeout=ms / 1000 + 60)
                lines = r.stdout.splitlines()
                line = lines[-1] if lines else ''
                notes = r.stderr.splitlines()
                h.check(line.startswith('OK '), 'sa_qps_umad: %r %s' % (line, notes))
            res = parse_result(line)
            h.info('%s run %d: %s' % (kind, i, line))
            for k in ('errors', 'bad', 'send_errors'):
                h.check(res[k] == 0, '%s run %d: %s=%d (%s) %s' % (kind, i, k, res[k], line,
                                                                   notes))
            h.check(res['done'] > 0, '%s run %d: no answer' % (kind, i))
            return res

        results = {'dpdk': [], 'umad2sim': []}
        for i in range(runs):
            order = ('dpdk', 'umad2sim') if i % 2 == 0 else ('umad2sim', 'dpdk')
            for kind in order:
                results[kind].append(window(kind, i))
        h.check(osm.alive(), 'OpenSM exited during the bench')

        print()
        print('fat tree: %d CAs; PathRecord Get, %d outstanding, %d ms windows, %d runs each'
              % (HOSTS, depth, ms, runs))
        for kind, rs in results.items():
            print('%-9s median %8.1f q/s (slices: median %8.1f)  runs %s  time-outs %d' % (
                kind, statistics.median(r['qps'] for r in rs),
                statistics.median(r['slice_med'] for r in rs),
                ' '.join('%.0f' % r['qps'] for r in rs), sum(r['timeouts'] for r in rs)))
        pairs = [d['qps'] / u['qps'] for d, u in zip(results['dpdk'], results['umad2sim'])]
        print('per-run ratios dpdk/umad2sim: %s' % ' '.join('%.2f' % r for r in pairs))
        print('ratio DPDK host / umad2sim: %.2fx median of the per-run ratios, %.2fx of the '
              'medians (goal >= 1.0x)' % (statistics.median(pairs),
                                         statistics.median(r['qps'] for r in results['dpdk']) /
                                         statistics.median(r['qps'] for r in
                                                           results['umad2sim'])))
        sys.stdout.flush()
        timeouts = sum(r['timeouts'] for rs in results.values() for r in rs)
        done = sum(r['done'] for rs in results.values() for r in rs)
        h.check(timeouts * 100 <= done, '%d time-outs for %d answers' % (timeouts, done))
        for t in ('a', 'sm'):
            hosts[t].write('QUIT\n')
        h.stop(osm)
        for t in ('a', 'sm'):
            h.wait_for(lambda: not hosts[t].alive(), timeout=60, what='host %s quits' % t)


if __name__ == '__main__':
    main()
