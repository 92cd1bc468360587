#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-3-Clause
# Copyright(c) 2026 The dpdk-ipoib authors
"""Two DPDK hosts on net_mthca (issue 13, "Show"): each on its own
simulated MT25208 of one ibfabric, with OpenSM attached through umad2sim
to a passive CA. OpenSM sweeps them through their own MAD core; their
ports go ACTIVE; ibnetdiscover lists them with the NodeDescription given
as devarg and the firmware's node GUIDs; smpquery portinfo and perfquery
against their LIDs answer. Then UD datagrams (LIDs from the port
attributes, QPNs passed by this script) go both ways at a paced rate,
256 and 2044 bytes, with no loss and every payload, source QPN and SLID
verified; ethdev stats and xstats (tx_port_packets and tx_port_bytes of the PMA) agree.
Last, 1,000 stop/start cycles leave the DMA memory and the heap as they
were (memzones, heap, free mbufs) and the model's count of what the
driver holds in the HCA ("hca <node> resources": QPs out of RESET, CQs,
EQs, MPTs, MTT entries, ICM, UARC, aux and firmware pages, MCGs) as it
was, started and stopped; traffic still flows; and after dev_close every
count is zero.

usage: test_mthca_fabric.py <ibfabric> <netfile> <mthca_host>
"""

import os
import re
import sys

from simlib import Fabric, Harness, find_umad2sim, start_opensm

HOSTS = (('hosta', '0000:10:00.0'), ('hostb', '0000:11:00.0'))
COUNT = 20000
PPS = 20000


class Host:
    def __init__(self, h, exe, root, name, bdf):
        self.h = h
        self.name = name
        self.p = h.spawn([exe, '--no-huge', '-m', '256', '-l', '0',
                          '--file-prefix', 'mthcafab%s%d' % (name, os.getpid()),
                          '-a', '%s,node_desc=dpdk-%s' % (bdf, name),
                          '--log-level=pmd.net.mthca:info'],
                         name=name, stdin=True, env={'SYSFS_PCI_DEVICES': root})
        self.seen = 0
        self.lid = self.qpn = self.txqpn = None

    def expect(self, prefix, timeout=60, fail=True):
        """The next line starting with OK/ERR/@prefix after what was read."""
        def got():
            lines = self.p.log().splitlines()
            for i in range(self.seen, len(lines)):
                if lines[i].startswith(prefix) or lines[i].startswith('ERR'):
                    self.seen = i + 1
                    return lines[i]
            if not self.p.alive():
                raise AssertionError('%s exited (rc %s)' % (self.name, self.p.popen.returncode))
            return None
        line = self.h.wait_for(got, timeout=timeout, what='%r from %s' % (prefix, self.name))
        if fail:
            self.h.check(not line.startswith('ERR'), '%s: %s' % (self.name, line))
        return line

    def cmd(self, text, prefix='OK', timeout=60):
        self.p.write(text + '\n')
        return self.expect(prefix, timeout)

    def stats(self):
        self.p.write('STATS\n')
        st = self.expect('STAT')
        xs = {}
        while True:
            line = self.expect('XSTAT ')
            if not line.startswith('XSTAT '):
                break
            _, k, v = line.split()
            xs[k] = int(v)
            if k == 'rx_mad_port_events':
                break
        self.expect('OK stats')
        return dict(zip(st.split()[1::2], (int(v) for v in st.split()[2::2]))), xs


def resources(fab, node):
    """The model's count of what @node's driver holds ("hca <node> resources")."""
    out = fab.ctl.cmd('hca "%s" resources' % node)
    line = next(x for x in out if x.startswith('hca_resources '))
    return {k: int(v) for k, v in (f.split('=', 1) for f in line.split()[2:])}


def finish(h, fab, hosts):
    """Every host quits with status 0; ibfabric logged no DMA fault or error, exits 0."""
    for x in hosts:
        x.cmd('QUIT', 'OK bye', timeout=30)
        h.wait_for(lambda: not x.p.alive(), timeout=20, what='%s to exit' % x.name)
        h.check_eq(x.p.popen.returncode, 0, '%s exit status' % x.name)
    fab.stop_clean()


def main():
    ibfabric, netfile, exe = (os.path.abspath(a) for a in sys.argv[1:4])
    with Harness('mthca_fabric', timeout=280) as h:
        lib = find_umad2sim(h)
        for prog in ('opensm', 'ibnetdiscover', 'smpquery', 'perfquery'):
            h.need_program(prog)
        root = h.path('pci')
        fab = Fabric(h, ibfabric, netfile, tag='mfab', extra=['--pci-root', root])
        h.wait_for(lambda: all(os.path.exists(os.path.join(root, b, 'iommu.sock'))
                               for _, b in HOSTS), timeout=10, what='the PCI functions')
        hosts = [Host(h, exe, root, n, b) for n, b in HOSTS]
        start_opensm(h, fab, lib, 'ca-sm')
        for x in hosts:
            m = re.match(r'READY lid=(\d+) qpn=(\d+) txqpn=(\d+)', x.expect('READY', timeout=90))
            x.lid, x.qpn, x.txqpn = int(m.group(1)), int(m.group(2)), int(m.group(3))
            h.info('%s: LID %d, rx QPN 0x%x' % (x.name, x.lid, x.qpn))
            h.check(x.lid != 0, '%s: no LID' % x.name)
        a, b = hosts

        env = fab.env(lib, 'ca-sm')
        r = h.run(['ibnetdiscover'], env=env, timeout=60)
        h.write_file('ibnetdiscover.txt', r.stdout)
        guids = {n['name']: n.get('guid', '') for n in fab.nodes()}
        for x in hosts:
            h.check('"dpdk-%s"' % x.name in r.stdout,
                    'ibnetdiscover lacks NodeDescription dpdk-%s:\n%s' % (x.name, r.stdout))
            g = guids.get(x.name, '').lower().replace('0x', '')
            h.check(g != '' and g in r.stdout.lower(),
                    'ibnetdiscover lacks %s\'s firmware node GUID %s' % (x.name, g))
            r2 = h.run(['smpquery', 'portinfo', str(x.lid), '1'], env=env, timeout=30)
            h.check(re.search(r'^Lid:\.+%d$' % x.lid, r2.stdout, re.M) is not None,
                    'smpquery portinfo %d:\n%s' % (x.lid, r2.stdout))
            h.check(re.search(r'^LinkState:\.+Active', r2.stdout, re.M) is not None,
                    'port of %s not Active in smpquery:\n%s' % (x.name, r2.stdout))
            r3 = h.run(['perfquery', str(x.lid), '1'], env=env, timeout=30)
            h.check('PortXmitPkts' in r3.stdout, 'perfquery %d:\n%s' % (x.lid, r3.stdout))

        # each receiver checks the source QPN and SLID of every datagram
        a.cmd('PEER %d %d' % (b.lid, b.txqpn))
        b.cmd('PEER %d %d' % (a.lid, a.txqpn))
        results = []
        for size, (src, dst) in ((256, (a, b)), (2044, (b, a))):
            dst.p.write('RECV %d %d\n' % (COUNT, 30000))
            src.cmd('SEND %d %d %d %d %d' % (dst.lid, dst.qpn, COUNT, size, PPS), timeout=60)
            results.append(dst.expect('OK received', timeout=60, fail=False))
            h.info('%s -> %s, %d bytes: %s' % (src.name, dst.name, size, results[-1]))
        sa, xa = a.stats()
        sb, xb = b.stats()
        h.info('hosta %s %s\nhostb %s %s' % (sa, xa, sb, xb))
        for r in results:
            h.check(r.startswith('OK'), r)
        h.check_eq(sa['opackets'], COUNT, 'hosta opackets')
        h.check_eq(sa['ipackets'], COUNT, 'hosta ipackets')
        h.check_eq(sb['opackets'], COUNT, 'hostb opackets')
        h.check_eq(sb['ipackets'], COUNT, 'hostb ipackets')
        h.check_eq(sa['obytes'], COUNT * 256, 'hosta obytes')
        h.check_eq(sb['obytes'], COUNT * 2044, 'hostb obytes')
        h.check_eq(sa['ierrors'] + sa['oerrors'] + sb['ierrors'] + sb['oerrors'], 0, 'errors')
        h.check_eq(xa['tx_q0_packets'], COUNT, 'hosta xstat tx_q0_packets')
        h.check_eq(xb['rx_q0_bytes'], COUNT * 256, 'hostb xstat rx_q0_bytes')
        h.check(xa['tx_port_packets'] >= COUNT, 'hosta PMA tx_port_packets %d < %d' %
                (xa['tx_port_packets'], COUNT))
        h.check(xb['rx_port_packets'] >= COUNT, 'hostb PMA rx_port_packets %d' %
                xb['rx_port_packets'])
        # PortXmitData counts 4-byte words; the xstat is bytes, headers
        # (LRH, BTH, DETH, CRCs) included, so at least the payloads sent
        for x, name, n in ((xa, 'hosta', COUNT * 256), (xb, 'hostb', COUNT * 2044)):
            h.check(x['tx_port_bytes'] >= n and x['tx_port_bytes'] % 4 == 0,
                    '%s tx_port_bytes %d: not bytes (>= %d, a multiple of 4)' %
                    (name, x['tx_port_bytes'], n))

        # 1,000 stop/start cycles: the DMA memory and the heap are what they
        # were (every QP, CQ, UAR and region of a start is given back at
        # the stop), so are the model's counts of what the HCA holds, and
        # the queues still work
        started = resources(fab, a.name)
        a.cmd('STOP', 'OK STOP')
        stopped = resources(fab, a.name)
        h.info('hosta in the model: started %s, stopped %s' % (started, stopped))
        h.check(started['qps'] >= stopped['qps'] + 2 and stopped['qps'] >= 2,
                'stop resets the rx and tx QPs, QP0/QP1 stay: %s -> %s' % (started, stopped))
        h.check(started['mpts'] > 0 and started['cqs'] > 0 and started['eqs'] > 0 and
                started['icm_pages'] > 0 and started['fa_pages'] > 0,
                'a started port holds MPTs, CQs, EQs, ICM and firmware pages: %s' % started)
        a.cmd('START', 'OK START')
        m = re.search(r'memzones (\d+) (\d+) heap_free (\d+) (\d+) mbufs (\d+) (\d+)',
                      a.cmd('CYCLE 1000', timeout=240))
        h.check_eq(m.group(6), m.group(5), 'free mbufs after 1,000 stop/start cycles')
        h.check_eq(m.group(2), m.group(1), 'memzones after 1,000 stop/start cycles')
        h.check_eq(m.group(4), m.group(3), 'free heap bytes after 1,000 stop/start cycles')
        h.check_eq(resources(fab, a.name), started,
                   'model resources, started, after 1,000 stop/start cycles')
        a.cmd('STOP', 'OK STOP')
        h.check_eq(resources(fab, a.name), stopped,
                   'model resources, stopped, after 1,000 stop/start cycles')
        a.cmd('START', 'OK START')
        b.p.write('RECV 1000 20000\n')
        a.cmd('SEND %d %d 1000 64 20000' % (b.lid, b.qpn))
        b.expect('OK received', timeout=30)
        # dev_close gives everything back: QPs, CQs, EQs, MPTs, ICM, firmware
        # area; and nothing was left for CLOSE_HCA to drop (close_hca_*)
        a.cmd('CLOSE', 'OK CLOSE')
        closed = resources(fab, a.name)
        h.check(all(v == 0 for v in closed.values()),
                'model resources after dev_close, all zero: %s' % closed)
        finish(h, fab, hosts)


if __name__ == '__main__':
    main()
