# SPDX-License-Identifier: BSD-3-Clause
# Copyright(c) 2026 The dpdk-ipoib authors
"""UD datagrams per second through ibfabric's MT25208 model (issue 4).

usage: bench_hca_ud.py IBFABRIC HCA_HOST NETFILE [COUNT]

Two hosts (one hca_host process driving both PCI functions) on one
switch, LIDs from OpenSM; host A keeps 32 signaled UD sends in flight to
host B, which reposts every receive. 64- and 2044-byte payloads. The
model runs in ibfabric's single thread: one core. On a 2-core machine
hca_host takes the other; OpenSM sleeps between sweeps. Goal: >= 961 Kpps
at 2044 bytes (4x DDR IPoIB line rate). Prints one line per size; exit 0
after a run, whatever the figure (a benchmark reports, it does not judge).
"""

import os
import re
import sys

from simlib import Fabric, Harness, find_umad2sim, proc_cpu_seconds, start_opensm


def main():
    ibfabric, hca_host, net = (os.path.abspath(x) for x in sys.argv[1:4])
    count = int(sys.argv[4]) if len(sys.argv) > 4 else 500000
    with Harness('bench_hca_ud', timeout=600) as h:
        root = h.path('pci')
        fab = Fabric(h, ibfabric, net, extra=['--pci-root', root, '-q'])
        h.wait_for(lambda: os.path.isdir(root) and
                   len([d for d in os.listdir(root) if d.startswith('0000:')]) == 2,
                   timeout=10, what='PCI functions')
        a, b = sorted(os.path.join(root, d) for d in os.listdir(root) if d.startswith('0000:'))
        lib = find_umad2sim(h)
        start_opensm(h, fab, lib, 'ca-sm', sweep=1)
        results = {}
        for size in (64, 2044):
            cpu0 = proc_cpu_seconds(fab.proc.pid)
            r = h.run([hca_host, 'bench', a, b, str(size), str(count)], timeout=300, check=False)
            cpu1 = proc_cpu_seconds(fab.proc.pid)
            m = re.search(r'received in ([0-9.]+) s = ([0-9]+) pps', r.stdout)
            h.check(r.returncode == 0 and m, 'hca_host bench %d: %s %s' % (size, r.stdout, r.stderr))
            secs, pps = float(m.group(1)), int(m.group(2))
            results[size] = pps
            print('bench_hca_ud: %4d-byte UD datagrams: %8d pps (%.1f Kpps), ibfabric CPU %.2f s '
                  'for %.2f s of traffic (incl. bring-up)' % (size, pps, pps / 1e3, cpu1 - cpu0, secs))
        print('bench_hca_ud: goal >= 961 Kpps at 2044 bytes: %s' %
              ('met' if results[2044] >= 961000 else 'NOT met (%.0f%%)' % (100.0 * results[2044] / 961000)))


if __name__ == '__main__':
    main()
