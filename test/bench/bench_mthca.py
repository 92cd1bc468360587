#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-3-Clause
# Copyright(c) 2026 The dpdk-ipoib authors
"""net_mthca's cost and rate against the driver-less harness, in the same
run on the same model (issue 13).

usage: bench_mthca.py IBFABRIC MTHCA_HOST HCA_HOST NETFILE [--runs N] [--count N]
                      [--c2c-probe PROG] [--sizes 64|2044 ...]

Two fabrics of the same ibfabric and NETFILE (hca2.net), each with its
OpenSM and its own PCI root, stay up for the whole run: on one,
mthca_host drives both simulated MT25208s through net_mthca in one
thread (BENCH lines on its stdin); on the other, `hca_host bench_serve`
drives both without a driver ("SIZE COUNT BUFFERS" lines), as bench_hca_ud
does, once sending every datagram from one buffer (its own bench's way)
and once from 128 buffers in turn (PEER_BUFS: as many as net_mthca's
mbufs cycle through at the harness set-up, so that the model's gather
reads lines it last touched a lap ago under both hosts; the goals are
judged against this one).
Both send from the first HCA's port to the second's; both hosts run on
the same CPU (the last one; mthca_host's EAL lcore, hca_host by
affinity), the models wherever the kernel puts them.

Method (doc/guides/testing.rst, "bench_mthca"): one run of each side
minutes apart varies up to 3x with the hypervisor's placement of the
vCPUs, more than the difference measured. So per datagram size (64 and
2044 bytes) and per receive set-up of net_mthca, --runs rounds of short
bursts (default 21 of 200,000 datagrams; $BENCH_RUNS, $BENCH_COUNT)
alternate net_mthca / hca_host with one buffer / hca_host with 128 in
ABC CBA order after one warm-up burst each, and the figures are medians
over the bursts or over the per-round ratios.

Receive set-ups (doc/guides/nics/mthca.rst, "Performance"): "harness", a
ring of 64 with up to 32 datagrams in flight, the working set of hca_host
(32 receive slots, 32 sends in flight), on which the goals are judged;
"deep", a ring of 4096 with up to 1024 in flight (mthca_host's default),
shown beside it.

Per burst: the rate; for net_mthca the PMD's cycles per packet over the
rate run (tx_burst, and the rx_burst calls that returned packets, with
how full they were) and at full bursts of 32 (2,000 rounds after the
rate run: the median call and the least one, per packet; do_bench() in
test/fabric/mthca_host.c); the share of the wall time each host's thread
spent on a CPU and waiting for one (/proc/PID/schedstat; net_mthca's
over its rate run, as mthca_host reads it; the models' over the whole
request, for net_mthca's model that includes the full bursts and 100 ms
of drain), and the VM's steal time.

Beside the full bursts, each of their rounds first times bench_ref(),
about a burst's worth of work on lines no other core touches: how fast
the vCPU ran at that moment. Per burst: its median and least, the median
over the rounds of each call's cycles over its round's reference, and
how often the thread was switched out; per round, the cache-line round
trip between the two vCPUs (c2c_probe, --c2c-probe), as bench_hca_ud.

Per size and set-up: each side's median rate with its quartiles, the
median of the per-round ratios net_mthca / hca_host for each of
hca_host's two ways (and over the rounds in which both hosts had a CPU
>= 85 % of their rate run), hca_host with 128 buffers over hca_host with
one (what the send buffers alone cost the model), and the PMD's
full-burst cycles as the median over all bursts of their per-call
medians (and of their least calls and their means); the reference's median and the calls
over it, with quartiles; the full-burst medians over the bursts whose
reference was within 10 % of the run's least (a full-speed vCPU) and over
the others, and over the rounds with the faster half of round trips and
the others. Goals: the median ratio to hca_host with 128 buffers >= 0.9
at both sizes (the ratio to one buffer printed beside it), the median
2044-byte net_mthca rate >= 961 Kpps, and the full-burst median <= 40
cycles per packet each way, all on the harness set-up. Exit 0 after a
run, whatever the figures.
"""

import argparse
import os
import re
import statistics
import subprocess
import time

from bench_hca_ud import CLEAN_CPU_SHARE, Model, c2c, schedstat, spread, steal_ns
from harness import Proc
from simlib import Fabric, Harness, find_umad2sim, start_opensm

SIZES = (64, 2044)
# (name, receive ring of the second HCA, most datagrams in flight); goals on the first
SETUPS = (('harness', 64, 32), ('deep', 4096, 1024))
GOAL_PPS = 961000
GOAL_RATIO = 0.9
GOAL_CYCLES = 40.0
# hca_host's send buffers: one, as its own bench sends (2 KiB that stay in
# the L1 of the model's core), and as many as net_mthca cycles through at
# the harness set-up (the ring's 64 mbufs and the mempool cache's: 128
# distinct mbufs each way over 16,384 datagrams, each sent after it was
# received into), which the goals are judged against
PEER_BUFS = (1, 128)
# a burst whose reference took at most this times the run's least ran on a full-speed vCPU
REF_SLACK = 1.1
BURST = 32
BENCH_RE = re.compile(
    r'pps (?P<pps>\d+) tx_cycles_per_pkt (?P<tx>[0-9.]+) rx_cycles_per_pkt (?P<rx>[0-9.]+) '
    r'rx_pkts_per_burst (?P<per_poll>[0-9.]+) full32_tx_cycles_per_pkt (?P<ftx>[0-9.]+) '
    r'full32_rx_cycles_per_pkt (?P<frx>[0-9.]+) full32_tx_min_cycles_per_pkt (?P<ftx_min>[0-9.]+) '
    r'full32_rx_min_cycles_per_pkt (?P<frx_min>[0-9.]+) rate_ns (?P<rate_ns>\d+) '
    r'rate_cpu_ns (?P<cpu_ns>\d+) rate_wait_ns (?P<wait_ns>\d+) '
    r'full32_ref_cycles_per_pkt (?P<ref>[0-9.]+) full32_ref_min_cycles_per_pkt (?P<ref_min>[0-9.]+) '
    r'full32_tx_per_ref (?P<tx_ref>[0-9.]+) full32_rx_per_ref (?P<rx_ref>[0-9.]+) '
    r'full32_switches (?P<csw>\d+) full32_tx_mean_cycles_per_pkt (?P<ftx_mean>[0-9.]+) '
    r'full32_rx_mean_cycles_per_pkt (?P<frx_mean>[0-9.]+)')


class Peer:
    """hca_host on its model, sending from @bufs buffers in turn."""

    def __init__(self, model, bufs):
        self.model = model
        self.bufs = bufs
        self.tag = 'hca_host/%d' % bufs

    def burst(self, h, size, count, idle):
        return self.model.burst(h, size, count, idle, self.bufs)


class Driver:
    """One ibfabric with its OpenSM and mthca_host (net_mthca) on its two functions."""

    tag = 'net_mthca'

    def __init__(self, h, ibfabric, host, net, lib, cpu):
        root = h.path('pci-drv')
        self.fab = Fabric(h, ibfabric, net, tag='drv', extra=['--pci-root', root, '-q'])
        h.wait_for(lambda: os.path.isdir(root) and
                   len([d for d in os.listdir(root) if d.startswith('0000:')]) == 2,
                   timeout=10, what='PCI functions of the net_mthca model')
        a, b = sorted(d for d in os.listdir(root) if d.startswith('0000:'))
        start_opensm(h, self.fab, lib, 'ca-sm', name='opensm-drv', sweep=1)
        self.log = h.path('mthca_host.log')
        with open(self.log, 'ab') as log:
            # replies through a pipe (the bench blocks on them instead of polling
            # a file); EAL's and the PMD's logs go straight to the log file
            argv = [host, '--no-huge', '-m', '512', '-l', str(cpu), '--file-prefix',
                    'mthcabench%d' % os.getpid(), '-a', a, '-a', b]
            # started here for its pipes: its EAL runtime directory is the
            # harness's to remove all the same
            h.note_runtime_dir(argv)
            self.host = subprocess.Popen(
                argv, cwd=h.dir,
                stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=log, text=True,
                env=dict(os.environ, SYSFS_PCI_DEVICES=root), start_new_session=True)
        h.procs.append(Proc('mthca_host', self.host, self.log))
        h.info('started mthca_host on CPU %d (pid %d)' % (cpu, self.host.pid))
        line = self.reply(h, ('READY', 'ERR'))
        h.check(line.startswith('READY'), 'mthca_host: %s' % line)

    def reply(self, h, starts):
        """The next line of mthca_host's that starts with one of @starts."""
        while True:
            line = self.host.stdout.readline()
            with open(self.log, 'a') as f:
                f.write(line)
            h.check(line != '', 'mthca_host exited (rc %s); see %s' %
                    (self.host.poll(), self.log))
            if line.startswith(starts):
                return line.strip()

    def request(self, h, size, count, ring, inflight):
        """One BENCH request; again while the second port is not ACTIVE yet."""
        for _ in range(100):
            self.host.stdin.write('BENCH %d %d %d %d\n' % (size, count, ring, inflight))
            self.host.stdin.flush()
            line = self.reply(h, ('OK bench', 'ERR'))
            if not line.startswith('ERR bench needs'):
                return line
            print('bench_mthca: %s (the second port is not ACTIVE yet: again)' % line)
            time.sleep(1)
        return line

    def burst(self, h, size, count, setup, idle):
        """One burst at @setup; a dict as Model.burst() gives, plus the PMD's cycles."""
        _, ring, inflight = setup
        pids = (self.fab.proc.pid, idle.fab.proc.pid)
        s0, st0, t0 = [schedstat(p) for p in pids], steal_ns(), time.monotonic()
        line = self.request(h, size, count, ring, inflight)
        wall = (time.monotonic() - t0) * 1e9
        s1, st1 = [schedstat(p) for p in pids], steal_ns()
        m = BENCH_RE.search(line)
        h.check(m is not None, 'net_mthca %d bytes %s: %s' % (size, setup[0], line))
        r = {k: float(v) for k, v in m.groupdict().items()}
        rate = r['rate_ns']
        r.update({'pps': int(m.group('pps')), 'secs': rate / 1e9,
                  'host_cpu': r['cpu_ns'] / rate, 'host_wait': r['wait_ns'] / rate,
                  'model_cpu': (s1[0][0] - s0[0][0]) / wall,
                  'model_wait': (s1[0][1] - s0[0][1]) / wall,
                  'idle_cpu': (s1[1][0] - s0[1][0]) / wall,
                  'steal': (st1 - st0) / wall / os.cpu_count()})
        return r

    def close(self, h):
        try:
            rest, _ = self.host.communicate('QUIT\n', timeout=60)
        except subprocess.TimeoutExpired:
            h.check(False, 'mthca_host did not quit')
        with open(self.log, 'a') as f:
            f.write(rest)
        h.check(self.host.returncode == 0, 'mthca_host exit %s; see %s' %
                (self.host.returncode, self.log))


def show(tag, size, setup, r, what=''):
    text = ('bench_mthca: %-12s %4d bytes %-7s%s: %7.1f Kpps in %.3f s; on a CPU / waiting: '
            'host %3.0f%% / %2.0f%%, its model %3.0f%% / %2.0f%%; steal %2.0f%%' %
            (tag, size, setup, what, r['pps'] / 1e3, r['secs'], 100 * r['host_cpu'],
             100 * r['host_wait'], 100 * r['model_cpu'], 100 * r['model_wait'],
             100 * r['steal']))
    if 'ftx' in r:
        text += ('; cycles/pkt: rate run tx %.1f rx %.1f (%.1f pkts/poll), full 32 tx %.1f '
                 '(least %.1f, mean %.1f) rx %.1f (least %.1f, mean %.1f), reference %.1f '
                 '(least %.1f), over it tx %.2f rx %.2f, %d switches' %
                 (r['tx'], r['rx'], r['per_poll'], r['ftx'], r['ftx_min'], r['ftx_mean'],
                  r['frx'], r['frx_min'], r['frx_mean'], r['ref'], r['ref_min'], r['tx_ref'], r['rx_ref'], r['csw']))
    if r.get('c2c') is not None:
        text += '; vCPU round trip %d ns' % r['c2c']
    print(text)


def quart(v, fmt='%.1f'):
    """'median (quartiles q1..q3, min..max)' of @v."""
    q = statistics.quantiles(v, n=4, method='inclusive') if len(v) > 1 else [v[0]] * 3
    return (fmt + ' (quartiles ' + fmt + '..' + fmt + ', ' + fmt + '..' + fmt + ')') % (
        statistics.median(v), q[0], q[2], min(v), max(v))


def summary(size, setup, runs, peers):
    """Print the figures of one size and set-up; (ratio to each peer, 2044 rate, tx, rx,
    reference, tx and rx over it) medians."""
    drv = [r[0] for r in runs]
    tag = 'bench_mthca: %4d bytes %-7s:' % (size, setup)
    print('%s net_mthca    %s' % (tag, spread([r['pps'] for r in drv])))
    for i, p in enumerate(peers, 1):
        print('%s %-12s %s' % (tag, p.tag, spread([r[i]['pps'] for r in runs])))
    ratios = []
    for i, p in enumerate(peers, 1):
        v = [r[0]['pps'] / r[i]['pps'] for r in runs]
        clean = [r[0]['pps'] / r[i]['pps'] for r in runs
                 if r[0]['host_cpu'] >= CLEAN_CPU_SHARE and r[i]['host_cpu'] >= CLEAN_CPU_SHARE]
        print('%s net_mthca / %s per round: median %s; in the %d of %d rounds where both hosts'
              ' had a CPU >= %.0f%% of their rate run: %s' %
              (tag, p.tag, quart(v, '%.3f'), len(clean), len(runs), 100 * CLEAN_CPU_SHARE,
               '%.3f' % statistics.median(clean) if clean else '-'))
        ratios.append(statistics.median(v))
    # the same model and host, only the send buffers differ: what they cost the model
    print('%s %s / %s per round (the send buffers alone): median %s; model ns per datagram,'
          ' medians: %.0f / %.0f' %
          (tag, peers[-1].tag, peers[0].tag,
           quart([r[-1]['pps'] / r[1]['pps'] for r in runs], '%.3f'),
           statistics.median(r[-1]['model_ns'] for r in runs),
           statistics.median(r[1]['model_ns'] for r in runs)))
    print('%s full bursts of 32, cycles/pkt, median over the %d bursts of their median call:'
          ' tx_burst %s, rx_burst %s; of their least call: tx %.1f, rx %.1f; of their mean:'
          ' tx %.1f, rx %.1f' %
          (tag, len(drv), quart([r['ftx'] for r in drv]), quart([r['frx'] for r in drv]),
           statistics.median(r['ftx_min'] for r in drv),
           statistics.median(r['frx_min'] for r in drv),
           statistics.median(r['ftx_mean'] for r in drv),
           statistics.median(r['frx_mean'] for r in drv)))
    ref = [r['ref'] for r in drv]
    print('%s reference (bench_ref(), about a burst\'s worth of local work, cycles/pkt), median'
          ' over the bursts of their median: %s; each call over its round\'s reference, median '
          'over the bursts of their median: tx_burst %s, rx_burst %s; thread switches during the'
          ' full bursts: median %d, most %d' %
          (tag, quart(ref), quart([r['tx_ref'] for r in drv], '%.2f'),
           quart([r['rx_ref'] for r in drv], '%.2f'),
           statistics.median(r['csw'] for r in drv), max(r['csw'] for r in drv)))
    for what, key, cut in (('reference', 'ref', REF_SLACK * min(ref)),
                           ('vCPU round trip', 'c2c', None)):
        known = [r for r in drv if r.get(key) is not None]
        if len(known) < 2:
            continue
        if cut is None:
            cut = statistics.median(r[key] for r in known)
        fast = [r for r in known if r[key] <= cut]
        slow = [r for r in known if r[key] > cut]
        print('%s full bursts by %s: the %d bursts at <= %.1f: tx_burst %.1f, rx_burst %.1f; '
              'the %d others: %s' %
              (tag, what, len(fast), cut, statistics.median(r['ftx'] for r in fast),
               statistics.median(r['frx'] for r in fast), len(slow),
               'tx_burst %.1f, rx_burst %.1f' % (statistics.median(r['ftx'] for r in slow),
                                                 statistics.median(r['frx'] for r in slow))
               if slow else '-'))
    print('%s rate run, cycles/pkt (medians): tx_burst %.1f, rx_burst %.1f over non-empty polls'
          ' (%.1f pkts/poll)' %
          (tag, statistics.median(r['tx'] for r in drv), statistics.median(r['rx'] for r in drv),
           statistics.median(r['per_poll'] for r in drv)))
    print('%s CPU share (medians) net_mthca host %.0f%%, its model %.0f%% (whole request); %s' %
          (tag, 100 * statistics.median(r['host_cpu'] for r in drv),
           100 * statistics.median(r['model_cpu'] for r in drv),
           '; '.join('%s %.0f%%, its model %.0f%%' %
                     (p.tag, 100 * statistics.median(r[i]['host_cpu'] for r in runs),
                      100 * statistics.median(r[i]['model_cpu'] for r in runs))
                     for i, p in enumerate(peers, 1))))
    return (ratios, statistics.median(r['pps'] for r in drv),
            statistics.median(r['ftx'] for r in drv), statistics.median(r['frx'] for r in drv),
            statistics.median(ref), statistics.median(r['tx_ref'] for r in drv),
            statistics.median(r['rx_ref'] for r in drv),
            statistics.median(r['ftx_mean'] for r in drv),
            statistics.median(r['frx_mean'] for r in drv))


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument('ibfabric')
    ap.add_argument('mthca_host')
    ap.add_argument('hca_host')
    ap.add_argument('net')
    ap.add_argument('--runs', type=int, default=int(os.environ.get('BENCH_RUNS', '21')),
                    help='ABC CBA rounds per size and set-up')
    ap.add_argument('--c2c-probe', help='c2c_probe program: vCPU round trip per round')
    ap.add_argument('--count', type=int, default=int(os.environ.get('BENCH_COUNT', '200000')),
                    help='datagrams per burst')
    ap.add_argument('--sizes', type=int, nargs='+', choices=SIZES,
                    default=[int(x) for x in os.environ.get('BENCH_SIZES', '64 2044').split()],
                    help="datagram sizes to run ($BENCH_SIZES; both unless told)")
    a = ap.parse_args()
    if a.runs < 1 or a.count < 1:
        ap.error('--runs and --count must be at least 1')
    # mthca_host sends whole bursts of 32 and wants exactly COUNT back: round up
    a.count = -(-a.count // BURST) * BURST
    warm = -(-a.count // 4 // BURST) * BURST
    ibfabric, host, hca_host, net = (os.path.abspath(x) for x in
                                     (a.ibfabric, a.mthca_host, a.hca_host, a.net))
    probe = os.path.abspath(a.c2c_probe) if a.c2c_probe else None
    cpu = max(os.sched_getaffinity(0))
    with Harness('bench_mthca', timeout=2400) as h:
        lib = find_umad2sim(h)
        drv = Driver(h, ibfabric, host, net, lib, cpu)
        hh = Model(h, 'hca_host', ibfabric, hca_host, net, lib)
        os.sched_setaffinity(hh.host.pid, {cpu})
        peers = [Peer(hh, n) for n in PEER_BUFS]
        sides = [drv] + peers
        got = {}
        for size in a.sizes:
            for setup in SETUPS:
                name = setup[0]
                show(drv.tag, size, name, drv.burst(h, size, warm, setup, hh),
                     ' (warm-up)')
                for p in peers:
                    show(p.tag, size, name, p.burst(h, size, warm, drv), ' (warm-up)')
                runs = []
                for i in range(a.runs):
                    r = {}
                    rtt = c2c(h, probe)
                    # ABC CBA: the order flips every round
                    for side in sides if i % 2 == 0 else sides[::-1]:
                        if side is drv:
                            r[side] = drv.burst(h, size, a.count, setup, hh)
                        else:
                            r[side] = side.burst(h, size, a.count, drv)
                        r[side]['c2c'] = rtt
                        show(side.tag, size, name, r[side], ' #%-2d' % i)
                    runs.append([r[side] for side in sides])
                got[size, name] = runs
        print('bench_mthca: %d ABC/CBA rounds of %d datagrams per size and set-up, hosts on '
              'CPU %d:' % (a.runs, a.count, cpu))
        med = {k: summary(k[0], k[1], v, peers) for k, v in got.items()}
        goal = SETUPS[0][0]
        for size in a.sizes:
            like, one = med[size, goal][0][-1], med[size, goal][0][0]
            print('bench_mthca: %4d bytes: goal >= %.1fx %s (median per-round ratio, %s '
                  'set-up): %.3f %s; against %s (one send buffer) %.3f; deep set-up %.3f / %.3f' %
                  (size, GOAL_RATIO, peers[-1].tag, goal, like,
                   'met' if like >= GOAL_RATIO else 'NOT met', peers[0].tag, one,
                   med[size, 'deep'][0][-1], med[size, 'deep'][0][0]))
        if 2044 in a.sizes:
            rate = med[2044, goal][1]
            print('bench_mthca: goal >= %d Kpps at 2044 bytes (net_mthca median, %s set-up): '
                  '%.1f Kpps %s; deep set-up %.1f Kpps' %
                  (GOAL_PPS // 1000, goal, rate / 1e3,
                   'NOT judged (fewer than 5 rounds)' if a.runs < 5 else
                   'met' if rate >= GOAL_PPS else 'NOT met',
                   med[2044, 'deep'][1] / 1e3))
        for size in a.sizes:
            tx, rx, ref, tx_ref, rx_ref, tx_mean, rx_mean = med[size, goal][2:]
            print('bench_mthca: %4d bytes: goal <= %.0f cycles/pkt at full bursts (median of the'
                  ' bursts\' median calls, %s set-up): tx_burst %.1f, rx_burst %.1f %s (their'
                  ' means %.1f / %.1f; the vCPU meanwhile: reference %.1f, the calls %.2fx /'
                  ' %.2fx their reference); deep set-up tx %.1f, rx %.1f' %
                  (size, GOAL_CYCLES, goal, tx, rx,
                   'met' if max(tx, rx) <= GOAL_CYCLES else 'NOT met', tx_mean, rx_mean, ref,
                   tx_ref, rx_ref, med[size, 'deep'][2], med[size, 'deep'][3]))
        drv.close(h)
        hh.close(h)


if __name__ == '__main__':
    main()
