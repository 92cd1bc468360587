#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-3-Clause
# Copyright(c) 2026 The dpdk-ipoib authors
"""IPoIB rates over ibfabric (issues 26 and 27), on test/data/bench4.net:
OpenSM on hosta through the user-MAD service, hostb sends, hostc forwards
between its two IB ports, hostd receives on both of its ports.

Every figure is a ratio against a peer measured in the same run on the
same fabric, the pairs in ABBA order (the machine is shared: absolute
rates move with the load, ratios much less). Every dpdk-ipoib-fwd runs
with --idle-yield: the hosts and the models' thread share the vCPUs, and
a process whose pass moved nothing gives its vCPU away rather than spin
until the scheduler takes it. A rate is what the receiver
counts over RATE_S seconds after WARM_S seconds of an unpaced txonly.

pmd (bench_ipoib_pmd): dpdk-ipoib-fwd txonly -> rxonly through net_ipoib
  (mode=l3, --txonly-dest-ip, hostb port 1 -> hostd port 1) vs the same
  hosts' raw net_mthca datagrams (--txonly-dest=LID:QPN, hostb port 1 ->
  hostd port 2), payloads of 68 and 2048 bytes on the wire (IP datagrams
  of 64 and 2044 bytes, the UD MTU). Goal: >= 0.9x at both sizes. The
  Kpps at 2048 are reported against 961 Kpps, a 4x DDR link's rate.

fwd_io (bench_fwd_io): hostc forwards in io mode from net_ipoib0 (port 1,
  the default partition) to net_ipoib1 (port 2, P_Key 0x8001, a second
  IPoIB link of the same hosts, OpenSM's partition file), dpdk-ipoib-fwd
  vs Debian's dpdk-testpmd on the same ports; hostb sends 64-byte IP
  datagrams to 10.0.0.3, which hostc's net_ipoib0 owns on the first link
  and hostd's on the second. The rate is what hostd receives. Goal:
  >= 1.0x. (Raw net_mthca ports cannot be compared: testpmd's io would
  send the receive view of the rte_ib dynfield as an address handle.)

lockstep (bench_ipoib_lockstep): the comparison of pmd without the
  scheduler in it. test/bench/ipoib_lockstep on hostd alone, one lcore:
  32 datagrams from IB port 1 to IB port 2 of the same HCA, sent, all
  received, freed, then the next 32. Mode ipoib: net_ipoib0 (port 1,
  mode=l3, 10.0.0.1) to net_ipoib1 (port 2, 10.0.0.2), same partition;
  mode raw: port 1's net_mthca ethdev to port 2's LID and QPN. One
  process per mode (net_ipoib owns the raw ethdevs), the same EAL
  arguments but the two vdevs, in ABBA order; each process measures 68
  then 2048 bytes on the wire, BENCH_ROUNDS rounds of 32 (default 20000)
  after a tenth of that untimed, receiving in two ways: wait=poll
  (rx_burst until the 32 came: the goals are judged on it) and wait=full
  (until the ring's 32nd descriptor is done, then one rx_burst, as
  net_mthca's bench_full() in test/fabric/mthca_host.c). Medians of the
  passes; goals: net_ipoib >= 0.9x raw at both sizes, and >= 961 Kpps at
  2048 bytes. The lcore's CPU share is printed: one lcore in lockstep is
  out of the scheduler's hands only while the machine has a vCPU for it
  and one for the model.

Environment: BENCH_RUNS ABBA pairs (default 1), BENCH_RATE_S (default 5),
BENCH_ROUNDS (lockstep).

usage: bench_ipoib_fabric.py pmd|fwd_io|lockstep <ibfabric> <netfile> <sa_host>
                             <dpdk-ipoib-fwd, or ipoib_lockstep for lockstep>
                             <librte_net_mthca.so> <librte_net_ipoib.so> <preload> <dpdk-ib-ns>
"""

import os
import re
import subprocess
import sys
import time

from simlib import Fabric, Harness, eal_safe_plugin, pmd_plugin_dir, sanitizer_preload

BDF = {'a': '0000:10:00.0', 'b': '0000:11:00.0', 'c': '0000:12:00.0', 'd': '0000:13:00.0'}
RUNS = int(os.environ.get('BENCH_RUNS', '1'))
RATE_S = float(os.environ.get('BENCH_RATE_S', '5'))
ROUNDS = int(os.environ.get('BENCH_ROUNDS', '20000'))
WARM_S = 2.0
PMD_GOAL = 0.9
FWD_GOAL = 1.0
DDR4X_KPPS = 961


def start_sm(h, sa_host, root, bdf, ns_tool, preload, extra):
    """OpenSM on the DPDK host @bdf through the user-MAD service, once the
    subnet is up: (sa_host, opensm)."""
    run = h.path('umad-sm')
    os.makedirs(run)
    h.on_teardown(lambda: subprocess.run(['umount', '-l', os.path.join(run, 'dev')],
                                         stderr=subprocess.DEVNULL))
    prefix = 'bsm%d' % os.getpid()
    sm_host = h.spawn([sa_host, '--no-huge', '-m', '256', '--file-prefix',
                       prefix, '-a', bdf, '--', 'idle'],
                      name='sm_host', stdin=True,
                      env={'SYSFS_PCI_DEVICES': root, 'DPDK_IB_UMAD_DIR': run})
    h.wait_for(lambda: os.path.exists(os.path.join(run, 'dev', 'umad0')),
               timeout=60, what='umad0 of the SM host')
    osm = h.spawn([ns_tool, run, 'opensm', '-F', '/dev/null', '-f', '-', '-d2', '-s', '1'] +
                  extra, name='opensm', env={'DPDK_IB_UMAD_PRELOAD': preload})
    h.wait_log(osm, 'SUBNET UP', timeout=90)
    return sm_host, osm


def stop_sm(h, sm_host, osm):
    h.stop(osm)
    sm_host.write('QUIT\n')
    h.wait_for(lambda: not sm_host.alive(), timeout=30, what='sm_host exits')


class App:
    """dpdk-ipoib-fwd or dpdk-testpmd at its prompt."""

    def __init__(self, h, argv, name, env, prompt):
        self.h, self.name = h, name
        self.p = h.spawn(['stdbuf', '-oL'] + argv, name=name, env=env, stdin=True)
        h.wait_log(self.p, prompt, timeout=150, line=False)

    def cmd(self, text, until, timeout=30):
        start = len(self.p.log())
        self.p.write(text + '\n')

        def seen():
            if not self.p.alive():
                self.h.fail('%s exited:\n%s' % (self.name, self.p.log()[-3000:]))
            return until in self.p.log()[start:]
        self.h.wait_for(seen, timeout=timeout, what='%r after %r from %s' %
                        (until, text, self.name))
        return self.p.log()[start:]

    def rx_tx(self, port):
        """(RX-packets, TX-packets) of ethdev @port, both apps' format."""
        out = self.cmd('show port stats %d' % port, 'TX-bytes:')
        rx = re.search(r'RX-packets:\s*(\d+)', out)
        tx = re.search(r'TX-packets:\s*(\d+)', out)
        self.h.check(rx and tx, '%s: show port stats %d:\n%s' % (self.name, port, out))
        return int(rx.group(1)), int(tx.group(1))

    def quit(self):
        self.p.write('quit\n')
        self.h.wait_for(lambda: not self.p.alive(), timeout=60, what='%s quits' % self.name)


class Bench:
    def __init__(self, h, exe, mthca_so, plugdir, env, root):
        self.h, self.exe, self.env = h, exe, env
        self.plugin = eal_safe_plugin(h, mthca_so)
        self.plugdir = plugdir
        self.n = 0

    def fwd(self, host, lcores, vdevs, args, name):
        """dpdk-ipoib-fwd on @host's HCA with @vdevs, at its prompt."""
        self.n += 1
        argv = [self.exe, '-d', self.plugin, '--no-huge', '-m', '384'] + lcores + [
            '--file-prefix', 'bif%s%d_%d' % (host, os.getpid(), self.n), '-a', BDF[host]]
        argv += ['--vdev=' + v for v in vdevs]
        # every dpdk-ipoib-fwd yields its core when a pass moved nothing:
        # the hosts and the model share two vCPUs (module docstring)
        argv += ['--log-level=pmd.net.ipoib:warning', '--', '-i', '--idle-yield'] + args
        app = App(self.h, argv, name, self.env, 'Links up after')
        return app

    def testpmd(self, host, lcores, vdevs, name):
        self.n += 1
        prefix = 'bif%s%d_%d' % (host, os.getpid(), self.n)
        argv = ['dpdk-testpmd', '-d', self.plugdir, '--no-huge', '-m', '384'] + lcores + [
            '--file-prefix', prefix, '-a', BDF[host]]
        argv += ['--vdev=' + v for v in vdevs]
        # the two net_ipoib ports only: an IB port's io would send the
        # receive view of the rte_ib mbuf field as an address handle
        argv += ['--log-level=pmd.net.ipoib:warning', '--', '-i', '--forward-mode=io',
                 '--portmask=0xc', '--total-num-mbufs=8192']
        return App(self.h, argv, name, self.env, 'testpmd>')


def rate(h, rx, port, what):
    """Packets a second that ethdev @port of @rx receives, after WARM_S."""
    time.sleep(WARM_S)
    r0, t0 = rx.rx_tx(port)[0], time.monotonic()
    time.sleep(RATE_S)
    r1, t1 = rx.rx_tx(port)[0], time.monotonic()
    pps = (r1 - r0) / (t1 - t0)
    h.check(pps > 0, '%s: nothing received in %.1f s' % (what, t1 - t0))
    h.info('%s: %.1f Kpps' % (what, pps / 1000))
    return pps


def sender(bench, mode, length, dest):
    """hostb's unpaced txonly of @length-byte IPoIB payloads, started."""
    common = ['--forward-mode=txonly', '--txonly-len=%d' % length]
    lc = ['-l', '0,1', '--main-lcore', '1']
    if mode == 'raw':
        s = bench.fwd('b', lc, [], ['--portmask=0x1', '--txonly-dest=%d:0x%x' % dest] + common,
                      'tx_raw_%d' % length)
        s.cmd('start', 'Forwarding started')
    else:
        s = bench.fwd('b', lc, ['net_ipoib0,dev=%s,mode=l3,mtu=2044,ipv4=10.0.0.2' % BDF['b']],
                      ['--portmask=0x4', '--txonly-dest-ip=10.0.0.3'] + common,
                      'tx_ipoib_%d' % length)
        s.cmd('start', 'Forwarding started', timeout=90)
    return s


def pmd(h, bench):
    # hostd: net_ipoib0 on port 1 (ethdev 2), port 2 raw (ethdev 1)
    d = bench.fwd('d', ['-l', '0,1'],
                  ['net_ipoib0,dev=%s,mode=l3,mtu=2044,ipv4=10.0.0.3' % BDF['d']],
                  ['--portmask=0x6', '--forward-mode=rxonly'], 'rx')
    out = d.p.log()
    m = re.search(r'port 1 up \(IB ACTIVE, LID (\d+)\)', out)
    q = re.search(r'Port 1: rx QPN (0x[0-9a-f]+)', out)
    h.check(m and q, 'hostd: the LID and rx QPN of its raw port:\n' + out[-3000:])
    dest = (int(m.group(1)), int(q.group(1), 16))
    d.cmd('start', 'Forwarding started')
    port = {'raw': 1, 'ipoib': 2}
    figures = {}
    for length in (68, 2048):
        got = {'raw': [], 'ipoib': []}
        for _ in range(RUNS):
            for mode in ('raw', 'ipoib', 'ipoib', 'raw'):
                s = sender(bench, mode, length, dest)
                got[mode].append(rate(h, d, port[mode], '%s %d B' % (mode, length)))
                s.quit()
        raw, ipoib = (sum(got[k]) / len(got[k]) for k in ('raw', 'ipoib'))
        figures[length] = (raw, ipoib)
        h.info('%d-byte payloads (IP %d): net_ipoib %.1f Kpps, raw net_mthca %.1f Kpps, '
               'ratio %.3f (goal >= %.1f)' % (length, length - 4, ipoib / 1000, raw / 1000,
                                               ipoib / raw, PMD_GOAL))
    d.cmd('stop', 'Final statistics after')
    d.quit()
    k2048 = figures[2048][1] / 1000
    h.info('net_ipoib at 2048 B: %.1f Kpps, %.3f of a 4x DDR link (%d Kpps)' %
           (k2048, k2048 / DDR4X_KPPS, DDR4X_KPPS))
    for length, (raw, ipoib) in figures.items():
        h.info('%d B: net_ipoib/raw %.3f, goal >= %.1f %s' %
               (length, ipoib / raw, PMD_GOAL, 'met' if ipoib / raw >= PMD_GOAL else 'NOT met'))


def fwd_io(h, bench):
    d = bench.fwd('d', ['-l', '0,1', '--main-lcore', '1'],
                  ['net_ipoib0,dev=%s,mode=l3,pkey=0x8001,mtu=2044,ipv4=10.0.0.3' % BDF['d']],
                  ['--portmask=0x4', '--forward-mode=rxonly'], 'rx')
    d.cmd('start', 'Forwarding started')
    vdevs = ['net_ipoib0,dev=%s,mode=l3,mtu=2044,ipv4=10.0.0.3' % BDF['c'],
             'net_ipoib1,dev=%s_p2,mode=l3,pkey=0x8001,mtu=2044,ipv4=10.0.0.5' % BDF['c']]
    lc = ['-l', '0,1']
    got = {'fwd': [], 'testpmd': []}
    s = None
    for _ in range(RUNS):
        for app in ('fwd', 'testpmd', 'testpmd', 'fwd'):
            if app == 'fwd':
                c = bench.fwd('c', lc, vdevs, ['--portmask=0xc', '--forward-mode=io'], 'io_fwd')
                c.cmd('start', 'Forwarding started')
            else:
                c = bench.testpmd('c', lc, vdevs, 'io_testpmd')
                c.cmd('start', 'testpmd>')
            if s is None:
                s = sender(bench, 'ipoib', 68, None)
            got[app].append(rate(h, d, 2, 'hostc io by %s, 64 B' % app))
            c.quit()
    s.quit()
    d.cmd('stop', 'Final statistics after')
    d.quit()
    f, t = (sum(got[k]) / len(got[k]) for k in ('fwd', 'testpmd'))
    h.info('io net_ipoib0 -> net_ipoib1, 64-byte IP: dpdk-ipoib-fwd %.1f Kpps, '
           'dpdk-testpmd %.1f Kpps, ratio %.3f (goal >= %.1f)' %
           (f / 1000, t / 1000, f / t, FWD_GOAL))
    h.info('dpdk-ipoib-fwd/dpdk-testpmd %.3f, goal >= %.1f %s' %
           (f / t, FWD_GOAL, 'met' if f / t >= FWD_GOAL else 'NOT met'))


def lockstep_run(h, exe, env, mode, n):
    """One ipoib_lockstep process on hostd in @mode: {(bytes, wait): RATE fields}."""
    prefix = 'bls%d_%d' % (os.getpid(), n)
    vdevs = []
    if mode == 'ipoib':
        vdevs = ['--vdev=net_ipoib0,dev=%s,mode=l3,mtu=2044,ipv4=10.0.0.1' % BDF['d'],
                 '--vdev=net_ipoib1,dev=%s_p2,mode=l3,mtu=2044,ipv4=10.0.0.2' % BDF['d']]
    argv = [exe, '--no-huge', '-m', '384', '-l', '1', '--file-prefix', prefix,
            '-a', BDF['d']] + vdevs + ['--log-level=pmd.net.ipoib:warning', '--', mode,
                                       str(ROUNDS), '68', '2048']
    h.info('%s pass %d: %s' % (mode, n, ' '.join(argv)))
    r = h.run(argv, env=env, timeout=240, check=False)
    out = r.stdout + r.stderr
    got = {}
    for line in out.splitlines():
        if line.startswith('RATE '):
            f = dict(w.split('=', 1) for w in line.split()[1:])
            got[(int(f['len']), f['wait'])] = f
            h.info(line)
        elif line.startswith('EVENTS '):
            h.info(line)
    h.check(r.returncode == 0 and not re.search(r'^ERR ', out, re.M) and
            set(got) == {(b, w) for b in (68, 2048) for w in ('poll', 'full')},
            'ipoib_lockstep %s (exit %d):\n%s' % (mode, r.returncode, out[-3000:]))
    return got


def median(xs):
    xs = sorted(xs)
    return (xs[(len(xs) - 1) // 2] + xs[len(xs) // 2]) / 2


def lockstep(h, exe, env):
    """ABBA pairs of lockstep processes. Rates are the median of the
    passes, ratios the median of each pass of net_ipoib over the raw pass
    next to it (the order is raw, ipoib, ipoib, raw: pass k of either
    against pass k of the other). The goals are judged on wait=poll
    (rx_burst until the round's 32 came); wait=full is reported beside.
    After each pair a rawread pass (raw, each datagram's IPoIB header
    read) is reported beside, not judged: how much of the gap is the
    line any receiver that looks at the packet waits for."""
    got = {'raw': [], 'ipoib': []}
    rawread = []
    n = 0
    h.info('load average before: %.2f %.2f %.2f' % os.getloadavg())
    for _ in range(RUNS):
        for mode in ('raw', 'ipoib', 'ipoib', 'raw', 'rawread'):
            n += 1
            r = lockstep_run(h, exe, env, mode, n)
            (rawread if mode == 'rawread' else got[mode]).append(r)
    h.info('load average after: %.2f %.2f %.2f' % os.getloadavg())
    # the lcore's CPU time over the wall time: below 1 the machine took it
    cpu = min(float(g[k]['cpu']) for m in got for g in got[m] for k in g)
    h.info('least CPU share of the lcore in a timed run: %.2f%s' %
           (cpu, '' if cpu >= 0.9 else ' (the machine was busy: the scheduler is in the figures)'))
    figures = {}
    for wait in ('poll', 'full'):
        for length in (68, 2048):
            key = (length, wait)
            pps = {k: [float(g[key]['pps']) for g in got[k]] for k in got}
            lost = {k: sum(int(g[key]['lost']) for g in got[k]) for k in got}
            raw, ipoib = median(pps['raw']), median(pps['ipoib'])
            ratio = median([i / r for i, r in zip(pps['ipoib'], pps['raw'])])
            figures[key] = (ipoib, ratio)
            h.info('%d B, wait=%s: net_ipoib %s Kpps (lost %d), raw net_mthca %s Kpps '
                   '(lost %d)' % (length, wait,
                                  ' '.join('%.1f' % (x / 1000) for x in pps['ipoib']),
                                  lost['ipoib'],
                                  ' '.join('%.1f' % (x / 1000) for x in pps['raw']), lost['raw']))
            h.info('%d-byte payloads (IP %d), lockstep wait=%s: net_ipoib %.1f Kpps, raw '
                   'net_mthca %.1f Kpps (medians), median ratio %.3f' %
                   (length, length - 4, wait, ipoib / 1000, raw / 1000, ratio))
            rr = median([float(g[key]['pps']) for g in rawread])
            h.info('%d B, wait=%s, beside (not judged): raw net_mthca reading each '
                   'datagram\'s header %.1f Kpps (median of %d), net_ipoib over it %.3f' %
                   (length, wait, rr / 1000, len(rawread), ipoib / rr))
    k2048 = figures[(2048, 'poll')][0] / 1000
    h.info('net_ipoib at 2048 B, lockstep: %.1f Kpps, goal >= %d Kpps (a 4x DDR link) %s' %
           (k2048, DDR4X_KPPS, 'met' if k2048 >= DDR4X_KPPS else 'NOT met'))
    for length in (68, 2048):
        ratio = figures[(length, 'poll')][1]
        h.info('%d B: net_ipoib/raw %.3f, goal >= %.1f %s' %
               (length, ratio, PMD_GOAL, 'met' if ratio >= PMD_GOAL else 'NOT met'))


def main():
    which = sys.argv[1]
    ibfabric, netfile, sa_host, exe, mthca_so, ipoib_so, preload, ns_tool = (
        os.path.abspath(a) for a in sys.argv[2:10])
    name = {'pmd': 'ipoib_pmd', 'fwd_io': 'fwd_io', 'lockstep': 'ipoib_lockstep'}[which]
    with Harness('bench_' + name, timeout=880 if which == 'lockstep' else 1700) as h:
        for prog in ('opensm',) if which == 'lockstep' else ('opensm', 'stdbuf', 'dpdk-testpmd'):
            h.need_program(prog)
        root = h.path('pci')
        fab = Fabric(h, ibfabric, netfile, tag='bif', extra=['--pci-root', root])
        h.wait_for(lambda: os.path.exists(os.path.join(root, BDF['d'], 'iommu.sock')),
                   timeout=10, what='the simulated PCI functions')
        # testpmd loads both PMDs from one private directory (EAL refuses
        # plugins below a world-writable one; it loads only *.so files)
        plugdir = pmd_plugin_dir(h, (mthca_so, ipoib_so))
        env = dict(sanitizer_preload(h, ipoib_so), SYSFS_PCI_DEVICES=root)
        bench = Bench(h, exe, mthca_so, plugdir, env, root)

        # the partition file adds P_Key 0x8001 with its broadcast group
        # (OpenSM's ipoib flag; mtu=4: 2048-byte groups, an IPoIB MTU of
        # 2044), the second IPoIB link of fwd_io
        conf = h.write_file('partitions.conf', 'Default=0x7fff, ipoib, mtu=4 : ALL=full ;\n'
                            'P1=0x8001, ipoib, mtu=4 : ALL=full ;\n')
        sm_host, osm = start_sm(h, sa_host, root, BDF['a'], ns_tool, preload, ['-P', conf])

        if which == 'lockstep':
            # the program links both PMDs: no -d
            lockstep(h, exe, env)
        else:
            (pmd if which == 'pmd' else fwd_io)(h, bench)

        stop_sm(h, sm_host, osm)
        fab.stop_clean()


if __name__ == '__main__':
    main()
