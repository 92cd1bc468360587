#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-3-Clause
# Copyright(c) 2026 The dpdk-ipoib authors
"""IPoIB's economy towards the SA (issue 26): the bed of ipoib_testpmd
(ipoib_testbed.py), OpenSM logging at debug level (-D 0x0b: error,
info, debug), where its SA dumps each PathRecord it is asked for
("PathRecord dump:", osm_pr_rcv_process()).

1. After the first pings each host has asked once per destination: B
   and C each one PathRecord query (ctrl_path_queries of net_ipoib0's
   xstats), and OpenSM logged as many.
2. B opens 1,000 TCP connections to C (ipoib_tcp_tool.py, one after the
   other): no new query on either host, none in OpenSM's log.
3. OpenSM restarted (a new SM: client reregister on its first sweep):
   each host refreshes its one path once, with one query, and the new
   OpenSM logs exactly those queries.

usage: test_ipoib_sa_economy.py <ibfabric> <netfile> <sa_host>
       <librte_net_mthca.so> <librte_net_ipoib.so> <preload> <dpdk-ib-ns>
"""

import os
import sys
import time

from harness import Harness
from ipoib_testbed import Testbed, wait_ping

CONNS = 1000
TOOL = os.path.join(os.path.dirname(os.path.abspath(__file__)), 'ipoib_tcp_tool.py')


def pr_logged(osm):
    return osm.log().count('PathRecord dump:')


def queries(tb):
    return {t.name: t.xstats() for t in tb.hosts}


def main():
    with Harness('ipoib_sa_economy', timeout=190) as h:
        tb = Testbed(h, 'ipse', sys.argv[1:8], osm_extra=['-D', '0x0b'])
        tb.opensm()
        tb.eth_pair()
        x0 = queries(tb)
        for n, x in x0.items():
            h.info('%s: %d path queries, %d refreshes after the first pings' %
                   (n, x['ctrl_path_queries'], x['ctrl_path_refreshes']))
            h.check_eq(x['ctrl_path_queries'], 1, '%s: one query for its one destination' % n)
        logged0 = pr_logged(tb.osm)
        h.info('OpenSM logged %d PathRecord queries' % logged0)
        h.check_eq(logged0, sum(x['ctrl_path_queries'] for x in x0.values()),
                   'PathRecord queries in OpenSM\'s log against the hosts\' counters')

        srv = h.spawn([sys.executable, TOOL, 'serve', '5002', str(CONNS)], name='serve',
                      netns=tb.hosts[1].ns)
        h.wait_log(srv, 'listening', timeout=10)
        t0 = time.monotonic()
        r = h.run([sys.executable, TOOL, 'connect', '10.0.0.3', '5002', str(CONNS)],
                  netns=tb.hosts[0].ns, timeout=120)
        h.check('connected %d' % CONNS in r.stdout, 'client: ' + r.stdout + r.stderr)
        h.wait_log(srv, 'served %d' % CONNS, timeout=20)
        h.info('%d connections in %.1f s' % (CONNS, time.monotonic() - t0))
        x1 = queries(tb)
        for n in x1:
            h.check_eq(x1[n]['ctrl_path_queries'] - x0[n]['ctrl_path_queries'], 0,
                       '%s: new path queries over %d connections' % (n, CONNS))
        h.check_eq(pr_logged(tb.osm), logged0,
                   'PathRecord queries OpenSM logged over %d connections' % CONNS)

        # A new SM: the hosts refresh their paths, one query each.
        h.stop(tb.osm)
        osm = tb.opensm('opensm2')
        h.wait_for(lambda: all(x['ctrl_path_refreshes'] > x1[n]['ctrl_path_refreshes']
                               for n, x in queries(tb).items()),
                   timeout=30, interval=0.2, what='both hosts refresh their path')
        # Room for a second, wrong, refresh: the events that start one (SM
        # change, client reregister, LID change) come from the new SM's
        # PortInfo Sets, in its first sweeps; OpenSM sweeps every second
        # here (-s 1), so the window spans two sweeps, the ping included.
        window = time.monotonic() + 2
        wait_ping(h, tb.hosts[0], ['10.0.0.3'], 'b -> c IPv4 after the new SM')
        time.sleep(max(0, window - time.monotonic()))
        x2 = queries(tb)
        for n in x2:
            dq = x2[n]['ctrl_path_queries'] - x1[n]['ctrl_path_queries']
            dr = x2[n]['ctrl_path_refreshes'] - x1[n]['ctrl_path_refreshes']
            h.info('%s: after the SM change %d queries, %d refreshes' % (n, dq, dr))
            h.check_eq((dq, dr), (1, 1), '%s: (queries, refreshes) for its one path' % n)
        h.check_eq(pr_logged(osm), 2, 'PathRecord queries the new OpenSM logged')
        tb.close()


if __name__ == '__main__':
    main()
