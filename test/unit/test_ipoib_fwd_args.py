#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-3-Clause
# Copyright(c) 2026 The dpdk-ipoib authors
"""dpdk-ipoib-fwd's command line (issue 27), on net_null ports, no fabric:
every bad argument is refused with a message naming the option and the
value, a non-zero exit status, and nothing forwarded; then one good run
(txonly on Ethernet ports, --txonly-count) prints parseable statistics
lines, exactly the count sent, and on SIGINT its final statistics and
exit status 0.

usage: test_ipoib_fwd_args.py <dpdk-ipoib-fwd>
"""

import os
import re
import signal
import sys

from harness import Harness

BAD = [
    (['--forward-mode=bogus'],
     '--forward-mode=bogus: not one of io, rxonly, txonly, addrswap, route'),
    (['--forward-mode=route'], '--forward-mode=route: give --route=ETH_PORT:L3_PORT'),
    (['--route=0:1'], '--route=0:1: only with --forward-mode=route'),
    (['--forward-mode=route', '--route=0'], '--route=0: not ETH_PORT:L3_PORT'),
    (['--forward-mode=route', '--route=0:x'], '--route=0:x: not ETH_PORT:L3_PORT'),
    (['--forward-mode=route', '--route=1:1'],
     '--route=1:1: the Ethernet and the L3 port are the same'),
    (['--forward-mode=route', '--route=0:1', '--route=1:2'],
     '--route=1:2: a port of --route=0:1 already'),
    (['--forward-mode=route', '--route=0:5'], '--route=0:5: no port 5 in this app'),
    (['--forward-mode=route', '--route=0:1'],
     '--route=0:1: port 1 (net_null) is not an L3 port (net_ipoib mode=l3, net_tun)'),
    (['--forward-mode=route', '--route=0:1', '--portmask=0x1'],
     '--route=0:1: no port 1 in this app'),
    (['--burst=0'], '--burst=0: out of range 1..512'),
    (['--burst=513'], '--burst=513: out of range 1..512'),
    (['--burst=12x'], '--burst=12x: not a number'),
    (['--nb-cores=-1'], '--nb-cores=-1: not a number'),
    (['--nb-cores=4'], '--nb-cores=4: only 1 worker lcores'),
    (['--portmask=0x4'], '--portmask=0x4: no port 2'),
    (['--portmask=0'], '--portmask=0: out of range'),
    (['--stats-period=x'], '--stats-period=x: not a number'),
    (['--txonly-dest=0:0x48'], '--txonly-dest=0:0x48: LID "0" is not a number in 0x1..0xbfff'),
    (['--txonly-dest=49152:0x48'], '--txonly-dest=49152:0x48: LID "49152"'),
    (['--txonly-dest=3:1'], '--txonly-dest=3:1: QPN "1" is not a number in 0x2..0xffffff'),
    (['--txonly-dest=3:0x1000000'], '--txonly-dest=3:0x1000000: QPN "0x1000000"'),
    (['--txonly-dest=3'], '--txonly-dest=3: not LID:QPN[:QKEY]'),
    (['--txonly-dest=3:4:5:6'], '--txonly-dest=3:4:5:6: not LID:QPN[:QKEY]'),
    (['--txonly-dest=3:0x48:0x1ffffffff'], 'Q_Key "0x1ffffffff" is not a number'),
    (['--txonly-dest-ip=198.18.0.9'], '--txonly-dest-ip: only with --forward-mode=txonly'),
    (['--forward-mode=txonly', '--txonly-dest-ip=224.0.0.1'],
     '--txonly-dest-ip=224.0.0.1: not a unicast address'),
    (['--forward-mode=txonly', '--txonly-dest-ip=ff02::1'],
     '--txonly-dest-ip=ff02::1: not a unicast address'),
    (['--forward-mode=txonly', '--txonly-dest-ip=10.0.0.300'],
     '--txonly-dest-ip=10.0.0.300: not an IPv4 or IPv6 address'),
    (['--forward-mode=txonly', '--txonly-dest-ip=10.0.0.1', '--txonly-dest=3:0x48'],
     '--txonly-dest-ip and --txonly-dest: give one destination'),
    (['--forward-mode=txonly', '--txonly-dest-ip=10.0.0.1', '--txonly-ip-dst=10.0.0.2'],
     '--txonly-ip-dst and --txonly-dest-ip: give one destination address'),
    (['--forward-mode=txonly', '--txonly-dest-ip=10.0.0.1'],
     '--txonly-dest-ip: port 1 (net_null) is not an L3 port'),
    (['--txonly-ip-src=fd00::1::2'], '--txonly-ip-src=fd00::1::2: not an IPv4 or IPv6 address'),
    (['--txonly-len=31'], '--txonly-len=31: out of range 32..4096'),
    (['--txonly-ip-src=1.2.3'], '--txonly-ip-src=1.2.3: not an IPv4 address'),
    (['--forward-mode=txonly', '--txonly-count=0'], '--txonly-count=0: out of range'),
    (['--txonly-pps=100'], '--txonly-count/--txonly-pps: only with --forward-mode=txonly'),
    (['--reply-qpn=0x48'], '--reply-qpn=0x48: only with --forward-mode=addrswap'),
    (['--rxd=1000'], '--rxd=1000 --txd=1024: ring sizes are powers of two'),
    (['--rxq=17'], '--rxq=17: out of range 1..16'),
    (['-i', '--stats-period=1'], '--stats-period=1: not with -i'),
    (['--colour=blue'], '--colour=blue: unknown option'),
    (['--burst'], '--burst: needs a value'),
    (['stray'], 'stray: unexpected argument'),
]
PORT_LINE = re.compile(r'^Port (\d+): rx_packets=(\d+) rx_mpps=[\d.]+ rx_gbps=[\d.]+ '
                       r'tx_packets=(\d+) tx_mpps=[\d.]+ tx_gbps=[\d.]+ drops=(\d+)', re.M)


def eal(exe, tag):
    return [exe, '--no-huge', '-m', '128', '--no-pci', '--vdev', 'net_null0', '--vdev',
            'net_null1', '-l', '0,1', '--file-prefix', 'fwdargs%s%d' % (tag, os.getpid()),
            '--log-level=lib.eal:warning', '--']


def main():
    exe = os.path.abspath(sys.argv[1])
    with Harness('ipoib_fwd_args', timeout=100) as h:
        for i, (args, want) in enumerate(BAD):
            r = h.run(eal(exe, str(i)) + args, timeout=30, check=False)
            out = r.stdout + r.stderr
            h.check(r.returncode != 0, '%s: exit status 0:\n%s' % (' '.join(args), out))
            h.check(want in out, '%s: no %r in:\n%s' % (' '.join(args), want, out))
            h.check('Forwarding started' not in out, '%s: forwarded anyway' % ' '.join(args))
        h.info('%d bad argument lists refused' % len(BAD))
        r = h.run(eal(exe, 'help') + ['--help'], timeout=30)
        h.check('--forward-mode=MODE' in r.stdout, '--help: %s' % r.stdout)

        # a good run: txonly on two Ethernet ports, 1000 frames per stream
        p = h.spawn(eal(exe, 'run') + ['--forward-mode=txonly', '--txonly-count=1000',
                                       '--stats-period=1', '--record-core-cycles',
                                       '--idle-yield'],
                    name='fwd')
        h.wait_log(p, 'Statistics at', timeout=30)
        rc = h.stop(p, sig=signal.SIGINT, timeout=20)
        out = p.log()
        h.check_eq(rc, 0, 'exit status after SIGINT')
        h.check('Final statistics after' in out, 'no final statistics:\n' + out)
        final = PORT_LINE.findall(out[out.index('Final statistics after'):])
        h.check_eq(len(final), 2, 'final lines, one per port')
        for port, rx, tx, drops in final:
            h.check_eq(int(tx), 1000, 'port %s tx_packets' % port)
            h.check_eq(int(drops), 0, 'port %s drops' % port)
        h.check(re.search(r'^Lcore 1: packets=\d+ cycles_per_packet=[\d.]+$', out, re.M),
                'no cycles per packet line:\n' + out)


if __name__ == '__main__':
    main()
