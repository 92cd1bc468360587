#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-3-Clause
# Copyright(c) 2026 The dpdk-ipoib authors
"""IPoIB when the SM changes the P_Key at index 0 (issue 26, Faults): the
bed of ipoib_testpmd (ipoib_testbed.py) with OpenSM's partition file
giving every port 0x7fff and 0x8001, both full, with IPoIB broadcast
groups. OpenSM puts its Default partition (0x7fff) at index 0; the only
way its partition file moves another P_Key there is the `indx0` flag
(opensm(8), PARTITION CONFIGURATION: "this pkey should be inserted in
block 0 index 0"). The test rewrites the file with `P1=0x8001, indx0`
and sends OpenSM SIGHUP, the administrator's way: a heavy sweep, which
re-reads the partition file and reprograms the P_Key tables.

Asserted: `saquery -m` lists the parent's new broadcast group
ff12:401b:8001::ffff:ffff (the P_Key in bytes 4-5 of the MGID, RFC 4391
section 4) with both hosts as members and none left in ff12:401b:ffff::ffff:ffff;
net_ipoib0 on both hosts bounced
(two more LSC events, link up again); once the kernels' neighbour
caches are flushed (what a TAP carrier loss would do), ping works both
ways on the new P_Key.

usage: test_ipoib_fault_pkey0.py <ibfabric> <netfile> <sa_host>
       <librte_net_mthca.so> <librte_net_ipoib.so> <preload> <dpdk-ib-ns>
"""

import os
import signal
import sys

from harness import Harness
from ipoib_testbed import BCAST_MGID, Testbed, bcast_members, wait_ping

PARTS = ('Default=0x7fff, ipoib : ALL=full ;\n'
         'P1=0x8001%s, ipoib : ALL=full ;\n')


def main():
    with Harness('ipoib_fault_pkey0', timeout=190) as h:
        tb = Testbed(h, 'ipfp', sys.argv[1:8])
        tb.partitions(PARTS % '')
        tb.opensm()
        tb.eth_pair()
        old, new = BCAST_MGID % 0xffff, BCAST_MGID % 0x8001
        members = bcast_members(tb.saquery('-m'), old)
        h.check(len(members) >= 2, 'both hosts in %s first: %s' % (old, members))
        lsc0 = {t.name: t.lsc_events() for t in tb.hosts}

        tb.partitions(PARTS % ', indx0')
        # dpdk-ib-ns execs down to opensm: the group leader is OpenSM.
        os.kill(tb.osm.popen.pid, signal.SIGHUP)
        h.info('partitions.conf: 0x8001 with indx0; OpenSM got SIGHUP')
        got = []

        def rejoined():
            got[:] = bcast_members(tb.saquery('-m'), new)
            return len(got) >= 2
        h.wait_for(rejoined, timeout=40, interval=1,
                   what='both parents members of %s' % new)
        h.info('%s members: %s' % (new, got))
        for t in tb.hosts:
            h.wait_for(lambda t=t: t.lsc_events() >= lsc0[t.name] + 2 and t.is_up(),
                       timeout=30, interval=0.5,
                       what='%s: net_ipoib0 bounced (LSC down and up)' % t.name)
            h.info('%s: LSC events %d -> %d' % (t.name, lsc0[t.name], t.lsc_events()))
        left = bcast_members(tb.saquery('-m'), old)
        h.info('%s members now: %s' % (old, left))
        h.check(not left, 'the parents left %s: %s' % (old, left))
        # lib/ipoib flushed its neighbours with the P_Key (RFC 4391 addresses
        # are per partition); the kernels behind the TAPs did not see the
        # bounce (testpmd's io mode does not carry net_ipoib0's link state
        # to the TAP's carrier, whose loss makes Linux flush its neighbours,
        # neigh_carrier_down()), and their REACHABLE entries would last up
        # to 45 s: flushed here, as the carrier loss would.
        for t in tb.hosts:
            t.ip('neigh', 'flush', 'dev', t.tap)
        wait_ping(h, tb.hosts[0], ['10.0.0.3'], 'b -> c IPv4 on P_Key 0x8001')
        wait_ping(h, tb.hosts[1], ['10.0.0.2'], 'c -> b IPv4 on P_Key 0x8001')
        tb.close()


if __name__ == '__main__':
    main()
