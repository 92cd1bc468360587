#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-3-Clause
# Copyright(c) 2026 The dpdk-ipoib authors
"""Issue 4 "Show": Debian's dpdk-testpmd, with SYSFS_PCI_DEVICES pointing at
ibfabric's --pci-root, probes a PCI driver for 15b3:6282 on the simulated
MT25208 function (the few-line driver in probe.c, loaded with -d).

Also checks the idle cost of the device model (doc/guides/nics/mthca_hw.rst,
"Polling and latency"): no CPU with no host attached, little with a quiet
host attached (1 ms polling), and that a host closing its IOMMU socket is
seen as gone (the HCA is reset).

usage: test_probe.py <ibfabric> <netfile> <probe.so>
"""

import os
import socket
import sys
import time

from simlib import Fabric, Harness, eal_safe_plugin, proc_cpu_seconds, sanitizer_preload

BDF = '0000:10:00.0'


def cpu_share(pid, seconds):
    t0 = proc_cpu_seconds(pid)
    time.sleep(seconds)
    return (proc_cpu_seconds(pid) - t0) / seconds


def main():
    ibfabric, netfile, probe_so = (os.path.abspath(a) for a in sys.argv[1:4])
    with Harness('hca_probe', timeout=100) as h:
        h.need_program('dpdk-testpmd')
        h.need_file(netfile)
        h.need_file(probe_so)
        root = h.path('pci')
        fab = Fabric(h, ibfabric, netfile, tag='probe', extra=['--pci-root', root])
        dev = os.path.join(root, BDF)
        h.wait_for(lambda: os.path.exists(os.path.join(dev, 'iommu.sock')), timeout=10,
                   what='the PCI function of the first active CA')
        for name, want in (('vendor', '0x15b3'), ('device', '0x6282'), ('class', '0x0c0600')):
            with open(os.path.join(dev, name)) as f:
                h.check_eq(f.read().strip(), want, name)

        r = h.run(['dpdk-testpmd', '-d', eal_safe_plugin(h, probe_so), '--no-huge', '-m', '64',
                   '--file-prefix', 'hcaprobe%d' % os.getpid(), '-a', BDF, '--',
                   '--total-num-mbufs=2048'],
                  env=dict(sanitizer_preload(h, probe_so), SYSFS_PCI_DEVICES=root),
                  input='', timeout=60, check=False)
        out = r.stdout + r.stderr
        h.info('testpmd:\n' + out[-2000:])
        h.check('Probe PCI driver: ibfabric_probe (15b3:6282) device: %s' % BDF in out,
                'testpmd did not log "Probe PCI driver" for %s' % BDF)
        h.check('MT25208 %s, BAR0 1048576 bytes, BAR2 8388608 bytes' % BDF in out,
                'driver saw the wrong BAR sizes')

        # Idle cost: nobody attached -> the loop blocks.
        share = cpu_share(fab.proc.pid, 2.0)
        h.info('idle, no host: %.1f %% CPU' % (100 * share))
        h.check(share < 0.03, 'ibfabric uses %.1f %% CPU with no host' % (100 * share))
        # A quiet attached host: 1 ms polling.
        s = socket.socket(socket.AF_UNIX, socket.SOCK_SEQPACKET)
        s.connect(os.path.join(dev, 'iommu.sock'))
        h.wait_log(fab.proc, 'host attached')
        share = cpu_share(fab.proc.pid, 3.0)
        h.info('idle, quiet host attached: %.1f %% CPU' % (100 * share))
        h.check(share < 0.10, 'ibfabric uses %.1f %% CPU with a quiet host' % (100 * share))
        s.close()
        h.wait_log(fab.proc, 'host gone')
        r = h.stop(fab.proc)
        h.check_eq(r, 0, 'ibfabric exit status')
        h.check(not os.path.exists(dev), 'PCI function directory left behind')


if __name__ == '__main__':
    main()
