#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-3-Clause
# Copyright(c) 2026 The dpdk-ipoib authors
"""dpdk-ipoib-fwd's IPoIB engines over net_ipoib (issue 27): two DPDK
hosts on ibfabric (test/data/hca3.net), OpenSM on a third DPDK host
through the user-MAD service (as ipoib_testpmd: its SA answers the
PathRecord queries of lib/ipoib).

1. route: each host a dpdk-ipoib-fwd in route mode between net_ipoib0
(mode=l3 on its HCA's port 1) and a net_tap0 whose kernel interface is
in the host's own network namespace (the app runs there, so its TAP is
made there; the simulated PCI functions are files and path sockets).

Namespace A has 10.72.1.1/24 and fd72:1::1/64, B 10.72.2.1/24 and
fd72:2::1/64, each with a route to the other's prefix on its TAP. Each
net_ipoib0 is given the address of the host behind it (ipv4=, ipv6=), so
that its L3 view answers the other side's ARP and ND for it.

Checks: ping and ping -6 both ways cross two routers (ttl=62, hop limit
62); at A's prompt, show ipoib neigh lists B's address resolved, show
ipoib path a resolved path, show ipoib mcast the broadcast group joined,
show ib port the IB port under net_ipoib0 ACTIVE; quit prints the final
statistics with the route's proxy ARP and ND answers, exit status 0.

2. txonly --txonly-dest-ip -> rxonly, net_ipoib0 in mode=l3 on both
hosts (10.0.0.2 and 10.0.0.3): the sender resolves the address through
lib/ipoib at "start" (then "resolved"), sends exactly COUNT, the
receiver counts at least 90 % of them; show ipoib neigh at the sender's
prompt lists 10.0.0.3 resolved.

The telemetry endpoints /ipoib/neigh, /ipoib/path, /ipoib/mcast of the
first router answer as its prompt does.

usage: test_ipoib_fwd_route.py <ibfabric> <netfile> <sa_host> <dpdk-ipoib-fwd>
                               <librte_net_mthca.so> <preload> <dpdk-ib-ns>
"""

import json
import os
import re
import socket
import subprocess
import sys

from simlib import Fabric, Harness, eal_safe_plugin, sanitizer_preload
from ipoib_testbed import main_wakeups
from test_ipoib_if import start_opensm

SM_BDF = '0000:10:00.0'
BURST_PINGS = 400
HOSTS = (('a', '0000:11:00.0', 1), ('b', '0000:12:00.0', 2))
COUNT = 2000
# paced for the sanitizer build on a loaded 2-core machine: at 10,000 a
# second its receiver (net_ipoib and lib/ipoib under ASan) fell behind
# and the HCA dropped a quarter for want of receive buffers
PPS = 2000


class Fwd:
    """A dpdk-ipoib-fwd at its prompt on net_ipoib0 (mode=l3 on the HCA's
    IB port 1), in namespace @ns when given. Its ethdevs: 0 the IB port
    (owned by net_ipoib0, skipped), 1 the HCA's second IB port, 2
    net_ipoib0, then @vdevs."""

    def __init__(self, h, exe, plugin, env, name, bdf, idx, addrs, vdevs, args, ns=None):
        self.h, self.name, self.idx, self.ns = h, name, idx, ns
        # one data lcore each, on different cores (2-core machines)
        main = '0' if idx == 1 else '1'
        argv = ['stdbuf', '-oL', exe, '-d', plugin, '--no-huge', '-m', '384',
                '-l', '0,1', '--main-lcore', main, '--file-prefix',
                'fwdrt%s%d' % (name, os.getpid()), '-a', bdf,
                '--vdev=net_ipoib0,dev=%s,mode=l3,%s' % (bdf, addrs)]
        for v in vdevs:
            argv.append('--vdev=' + v)
        self.p = h.spawn(argv + ['--log-level=pmd.net.tap:error', '--', '-i'] + args,
                         name='fwd_' + name, env=env, stdin=True, netns=ns)
        h.wait_log(self.p, 'Links up after', timeout=120)
        h.check(re.search(r'Port 2: net_ipoib, IPoIB interface \S+ \(mode l3\)', self.p.log()),
                '%s: port 2 is net_ipoib0 in mode l3:\n%s' % (name, self.p.log()[-2000:]))
        h.check(re.search(r'port 2 up \(IPoIB broadcast joined, \d+/\d+ paths resolved\)',
                          self.p.log()), '%s: the progress words of net_ipoib0' % name)

    def telemetry(self, cmd):
        """@cmd's answer on the app's telemetry socket (what dpdk-telemetry.py
        asks), as a dict."""
        path = '/var/run/dpdk/fwdrt%s%d/dpdk_telemetry.v2' % (self.name, os.getpid())
        with socket.socket(socket.AF_UNIX, socket.SOCK_SEQPACKET) as s:
            s.settimeout(10)
            s.connect(path)
            s.recv(1024)
            s.send(cmd.encode())
            return json.loads(s.recv(65536).decode())[cmd.split(',')[0]]

    def quit(self):
        self.p.write('quit\n')
        self.h.wait_for(lambda: not self.p.alive(), timeout=60, what='%s quits' % self.p.name)
        self.h.check_eq(self.p.popen.returncode, 0, '%s exit status' % self.p.name)

    def stats(self):
        out = self.cmd('show port stats 2', 'TX-bytes:')
        m = re.search(r'RX-packets: (\d+) .*\n.*\n\s*TX-packets: (\d+) ', out)
        return int(m.group(1)), int(m.group(2))

    def cmd(self, text, until, timeout=30):
        start = len(self.p.log())
        self.p.write(text + '\n')
        self.h.wait_for(lambda: until in self.p.log()[start:], timeout=timeout,
                        what='%r after %r from %s' % (until, text, self.name))
        return self.p.log()[start:]

    def ip(self, *args):
        return self.h.run(['ip', '-n', self.ns] + list(args), timeout=20).stdout


class Router(Fwd):
    """dpdk-ipoib-fwd in route mode in its own namespace, between net_ipoib0
    (given the address of the host behind it) and net_tap0 (ethdev 3)."""

    def __init__(self, h, exe, plugin, env, name, bdf, idx):
        self.tap = 'frt%s%d' % (name, os.getpid() % 10000)
        super().__init__(h, exe, plugin, env, name, bdf, idx,
                         'ipv4=10.72.%d.1,ipv6=fd72:%d::1' % (idx, idx),
                         ['net_tap0,iface=' + self.tap],
                         ['--portmask=0xc', '--forward-mode=route', '--route=3:2'],
                         ns=h.netns('fr' + name))
        self.cmd('start', 'Forwarding started')

    def kernel(self, other):
        self.ip('addr', 'add', '10.72.%d.1/24' % self.idx, 'dev', self.tap)
        self.ip('-6', 'addr', 'add', 'fd72:%d::1/64' % self.idx, 'dev', self.tap, 'nodad')
        self.ip('link', 'set', self.tap, 'up')
        self.ip('route', 'add', '10.72.%d.0/24' % other, 'dev', self.tap)
        self.ip('-6', 'route', 'add', 'fd72:%d::/64' % other, 'dev', self.tap)

    def ping(self, *args, count=3):
        return self.h.run(['ping'] + list(args) + ['-c', str(count), '-W', '2', '-i', '0.3'],
                          netns=self.ns, timeout=30, check=False)


def wait_ping(h, host, args, ttl, what):
    """Pings until one answer (the first wait for ARP/ND and a PathRecord
    on the fabric), then 3 of 3 with the TTL of two routers crossed."""
    h.wait_for(lambda: host.ping(*args, count=1).returncode == 0, timeout=40, interval=0.5,
               what=what + ': a first answer')
    r = host.ping(*args)
    h.check(r.returncode == 0 and ' 0% packet loss' in r.stdout,
            '%s: 3 of 3 answered:\n%s' % (what, r.stdout + r.stderr))
    h.check('ttl=%d' % ttl in r.stdout, '%s: ttl=%d (two routers):\n%s' % (what, ttl, r.stdout))
    h.info('%s: %s' % (what, r.stdout.strip().splitlines()[-1]))


def route(h, exe, plugin, env):
    a, b = [Router(h, exe, plugin, env, n, bdf, idx) for n, bdf, idx in HOSTS]
    a.kernel(2)
    b.kernel(1)

    wait_ping(h, a, ['10.72.2.1'], 62, 'A -> B IPv4')
    wait_ping(h, b, ['10.72.1.1'], 62, 'B -> A IPv4')
    wait_ping(h, a, ['-6', 'fd72:2::1'], 62, 'A -> B IPv6')
    wait_ping(h, b, ['-6', 'fd72:1::1'], 62, 'B -> A IPv6')

    # net_tap raises a signal per packet the kernel queues to the TAP; the
    # forwarding lcores take it, the main lcore at its prompt sleeps on
    w0 = [main_wakeups(r.p.popen.pid) for r in (a, b)]
    r = h.run(['ping', '-c', str(BURST_PINGS), '-i', '0.002', '-W', '2', '10.72.2.1'],
              netns=a.ns, timeout=60, check=False)
    h.check(r.returncode == 0, 'A -> B: %d pings 2 ms apart:\n%s' % (BURST_PINGS, r.stdout))
    for rt, w in zip((a, b), w0):
        woke = main_wakeups(rt.p.popen.pid) - w
        h.check(woke < BURST_PINGS // 4, '%s: the main lcore woke %d times for %d pings through '
                'its TAP: the tap\'s signals reach it' % (rt.name, woke, BURST_PINGS))
        h.info('%s: main lcore woke %d times for %d pings' % (rt.name, woke, BURST_PINGS))

    out = a.cmd('show ipoib neigh', 'neigh entries')
    # one neighbour (B's QPN and GID) bound to the address last resolved
    h.check(re.search(r'^\s+(10\.72\.2\.1|fd72:2::1)\s+\S+ resolved idle_ms=\d+$', out,
                      re.M), 'show ipoib neigh: B resolved:\n' + out)
    out = a.cmd('show ipoib path', 'path entries')
    h.check(re.search(r'pkey=0xffff dlid=\d+ .* resolved queued=0', out),
            'show ipoib path: a resolved path:\n' + out)
    out = a.cmd('show ipoib mcast 2', 'mcast entries')
    h.check(re.search(r'^\s+ff12:401b:ffff::ffff:ffff\s+broadcast mlid=0x[0-9a-f]{4} joined',
                      out, re.M), 'show ipoib mcast: the broadcast group joined:\n' + out)
    a.cmd('show ipoib neigh 3', 'Port 3: not a net_ipoib port')
    # the telemetry endpoints read the same walks (lib/ipoib's ipoib_telemetry.c)
    ifname = re.search(r'IPoIB interface (\S+) ', a.p.log()).group(1)
    paths = a.telemetry('/ipoib/path,' + ifname)
    h.check(any('state=resolved' in v for v in paths.values()),
            'telemetry /ipoib/path,%s: %r' % (ifname, paths))
    groups = a.telemetry('/ipoib/mcast,' + ifname)
    h.check(any('broadcast' in v and 'state=joined' in v for v in groups.values()),
            'telemetry /ipoib/mcast,%s: %r' % (ifname, groups))
    neigh = a.telemetry('/ipoib/neigh,' + ifname)
    h.check(any('path=yes' in v for v in neigh.values()),
            'telemetry /ipoib/neigh,%s: %r' % (ifname, neigh))
    out = a.cmd('show ib port 2', 'P_Keys:')
    h.check('State: ACTIVE' in out and '[0]0xffff' in out, 'show ib port 2:\n' + out)

    for r in (a, b):
        r.quit()
        out = r.p.log()
        final = out[out.index('Final statistics after'):]
        m = re.search(r'^Route 0: port 3 <-> port 2: peer_mac=\S+ arp_replies=(\d+) '
                      r'na_sent=(\d+) flooded=(\d+)$', final, re.M)
        h.check(m and int(m.group(1)) >= 1 and int(m.group(2)) >= 1,
                '%s: the route line:\n%s' % (r.name, final))
        h.info('%s: %s' % (r.name, ' | '.join(final.splitlines()[1:4])))


def txonly(h, exe, plugin, env):
    (na, bdfa, ia), (nb, bdfb, ib) = HOSTS
    b = Fwd(h, exe, plugin, env, 'rx', bdfb, ib, 'ipv4=10.0.0.3', [],
            ['--portmask=0x4', '--forward-mode=rxonly'])
    b.cmd('start', 'Forwarding started')
    a = Fwd(h, exe, plugin, env, 'tx', bdfa, ia, 'ipv4=10.0.0.2', [],
            ['--portmask=0x4', '--forward-mode=txonly', '--txonly-dest-ip=10.0.0.3',
             '--txonly-count=%d' % COUNT, '--txonly-pps=%d' % PPS, '--txonly-len=128'])
    out = a.cmd('start', 'Forwarding started', timeout=60)
    h.check('Port 2: 10.0.0.3 resolved after' in out, 'tx resolved nothing:\n' + out)
    h.wait_for(lambda: a.stats()[1] == COUNT, timeout=60, interval=0.5,
               what='tx to send %d' % COUNT)
    h.wait_for(lambda: b.stats()[0] >= COUNT * 0.9, timeout=30, interval=0.5,
               what='rx to receive 90 %% of %d' % COUNT)
    got = b.stats()[0]
    h.check(COUNT * 0.9 <= got <= COUNT, 'rx received %d of %d' % (got, COUNT))
    h.info('txonly --txonly-dest-ip -> rxonly: sent %d, received %d' % (COUNT, got))
    out = a.cmd('show ipoib neigh', 'neigh entries')
    h.check(re.search(r'^\s+10\.0\.0\.3\s+\S+ resolved idle_ms=\d+$', out, re.M),
            'show ipoib neigh: 10.0.0.3 resolved:\n' + out)
    for f in (a, b):
        f.cmd('stop', 'Final statistics after')
        f.quit()


def main():
    ibfabric, netfile, sa_host, exe, so, preload, ns_tool = (
        os.path.abspath(a) for a in sys.argv[1:8])
    with Harness('ipoib_fwd_route', timeout=280) as h:
        for prog in ('opensm', 'ping', 'stdbuf'):
            h.need_program(prog)
        root = h.path('pci')
        fab = Fabric(h, ibfabric, netfile, tag='ifwr', extra=['--pci-root', root])
        h.wait_for(lambda: os.path.exists(os.path.join(root, HOSTS[-1][1], 'iommu.sock')),
                   timeout=10, what='the simulated PCI functions')
        plugin = eal_safe_plugin(h, so)
        env = dict(sanitizer_preload(h, so), SYSFS_PCI_DEVICES=root)
        run = h.path('umad-sm')
        os.makedirs(run)
        h.on_teardown(lambda: subprocess.run(['umount', '-l', os.path.join(run, 'dev')],
                                             stderr=subprocess.DEVNULL))
        sm_host = h.spawn([sa_host, '--no-huge', '-m', '256', '--file-prefix',
                           'ifwrsm%d' % os.getpid(), '-a', SM_BDF, '--', 'idle'],
                          name='sm_host', stdin=True,
                          env={'SYSFS_PCI_DEVICES': root, 'DPDK_IB_UMAD_DIR': run})
        h.wait_for(lambda: os.path.exists(os.path.join(run, 'dev', 'umad0')),
                   timeout=60, what='umad0 of the SM host')
        osm = start_opensm(h, ns_tool, run, preload, 'opensm', [])

        route(h, exe, plugin, env)
        txonly(h, exe, plugin, env)

        h.stop(osm)
        sm_host.write('QUIT\n')
        h.wait_for(lambda: not sm_host.alive(), timeout=30, what='sm_host exits')
        fab.stop_clean()


if __name__ == '__main__':
    main()
