#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-3-Clause
# Copyright(c) 2026 The dpdk-ipoib authors
"""IPoIB when the SM moves (issue 26, Faults): the bed of ipoib_testpmd
(ipoib_testbed.py), librte_ibumad loaded into B's testpmd so that B
serves the user-MAD service. OpenSM on A is SIGKILLed and a new OpenSM
started on B itself, through B's service. Nothing else restarts.

Asserted within 30 s of the new OpenSM's SUBNET UP: ping b -> c and
c -> b answer again; `saquery -m` (on B) lists the IPv4 broadcast group
ff12:401b:ffff::ffff:ffff with both hosts' port GIDs as full members;
net_ipoib0's xstats on both hosts show the paths refreshed in place
(ctrl_path_refreshes grew, one query per refresh). The re-join is
lib/ibmad's join manager's (it re-joins on client reregister and SM
change by itself): the new OpenSM has no state from the old one, so
both hosts in its group is the proof. The testpmd processes are the ones
started at the beginning and quit with status 0.

usage: test_ipoib_fault_sm.py <ibfabric> <netfile> <sa_host>
       <librte_net_mthca.so> <librte_net_ipoib.so> <preload> <dpdk-ib-ns>
       <librte_ibumad.so>
"""

import os
import signal
import sys
import time

from harness import Harness
from ipoib_testbed import BCAST_MGID, Testbed, bcast_members, wait_ping

RECOVERY_S = 30


def main():
    with Harness('ipoib_fault_sm', timeout=190) as h:
        h.need_program('nsenter')
        tb = Testbed(h, 'ipfs', sys.argv[1:8])
        tb.opensm()
        # B also serves the user-MAD service (librte_ibumad preloaded)
        b, c = tb.eth_pair(env_b=tb.umad_env(os.path.abspath(sys.argv[8]), 'b'))
        pids = [t.p.popen.pid for t in tb.hosts]
        before = {t.name: t.xstats() for t in tb.hosts}
        h.info('before: %s' % {n: {k: v for k, v in x.items() if k.startswith('ctrl_')}
                               for n, x in before.items()})

        h.stop(tb.osm, sig=signal.SIGKILL)
        h.info('OpenSM on A killed')
        osm = tb.opensm('opensm_b', on=b)
        t0 = time.monotonic()
        h.info('OpenSM on B: SUBNET UP')
        mgid = BCAST_MGID % 0xffff
        members = []

        def joined():
            members[:] = bcast_members(tb.saquery('-m', on=b), mgid)
            return len(members) >= 2
        h.wait_for(joined, timeout=RECOVERY_S, interval=1,
                   what='both hosts full members of %s again' % mgid)
        h.info('%s members: %s' % (mgid, members))
        wait_ping(h, b, ['10.0.0.3'], 'b -> c IPv4 after the SM move')
        wait_ping(h, c, ['10.0.0.2'], 'c -> b IPv4 after the SM move')
        took = time.monotonic() - t0
        h.info('recovered %.1f s after the new SUBNET UP' % took)
        h.check(took <= RECOVERY_S, 'recovery within %d s: %.1f s' % (RECOVERY_S, took))

        for t in tb.hosts:
            x0, x1 = before[t.name], t.xstats()
            d = {k: x1[k] - x0[k] for k in x1 if k.startswith('ctrl_')}
            h.info('%s: counters grew by %s' % (t.name, d))
            h.check(d['ctrl_path_refreshes'] >= 1,
                    '%s: paths refreshed in place: %s' % (t.name, d))
            h.check(d['ctrl_path_queries'] == d['ctrl_path_refreshes'],
                    '%s: one query per refreshed path, no new path (no flush): %s' %
                    (t.name, d))
        h.check_eq([t.p.popen.pid for t in tb.hosts], pids, 'testpmd pids (no restart)')
        tb.close()


if __name__ == '__main__':
    main()
