#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-3-Clause
# Copyright(c) 2026 The dpdk-ipoib authors
"""dpdk-ipoib-kernel-link over the fabric (issue 26): two DPDK hosts on
ibfabric, each a dpdk-ipoib-kernel-link with net_mthca + net_ipoib, its
kernel side in a network namespace the test made; OpenSM on a third DPDK
host through the user-MAD service.

eth  mode=eth and a TAP (mtu=2044 on net_ipoib: the TAP is clamped to
     1504, said once): the TAP carries net_ipoib's MAC; ping and ping -6
     (link-local and global) both ways; ``ip neigh`` in each namespace
     shows the other with its derived MAC;
l3   mode=l3 and a TUN, the addresses also given to net_ipoib (ipv4=,
     ipv6=; it answers ARP and ND itself): ping and ping -6 both ways.

Then, both: iperf3 TCP for 5 s (its rate printed); iperf3 UDP paced at
20 Mbit/s for 3 s with no datagram lost; a 100 MiB file over
TCP arrives with the same SHA-256; SIGINT ends both hosts with final
statistics and exit status 0. In the sanitizer pass the same checks
with shorter traffic: TCP 3 s, UDP 2 s, a 32 MiB file.

The kernel link runs inside the namespace (``ip netns exec``), so its
TAP is created there; the simulated PCI functions are files and path
sockets, reachable from any network namespace.

usage: test_kernel_link_fabric.py <eth|l3> <ibfabric> <netfile> <sa_host>
           <dpdk-ipoib-kernel-link> <librte_net_mthca.so> <librte_net_ipoib.so>
           <preload> <dpdk-ib-ns>
"""

import hashlib
import json
import os
import re
import shutil
import signal
import subprocess
import sys
import time

from simlib import Fabric, Harness, eal_private_dir, telemetry
from test_ipoib_if import start_opensm
from ipoib_testbed import by_pass, main_wakeups, wait_ping

SM_BDF = '0000:10:00.0'
HOSTS = (('b', '0000:11:00.0', 2), ('c', '0000:12:00.0', 3))
IFACE = 'ib0'
FILE_SIZE = by_pass(100, 32) << 20
TCP_S = by_pass(5, 3)
UDP_S = by_pass(3, 2)
# the main lcore wakes every 10 ms (KLINK_CTRL_US), and for LSC events
MAIN_WAKEUPS_MAX = 300
UDP_RATE = '20M'    # paced: a tenth of what TCP reaches here
PORT = 5301

RECV = r'''
import socket, sys
s = socket.socket(socket.AF_INET6 if ':' in sys.argv[1] else socket.AF_INET)
s.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
s.bind((sys.argv[1], int(sys.argv[2])))
s.listen(1)
print('listening', flush=True)
c, _ = s.accept()
n = 0
with open(sys.argv[3], 'wb') as f:
    while True:
        b = c.recv(1 << 16)
        if not b:
            break
        f.write(b)
        n += len(b)
print('received %d' % n, flush=True)
'''
SEND = r'''
import socket, sys
s = socket.create_connection((sys.argv[1], int(sys.argv[2])), timeout=60)
with open(sys.argv[3], 'rb') as f:
    s.sendfile(f)
s.shutdown(socket.SHUT_WR)
s.recv(1)
'''


class Host:
    """One dpdk-ipoib-kernel-link host in its namespace."""

    def __init__(self, h, exe, name, bdf, idx, mode, plugdir):
        self.h, self.name, self.idx = h, name, idx
        self.ns = h.netns(name)
        ipoib = 'net_ipoib0,dev=%s,mode=%s' % (bdf, mode)
        if mode == 'l3':
            ipoib += ',ipv4=10.0.0.%d,ipv6=2001:db8::%d' % (idx, idx)
        else:
            ipoib += ',mtu=2044'
        prefix = self.prefix = 'klf%s%d' % (name, os.getpid())
        # one data lcore each, on different cores (2-core machines)
        main = '0' if name == 'b' else '1'
        self.p = h.spawn([exe, '-d', plugdir, '--no-huge', '-m', '384', '-l', '0,1',
                          '--main-lcore', main, '--file-prefix', prefix, '-a', bdf,
                          '--vdev=' + ipoib, '--', '--port=net_ipoib0',
                          '--kind=' + ('tun' if mode == 'l3' else 'tap'),
                          '--iface=' + IFACE, '--stats-period=5'],
                         name='klink_' + name, netns=self.ns,
                         env={'SYSFS_PCI_DEVICES': h.path('pci'), 'LD_LIBRARY_PATH': None})
        h.wait_log(self.p, 'Kernel link:', timeout=90)
        m = re.search(r'^Kernel link: port \d+ \(net_ipoib0(?:, MAC ([0-9A-Fa-f:]{17}))?\) <-> '
                      r'%s \((tap|tun), port \d+, MTU (\d+)\)' % IFACE, self.p.log(), re.M)
        h.check(m, '%s: the kernel link line:\n%s' % (name, self.p.log()[-2000:]))
        self.mac = m.group(1).lower() if m.group(1) else None
        self.mtu = int(m.group(3))

    def ip(self, *args):
        return self.h.run(['ip', '-n', self.ns] + list(args), timeout=20).stdout

    def ping(self, *args, count=3):
        return self.h.run(['ping'] + list(args) + ['-c', str(count), '-W', '2', '-i', '0.3'],
                          netns=self.ns, timeout=30, check=False)


def link_local(t):
    out = t.ip('-6', 'addr', 'show', 'dev', IFACE, 'scope', 'link')
    return re.search(r'inet6 (fe80::[0-9a-f:]+)/64', out).group(1)


def main():
    mode = sys.argv[1]
    (ibfabric, netfile, sa_host, exe, mthca_so, ipoib_so, preload,
     ns_tool) = (os.path.abspath(a) for a in sys.argv[2:10])
    with Harness('ipoib_link_' + mode, timeout=290) as h:
        for prog in ('opensm', 'unshare', 'ping', 'iperf3', 'ss'):
            h.need_program(prog)
        root = h.path('pci')
        Fabric(h, ibfabric, netfile, tag='klf', extra=['--pci-root', root])
        h.wait_for(lambda: os.path.exists(os.path.join(root, HOSTS[-1][1], 'iommu.sock')),
                   timeout=10, what='the simulated PCI functions')
        # both PMDs in one private directory for -d (EAL refuses plugins
        # below a world-writable directory); they find the project's
        # libraries by RUNPATH
        plugdir = eal_private_dir(h, 'dpdk-ipoib-pmds.')
        for so in (mthca_so, ipoib_so):
            base = os.path.basename(so)
            shutil.copy2(so, os.path.join(plugdir, base[:base.index('.so') + 3]))
        run = h.path('umad-sm')
        os.makedirs(run)
        h.on_teardown(lambda: subprocess.run(['umount', '-l', os.path.join(run, 'dev')],
                                             stderr=subprocess.DEVNULL))
        sm_host = h.spawn([sa_host, '--no-huge', '-m', '256', '--file-prefix',
                           'klfsm%d' % os.getpid(), '-a', SM_BDF, '--', 'idle'],
                          name='sm_host', stdin=True,
                          env={'SYSFS_PCI_DEVICES': root, 'DPDK_IB_UMAD_DIR': run})
        h.wait_for(lambda: os.path.exists(os.path.join(run, 'dev', 'umad0')),
                   timeout=60, what='umad0 of the SM host')
        osm = start_opensm(h, ns_tool, run, preload, 'opensm', [])

        hosts = [Host(h, exe, n, bdf, idx, mode, plugdir) for n, bdf, idx in HOSTS]
        b, c = hosts
        for t in hosts:
            h.wait_log(t.p, 'Link up', timeout=90)
            link = json.loads(t.ip('-j', 'link', 'show', IFACE))[0]
            h.check('UP' in link['flags'], '%s: %s up with the IB link: %s' %
                    (t.name, IFACE, link))
            if mode == 'eth':
                h.check_eq(link['address'], t.mac, '%s: the TAP has net_ipoib0\'s MAC' % t.name)
                h.check_eq(link['mtu'], 1504, '%s: TAP MTU clamped' % t.name)
                h.check('ib0: MTU 1504 (port' in t.p.log() and 'tap takes at most 1504'
                        in t.p.log(), '%s: the clamp is said' % t.name)
            t.ip('addr', 'add', '10.0.0.%d/24' % t.idx, 'dev', IFACE)
            t.ip('-6', 'addr', 'add', '2001:db8::%d/64' % t.idx, 'dev', IFACE, 'nodad')
        if mode == 'eth':
            for t in hosts:
                h.wait_for(lambda t=t: 'fe80' in t.ip('-6', 'addr', 'show', 'dev', IFACE,
                                                      'scope', 'link')
                           and 'tentative' not in t.ip('-6', 'addr', 'show', 'dev', IFACE),
                           timeout=20, interval=0.5, what='%s: link-local ready' % t.name)
        h.info('links up: b %s, c %s' % (b.mac, c.mac))

        wait_ping(h, b, ['10.0.0.3'], 'b -> c IPv4')
        wait_ping(h, c, ['10.0.0.2'], 'c -> b IPv4')
        wait_ping(h, b, ['-6', '2001:db8::3'], 'b -> c IPv6 global')
        wait_ping(h, c, ['-6', '2001:db8::2'], 'c -> b IPv6 global')
        if mode == 'eth':
            wait_ping(h, b, ['-6', '-I', IFACE, link_local(c)], 'b -> c IPv6 link-local')
            wait_ping(h, c, ['-6', '-I', IFACE, link_local(b)], 'c -> b IPv6 link-local')
            for me, other in ((b, c), (c, b)):
                neigh = me.ip('neigh', 'show', 'dev', IFACE)
                h.check(re.search(r'10\.0\.0\.%d lladdr %s' % (other.idx, other.mac), neigh),
                        '%s: ip neigh shows %s (%s):\n%s' % (me.name, other.name, other.mac,
                                                             neigh))
                neigh6 = me.ip('-6', 'neigh', 'show', 'dev', IFACE)
                h.check('2001:db8::%d lladdr %s' % (other.idx, other.mac) in neigh6,
                        '%s: ip -6 neigh shows %s:\n%s' % (me.name, other.name, neigh6))
                h.info('%s: ip neigh: %s' % (me.name, ' | '.join(
                    (neigh + neigh6).strip().splitlines())))
        else:
            # lib/ipoib's own neighbour binds both families' addresses of
            # the peer side by side: ARP for one must not unbind the other
            for me, other in ((b, c), (c, b)):
                ifname = telemetry(me.prefix, '/ipoib/interfaces')['/ipoib/interfaces'][0]
                neigh = telemetry(me.prefix, '/ipoib/neigh,' + ifname)['/ipoib/neigh']
                lines = [v for v in neigh.values() if 'path=yes' in v]
                hws = {v.split(' hw=')[1].split()[0] for v in lines
                       if v.startswith('ip=10.0.0.%d ' % other.idx) or
                       v.startswith('ip=2001:db8::%d ' % other.idx)}
                h.check(len(hws) == 1 and all(
                    any(v.startswith('ip=%s ' % a) for v in lines)
                    for a in ('10.0.0.%d' % other.idx, '2001:db8::%d' % other.idx)),
                    '%s: /ipoib/neigh,%s lists %s\'s IPv4 and IPv6 addresses on one '
                    'neighbour: %r' % (me.name, ifname, other.name, neigh))
                h.info('%s: /ipoib/neigh,%s: %s' % (me.name, ifname, ' | '.join(lines)))

        # iperf3 TCP for TCP_S, b -> c
        t0, wakes0 = time.monotonic(), [main_wakeups(t.p.popen.pid) for t in hosts]
        srv = h.spawn(['iperf3', '-s', '-1', '-B', '10.0.0.3'], name='iperf3_s', netns=c.ns)
        h.wait_for(lambda: ':5201' in h.run(['ss', '-Hltn'], netns=c.ns).stdout,
                   timeout=10, interval=0.1, what='iperf3 server listening: %s' % srv.log())
        r = h.run(['iperf3', '-c', '10.0.0.3', '-t', str(TCP_S), '-J'], netns=b.ns,
                  timeout=60)
        res = json.loads(r.stdout)['end']
        bps = res['sum_received']['bits_per_second']
        h.check(bps > 0, 'iperf3 moved nothing')
        h.info('iperf3 TCP b -> c over the fabric, %d s: %.1f Mbit/s, %d retransmits' %
               (TCP_S, bps / 1e6, res['sum_sent'].get('retransmits', 0)))
        # net_tap raises a signal per packet the kernel queues; the data
        # lcore takes it, the main lcore sleeps through the traffic
        secs = time.monotonic() - t0
        for t, w0 in zip(hosts, wakes0):
            rate = (main_wakeups(t.p.popen.pid) - w0) / secs
            h.check(rate < MAIN_WAKEUPS_MAX, '%s: the main lcore woke %.0f times a second '
                    'under traffic (at most %d): the tap\'s signals reach it' %
                    (t.name, rate, MAIN_WAKEUPS_MAX))
            h.info('%s: main lcore %.0f wake-ups a second under traffic' % (t.name, rate))

        # UDP paced well below the TCP rate, c -> b: nothing lost
        srv = h.spawn(['iperf3', '-s', '-1', '-B', '10.0.0.2'], name='iperf3_su', netns=b.ns)
        h.wait_for(lambda: ':5201' in h.run(['ss', '-Hltn'], netns=b.ns).stdout,
                   timeout=10, interval=0.1, what='iperf3 server listening: %s' % srv.log())
        r = h.run(['iperf3', '-c', '10.0.0.2', '-u', '-b', UDP_RATE, '-l', '1200',
                   '-t', str(UDP_S), '-J'], netns=c.ns, timeout=60)
        udp = json.loads(r.stdout)['end']['sum']
        h.check(udp['packets'] > 0, 'iperf3 UDP sent nothing')
        h.check(udp['lost_packets'] == 0, 'iperf3 UDP at %s: %d of %d datagrams lost' %
                (UDP_RATE, udp['lost_packets'], udp['packets']))
        h.info('iperf3 UDP c -> b at %s for %d s: %d datagrams, none lost' %
               (UDP_RATE, UDP_S, udp['packets']))

        # a FILE_SIZE file, b -> c, compared by SHA-256
        src = h.path('file.src')
        dst = h.path('file.dst')
        with open(src, 'wb') as f:
            f.write(os.urandom(FILE_SIZE))
        rcv = h.spawn([sys.executable, '-c', RECV, '10.0.0.3', str(PORT), dst],
                      name='file_recv', netns=c.ns)
        h.wait_log(rcv, 'listening', timeout=10)
        h.run([sys.executable, '-c', SEND, '10.0.0.3', str(PORT), src], netns=b.ns,
              timeout=200)
        h.wait_log(rcv, 'received', timeout=60)

        def sha(path):
            d = hashlib.sha256()
            with open(path, 'rb') as f:
                for blk in iter(lambda: f.read(1 << 20), b''):
                    d.update(blk)
            return d.hexdigest()
        h.check_eq(os.path.getsize(dst), FILE_SIZE, 'bytes received')
        h.check_eq(sha(dst), sha(src), 'SHA-256 of the file received')
        h.info('%d MiB file b -> c: SHA-256 %s on both sides' % (FILE_SIZE >> 20,
                                                                  sha(src)[:16]))
        os.unlink(src)
        os.unlink(dst)

        for t in hosts:
            rc = h.stop(t.p, sig=signal.SIGINT, timeout=60)
            out = t.p.log()
            h.check_eq(rc, 0, '%s: exit status after SIGINT' % t.name)
            m = re.search(r'^Final statistics after .*$', out, re.M)
            h.check(m and 'Bye (ok)' in out, '%s: final statistics:\n%s' % (t.name, out[-2000:]))
            h.info('%s: %s' % (t.name, m.group(0)))
            x = re.search(r'^Port \d+ \(IB side\) xstats:.*$', out, re.M)
            h.info('%s: %s' % (t.name, x.group(0) if x else 'no xstats line'))
        h.stop(osm)
        sm_host.write('QUIT\n')
        h.wait_for(lambda: not sm_host.alive(), timeout=30, what='sm_host exits')


if __name__ == '__main__':
    main()
