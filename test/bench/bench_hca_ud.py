# SPDX-License-Identifier: BSD-3-Clause
# Copyright(c) 2026 The dpdk-ipoib authors
"""UD datagrams per second through ibfabric's MT25208 model, against a
baseline model built from another revision (issues 4 and 12).

usage: bench_hca_ud.py IBFABRIC HCA_HOST NETFILE [--build-root DIR]
                       [--baseline REV] [--runs N] [--count N]

Two hosts (one hca_host process driving both PCI functions) on one
switch, LIDs from OpenSM; host A keeps 32 signaled UD sends in flight to
host B, which reposts every receive. 64- and 2044-byte payloads. The
model runs in ibfabric's single thread: one core.

Baseline: the model of revision REV (--baseline, else $BASELINE_REV,
default ed16aa9: the model before issue 12's strict checks; "none" skips
it), built with its own hca_host (the strict model refuses the old host's
habits, the old model predates the new host) from `git archive REV` into
$XDG_CACHE_HOME/dpdk-ipoib/baseline-<rev> (~/.cache by default), outside
the source tree, with the build options of --build-root (buildtype,
optimization, debug, sanitizers, c_args); kept and reused while those
options stay the same. Both fabrics stay up, each with its OpenSM; the runs
alternate new/old (the order flips every round) --runs times per size, so
load on a shared machine hits both alike.

Prints per size the median rate of each model, the ratio new/old, and
ibfabric's CPU time per datagram (median; less sensitive to load than the
rate); then the goals: >= 961 Kpps at 2044 bytes (4x DDR IPoIB line
rate) and >= 0.95x the baseline at 64 and 2044 bytes. Exit 0 after a run,
whatever the figures (a benchmark reports, it does not judge).
"""

import argparse
import json
import os
import re
import resource
import shutil
import statistics
import subprocess

from simlib import Fabric, Harness, find_umad2sim, proc_cpu_seconds, start_opensm

HERE = os.path.dirname(os.path.abspath(__file__))
TOP = os.path.dirname(os.path.dirname(HERE))
SIZES = (64, 2044)
GOAL_PPS = 961000
GOAL_RATIO = 0.95
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
    """{name: path} of the executables ibfabric and hca_host in @build."""
    r = sh(['meson', 'introspect', '--targets', build])
    if r.returncode != 0:
        return {}
    return {t['name']: t['filename'][0] for t in json.loads(r.stdout)
            if t['type'] == 'executable' and t['name'] in ('ibfabric', 'hca_host')}


def build_baseline(rev, build_root):
    """(ibfabric, hca_host, netfile, sha) of revision @rev, or raise RuntimeError."""
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
    if (os.path.exists(stamp) and open(stamp).read() == sig and len(files) == 2 and
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
        print('baseline %s: building ibfabric and hca_host of %s in %s (%s)' %
              (rev, sha[:12], build, ' '.join(opts)))
        r = sh(['meson', 'setup', build, src] + opts)
        if r.returncode != 0:
            raise RuntimeError('meson setup of %s failed:\n%s' % (rev, r.stdout[-2000:]))
        files = target_files(build)
        if len(files) != 2:
            raise RuntimeError('%s has no ibfabric and hca_host targets (%s)' % (rev, files))
        r = sh(['ninja', '-C', build] + [os.path.relpath(f, build) for f in files.values()])
        if r.returncode != 0:
            raise RuntimeError('building %s failed:\n%s' % (rev, r.stdout[-2000:]))
        with open(stamp, 'w') as f:
            f.write(sig)
    nets = sh(['git', 'ls-tree', '-r', '--name-only', sha], cwd=TOP).stdout.split()
    net = [n for n in nets if n.endswith('/hca2.net')]
    if not net:
        raise RuntimeError('%s has no hca2.net' % rev)
    return files['ibfabric'], files['hca_host'], os.path.join(src, net[0]), sha


class Model:
    """One ibfabric with its OpenSM and the hca_host that matches it."""

    def __init__(self, h, tag, ibfabric, hca_host, net, lib):
        self.tag, self.hca_host = tag, hca_host
        root = h.path('pci-' + tag)
        self.fab = Fabric(h, ibfabric, net, tag=tag, extra=['--pci-root', root, '-q'])
        h.wait_for(lambda: os.path.isdir(root) and
                   len([d for d in os.listdir(root) if d.startswith('0000:')]) == 2,
                   timeout=10, what='PCI functions of the %s model' % tag)
        self.a, self.b = sorted(os.path.join(root, d) for d in os.listdir(root)
                                if d.startswith('0000:'))
        start_opensm(h, self.fab, lib, 'ca-sm', name='opensm-' + tag, sweep=1)
        self.pps = {s: [] for s in SIZES}
        self.ns = {s: [] for s in SIZES}

    def run(self, h, size, count, idle):
        """One bench run; @idle: the other model, whose CPU is watched meanwhile."""
        cpu0 = proc_cpu_seconds(self.fab.proc.pid)
        idle0 = proc_cpu_seconds(idle.fab.proc.pid) if idle else 0
        host0 = resource.getrusage(resource.RUSAGE_CHILDREN)
        r = h.run([self.hca_host, 'bench', self.a, self.b, str(size), str(count)],
                  timeout=300, check=False)
        cpu = proc_cpu_seconds(self.fab.proc.pid) - cpu0
        host1 = resource.getrusage(resource.RUSAGE_CHILDREN)
        host_cpu = host1.ru_utime + host1.ru_stime - host0.ru_utime - host0.ru_stime
        idle_cpu = proc_cpu_seconds(idle.fab.proc.pid) - idle0 if idle else 0
        m = re.search(r'(\d+) of \d+ received in ([0-9.]+) s = ([0-9]+) pps', r.stdout)
        h.check(r.returncode == 0 and m, '%s hca_host bench %d: %s %s' %
                (self.tag, size, r.stdout, r.stderr))
        got, secs, pps = int(m.group(1)), float(m.group(2)), int(m.group(3))
        self.pps[size].append(pps)
        # ibfabric CPU per datagram, bring-up included (the same for both models)
        self.ns[size].append(cpu * 1e9 / got)
        print('bench_hca_ud: %-8s %4d bytes: %8d pps (%.1f Kpps) in %.2f s; CPU per datagram:'
              ' ibfabric %.0f ns, hca_host %.0f ns%s' %
              (self.tag, size, pps, pps / 1e3, secs, cpu * 1e9 / got, host_cpu * 1e9 / got,
               '; the idle fabric used %.2f s' % idle_cpu if idle else ''))


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument('ibfabric')
    ap.add_argument('hca_host')
    ap.add_argument('net')
    ap.add_argument('--build-root', help='build directory whose options the baseline copies')
    ap.add_argument('--baseline', default=os.environ.get('BASELINE_REV') or 'ed16aa9',
                    help='revision of the baseline model ("none": no baseline)')
    ap.add_argument('--runs', type=int, default=int(os.environ.get('BENCH_RUNS', '5')))
    ap.add_argument('--count', type=int, default=int(os.environ.get('BENCH_COUNT', '500000')))
    a = ap.parse_args()
    new_fab, new_host, net = (os.path.abspath(x) for x in (a.ibfabric, a.hca_host, a.net))
    with Harness('bench_hca_ud', timeout=3000) as h:
        base = None
        if a.baseline != 'none':
            try:
                base = build_baseline(a.baseline, a.build_root)
            except RuntimeError as e:
                print('bench_hca_ud: no baseline: %s' % e)
        lib = find_umad2sim(h)
        new = Model(h, 'new', new_fab, new_host, net, lib)
        old = Model(h, 'baseline', base[0], base[1], base[2], lib) if base else None
        for size in SIZES:
            for i in range(a.runs):
                # (model, the other one, idle meanwhile); the order flips every round
                order = [(new, old), (old, new)] if old else [(new, None)]
                if i % 2:
                    order.reverse()
                for m, other in order:
                    m.run(h, size, a.count, other)
        print('bench_hca_ud: %d runs of %d datagrams per size and model, medians:' %
              (a.runs, a.count))
        ok_rate, ok_ratio = True, True
        for size in SIZES:
            pn, nn = statistics.median(new.pps[size]), statistics.median(new.ns[size])
            line = 'bench_hca_ud: %4d bytes: new %.1f Kpps, %.0f ns/datagram' % (size, pn / 1e3,
                                                                                 nn)
            if old:
                po, no = statistics.median(old.pps[size]), statistics.median(old.ns[size])
                line += ('; baseline %s %.1f Kpps, %.0f ns/datagram; new/baseline rate %.3f, '
                         'CPU %.3f' % (base[3][:7], po / 1e3, no, pn / po, nn / no))
                ok_ratio &= pn / po >= GOAL_RATIO
            print(line)
            if size == 2044:
                ok_rate = pn >= GOAL_PPS
        print('bench_hca_ud: goal >= %d Kpps at 2044 bytes (median): %s' %
              (GOAL_PPS // 1000, 'met' if ok_rate else 'NOT met'))
        if old:
            print('bench_hca_ud: goal >= %.2fx the baseline rate at 64 and 2044 bytes: %s' %
                  (GOAL_RATIO, 'met' if ok_ratio else 'NOT met'))


if __name__ == '__main__':
    main()
