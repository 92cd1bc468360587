#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-3-Clause
# Copyright(c) 2026 The dpdk-ipoib authors
"""dpdk-ipoib-fwd on two simulated MT25208 HCAs (issue 27), OpenSM on a
passive CA through umad2sim, net_mthca loaded with -d.

1. txonly -> rxonly: host A sends COUNT IPoIB UDP datagrams to host B's
   LID and rx QPN (paced); B, interactive, counts them: its rx_q0_packets
   xstat is at least 90 % of what A sent (A's exact tx_packets), and
   equals B's ethdev RX-packets; A's periodic statistics lines parse, and
   SIGINT makes A print its final statistics and exit 0. B's prompt
   answers show port stats all, show port xstats 0, show ib port (state
   ACTIVE, its LID, the SM's LID, GID, P_Key 0xffff), stop, quit.
2. txonly -> addrswap: A, interactive, refuses to start without a
   destination, takes it with "set txonly-dest"; B swaps the addressing
   of every datagram (an AH for A's LID, --reply-qpn A's rx QPN) and its
   IP/UDP addresses; A counts what comes back: at least 90 % of what it
   sent, and every datagram B did not return is a counted drop; B,
   stopped by SIGTERM, and A, by SIGINT at its prompt while forwarding,
   print final statistics and exit 0.

usage: test_ipoib_fwd.py <ibfabric> <netfile> <dpdk-ipoib-fwd> <librte_net_mthca.so> <build dir>
"""

import os
import re
import signal
import sys

from simlib import Fabric, Harness, eal_safe_plugin, find_umad2sim, sanitizer_preload, start_opensm

HOSTS = (('hosta', '0000:10:00.0'), ('hostb', '0000:11:00.0'))
COUNT = 5000
PPS = 10000
PORT_LINE = re.compile(r'^Port (\d+): rx_packets=(\d+) rx_mpps=([\d.]+) rx_gbps=([\d.]+) '
                       r'tx_packets=(\d+) tx_mpps=([\d.]+) tx_gbps=([\d.]+) drops=(\d+)(.*)$',
                       re.M)


class Fwd:
    """One dpdk-ipoib-fwd on a host's HCA (its IB port 1: ethdev port 0)."""

    def __init__(self, h, exe, plugin, env, name, bdf, args, lcores, interactive=False):
        self.h = h
        self.name = name
        argv = ['stdbuf', '-oL', exe, '-d', plugin, '--no-huge', '-m', '256'] + lcores + [
            '--file-prefix', 'fwd%s%d' % (name, os.getpid()),
            '-a', '%s,node_desc=dpdk-ipoib-fwd-%s' % (bdf, name), '--',
            '--portmask=0x1'] + args + (['-i'] if interactive else [])
        self.p = h.spawn(argv, name=name, env=env, stdin=interactive)
        h.wait_log(self.p, 'Links up after', timeout=120)
        out = self.p.log()
        self.lid = int(re.search(r'Links up after .*port 0 up \(IB ACTIVE, LID (\d+)\)',
                                 out).group(1))
        self.qpn = int(re.search(r'Port 0: rx QPN (0x[0-9a-f]+)', out).group(1), 16)
        h.info('%s: LID %d, rx QPN 0x%x' % (name, self.lid, self.qpn))

    def cmd(self, text, until, timeout=30):
        """Write @text to the prompt; the output after it once it holds @until."""
        start = len(self.p.log())
        self.p.write(text + '\n')
        self.h.wait_for(lambda: until in self.p.log()[start:], timeout=timeout,
                        what='%r after %r from %s' % (until, text, self.name))
        return self.p.log()[start:]

    def xstats(self):
        out = self.cmd('show port xstats 0', 'rx_mad_port_events:')
        return {k: int(v) for k, v in re.findall(r'^\s*(\w+): (\d+)$', out, re.M)}

    def lines(self, after=0):
        """Parsed statistics lines of port 0 in the output after offset @after."""
        return [m for m in PORT_LINE.finditer(self.p.log()[after:]) if m.group(1) == '0']

    def stop(self, sig):
        """@sig: the final statistics line of port 0 and the exit status."""
        rc = self.h.stop(self.p, sig=sig, timeout=30)
        out = self.p.log()
        self.h.check('Final statistics after' in out,
                     '%s printed no final statistics:\n%s' % (self.name, out[-3000:]))
        final = self.lines(out.index('Final statistics after'))
        self.h.check(len(final) == 1, '%s: final line of port 0:\n%s' % (self.name, out[-3000:]))
        return final[0], rc


def main():
    ibfabric, netfile, exe, so, build = (os.path.abspath(a) for a in sys.argv[1:6])
    with Harness('ipoib_fwd', timeout=280) as h:
        lib = find_umad2sim(h)
        root = h.path('pci')
        fab = Fabric(h, ibfabric, netfile, tag='ifwd', extra=['--pci-root', root])
        h.wait_for(lambda: all(os.path.exists(os.path.join(root, b, 'iommu.sock'))
                               for _, b in HOSTS), timeout=10, what='the PCI functions')
        plugin = eal_safe_plugin(h, so)
        env = dict(sanitizer_preload(h, so), SYSFS_PCI_DEVICES=root,
                   LD_LIBRARY_PATH=os.path.join(build, 'lib', 'ib') + ':' +
                   os.path.join(build, 'lib', 'ibmad'))
        # OpenSM sweeps every second: a host that restarts is made ACTIVE again
        start_opensm(h, fab, lib, 'ca-sm', sweep=1)
        sm_lid = int([p for p in fab.ports('ca-sm') if p['num'] == '1'][0]['lid'])
        # one data lcore each, on different cores (the main lcores mostly sleep)
        lc_a, lc_b = ['-l', '0,1'], ['-l', '0,1', '--main-lcore', '1']

        # 1. txonly -> rxonly (B interactive)
        b = Fwd(h, exe, plugin, env, 'hostb', HOSTS[1][1], ['--forward-mode=rxonly'], lc_b,
                interactive=True)
        b.cmd('start', 'Forwarding started')
        a = Fwd(h, exe, plugin, env, 'hosta', HOSTS[0][1],
                ['--forward-mode=txonly', '--txonly-dest=%d:0x%x' % (b.lid, b.qpn),
                 '--txonly-count=%d' % COUNT, '--txonly-pps=%d' % PPS, '--txonly-len=128',
                 '--stats-period=1', '--record-core-cycles'], lc_a)
        h.wait_for(lambda: any(int(m.group(5)) == COUNT for m in a.lines()), timeout=60,
                   what='hosta to report tx_packets=%d' % COUNT)
        lines = a.lines()
        h.check(len(lines) >= 1 and all(float(m.group(6)) >= 0 for m in lines),
                'hosta statistics lines: %r' % [m.group(0) for m in lines])
        h.check(re.search(r'^Lcore 1: packets=\d+ cycles_per_packet=[\d.]+$', a.p.log(), re.M),
                'hosta printed no cycles per packet')

        def b_settled():
            x = b.xstats()
            return x if x['rx_q0_packets'] >= COUNT * 0.9 else None
        xs = h.wait_for(b_settled, timeout=30, interval=0.5, what='hostb to receive 90 %')
        final, rc = a.stop(signal.SIGINT)
        h.check_eq(rc, 0, 'hosta exit status after SIGINT')
        sent = int(final.group(5))
        h.check_eq(sent, COUNT, 'hosta final tx_packets')
        xs = b.xstats()
        got = xs['rx_q0_packets']
        h.info('txonly -> rxonly: sent %d, received %d (tx_port_packets %s, rx_port_packets %s)' %
               (sent, got, xs.get('tx_port_packets'), xs.get('rx_port_packets')))
        h.check(COUNT * 0.9 <= got <= COUNT, 'hostb received %d of %d' % (got, COUNT))
        h.check(xs['rx_q0_errors'] == 0 and xs['rx_q0_nombuf'] == 0, 'hostb rx errors: %r' % xs)
        out = b.cmd('show port stats all', 'TX-bytes:')
        h.check('RX-packets: %d ' % got in out, 'show port stats: %s' % out)
        out = b.cmd('show ib port', 'P_Keys:')
        for want in ('State: ACTIVE', 'LID: %d\n' % b.lid, 'SM LID: %d\n' % sm_lid,
                     'GID[0]: fe80:0000:0000:0000:', '[0]0xffff'):
            h.check(want in out, 'show ib port lacks %r:\n%s' % (want, out))
        out = b.cmd('show port info 7', 'not a port of this app')
        out = b.cmd('stop', 'Final statistics after')
        b.cmd('quit', 'Bye')
        h.wait_for(lambda: not b.p.alive(), timeout=30, what='hostb to exit')
        h.check_eq(b.p.popen.returncode, 0, 'hostb exit status after quit')

        # 2. txonly (interactive: its destination set at the prompt) -> addrswap
        # replying to A's rx QPN (net_mthca's tx and rx queues are separate QPs)
        a = Fwd(h, exe, plugin, env, 'hosta', HOSTS[0][1],
                ['--forward-mode=txonly', '--txonly-count=%d' % COUNT,
                 '--txonly-pps=%d' % PPS], lc_a, interactive=True)
        b = Fwd(h, exe, plugin, env, 'hostb', HOSTS[1][1],
                ['--forward-mode=addrswap', '--reply-qpn=0x%x' % a.qpn, '--stats-period=1'],
                lc_b)
        out = a.cmd('start', 'ipoib-fwd>')
        h.check('needs --txonly-dest' in out or 'give --txonly-dest' in out,
                'txonly started without a destination: %s' % out)
        a.cmd('set txonly-dest %d:0x%x' % (b.lid, b.qpn), 'txonly-dest: LID %d' % b.lid)
        a.cmd('start', 'Forwarding started')

        def returned():
            out = a.cmd('show port stats 0', 'TX-bytes:')
            m = re.search(r'RX-packets: (\d+) .*\n.*\n\s*TX-packets: (\d+) ', out)
            return m and int(m.group(2)) == COUNT and int(m.group(1)) >= COUNT * 0.9
        h.wait_for(returned, timeout=60, interval=0.5,
                   what='hosta to count 90 %% of %d returns' % COUNT)
        h.wait_for(lambda: b.lines(), timeout=10, what='a statistics line from hostb')
        fb, rc = b.stop(signal.SIGTERM)
        h.check_eq(rc, 0, 'hostb (addrswap) exit status after SIGTERM')
        # SIGINT at the prompt while forwarding: stop, final statistics, exit 0
        fa, rc = a.stop(signal.SIGINT)
        h.check_eq(rc, 0, 'hosta (interactive) exit status after SIGINT')
        h.check(len(b.lines()) >= 2, 'hostb (addrswap) printed no periodic statistics')
        b_rx, b_tx, a_rx = int(fb.group(2)), int(fb.group(5)), int(fa.group(2))
        h.info('txonly -> addrswap: A sent %s, B received %d, returned %d (drops: %s), '
               'A received %d' % (fa.group(5), b_rx, b_tx, fb.group(9).strip(), a_rx))
        h.check_eq(int(fa.group(5)), COUNT, 'hosta tx_packets')
        h.check(COUNT * 0.9 <= b_rx <= COUNT, 'hostb received %d of %d' % (b_rx, COUNT))
        # every datagram B did not return is a counted drop (the first: no AH yet)
        why = dict((k, int(v)) for k, v in re.findall(r'(\w+)=(\d+)', fb.group(9)))
        h.check_eq(b_tx + why.get('app_no_ah', 0) + why.get('app_tx_full', 0), b_rx,
                   'hostb returned + dropped (%r)' % why)
        h.check(COUNT * 0.9 <= a_rx <= b_tx, 'hosta got back %d of %d' % (a_rx, b_tx))

        fab.stop_clean()


if __name__ == '__main__':
    main()
