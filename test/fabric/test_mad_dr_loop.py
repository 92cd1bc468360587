#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-3-Clause
# Copyright(c) 2026 The dpdk-ipoib authors
"""A directed-route answer is matched by its route (issue 29,
doc/guides/prog_guide/ibmad_lib.rst "Trust"), here on a route that
leaves a DPDK host and comes back into it: test/data/loop.net has both
ports of hosta on one switch (port 1 on switch port 2, port 2 on switch
port 5). Raw clients (umad_client.py), separate processes, next to
OpenSM:

- C, on umad1 (port 2), takes directed-route Get of the vendor SMP
  attribute 0xff10 (no SMA answers it) and answers once told;
- A, on umad0 (port 1), sends that Get along InitialPath [1, 5] (IBA
  14.2.2: entry 1 is the port it leaves by, C14-9:1): out of port 1, out
  of switch port 5, into port 2, where C gets it with HopPointer 3 of
  HopCount 2 (the end of the directed part);
- B, on umad1 too, once C has printed the TID, sends GetResp answers
  with that TID and "FAKE", as a responder at the end of a route sends
  them (HopPointer HopCount + 1, D bit), on routes that differ in the
  last entry only: InitialPath [1, 4] and [1, 6] (the switch ports
  beside 5) and [1, 2] (port 1's own), each steered back to port 1 by
  ReturnPath [2, 2] (entry 2: the port B's SMP leaves by, C14-13:1;
  entry 1: the switch's way out); and A's own route [1, 5] steered back
  into port 2 by ReturnPath [5, 2], the wrong port.

A reads exactly one answer, C's ("REAL", its TID, HopCount 2,
InitialPath [1, 5]); the MAD core dropped the three of another route
(debug log: "not the directed route the request went to", rx_bad_route)
and the one on port 2 ("matches no send": no agent of that TID there).

usage: test_mad_dr_loop.py <ibfabric> <netfile> <sa_host> <preload> <dpdk-ib-ns>
"""

import re

from simlib import Harness
from umad_host import UmadHost

OTHER_ROUTES = ('1,4/2,2', '1,6/2,2', '1,2/2,2')
WRONG_PORT = '1,5/5,2'


def main():
    with Harness('mad_dr_loop', timeout=180) as h:
        for prog in ('opensm', 'unshare'):
            h.need_program(prog)
        u = UmadHost(h, 'mdl', ['--log-level=lib.ibmad:debug'])
        osm = u.opensm()
        server = u.spawn_client('server-C', 'dr-serve', 'stdin', umad='umad1',
                                stdin=True)
        h.wait_log(server, 'SERVING', timeout=20)
        asker = u.spawn_client('asker-A', 'dr-ask', '1,5', '10000')
        h.wait_log(asker, 'ASKED', timeout=20)
        h.wait_for(lambda: 'REQUEST tid=' in server.log(), timeout=10,
                   what="C got A's request on port 2")
        m = re.search(r'REQUEST tid=(0x[0-9a-f]+) hop=(\d+)/(\d+) path=(\S*)', server.log())
        tid = m.group(1)
        h.info("A's request, as C got it on port 2: %s" % m.group(0))
        h.check_eq(m.groups()[1:], ('3', '2', '1,5'),
                   "HopPointer/HopCount/InitialPath of A's request at C")

        mark = len(u.host.log())
        forger = u.spawn_client('forger-B', 'dr-forge', tid,
                                *(OTHER_ROUTES + (WRONG_PORT,)), umad='umad1')
        h.wait_log(forger, 'DONE', timeout=30)
        h.info('B: %s' % forger.log().strip().replace('\n', ' | '))
        for spec in OTHER_ROUTES + (WRONG_PORT,):
            h.check('FORGE %s sent' % spec in forger.log(),
                    'B sent its answer on %s: %r' % (spec, forger.log()))
        tid_hex = '0x%016x' % int(tid, 16)

        def dropped():
            log = u.host.log()[mark:]
            route = [ln for ln in log.splitlines() if tid_hex in ln and
                     'not the directed route the request went to' in ln]
            port2 = [ln for ln in log.splitlines() if tid_hex in ln and
                     'port 2: response TID' in ln and 'matches no send' in ln]
            return (route, port2) if len(route) >= len(OTHER_ROUTES) and port2 else None
        route, port2 = h.wait_for(dropped, timeout=10,
                                  what="the host dropping B's answers")
        h.check_eq(len(route), len(OTHER_ROUTES), 'answers dropped for their route')
        h.check_eq(len(port2), 1, 'answers dropped on port 2')
        h.check('GOT' not in asker.log(), "A took B's answer: %r" % asker.log())

        server.write('GO\n')
        h.wait_log(server, 'ANSWERED', timeout=10)
        h.wait_log(asker, 'DONE', timeout=30)
        h.info('A: %s' % asker.log().strip().replace('\n', ' | '))
        got = re.findall(r'GOT status=(\d+) tid=(0x[0-9a-f]+) hop=\d+/(\d+) path=(\S*) '
                         r'data=(.{4})', asker.log())
        h.check_eq(got, [('0', tid_hex, '2', '1,5', 'REAL')],
                   "A's one answer: C's, by its route")
        h.stop(server)
        u.quit(osm)


if __name__ == '__main__':
    main()
