# SPDX-License-Identifier: BSD-3-Clause
# Copyright(c) 2026 The dpdk-ipoib authors
"""What the user-MAD client tests (test_umad_clients.py, test_umad_load.py)
share: ibfabric on test/data/hca2.net, a DPDK host (sa_host idle on
hosta) serving the user-MAD service, commands through
usertools/dpdk-ib-ns, OpenSM there, and the service's <run dir>/stats
(doc/guides/prog_guide/ibumad_lib.rst "Clients that die")."""

import os
import subprocess
import sys

from simlib import Fabric

BDF = '0000:10:00.0'
CLIENT = os.path.join(os.path.dirname(os.path.abspath(__file__)), 'umad_client.py')


def read_stats(run):
    try:
        with open(os.path.join(run, 'stats')) as f:
            return {k: int(v) for k, v in (ln.split() for ln in f if ln.strip())}
    except FileNotFoundError:
        return {}


class UmadHost:
    def __init__(self, h, tag, host_args=()):
        ibfabric, netfile, sa_host, preload, self.ns = (
            os.path.abspath(p) for p in sys.argv[1:6])
        self.h = h
        root = h.path('pci')
        self.fab = Fabric(h, ibfabric, netfile, tag=tag, extra=['--pci-root', root])
        h.wait_for(lambda: os.path.exists(os.path.join(root, BDF, 'iommu.sock')),
                   timeout=10, what='the simulated PCI function')
        self.run = run = h.path('umad-run')
        os.makedirs(run)
        h.on_teardown(lambda: subprocess.run(['umount', '-l', os.path.join(run, 'dev')],
                                             stderr=subprocess.DEVNULL))
        self.host = h.spawn([sa_host, '--no-huge', '-m', '256', '--file-prefix',
                             '%s%d' % (tag, os.getpid()), '-a', BDF] + list(host_args) +
                            ['--', 'idle'],
                            name='dpdk-host', stdin=True,
                            env={'SYSFS_PCI_DEVICES': root, 'DPDK_IB_UMAD_DIR': run})
        h.wait_for(lambda: os.path.exists(os.path.join(run, 'dev', 'umad0')), timeout=60,
                   what='umad0 from the DPDK host')
        self.env = {'DPDK_IB_UMAD_PRELOAD': preload}

    def tool(self, argv, timeout=30, check=True):
        return self.h.run([self.ns, self.run] + argv, env=self.env, timeout=timeout,
                          check=check)

    def spawn(self, argv, name, stdin=False):
        return self.h.spawn([self.ns, self.run] + argv, name=name, env=self.env,
                            stdin=stdin)

    def client(self, *args):
        """umad_client.py on umad0, to completion."""
        return self.tool([sys.executable, CLIENT, '/dev/infiniband/umad0'] + list(args))

    def spawn_client(self, name, *args, umad='umad0', stdin=False):
        return self.spawn([sys.executable, CLIENT, '/dev/infiniband/' + umad] + list(args),
                          name, stdin=stdin)

    def opensm(self):
        p = self.spawn(['opensm', '-F', '/dev/null', '-f', '-', '-d2', '-s', '2'], 'opensm')
        self.h.wait_log(p, 'SUBNET UP', timeout=90)
        return p

    def stats(self):
        return read_stats(self.run)

    def stats_are(self, want, what):
        def ok():
            s = read_stats(self.run)
            return s and all(s.get(k) == v for k, v in want.items())
        self.h.wait_for(ok, timeout=10, interval=0.2,
                        what='%s: stats %r (have %r)' % (what, want, read_stats(self.run)))

    def port(self, node, num='1'):
        return [p for p in self.fab.ports(node) if p['num'] == num][0]

    def quit(self, osm):
        self.h.stop(osm)
        self.host.write('QUIT\n')
        self.h.wait_for(lambda: not self.host.alive(), timeout=30,
                        what='the DPDK host quits')
