# SPDX-License-Identifier: BSD-3-Clause
# Copyright(c) 2026 The dpdk-ipoib authors
"""The set-up the IPoIB fault and economy tests share (issue 26): the
bed of ipoib_testpmd in mode=eth, on hca3.net: OpenSM on host A (a
sa_host through its user-MAD service), B and C each a dpdk-testpmd in io
mode between net_ipoib0 and a TAP whose kernel side is in a namespace the
test made, addresses 10.0.0.2 and 10.0.0.3. Everything started here is
torn down by the harness, also on failure.

The tests take the command line of ipoib_testpmd:
  <ibfabric> <netfile> <sa_host> <librte_net_mthca.so> <librte_net_ipoib.so>
  <preload> <dpdk-ib-ns> [<librte_ibumad.so>]
The last one, when given, is preloaded into B's testpmd, with
DPDK_IB_UMAD_DIR set: B then serves the user-MAD service, and OpenSM or
the diags can run on B (bed.on_b()).
"""

import ipaddress
import os
import re
import shutil
import signal
import subprocess

from simlib import Fabric, eal_private_dir, sanitizer_preload
from test_ipoib_if import start_opensm
from test_ipoib_testpmd import HOSTS, SM_BDF, Testpmd, setup_kernel, wait_ping

BCAST_MGID = 'ff12:401b:%04x:0000:0000:0000:ffff:ffff'
XSTATS_LAST = 'ctrl_link_changes'


def bcast_members(text, mgid):
    """Port GIDs of @mgid's members in saquery -m's records (one block
    per record; saquery prints GIDs as inet_ntop does, compressed)."""
    want = ipaddress.IPv6Address(mgid)
    gids = []
    for block in re.split(r'\n(?=\S)', text):
        m = re.search(r'MGID\.+(\S+)', block)
        p = re.search(r'PortGid\.+(\S+)', block)
        if m and p and ipaddress.IPv6Address(m.group(1)) == want:
            gids.append(p.group(1))
    return gids


class Bed:
    """Fabric, SM host, OpenSM and the two testpmd hosts, links up and a
    first ping b -> c answered."""

    def __init__(self, h, argv, tag, partitions=None, osm_extra=()):
        self.h = h
        (ibfabric, netfile, sa_host, mthca_so, ipoib_so, self.preload,
         self.ns_tool) = (os.path.abspath(a) for a in argv[:7])
        umad_so = os.path.abspath(argv[7]) if len(argv) > 7 else None
        for prog in ('dpdk-testpmd', 'opensm', 'unshare', 'ping', 'stdbuf', 'saquery'):
            h.need_program(prog)
        self.root = h.path('pci')
        self.fabric = Fabric(h, ibfabric, netfile, tag=tag, extra=['--pci-root', self.root])
        h.wait_for(lambda: os.path.exists(os.path.join(self.root, HOSTS[-1][1], 'iommu.sock')),
                   timeout=10, what='the simulated PCI functions')
        # As ipoib_testpmd: the PMDs in a private directory for EAL's -d.
        plugdir = eal_private_dir(h, 'dpdk-ipoib-pmds.')
        for so in (mthca_so, ipoib_so):
            base = os.path.basename(so)
            shutil.copy2(so, os.path.join(plugdir, base[:base.index('.so') + 3]))
        env = dict(sanitizer_preload(h, ipoib_so), SYSFS_PCI_DEVICES=self.root,
                   LD_LIBRARY_PATH=None)
        if env.get('LD_PRELOAD'):
            # LeakSanitizer's exit check walks each thread's dynamic TLS
            # through what it intercepted of __tls_get_addr; after B's link
            # outage it met a bogus DTLS range (0x1000000a3-...) on a
            # testpmd thread and died ("Tracer caught signal 11", exit 1,
            # no leak report: google/sanitizers#1353). Leak checking stays
            # on, without that interception.
            env['LSAN_OPTIONS'] = 'intercept_tls_get_addr=0'
        # One partition file for every OpenSM of the test: rewrite it and
        # SIGHUP OpenSM (a heavy sweep re-reads it) to change partitions.
        self.partitions = partitions and h.write_file('partitions.conf', partitions)
        self.run_a = self.umad_run(h.path('umad-sm'))
        self.sm_host = h.spawn([sa_host, '--no-huge', '-m', '256', '--file-prefix',
                                'ipf%s%d' % (tag, os.getpid()), '-a', SM_BDF, '--', 'idle'],
                               name='sm_host', stdin=True,
                               env={'SYSFS_PCI_DEVICES': self.root, 'DPDK_IB_UMAD_DIR': self.run_a})
        h.wait_for(lambda: os.path.exists(os.path.join(self.run_a, 'dev', 'umad0')),
                   timeout=60, what='umad0 of the SM host')
        self.osm_extra = list(osm_extra)
        self.osm = self.opensm('opensm')
        self.hosts = []
        for name, bdf, idx in HOSTS:
            henv = env
            if name == 'b' and umad_so:
                # B also serves the user-MAD service: librte_ibumad
                # preloaded (its RUNPATH finds lib/ibmad from where it
                # lies) starts it when DPDK_IB_UMAD_DIR is set. After the
                # sanitizer runtimes, which must come first.
                self.run_b = self.umad_run(h.path('umad-b'))
                pre = ':'.join(x for x in (env.get('LD_PRELOAD'), umad_so) if x)
                henv = dict(env, DPDK_IB_UMAD_DIR=self.run_b, LD_PRELOAD=pre)
            self.hosts.append(Testpmd(h, name, bdf, idx, 'eth', plugdir, henv))
        self.b, self.c = self.hosts
        for t in self.hosts:
            t.port = int(re.search(r'net_ipoib0: port (\d+) on .* \(ethdev (\d+)\)',
                                   t.p.log()).group(1))
            t.cmd('set portlist %d,%d' % (t.port, t.port + 1), r'testpmd>')
            t.cmd('start', r'testpmd>')
        for t in self.hosts:
            h.wait_for(lambda t=t: self.link_up(t), timeout=60, interval=1,
                       what='%s: net_ipoib0 link up' % t.name)
            out = t.cmd('show port info %d' % t.port, r'MAC address: \S+[\s\S]*testpmd>')
            mac = re.search(r'MAC address: ([0-9A-Fa-f:]{17})', out).group(1).lower()
            setup_kernel(h, t, 'eth', mac)
        wait_ping(h, self.b, ['10.0.0.3'], 'b -> c IPv4')
        wait_ping(h, self.c, ['10.0.0.2'], 'c -> b IPv4')

    def umad_run(self, run):
        os.makedirs(run)
        self.h.on_teardown(lambda: subprocess.run(['umount', '-l', os.path.join(run, 'dev')],
                                                  stderr=subprocess.DEVNULL))
        return run

    def opensm(self, name, extra=(), on_b=False):
        """OpenSM on A (or on B's user-MAD service), once SUBNET UP."""
        extra = self.osm_extra + list(extra)
        if self.partitions:
            extra += ['-P', self.partitions]
        if not on_b:
            return start_opensm(self.h, self.ns_tool, self.run_a, self.preload, name, extra)
        osm = self.h.spawn(self.on_b(['opensm', '-F', '/dev/null', '-f', '-', '-d2', '-s', '1']
                                     + extra), name=name,
                           env={'DPDK_IB_UMAD_PRELOAD': self.preload})
        self.h.wait_log(osm, 'SUBNET UP', timeout=90)
        return osm

    def on_b(self, argv):
        """@argv through B's user-MAD service. testpmd runs under `ip netns
        exec`, whose mount namespace holds the service's FUSE mounts:
        entered with nsenter, then dpdk-ib-ns as on any host."""
        return ['nsenter', '-t', str(self.b.p.popen.pid), '-m', '--', self.ns_tool,
                self.run_b] + list(argv)

    def kill_sm(self):
        self.h.stop(self.osm, sig=signal.SIGKILL)

    def link_up(self, t):
        out = t.cmd('show port info %d' % t.port, r'Link status: \S+[\s\S]*testpmd>')
        return re.search(r'Link status: up', out) is not None

    def lsc_events(self, t):
        return t.p.log().count('Port %d: link state change event' % t.port)

    def xstats(self, t):
        """net_ipoib0's xstats as a dict of ints."""
        out = t.cmd('show port xstats %d' % t.port, XSTATS_LAST + r': +\d+')
        return {k: int(v) for k, v in re.findall(r'(\w+): +(\d+)', out)}

    def saquery(self, *args, on_b=False):
        # OpenSM gives other ports' MCMemberRecords only to a requester
        # with the SM_Key (its default, 1): as test mcast_join does.
        argv = ['saquery', '--smkey', '1'] + list(args)
        if on_b:
            argv = self.on_b(argv)
        else:
            argv = [self.ns_tool, self.run_a] + argv
        r = self.h.run(argv, env={'DPDK_IB_UMAD_PRELOAD': self.preload}, timeout=30,
                       check=False)
        return r.stdout + r.stderr

    def close(self):
        """testpmd quits cleanly (exit 0): nothing was restarted."""
        h = self.h
        for t in self.hosts:
            t.p.write('quit\n')
        for t in self.hosts:
            h.wait_for(lambda t=t: not t.p.alive(), timeout=60, what='%s quits' % t.p.name)
            h.check_eq(t.p.popen.returncode, 0, '%s exit status' % t.p.name)
