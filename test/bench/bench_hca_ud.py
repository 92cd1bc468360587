# SPDX-License-Identifier: BSD-3-Clause
# Copyright(c) 2026 The dpdk-ipoib authors
"""UD datagrams per second through ibfabric's MT25208 model, against a
baseline model built from another revision, in the same run (issues 4 and 12).

usage: bench_hca_ud.py IBFABRIC HCA_HOST NETFILE [--build-root DIR]
                       [--baseline REV] [--runs N] [--count N] [--c2c-probe PROG]

Per model: one ibfabric with its OpenSM (two hosts on one switch, LIDs
from OpenSM) and one `hca_host bench_serve` process driving both PCI
functions: host A keeps 32 signaled UD sends in flight to host B, which
reposts every receive, one burst of --count datagrams per request
(hh_bench.c). The model runs in ibfabric's single thread (one vCPU), the
host spins on the other. The same hca_host program drives both models, so
the comparison is of the models alone: what a datagram costs the host is
the same code on both sides.

Baseline: the model of revision REV (--baseline, else $BASELINE_REV,
default ed16aa9: the model before issue 12's strict checks; "none" skips
it), its ibfabric built from `git archive REV` into
$XDG_CACHE_HOME/dpdk-ipoib/baseline-<rev> (~/.cache by default), outside
the source tree, with the build options of --build-root (buildtype,
optimization, debug, sanitizers, c_args); kept and reused while those
options stay the same.

Method (doc/guides/testing.rst, "bench_hca_ud"): single runs of either
model vary up to 3x back to back on a 2-vCPU VM, more than the difference
being measured. So both fabrics and both hosts stay up and --runs pairs of
short bursts (default 21 of 200,000 datagrams) alternate new/baseline in
ABBA order (new-old, old-new, ...) per size, after one warm-up burst each:
a slow phase of the machine hits both members of a pair. Reported per
size: the median and spread of each model's rate and the median of the
per-pair ratios new/old; per burst, what the scheduler did meanwhile (each
process's share of the wall time on a CPU and waiting for one,
/proc/PID/schedstat, the VM's steal time, page faults) and, per pair, the
cache-line round trip between the two vCPUs (c2c_probe, --c2c-probe), so a slow
burst shows why; the summary gives each model's median rate over the pairs
whose round trip was at most the median one and over the rest, and the
median ratio of the pairs in which every process had a CPU at least 85 % of
the wall time (the others measured the scheduler), and each model's median
over such bursts. Goals: the
median pair ratio >= 0.95 at 64 and 2044 bytes, and the median of the new
model's bursts at 2044 bytes >= 961 Kpps (4x DDR IPoIB line rate; at least
five bursts). Exit 0 after a run, whatever the figures (a benchmark
reports, it does not judge).
"""

import argparse
import json
import os
import re
import shutil
import statistics
import subprocess
import time

from harness import Proc
from simlib import Fabric, Harness, find_umad2sim, start_opensm

HERE = os.path.dirname(os.path.abspath(__file__))
TOP = os.path.dirname(os.path.dirname(HERE))
SIZES = (64, 2044)
GOAL_PPS = 961000
GOAL_RATIO = 0.95
# a burst in which either process spent less of the wall time on a CPU was
# slowed by the scheduler (another runnable task took the vCPU), not the model
CLEAN_CPU_SHARE = 0.85
# build options that change the code the baseline runs; the rest stay default
COPIED_OPTIONS = ('buildtype', 'optimization', 'debug', 'b_ndebug', 'b_sanitize', 'b_lto',
                  'c_args', 'c_link_args')


def sh(argv, cwd=None):
    return subprocess.run(argv, cwd=cwd, capture_output=True, text=True)


def build_options(build_root):
    """The -D arguments that give a new build the options of @build_root."""
    if not build_root:
        return []
    r = sh(['meson', 'introspect', '--buildoptions', build_root])
    if r.returncode != 0:
        return []
    out = []
    for o in json.loads(r.stdout):
        if o['name'] in COPIED_OPTIONS:
            v = o['value']
            if isinstance(v, list):
                v = ' '.join(v)
            elif isinstance(v, bool):
                v = 'true' if v else 'false'
            out.append('-D%s=%s' % (o['name'], v))
    return out


def target_files(build):
    """{name: path} of the executable ibfabric in @build."""
    r = sh(['meson', 'introspect', '--targets', build])
    if r.returncode != 0:
        return {}
    return {t['name']: t['filename'][0] for t in json.loads(r.stdout)
            if t['type'] == 'executable' and t['name'] == 'ibfabric'}


def build_baseline(rev, build_root):
    """(ibfabric, netfile, sha) of revision @rev, or raise RuntimeError."""
    r = sh(['git', 'rev-parse', '--verify', '--quiet', rev + '^{commit}'], cwd=TOP)
    if r.returncode != 0:
        raise RuntimeError('%s is not a commit of %s (a git checkout is needed)' % (rev, TOP))
    sha = r.stdout.strip()
    cache = os.path.join(os.environ.get('XDG_CACHE_HOME') or
                         os.path.expanduser('~/.cache'), 'dpdk-ipoib', 'baseline-' + sha[:12])
    src, build, stamp = (os.path.join(cache, x) for x in ('src', 'build', 'built'))
    opts = ['-Ddpdk=disabled', '-Dwerror=false'] + build_options(build_root)
    sig = json.dumps([sha, opts])
    files = target_files(build) if os.path.isdir(build) else {}
    if (os.path.exists(stamp) and open(stamp).read() == sig and files and
            all(os.path.exists(f) for f in files.values())):
        print('baseline %s: reusing %s' % (rev, build))
    else:
        shutil.rmtree(cache, ignore_errors=True)
        os.makedirs(src)
        arch = subprocess.run(['git', 'archive', sha], cwd=TOP, capture_output=True)
        if arch.returncode != 0:
            raise RuntimeError('git archive %s: %s' % (rev, arch.stderr.decode()[-500:]))
        t = subprocess.run(['tar', '-x', '-C', src], input=arch.stdout, capture_output=True)
        if t.returncode != 0:
            raise RuntimeError('tar: %s' % t.stderr.decode()[-500:])
        print('baseline %s: building ibfabric of %s in %s (%s)' %
              (rev, sha[:12], build, ' '.join(opts)))
        r = sh(['meson', 'setup', build, src] + opts)
        if r.returncode != 0:
            raise RuntimeError('meson setup of %s failed:\n%s' % (rev, r.stdout[-2000:]))
        files = target_files(build)
        if not files:
            raise RuntimeError('%s has no ibfabric target' % rev)
        r = sh(['ninja', '-C', build] + [os.path.relpath(f, build) for f in files.values()])
        if r.returncode != 0:
            raise RuntimeError('building %s failed:\n%s' % (rev, r.stdout[-2000:]))
        with open(stamp, 'w') as f:
            f.write(sig)
    nets = sh(['git', 'ls-tree', '-r', '--name-only', sha], cwd=TOP).stdout.split()
    net = [n for n in nets if n.endswith('/hca2.net')]
    if not net:
        raise RuntimeError('%s has no hca2.net' % rev)
    return files['ibfabric'], os.path.join(src, net[0]), sha


def schedstat(pid):
    """(ns on a CPU, ns waiting on a run queue) of @pid's main thread."""
    with open('/proc/%d/schedstat' % pid) as f:
        run, wait = f.read().split()[:2]
    return int(run), int(wait)


def faults(pid):
    """Page faults of @pid so far (minor + major, /proc/PID/stat)."""
    with open('/proc/%d/stat' % pid) as f:
        fields = f.read().rsplit(')', 1)[1].split()
    return int(fields[7]) + int(fields[9])


def steal_ns():
    """Steal time of the whole VM (every CPU), ns: the hypervisor ran someone else."""
    with open('/proc/stat') as f:
        fields = f.readline().split()
    return int(fields[8]) * 1e9 / os.sysconf('SC_CLK_TCK')


class Model:
    """One ibfabric with its OpenSM and a bench_serve hca_host on its two functions."""

    def __init__(self, h, tag, ibfabric, hca_host, net, lib):
        self.tag = tag
        root = h.path('pci-' + tag)
        self.fab = Fabric(h, ibfabric, net, tag=tag, extra=['--pci-root', root, '-q'])
        h.wait_for(lambda: os.path.isdir(root) and
                   len([d for d in os.listdir(root) if d.startswith('0000:')]) == 2,
                   timeout=10, what='PCI functions of the %s model' % tag)
        a, b = sorted(os.path.join(root, d) for d in os.listdir(root) if d.startswith('0000:'))
        start_opensm(h, self.fab, lib, 'ca-sm', name='opensm-' + tag, sweep=1)
        self.log = h.path('hca_host-%s.log' % tag)
        # a bring-up can miss OpenSM's sweep on a loaded machine: one more try
        for attempt in (1, 2):
            # a pipe, not the log file: the bench blocks on the reply instead of polling
            self.host = subprocess.Popen([hca_host, 'bench_serve', a, b], cwd=h.dir,
                                         stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                         stderr=subprocess.STDOUT, text=True,
                                         start_new_session=True)
            h.procs.append(Proc('hca_host-' + tag, self.host, self.log))
            h.info('started hca_host bench_serve for %s (pid %d)' % (tag, self.host.pid))
            line = self.host.stdout.readline()
            with open(self.log, 'a') as f:
                f.write(line)
            if line.startswith('bench: ready'):
                break
            self.host.wait(timeout=30)
            h.check(attempt == 1, '%s: hca_host bench_serve: %s (twice)' % (tag, line.strip()))
            print('bench_hca_ud: %s: hca_host bench_serve: %s; once more' % (tag, line.strip()))
        self.runs = {s: [] for s in SIZES}

    def reply(self, h):
        line = self.host.stdout.readline()
        with open(self.log, 'a') as f:
            f.write(line)
        h.check(line != '', '%s: hca_host bench_serve exited (rc %s); see %s' %
                (self.tag, self.host.poll(), self.log))
        return line.strip()

    def close(self, h):
        """Ask the host to quit; what it prints until it exits (a sanitizer's report
        at exit included) goes to its log, where the harness looks for reports."""
        try:
            rest, _ = self.host.communicate('quit\n', timeout=30)
        except subprocess.TimeoutExpired:
            h.check(False, '%s: hca_host bench_serve did not quit' % self.tag)
        with open(self.log, 'a') as f:
            f.write(rest)
        h.check(self.host.returncode == 0, '%s: hca_host bench_serve exit %s; see %s' %
                (self.tag, self.host.returncode, self.log))

    def burst(self, h, size, count, idle=None, bufs=1):
        """One burst; a dict of its rate and what the scheduler did meanwhile.

        @idle: the other model, whose ibfabric (polling its quiet host once
        a millisecond) is watched too. @bufs: how many send buffers the
        host sends from in turn (hh_bench.c).
        """
        pids = (self.fab.proc.pid, self.host.pid) + ((idle.fab.proc.pid,) if idle else ())
        c0 = dp_counters(self.fab)
        f0 = [faults(p) for p in pids[:2]]
        s0, st0, t0 = [schedstat(p) for p in pids], steal_ns(), time.monotonic()
        self.host.stdin.write('%d %d %d\n' % (size, count, bufs))
        self.host.stdin.flush()
        line = self.reply(h)
        wall = (time.monotonic() - t0) * 1e9
        s1, st1 = [schedstat(p) for p in pids], steal_ns()
        c1 = dp_counters(self.fab)
        f1 = [faults(p) for p in pids[:2]]
        m = re.search(r'(\d+) of \d+ received in ([0-9.]+) s = ([0-9]+) pps', line)
        h.check(m and int(m.group(1)) == count, '%s %d bytes: %s' % (self.tag, size, line))
        r = {'pps': int(m.group(3)), 'secs': float(m.group(2)),
             'model_cpu': (s1[0][0] - s0[0][0]) / wall, 'model_wait': (s1[0][1] - s0[0][1]) / wall,
             'host_cpu': (s1[1][0] - s0[1][0]) / wall, 'host_wait': (s1[1][1] - s0[1][1]) / wall,
             'steal': (st1 - st0) / wall / os.cpu_count(),
             'idle_cpu': (s1[2][0] - s0[2][0]) / wall if idle else 0.0,
             'faults': (f1[0] - f0[0], f1[1] - f0[1]),
             'model_ns': (s1[0][0] - s0[0][0]) / count}
        if c0 and c1:
            # both functions' passes: ibfabric polls every attached function per pass
            r['db_per_dgram'] = (c1['doorbells'] - c0['doorbells']) / count
            r['passes_per_dgram'] = (c1['polls'] - c0['polls']) / 2 / count
        return r


def c2c(h, prog):
    """Cache-line round trip between CPUs 0 and 1 now, ns (fastest batch), or None."""
    if not prog:
        return None
    r = h.run([prog], timeout=60, check=False)
    m = re.search(r'([0-9]+) ns per round trip', r.stdout)
    if r.returncode != 0 or not m:
        print('bench_hca_ud: c2c_probe: %s %s' % (r.stdout.strip(), r.stderr.strip()))
        return None
    return int(m.group(1))


def by_c2c(runs, rtts):
    """Median rate (Kpps) over the runs with the faster half of round trips, and the rest."""
    known = [(t, r['pps']) for t, r in zip(rtts, runs) if t is not None]
    if len(known) < 2:
        return None
    cut = statistics.median(t for t, _ in known)
    fast = [p for t, p in known if t <= cut]
    slow = [p for t, p in known if t > cut] or [float('nan')]
    return cut, statistics.median(fast) / 1e3, statistics.median(slow) / 1e3


def dp_counters(fab):
    """{key: int} of the sending and receiving models' hca_dp lines (this model's
    "hca <node> resources"), or None: an older model prints none."""
    out = {}
    for node in ('hosta', 'hostb'):
        lines = [x for x in fab.ctl.cmd('hca "%s" resources' % node, ok=False)
                 if x.startswith('hca_dp ')]
        if not lines:
            return None
        for k, v in re.findall(r'(\w+)=(\d+)', lines[0]):
            out[k] = out.get(k, 0) + int(v)
    return out


def show(tag, size, r, what=''):
    print('bench_hca_ud: %-8s %4d bytes%s: %7.1f Kpps in %.3f s; share of the wall time on a'
          ' CPU / waiting: ibfabric %3.0f%% / %2.0f%%, hca_host %3.0f%% / %2.0f%%; steal %2.0f%%;'
          ' ibfabric CPU %4.0f ns/datagram; the idle fabric %.1f%% of a CPU;'
          ' page faults %d/%d' %
          (tag, size, what, r['pps'] / 1e3, r['secs'], 100 * r['model_cpu'],
           100 * r['model_wait'], 100 * r['host_cpu'], 100 * r['host_wait'],
           100 * r['steal'], r['model_ns'], 100 * r['idle_cpu'], r['faults'][0],
           r['faults'][1]) +
          ('; per datagram %.2f doorbells taken, %.1f poll passes' %
           (r['db_per_dgram'], r['passes_per_dgram']) if 'db_per_dgram' in r else ''))


def spread(v):
    """'median (min..max, quartiles q1..q3)' of rates in pps, as Kpps."""
    q = statistics.quantiles(v, n=4) if len(v) > 1 else [v[0]] * 3
    return '%.1f Kpps (%.1f..%.1f, quartiles %.1f..%.1f)' % (
        statistics.median(v) / 1e3, min(v) / 1e3, max(v) / 1e3, q[0] / 1e3, q[2] / 1e3)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument('ibfabric')
    ap.add_argument('hca_host')
    ap.add_argument('net')
    ap.add_argument('--build-root', help='build directory whose options the baseline copies')
    ap.add_argument('--baseline', default=os.environ.get('BASELINE_REV') or 'ed16aa9',
                    help='revision of the baseline model ("none": no baseline)')
    ap.add_argument('--runs', type=int, default=int(os.environ.get('BENCH_RUNS', '21')),
                    help='bursts per size and model (pairs with a baseline)')
    ap.add_argument('--count', type=int, default=int(os.environ.get('BENCH_COUNT', '200000')),
                    help='datagrams per burst')
    ap.add_argument('--c2c-probe', help='c2c_probe program: vCPU round trip per pair')
    a = ap.parse_args()
    if a.runs < 1 or a.count < 1:
        ap.error('--runs and --count must be at least 1')
    new_fab, host, net = (os.path.abspath(x) for x in (a.ibfabric, a.hca_host, a.net))
    probe = os.path.abspath(a.c2c_probe) if a.c2c_probe else None
    with Harness('bench_hca_ud', timeout=3000) as h:
        base = None
        if a.baseline != 'none':
            try:
                base = build_baseline(a.baseline, a.build_root)
            except RuntimeError as e:
                print('bench_hca_ud: no baseline: %s' % e)
        lib = find_umad2sim(h)
        new = Model(h, 'new', new_fab, host, net, lib)
        old = Model(h, 'baseline', base[0], host, base[1], lib) if base else None
        ratios = {s: [] for s in SIZES}
        clean = {s: [] for s in SIZES}
        rtts = {s: [] for s in SIZES}
        for size in SIZES:
            for m, other in ((new, old), (old, new)) if old else ((new, None),):
                show(m.tag, size, m.burst(h, size, max(a.count // 4, 1), other), ' (warm-up)')
            for i in range(a.runs):
                # ABBA: the order flips every pair
                pair = (new, old) if i % 2 == 0 else (old, new)
                rtt = c2c(h, probe)
                rtts[size].append(rtt)
                if rtt is not None:
                    print('bench_hca_ud: %4d bytes #%-2d: vCPU cache-line round trip %d ns' %
                          (size, i, rtt))
                got = {}
                for m in pair if old else (new,):
                    r = m.burst(h, size, a.count, old if m is new else new)
                    m.runs[size].append(r)
                    got[m.tag] = r['pps']
                    show(m.tag, size, r, ' #%-2d' % i)
                if old:
                    ratios[size].append(got['new'] / got['baseline'])
                    if all(m.runs[size][-1]['model_cpu'] >= CLEAN_CPU_SHARE and
                           m.runs[size][-1]['host_cpu'] >= CLEAN_CPU_SHARE for m in pair):
                        clean[size].append(got['new'] / got['baseline'])
        print('bench_hca_ud: %d bursts of %d datagrams per size and model%s:' %
              (a.runs, a.count, ', ABBA pairs' if old else ''))
        ok_rate, ok_ratio = True, True
        for size in SIZES:
            pn = [r['pps'] for r in new.runs[size]]
            print('bench_hca_ud: %4d bytes: new %s; ibfabric %.0f ns/datagram' %
                  (size, spread(pn), statistics.median(r['model_ns'] for r in new.runs[size])))
            if old:
                po = [r['pps'] for r in old.runs[size]]
                rq = ratios[size]
                q = statistics.quantiles(rq, n=4) if len(rq) > 1 else [rq[0]] * 3
                print('bench_hca_ud: %4d bytes: baseline %s %s; ibfabric %.0f ns/datagram' %
                      (size, base[2][:7], spread(po),
                       statistics.median(r['model_ns'] for r in old.runs[size])))
                print('bench_hca_ud: %4d bytes: new/baseline per pair: median %.3f (%.3f..%.3f,'
                      ' quartiles %.3f..%.3f); ratio of the medians %.3f' %
                      (size, statistics.median(rq), min(rq), max(rq), q[0], q[2],
                       statistics.median(pn) / statistics.median(po)))
                if clean[size]:
                    print('bench_hca_ud: %4d bytes: new/baseline in the %d of %d pairs where both'
                          ' processes had a CPU >= %.0f%% of the time: median %.3f' %
                          (size, len(clean[size]), len(rq), 100 * CLEAN_CPU_SHARE,
                           statistics.median(clean[size])))
                ok_ratio &= statistics.median(rq) >= GOAL_RATIO
            for m in (new, old) if old else (new,):
                ok = [r['pps'] for r in m.runs[size]
                      if r['model_cpu'] >= CLEAN_CPU_SHARE and r['host_cpu'] >= CLEAN_CPU_SHARE]
                if ok:
                    print('bench_hca_ud: %4d bytes: %s: median %.1f Kpps over the %d of %d bursts'
                          ' where both processes had a CPU >= %.0f%% of the time' %
                          (size, m.tag, statistics.median(ok) / 1e3, len(ok), len(m.runs[size]),
                           100 * CLEAN_CPU_SHARE))
                split = by_c2c(m.runs[size], rtts[size])
                if split:
                    print('bench_hca_ud: %4d bytes: %s: median %.1f Kpps in the pairs with a vCPU'
                          ' round trip <= %.0f ns, %.1f Kpps in the others' %
                          (size, m.tag, split[1], split[0], split[2]))
            if size == 2044:
                ok_rate = statistics.median(pn) >= GOAL_PPS and len(pn) >= 5
        print('bench_hca_ud: goal >= %d Kpps at 2044 bytes (median of %d bursts): %s' %
              (GOAL_PPS // 1000, a.runs, 'met' if ok_rate else 'NOT met'))
        if old:
            print('bench_hca_ud: goal >= %.2fx the baseline at 64 and 2044 bytes (median pair'
                  ' ratio): %s' % (GOAL_RATIO, 'met' if ok_ratio else 'NOT met'))
        for m in (new, old) if old else (new,):
            m.close(h)


if __name__ == '__main__':
    main()
