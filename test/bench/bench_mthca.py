#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-3-Clause
# Copyright(c) 2026 The dpdk-ipoib authors
"""net_mthca's cost and rate (issue 13): one mthca_host process drives both
simulated MT25208s of hca2.net in one thread (as hca_host bench does),
sending from the first HCA's port to the second's in bursts of 32. It
reports the PMD's cycles per packet inside tx_burst and inside the
rx_burst calls that returned packets (rdtsc in the PMD's thread; the
model runs on the other core), and the end-to-end rate, for 64- and
2044-byte datagrams; then the driver-less harness (hca_host bench) on the
same model in the same run, for the ratio.
Each size runs with two receive set-ups (doc/guides/nics/mthca.rst,
"Performance"): "deep", a ring of 4096 with up to 1024 datagrams in
flight (mthca_host's default), and "harness", a ring of 64 with up to 32
in flight, the working set of hca_host bench (32 receive slots, 32 in
flight). The receive ring is FIFO, so its size is how much memory the
model's receive copies cycle through; the goals are compared on the
"harness" set-up, the "deep" one is shown beside it.
Cycles are given two ways: over the rate run, per packet of the calls
that moved packets, with how full the receive bursts were; and at full
bursts of 32 (the receive side waits with rte_eth_rx_descriptor_status()
until 32 completions are there), the median per call over 2,000 rounds
divided by 32, and the least of those calls (on a machine other work
shares, the call nothing disturbed).
Goals: <= 40 cycles/packet each way, >= 0.9x the harness, >= 961 Kpps at
2044 bytes. A benchmark reports; exit 0 after a run.

usage: bench_mthca.py IBFABRIC MTHCA_HOST HCA_HOST NETFILE [COUNT]
"""

import os
import re
import sys
import time

from simlib import Fabric, Harness, find_umad2sim, start_opensm


# (name, receive ring of the second HCA, most datagrams in flight)
SETUPS = (('deep', 4096, 1024), ('harness', 64, 32))


def bench(h, p, size, count, ring, inflight):
    """One BENCH command; again while the second port is not ACTIVE yet."""
    for _ in range(100):
        seen = len(p.log().splitlines())
        p.write('BENCH %d %d %d %d\n' % (size, count, ring, inflight))
        line = h.wait_for(lambda: next((x for x in p.log().splitlines()[seen:]
                                        if x.startswith(('OK bench', 'ERR'))), None),
                          timeout=200, what='bench %d' % size)
        if not line.startswith('ERR bench needs'):
            return line
        h.info(line + ' (the second port is not ACTIVE yet: again)')
        time.sleep(1)
    return line


def main():
    ibfabric, host, hca_host, net = (os.path.abspath(x) for x in sys.argv[1:5])
    count = int(sys.argv[5]) if len(sys.argv) > 5 else 500000
    with Harness('bench_mthca', timeout=900) as h:
        root = h.path('pci')
        fab = Fabric(h, ibfabric, net, extra=['--pci-root', root, '-q'])
        h.wait_for(lambda: os.path.isdir(root) and
                   len([d for d in os.listdir(root) if d.startswith('0000:')]) == 2,
                   timeout=10, what='PCI functions')
        a, b = sorted(d for d in os.listdir(root) if d.startswith('0000:'))
        lib = find_umad2sim(h)
        start_opensm(h, fab, lib, 'ca-sm', sweep=1)
        p = h.spawn([host, '--no-huge', '-m', '512', '-l', '1', '--file-prefix',
                     'mthcabench%d' % os.getpid(), '-a', a, '-a', b],
                    name='mthca_host', stdin=True, env={'SYSFS_PCI_DEVICES': root})
        h.wait_log(p, 'READY', timeout=90)
        mine = {}
        for size in (64, 2044):
            for setup, ring, inflight in SETUPS:
                line = bench(h, p, size, count, ring, inflight)
                m = re.search(r'pps (\d+) tx_cycles_per_pkt ([0-9.]+) rx_cycles_per_pkt ([0-9.]+) '
                              r'rx_pkts_per_burst ([0-9.]+) full32_tx_cycles_per_pkt ([0-9.]+) '
                              r'full32_rx_cycles_per_pkt ([0-9.]+) '
                              r'full32_tx_min_cycles_per_pkt ([0-9.]+) '
                              r'full32_rx_min_cycles_per_pkt ([0-9.]+)', line)
                h.check(m is not None, 'bench %d %s: %s' % (size, setup, line))
                mine[size, setup] = int(m.group(1))
                tag = '%4d bytes, %-7s (ring %4d, %4d in flight)' % (size, setup, ring, inflight)
                print('bench_mthca: %s: net_mthca %8d pps (%.1f Kpps); during the rate run '
                      'tx_burst %s cycles/pkt, rx_burst %s cycles/pkt over non-empty polls '
                      '(%s pkts per poll)' % (tag, mine[size, setup], mine[size, setup] / 1e3,
                                              m.group(2), m.group(3), m.group(4)))
                print('bench_mthca: %s: full bursts of 32, per packet: tx_burst median %s '
                      '(least %s), rx_burst median %s (least %s) cycles (goal <= 40)' %
                      (tag, m.group(5), m.group(7), m.group(6), m.group(8)))
        p.write('QUIT\n')
        h.wait_for(lambda: not p.alive(), timeout=60, what='mthca_host to exit')
        for size in (64, 2044):
            r = h.run([hca_host, 'bench', os.path.join(root, a), os.path.join(root, b),
                       str(size), str(count)], timeout=300, check=False)
            m = re.search(r'received in ([0-9.]+) s = ([0-9]+) pps', r.stdout)
            h.check(r.returncode == 0 and m, 'hca_host bench %d: %s %s' % (size, r.stdout, r.stderr))
            theirs = int(m.group(2))
            print('bench_mthca: %4d bytes: hca_host %8d pps; net_mthca / hca_host = %.2f harness '
                  'set-up (goal >= 0.9), %.2f deep' % (size, theirs, mine[size, 'harness'] / theirs,
                                                      mine[size, 'deep'] / theirs))
        best = mine[2044, 'harness']
        print('bench_mthca: goal >= 961 Kpps at 2044 bytes (harness set-up): %s' %
              ('met' if best >= 961000 else 'NOT met (%.0f%%)' % (100.0 * best / 961000)))


if __name__ == '__main__':
    main()
