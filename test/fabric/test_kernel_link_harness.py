#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-3-Clause
# Copyright(c) 2026 The dpdk-ipoib authors
"""dpdk-ipoib-kernel-link end to end without a fabric (issue 26): two
kernel-link processes whose "IB side" is the two ends of a net_memif
pair, each run in a network namespace the test makes, so that each
kernel side (a TAP, a TUN or a virtio-user interface) lives in its
namespace. The memif pair stands for the fabric; the same path is the
peer of the benchmark that measures iperf3 over the fabric against it.

1. both kernel sides come up once the memif pair connects, with the
   memif port's MAC (TAP, virtio-user) and MTU;
2. ping and ping -6 both ways (TAP: the kernels resolve each other by
   ARP and ND, ``ip neigh`` shows the other's MAC; TUN: IP only);
3. a 3 s iperf3 TCP stream, its rate printed;
   TUN runs with --data-lcores=2, one lcore per direction;
4. the client stopped: the server's kernel side goes down (the link
   state follows the IB side); SIGINT ends both with final statistics
   and exit status 0.

usage: test_kernel_link_harness.py <tap|tun|virtio_user> <dpdk-ipoib-kernel-link>
"""

import json
import os
import re
import signal
import sys

from harness import Harness

MAC = {'a': '02:00:00:00:00:0a', 'b': '02:00:00:00:00:0b'}
IP4 = {'a': '10.77.0.1', 'b': '10.77.0.2'}
IP6 = {'a': 'fd77::1', 'b': 'fd77::2'}
IFACE = 'kl0'


def main():
    kind = sys.argv[1]
    exe = os.path.abspath(sys.argv[2])
    name = {'tap': 'ipoib_link_harness', 'tun': 'ipoib_link_harness_l3',
            'virtio_user': 'ipoib_link_virtio'}[kind]
    with Harness(name, timeout=170) as h:
        if kind == 'virtio_user' and not os.path.exists('/dev/vhost-net'):
            h.skip('no /dev/vhost-net on this machine (the vhost_net module is not '
                   'loaded): virtio_user has no kernel backend')
        for prog in ('ip', 'ping', 'iperf3', 'ss'):
            h.need_program(prog)
        ns = {s: h.netns('kl' + s) for s in 'ab'}
        sock = h.path('memif.sock')
        procs = {}
        for side, role in (('a', 'server'), ('b', 'client')):
            # socket-abstract=no: an abstract UNIX socket belongs to one
            # network namespace; a path is seen from both.
            vdev = ('net_memif0,role=%s,socket=%s,socket-abstract=no,mac=%s' %
                    (role, sock, MAC[side]))
            # TUN: one data lcore per direction (lcore 2 shares a CPU:
            # the machines have two)
            lcores = (['--lcores', '0@0,1@1,2@0'] if kind == 'tun' else ['-l', '0,1'])
            procs[side] = h.spawn([exe, '--no-huge', '-m', '256', '--no-pci'] + lcores +
                                  ['--file-prefix', 'kl%s%d' % (side, os.getpid()),
                                   '--vdev', vdev, '--', '--kind=' + kind,
                                   '--iface=' + IFACE, '--stats-period=5'] +
                                  (['--data-lcores=2'] if kind == 'tun' else []),
                                  name='klink_' + side, netns=ns[side])
            # the client's start connects: the server must listen first
            h.wait_log(procs[side], 'Kernel link:', timeout=30)
        for side in 'ab':
            h.wait_log(procs[side], 'Link up', timeout=30)
            lines = re.findall(r'^Lcore \d+: .*$', procs[side].log(), re.M)
            want = (['Lcore 1: ib->kernel', 'Lcore 2: kernel->ib'] if kind == 'tun' else
                    ['Lcore 1: ib->kernel, kernel->ib'])
            h.check_eq(lines, want, '%s: data lcores' % side)
            link = json.loads(h.run(['ip', '-j', 'link', 'show', IFACE],
                                    netns=ns[side]).stdout)[0]
            h.check('UP' in link['flags'], '%s: %s not up: %s' % (side, IFACE, link))
            h.check_eq(link['mtu'], 1500, '%s: MTU of the memif port' % side)
            if kind != 'tun':
                h.check_eq(link['address'], MAC[side], '%s: MAC of the memif port' % side)
            # configured once up: Linux drops IPv6 addresses of a link
            # taken down (net.ipv6.conf.*.keep_addr_on_down=0)
            h.run(['ip', 'addr', 'add', IP4[side] + '/24', 'dev', IFACE], netns=ns[side])
            h.run(['ip', '-6', 'addr', 'add', IP6[side] + '/64', 'dev', IFACE, 'nodad'],
                  netns=ns[side])
        for src, dst in (('a', 'b'), ('b', 'a')):
            for ping, ip in ((['ping'], IP4), (['ping', '-6'], IP6)):
                r = h.run(ping + ['-c', '3', '-i', '0.2', '-W', '3', ip[dst]],
                          netns=ns[src], timeout=30)
                h.check(' 0% packet loss' in r.stdout, '%s: %s' % (' '.join(ping), r.stdout))
                rtt = re.search(r'= [\d.]+/([\d.]+)/', r.stdout)
                h.info('%s %s -> %s: 3/3, avg rtt %s ms' % (' '.join(ping), src, dst,
                                                            rtt.group(1) if rtt else '?'))
        if kind != 'tun':
            for src, dst in (('a', 'b'), ('b', 'a')):
                neigh = h.run(['ip', 'neigh', 'show', 'dev', IFACE], netns=ns[src]).stdout
                h.check(MAC[dst] in neigh, '%s: ip neigh shows %s: %s' % (src, MAC[dst], neigh))
        srv = h.spawn(['iperf3', '-s', '-1', '-B', IP4['a']], name='iperf3_s', netns=ns['a'])
        h.wait_for(lambda: ':5201' in h.run(['ss', '-Hltn'], netns=ns['a']).stdout,
                   timeout=10, interval=0.1, what='iperf3 server listening: %s' % srv.log())
        r = h.run(['iperf3', '-c', IP4['a'], '-t', '3', '-J'], netns=ns['b'], timeout=60)
        bps = json.loads(r.stdout)['end']['sum_received']['bits_per_second']
        h.check(bps > 0, 'iperf3 moved nothing')
        h.info('iperf3 TCP b -> a over the memif pair: %.1f Mbit/s' % (bps / 1e6))

        # the server's IB side goes down with its peer: so does its kernel side
        # (the server said "Link down" once already, before the client came)
        downs = procs['a'].log().count('Link down')
        rc = h.stop(procs['b'], sig=signal.SIGTERM, timeout=30)
        h.check_eq(rc, 0, 'client exit status after SIGTERM')
        h.wait_for(lambda: procs['a'].log().count('Link down') > downs, timeout=20,
                   interval=0.1, what='a: "Link down" once the client is gone')
        h.wait_for(lambda: 'UP' not in json.loads(h.run(['ip', '-j', 'link', 'show', IFACE],
                                                        netns=ns['a']).stdout)[0]['flags'],
                   timeout=10, interval=0.1, what='a: %s down with its IB side' % IFACE)
        rc = h.stop(procs['a'], sig=signal.SIGINT, timeout=30)
        h.check_eq(rc, 0, 'server exit status after SIGINT')
        for side in 'ab':
            out = procs[side].log()
            m = re.search(r'^Final statistics after [\d.]+ s: ib->kernel rx=(\d+) tx=(\d+) '
                          r'drops=(\d+) kernel->ib rx=(\d+) tx=(\d+) drops=(\d+)$', out, re.M)
            h.check(m, '%s: no final statistics:\n%s' % (side, out[-2000:]))
            v = [int(x) for x in m.groups()]
            h.check(v[0] > 0 and v[3] > 0, '%s: packets both ways: %s' % (side, m.group(0)))
            h.check('Bye (ok)' in out, '%s: no clean exit' % side)
            h.info('%s: %s' % (side, m.group(0)))


if __name__ == '__main__':
    main()
