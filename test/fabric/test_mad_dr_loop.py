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
- B, on umad1 too (another client: another open file), once C has
  printed the TID, sends GetResp answers with that TID and "FAKE", as a
  responder at the end of a route sends them (HopPointer HopCount + 1,
  D bit), on routes that differ in the last entry only: InitialPath
  [1, 4] and [1, 6] (the switch ports beside 5) and [1, 2] (port 1's
  own), each steered back to port 1 by ReturnPath [2, 2] (entry 2: the
  port B's SMP leaves by, C14-13:1; entry 1: the switch's way out); then
  on A's own route [1, 5], steered back to port 1 by ReturnPath [2, 2]
  (the answer A would take) and into port 2 by [5, 2].

A reads exactly one answer, C's ("REAL", its TID, HopCount 2,
InitialPath [1, 5]); the MAD core dropped the three of another route
(debug log: "not the directed route the request went to", rx_bad_route)
and refused both of A's route: the request came back into the host and
was handed to C, so only C may answer it there (mad_send.c, "Answers
from this host"; log "a request it did not get: refused"). On FUSE
(DPDK_IB_UMAD_CHANNEL=0, mad_dr_loop_fuse) B's write() fails with EPERM;
on the channel, which reports only the failures of requests, each
refusal is counted in chan_bad_writes.

usage: test_mad_dr_loop.py <ibfabric> <netfile> <sa_host> <preload> <dpdk-ib-ns>
"""

import os
import re

from simlib import Harness
from umad_host import UmadHost

OTHER_ROUTES = ('1,4/2,2', '1,6/2,2', '1,2/2,2')
# A's route: back to port 1 (what A would take), and into port 2.
THE_ROUTE = ('1,5/2,2', '1,5/5,2')


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
        h.wait_log(server, 'REQUEST tid=', timeout=10)
        m = re.search(r'REQUEST tid=(0x[0-9a-f]+) hop=(\d+)/(\d+) path=(\S*)', server.log())
        tid = m.group(1)
        h.info("A's request, as C got it on port 2: %s" % m.group(0))
        h.check_eq(m.groups()[1:], ('3', '2', '1,5'),
                   "HopPointer/HopCount/InitialPath of A's request at C")

        mark = len(u.host.log())
        channel = os.environ.get('DPDK_IB_UMAD_CHANNEL', '1') != '0'
        bad0 = u.stats().get('chan_bad_writes', 0)
        forger = u.spawn_client('forger-B', 'dr-forge', tid,
                                *(OTHER_ROUTES + THE_ROUTE), umad='umad1')
        h.wait_log(forger, 'DONE', timeout=30)
        h.info('B: %s' % forger.log().strip().replace('\n', ' | '))
        for spec in OTHER_ROUTES:
            h.check('FORGE %s sent' % spec in forger.log(),
                    'B sent its answer on %s: %r' % (spec, forger.log()))
        # Refused: EPERM from write() on FUSE; on the channel a refused
        # response, which waits for nothing, is a bad write.
        for spec in THE_ROUTE:
            want = 'FORGE %s %s' % (spec, 'sent' if channel else 'refused EPERM')
            h.check(want in forger.log(), 'B told %r: %r' % (want, forger.log()))
        if channel:
            u.stats_are({'chan_bad_writes': bad0 + len(THE_ROUTE)},
                        "B's answers on A's route refused on the channel")
        tid_hex = '0x%016x' % int(tid, 16)

        def dropped():
            log = u.host.log()[mark:].splitlines()
            route = [ln for ln in log if tid_hex in ln and
                     'not the directed route the request went to' in ln]
            refused = [ln for ln in log if tid_hex in ln and
                       'a request it did not get: refused' in ln]
            if len(route) < len(OTHER_ROUTES) or len(refused) < len(THE_ROUTE):
                return None
            return route, refused
        route, refused = h.wait_for(dropped, timeout=10,
                                    what="the host dropping and refusing B's answers")
        h.check_eq(len(route), len(OTHER_ROUTES), 'answers dropped for their route')
        h.check_eq(len(refused), len(THE_ROUTE), "answers on A's route refused")
        h.check(all('port 2: agent' in ln for ln in refused),
                'refused on port 2, where B writes: %r' % refused)
        h.check('matches no send' not in u.host.log()[mark:],
                'an answer of B left the host on port 2')
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
