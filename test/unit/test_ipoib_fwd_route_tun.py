#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-3-Clause
# Copyright(c) 2026 The dpdk-ipoib authors
"""dpdk-ipoib-fwd's route engine and --txonly-dest-ip on kernel links
(issue 27), no fabric: net_tun stands for net_ipoib's L3 view, both
present bare IP packets.

1. route between a net_tap (its interface in namespace A, where the app
   runs) and a net_tun (its interface moved to namespace B): ping and
   ping -6 from A to B cross it (the app answers A's ARP and Neighbour
   Solicitation for B's addresses, strips and adds Ethernet headers,
   decrements TTL and hop limit, fixes the IPv4 checksum: B's kernel
   would drop a bad one); a ping with TTL 1 does not cross and is
   counted app_route_ttl_exceeded; the final statistics after SIGINT
   name the proxy answers and the peer MAC, exit status 0.
2. txonly --txonly-dest-ip on a net_tun, IPv4 then IPv6, started at the
   prompt once the kernel side is up: the kernel counts every datagram
   as a UDP datagram to a closed port (so length and checksums were
   right), exactly --txonly-count.

usage: test_ipoib_fwd_route_tun.py <dpdk-ipoib-fwd>
"""

import os
import re
import signal
import sys

from harness import Harness

COUNT = 200
PORT_LINE = re.compile(r'^Port (\d+): rx_packets=(\d+) .* tx_packets=(\d+) .* drops=(\d+)(.*)$',
                       re.M)


def eal(exe, tag, vdevs):
    argv = [exe, '--no-huge', '-m', '256', '--no-pci', '-l', '0,1',
            '--file-prefix', 'fwdrt%s%d' % (tag, os.getpid()), '--log-level=pmd.net.tap:error']
    for v in vdevs:
        argv += ['--vdev', v]
    # no stdbuf: the app's stdout is line-buffered, and stdbuf's preload
    # would come before ASan's runtime in the sanitizer build
    return argv + ['--']


def ip(h, ns, *args):
    h.run(['ip', '-n', ns] + list(args))


def snmp(h, ns, table, field):
    """A counter of /proc/net/snmp (table 'Udp') or /proc/net/snmp6 (field only)."""
    if table == 'Udp6':
        out = h.run(['cat', '/proc/net/snmp6'], netns=ns).stdout
        return int(re.search(r'^%s\s+(\d+)$' % field, out, re.M).group(1))
    lines = [l.split() for l in h.run(['cat', '/proc/net/snmp'], netns=ns).stdout.splitlines()
             if l.startswith(table + ':')]
    return int(lines[1][lines[0].index(field)])


def route(h, exe):
    a, b = h.netns('rta'), h.netns('rtb')
    tap, tun = 'rtap%d' % (os.getpid() % 10000), 'rtun%d' % (os.getpid() % 10000)
    p = h.spawn(eal(exe, 'route', ['net_tap0,iface=' + tap, 'net_tun0,iface=' + tun]) +
                ['--forward-mode=route', '--route=0:1', '--stats-period=1'],
                name='route', netns=a)
    h.wait_log(p, 'Forwarding started', timeout=30)
    ip(h, a, 'link', 'set', tun, 'netns', b)
    ip(h, a, 'addr', 'add', '10.71.1.1/24', 'dev', tap)
    ip(h, a, '-6', 'addr', 'add', 'fd71:1::1/64', 'dev', tap, 'nodad')
    ip(h, a, 'link', 'set', tap, 'up')
    ip(h, a, 'route', 'add', '10.71.2.0/24', 'dev', tap)
    ip(h, a, '-6', 'route', 'add', 'fd71:2::/64', 'dev', tap)
    ip(h, b, 'addr', 'add', '10.71.2.2/24', 'dev', tun)
    ip(h, b, '-6', 'addr', 'add', 'fd71:2::2/64', 'dev', tun, 'nodad')
    ip(h, b, 'link', 'set', tun, 'up')
    ip(h, b, 'route', 'add', '10.71.1.0/24', 'dev', tun)
    ip(h, b, '-6', 'route', 'add', 'fd71:1::/64', 'dev', tun)

    r = h.run(['ping', '-c', '3', '-i', '0.2', '-W', '3', '10.71.2.2'], netns=a, check=False)
    h.check(r.returncode == 0 and ' 0% packet loss' in r.stdout, 'ping:\n' + r.stdout + r.stderr)
    h.check('ttl=63' in r.stdout, 'the reply crossed one router (ttl 63):\n' + r.stdout)
    r = h.run(['ping', '-6', '-c', '3', '-i', '0.2', '-W', '3', 'fd71:2::2'], netns=a,
              check=False)
    h.check(r.returncode == 0 and ' 0% packet loss' in r.stdout,
            'ping -6:\n' + r.stdout + r.stderr)
    r = h.run(['ping', '-c', '1', '-t', '1', '-W', '1', '10.71.2.2'], netns=a, check=False)
    h.check(r.returncode != 0, 'a TTL 1 ping crossed the router:\n' + r.stdout)
    h.wait_for(lambda: 'app_route_ttl_exceeded=1' in p.log(), timeout=10,
               what='the TTL drop in the statistics')
    rc = h.stop(p, sig=signal.SIGINT, timeout=20)
    out = p.log()
    h.check_eq(rc, 0, 'route: exit status after SIGINT')
    final = out[out.index('Final statistics after'):]
    m = re.search(r'^Route 0: port 0 <-> port 1: peer_mac=([0-9A-F:]{17}) arp_replies=(\d+) '
                  r'na_sent=(\d+) flooded=(\d+)$', final, re.M)
    h.check(m is not None, 'no route line in:\n' + final)
    h.check(int(m.group(2)) >= 1 and int(m.group(3)) >= 1,
            'proxy answers: %s' % m.group(0))
    ports = {int(x[0]): x for x in PORT_LINE.findall(final)}
    # 6 echo requests in, 6 replies out, plus the proxy answers on port 0
    h.check(int(ports[1][2]) >= 6 and int(ports[1][1]) >= 6, 'port 1 line: %r' % (ports[1],))
    h.info('route: %s; port 0 drops:%s' % (m.group(0), ports[0][4]))


def txonly(h, exe, v6):
    c = h.netns('tx6' if v6 else 'tx4')
    tun = 'ttun%d%d' % (os.getpid() % 10000, 6 if v6 else 4)
    dest = 'fd71:3::1' if v6 else '10.71.3.1'
    p = h.spawn(eal(exe, 'tx%d' % v6, ['net_tun0,iface=' + tun]) +
                ['--forward-mode=txonly', '--txonly-dest-ip=' + dest,
                 '--txonly-count=%d' % COUNT, '--txonly-len=100', '-i'],
                name='txonly6' if v6 else 'txonly4', netns=c, stdin=True)
    h.wait_log(p, 'ipoib-fwd>', timeout=30, line=False)
    ip(h, c, 'addr', 'add', dest + ('/64' if v6 else '/24'), 'dev', tun, *(['nodad'] if v6 else []))
    ip(h, c, 'link', 'set', tun, 'up')
    table, field = ('Udp6', 'Udp6NoPorts') if v6 else ('Udp', 'NoPorts')
    before = snmp(h, c, table, field)
    p.write('start\n')
    h.wait_for(lambda: snmp(h, c, table, field) - before >= COUNT, timeout=20,
               what='%d UDP datagrams at %s' % (COUNT, dest))
    p.write('stop\n')
    h.wait_log(p, 'Final statistics after', timeout=10)
    p.write('quit\n')
    h.wait_for(lambda: not p.alive(), timeout=20, what='txonly to quit')
    h.check_eq(p.popen.returncode, 0, 'txonly exit status')
    got = snmp(h, c, table, field) - before
    h.check_eq(got, COUNT, '%s %s after txonly to %s' % (table, field, dest))
    if not v6:
        h.check_eq(snmp(h, c, 'Udp', 'InCsumErrors'), 0, 'UDP checksum errors')
    h.info('txonly --txonly-dest-ip=%s: the kernel counted %d datagrams' % (dest, got))


def main():
    exe = os.path.abspath(sys.argv[1])
    with Harness('ipoib_fwd_route_tun', timeout=150) as h:
        route(h, exe)
        txonly(h, exe, False)
        txonly(h, exe, True)


if __name__ == '__main__':
    main()
