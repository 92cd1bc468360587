#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-3-Clause
# Copyright(c) 2026 The dpdk-ipoib authors
"""One command interpreter behind the net file's "do" lines, --script,
the console on stdin and the control socket (issue 3, "Control"):
link down/up, drop and corruption faults, capture start/stop, quit.

usage: test_console.py <ibfabric> <netfile>

The faults are checked from the outside with libumad2sim clients: a MAD
lost to a fault is reported to its sender at once (status 110), so
smpquery fails fast while the fault is on and answers once it is off.
"""

import os
import sys
import time

from simlib import Fabric, Harness, find_umad2sim, first_ca, parse_record, start_opensm


def port(fab, node, num):
    return [p for p in fab.ports(node) if p['num'] == str(num)][0]


def main():
    ibfabric, netfile = os.path.abspath(sys.argv[1]), sys.argv[2]
    with Harness('console', timeout=150) as h:
        lib = find_umad2sim(h)
        h.need_file(netfile)
        with open(netfile) as f:
            text = f.read()
        # A copy of the net file whose last line pulls a cable ("do" line).
        net = h.write_file('do.net', text + '\ndo link down "Hca4" 1\n')
        script = h.write_file('start.cmds', '# comment\nshow stats\ncapture start "Hca1" 1 %s\n' %
                              h.path('hca1.pcap'))
        fab = Fabric(h, ibfabric, net, extra=['--script', script])
        cas = [n['name'] for n in fab.nodes() if n['type'] == 'ca']
        h.check('Hca4' in cas, 'net file has no Hca4')
        h.check_eq(port(fab, 'Hca4', 1)['admin'], 'down', '"do link down" applied')
        h.check(port(fab, 'Hca4', 1)['phys'] != 'LINKUP', 'Hca4 port 1 still LinkUp')
        h.check(os.path.exists(h.path('hca1.pcap')), '--script capture not started')

        host = first_ca(fab.nodes())
        start_opensm(h, fab, lib, host, sweep=1)
        env = fab.env(lib, host)

        # link up from the control socket: OpenSM's sweep brings it to ACTIVE.
        fab.ctl.cmd('link up "Hca4" 1')
        h.wait_for(lambda: port(fab, 'Hca4', 1)['state'] == 'ACTIVE', timeout=30,
                   what='Hca4 port 1 ACTIVE after link up')
        lid4 = int(port(fab, 'Hca4', 1)['lid'])
        h.run(['smpquery', 'nodedesc', str(lid4)], env=env)

        # Faults on the cable into Hca4 (the switch side transmits to it).
        p4 = port(fab, 'Hca4', 1)
        sw, swp = p4['peer'], p4['peer_port']
        for fault in ('drop=1000000 corrupt=0', 'drop=0 corrupt=1000000'):
            fab.ctl.cmd('fault "%s" %s %s' % (sw, swp, fault))
            t0 = time.monotonic()
            r = h.run(['smpquery', 'nodedesc', str(lid4)], env=env, check=False)
            secs = time.monotonic() - t0
            # a refusal, not a crash: libibmad's own error, exit status > 0
            h.check(r.returncode > 0 and 'failed' in r.stderr,
                    'smpquery through %s: rc %d, stderr %r' % (fault, r.returncode, r.stderr))
            h.check(secs < 2.5, '%s: failure took %.2f s, not reported at once (3 x 1 s '
                    'without the echo)' % (fault, secs))
            fab.ctl.cmd('fault "%s" %s drop=0 corrupt=0' % (sw, swp))
            r = h.run(['smpquery', 'nodedesc', str(lid4)], env=env)
        # Corrupted packets arrive with bad CRCs: PortRcvErrors (IBA 16.1.3.5).
        c = parse_record(fab.ctl.cmd('show counters "Hca4" 1')[0])[1]
        h.check(int(c['rcv_errors']) > 0, 'Hca4 port 1 rcv_errors after corruption: %s' % c)

        fab.ctl.cmd('capture stop "Hca1" 1')
        h.check(os.path.getsize(h.path('hca1.pcap')) > 24, 'port capture is empty')

        # The console on stdin: same commands, output on stdout; quit exits 0.
        con = h.spawn([ibfabric, '--sock-name', fab.sock + 'c', netfile], name='console',
                      stdin=True)
        con.write('show nodes\nbogus command\nshow ports "Hca1"\n')
        h.wait_for(lambda: 'port node="Hca1" num=1' in con.log(), timeout=10,
                   what='console output')
        h.check('error: "bogus": unknown command' in con.log(), 'console error line')
        h.check(con.log().count('node name=') == len(fab.nodes()), 'console show nodes')
        con.write('quit\n')
        h.check_eq(con.popen.wait(timeout=10), 0, 'exit code after quit')

        # quit on the control socket ends ibfabric too.
        fab.ctl.cmd('quit')
        h.check_eq(fab.proc.popen.wait(timeout=10), 0, 'exit code after control-socket quit')
        h.check(not os.path.exists(fab.ctl_path), 'control socket left behind')


if __name__ == '__main__':
    main()
