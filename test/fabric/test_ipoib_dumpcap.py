#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-3-Clause
# Copyright(c) 2026 The dpdk-ipoib authors
"""Debian's dpdk-dumpcap captures a net_ipoib port (issue 27): ibfabric
and OpenSM on a DPDK host (the test bed of ipoib_testbed.py), two
dpdk-ipoib-kernel-link hosts, each a primary process on hugepages (a
hugetlbfs this test mounts and reserves pages for, both given back at
teardown): host b's net_ipoib0 in mode=eth to a TAP, host c's in mode=l3
to a TUN. A dpdk-dumpcap, a secondary process with net_ipoib preloaded,
captures each host's net_ipoib0 (pdump, which the kernel link serves)
while the kernels ping each other, IPv4 and IPv6, both ways.

In each pcapng, read back by Debian's tshark:
- b (mode=eth): Ethernet frames (the interface's link type 1), with
  ICMP echo requests and replies and ICMPv6 echo requests and replies;
- c (mode=l3): IP packets without a link header. DPDK 22.11's pcapng
  writes link type 1 (Ethernet) for every port, so the frames start
  with the IP version nibble, and tshark decodes them once the file's
  link type is made raw IP (editcap -T rawip): ICMP and ICMPv6 echoes
  again, and no Ethernet header.

usage: test_ipoib_dumpcap.py <ibfabric> <netfile> <sa_host>
           <librte_net_mthca.so> <librte_net_ipoib.so> <preload> <dpdk-ib-ns>
           <dpdk-ipoib-kernel-link>
"""

import os
import platform
import re
import signal
import struct
import sys

from harness import Harness
from ipoib_testbed import Testbed, wait_ping

HOSTS = (('b', '0000:11:00.0', 2, 'eth'), ('c', '0000:12:00.0', 3, 'l3'))
PAGES = 200         # 2 MiB pages: two testpmds of -m 192
# A secondary maps what the primary mapped at the same addresses; with
# address space layout randomisation one run in a few finds one taken by
# its own libraries. All processes without it, as DPDK's multi-process
# guide advises (test_proc_info.py does the same).
NO_ASLR = ['setarch', platform.machine(), '-R']
LINKTYPE_ETHERNET = 1
IFACE = 'ib0'


class Primary:
    """One dpdk-ipoib-kernel-link host in its namespace: a primary process
    on hugepages that a secondary can attach to (the test bed's testpmds
    run with --no-huge), its kernel side ib0 a TAP (mode=eth) or a TUN
    (mode=l3). It serves pdump (rte_pdump_init()). Debian's dpdk-testpmd
    does too, but links librte_mempool_dpaa, which dpdk-dumpcap does not:
    their mempool ops tables differ, and every copy into dumpcap's pool
    fails (all packets counted dropped)."""

    def __init__(self, tb, exe, name, bdf, idx, mode, huge):
        h = tb.h
        self.h, self.name, self.idx, self.mode = h, name, idx, mode
        self.ns = h.netns(name)
        self.prefix = prefix = 'ipdc%s%d' % (name, os.getpid())
        ipoib = 'net_ipoib0,dev=%s,mode=%s' % (bdf, mode)
        if mode == 'l3':
            ipoib += ',ipv4=10.0.0.%d,ipv6=2001:db8::%d' % (idx, idx)
        # IOVA as VA: net_mthca's 2 MiB + 4 KiB queue buffers would need
        # two physically adjacent pages in PA mode (doc/guides/nics/mthca.rst).
        argv = NO_ASLR + [exe, '-d', tb.plugdir, '-m', '192', '-l', '0,1',
                          '--main-lcore', str(idx % 2), '-a', bdf, '--huge-dir', huge,
                          '--file-prefix', prefix, '--base-virtaddr', '0x200000000000',
                          '--iova-mode=va', '--vdev=' + ipoib, '--', '--port=net_ipoib0',
                          '--kind=' + ('tun' if mode == 'l3' else 'tap'), '--iface=' + IFACE]
        self.p = h.spawn(argv, name='klink_' + name, env=tb.env, netns=self.ns)
        # cleanups run newest first: the host stops before its hugetlbfs goes
        h.on_teardown(lambda: self.p.alive() and h.stop(self.p, timeout=10))
        h.wait_log(self.p, 'Kernel link:', timeout=90)

    def ip(self, *args):
        return self.h.run(['ip', '-n', self.ns] + list(args), timeout=20).stdout

    def ping(self, *args, count=3):
        return self.h.run(['ping'] + list(args) + ['-c', str(count), '-W', '2', '-i', '0.3'],
                          netns=self.ns, timeout=30, check=False)


def dumpcap(tb, t, out):
    """dpdk-dumpcap on @t's net_ipoib0 into @out, running. EAL in the
    secondary loads no -d plugin (dumpcap passes no EAL argument but
    --file-prefix): net_ipoib is preloaded, its constructor registers the
    driver, and the vdev bus probes the primary's net_ipoib0 with it."""
    h = tb.h
    pre = [os.path.join(tb.plugdir, 'librte_net_ipoib.so')]
    if tb.env.get('LD_PRELOAD'):
        pre = tb.env['LD_PRELOAD'].split(':') + pre
    env = dict(tb.env, LD_PRELOAD=':'.join(pre))
    if tb.env.get('LD_PRELOAD'):
        # Sanitizer build: ASan and UBSan watch the PMD's secondary path;
        # LeakSanitizer stays off in dumpcap only, which leaks at exit
        # what Debian's dpdk-dumpcap and librte_bus_vdev allocate (its
        # EAL arguments, the secondary's copy of the primary's vdev
        # list) and never free: 417 bytes in 12 allocations, none ours.
        env['ASAN_OPTIONS'] = ':'.join(filter(None, [os.environ.get('ASAN_OPTIONS'),
                                                     'detect_leaks=0']))
    p = h.spawn(NO_ASLR + ['dpdk-dumpcap', '--file-prefix', t.prefix, '-i', 'net_ipoib0',
                           '-p', '-w', out], name='dumpcap_' + t.name, env=env)
    h.on_teardown(lambda: p.alive() and h.stop(p, timeout=10))
    h.wait_for(lambda: 'Packets captured' in p.log() or not p.alive() or
               re.search(r'[Cc]apturing on', p.log()), timeout=60,
               what='dumpcap on %s starts capturing' % t.name)
    h.check(p.alive(), 'dumpcap on %s exited:\n%s' % (t.name, p.log()[-3000:]))
    return p


def dumpcap_stop(h, t, p):
    """SIGINT: dumpcap closes the file and says what it captured."""
    os.killpg(p.popen.pid, signal.SIGINT)
    h.wait_for(lambda: not p.alive(), timeout=30, what='dumpcap on %s exits' % t.name)
    h.check_eq(p.popen.returncode, 0, 'dumpcap on %s exit status (%s)' %
               (t.name, p.log()[-2000:]))
    h.info('dumpcap on %s: %s' % (t.name, ' '.join(p.log().split())[-200:]))


def pcapng_linktypes(path):
    """The link type of each Interface Description Block of pcapng @path."""
    with open(path, 'rb') as f:
        data = f.read()
    out, off, endian = [], 0, '<'
    while off + 12 <= len(data):
        btype, blen = struct.unpack_from(endian + 'II', data, off)
        if btype == 0x0a0d0d0a:
            if struct.unpack_from('<I', data, off + 8)[0] != 0x1a2b3c4d:
                endian = '>'
            blen = struct.unpack_from(endian + 'I', data, off + 4)[0]
        elif btype == 1:
            out.append(struct.unpack_from(endian + 'H', data, off + 8)[0])
        if blen < 12:
            break
        off += blen
    return out


def decode(h, path, rawip=False):
    """(frame.protocols, icmp.type, icmpv6.type) per packet of
    @path; @rawip: read as raw IP (editcap -T rawip on a copy)."""
    if rawip:
        copy = path + '.rawip.pcapng'
        h.run(['editcap', '-T', 'rawip', path, copy], timeout=60)
        path = copy
    r = h.run(['tshark', '-n', '-r', path, '-T', 'fields', '-E', 'separator=|',
               '-E', 'occurrence=a', '-E', 'aggregator=,', '-e', 'frame.protocols',
               '-e', 'icmp.type', '-e', 'icmpv6.type'],
              timeout=60)
    pkts = []
    for ln in r.stdout.splitlines():
        vals = ln.split('|')
        if len(vals) < 3:
            continue
        pkts.append((vals[0], set(x for x in vals[1].split(',') if x),
                     set(x for x in vals[2].split(',') if x)))
    return pkts


def check_capture(h, t, path):
    lts = pcapng_linktypes(path)
    h.check(lts, '%s: no interface block' % path)
    # DPDK 22.11's rte_pcapng names every port Ethernet (link type 1)
    h.check_eq(set(lts), {LINKTYPE_ETHERNET}, '%s: link types' % path)
    if t.mode == 'eth':
        pkts = decode(h, path)
        h.check(all(p[0].startswith('eth:ethertype:') for p in pkts),
                '%s: every packet Ethernet: %s' % (path, sorted(set(p[0] for p in pkts))))
    else:
        # raw IP: under link type 1, the "destination MAC" begins with the
        # IP version nibble; read as raw IP, no Ethernet at all
        pkts = decode(h, path, rawip=True)
        h.check(all(re.match(r'raw:ipv?6?:', p[0]) and 'eth' not in p[0] for p in pkts),
                '%s: every packet raw IP: %s' % (path, sorted(set(p[0] for p in pkts))))
    icmp = set().union(*(p[1] for p in pkts))
    icmp6 = set().union(*(p[2] for p in pkts))
    h.check({'0', '8'} <= icmp, '%s: ICMP echo request and reply: types %s' % (path, icmp))
    h.check({'128', '129'} <= icmp6, '%s: ICMPv6 echo request and reply: types %s' %
            (path, icmp6))
    h.info('%s (mode=%s): %d packets, link type %s, %s; ICMP %s, ICMPv6 %s' %
           (os.path.basename(path), t.mode, len(pkts), sorted(set(lts)),
            sorted(set(p[0] for p in pkts)), sorted(icmp), sorted(icmp6)))


def main():
    with Harness('ipoib_dumpcap', timeout=290) as h:
        for prog in ('dpdk-dumpcap', 'tshark', 'editcap', 'setarch', 'mount', 'umount'):
            h.need_program(prog)
        if os.geteuid() != 0:
            h.fail('hugepages and hugetlbfs need root')
        exe = os.path.abspath(sys.argv[8])
        tb = Testbed(h, 'ipdc', sys.argv[1:8], HOSTS[-1][1])
        osm = tb.opensm()
        huge = h.hugetlbfs(PAGES)
        hosts = [Primary(tb, exe, n, bdf, idx, mode, huge) for n, bdf, idx, mode in HOSTS]
        for t in hosts:
            h.wait_log(t.p, 'Link up', timeout=90)
        caps = {t.name: h.path('%s.pcapng' % t.name) for t in hosts}
        dc = {t.name: dumpcap(tb, t, caps[t.name]) for t in hosts}
        for t in hosts:
            t.ip('addr', 'add', '10.0.0.%d/24' % t.idx, 'dev', IFACE)
            t.ip('-6', 'addr', 'add', '2001:db8::%d/64' % t.idx, 'dev', IFACE, 'nodad')
        b, c = hosts
        wait_ping(h, b, ['10.0.0.3'], 'b -> c IPv4')
        wait_ping(h, c, ['10.0.0.2'], 'c -> b IPv4')
        wait_ping(h, b, ['-6', '2001:db8::3'], 'b -> c IPv6')
        wait_ping(h, c, ['-6', '2001:db8::2'], 'c -> b IPv6')
        for t in hosts:
            dumpcap_stop(h, t, dc[t.name])
        for t in hosts:
            check_capture(h, t, caps[t.name])
        for t in hosts:
            h.check_eq(h.stop(t.p, sig=signal.SIGINT, timeout=30), 0,
                       '%s: kernel link exit status' % t.name)
        h.stop(osm)
        tb.sm_host.write('QUIT\n')
        h.wait_for(lambda: not tb.sm_host.alive(), timeout=30, what='sm_host exits')


if __name__ == '__main__':
    main()
