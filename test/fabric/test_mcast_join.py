#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-3-Clause
# Copyright(c) 2026 The dpdk-ipoib authors
"""The multicast join manager of librte_ibmad (rte_ibmad_mcast.h, issue
28) against the real OpenSM's SA, checked with saquery from the same
DPDK host (through the user-MAD service and usertools/dpdk-ib-ns):

1. two members of one new group join as FullMember through the manager:
   one SA join for both (the manager's counters), the group in
   saquery -g, this port a member with JoinState FullMember (saquery -m);
2. OpenSM is stopped and started again: its first sweep sets
   ClientReregister in the host's PortInfo (IBA 14.4.11) and the new SA
   knows no group; the manager joins the group again by itself, and each
   member is called back with success exactly once; the group is back
   in saquery -g with this port FullMember;
3. the first member leaves: nothing is sent, the group stays in
   saquery -g with this port FullMember; the second leaves: the SA leave
   goes out and the group is gone.

OpenSM runs on a first DPDK host (sa_host idle, hosta) through the
user-MAD service; the manager runs in a second sa_host, on hostb.

usage: test_mcast_join.py <ibfabric> <netfile> <sa_host> <preload> <dpdk-ib-ns>
"""

import os
import re
import sys
import time

from simlib import Harness
from test_sa_client import SaSetup, answer, kv     # hosts, sa_host's protocol

MGID = 'ff12:601b:ffff::1:ff00:b0b0'
QKEY = 0x0b1b


def member_state(text, mgid, gid):
    """JoinState of port @gid in group @mgid from saquery -m's records
    (ScopeState: scope in bits 7:4, JoinState in 3:0), or None."""
    for block in re.split(r'\n(?=\S)', text):
        m = re.search(r'MGID\.+(\S+)', block)
        p = re.search(r'PortGid\.+(\S+)', block)
        s = re.search(r'(?:ScopeState|JoinState)\.+(0x[0-9A-Fa-f]+|\S+)', block)
        if m is None or p is None or s is None:
            continue
        if m.group(1).lower() == mgid and p.group(1).lower() == gid:
            v = s.group(1)
            return int(v, 16) & 0xf if v.startswith('0x') else v
    return None


def main():
    ibfabric, netfile, sa_host, preload, ns = (os.path.abspath(a) for a in sys.argv[1:6])
    with Harness('mcast_join', timeout=280) as h:
        sa = SaSetup(h, ibfabric, netfile, sa_host, preload, ns, 'mcj')
        host, osm, saquery = sa.host, sa.osm, sa.saquery
        gid = sa.ready['gid'].lower()

        def stats():
            return {k: int(v) for k, v in kv(answer(h, host, 'MSTATS')[-1]).items()}

        def state():
            out = saquery(['--smkey', '1', '-m'])
            got = member_state(out, MGID, gid)
            if got is None:
                h.info('saquery -m: %s' % out[-1500:])
            return got

        # 1. two members, one SA join
        a = kv(answer(h, host, 'MJOIN %s %x 1' % (MGID, QKEY))[-1])
        b = kv(answer(h, host, 'MJOIN %s %x 1' % (MGID, QKEY))[-1])
        mlid = int(a['mlid'], 16)
        h.check(mlid >= 0xc000, 'a multicast LID: 0x%x' % mlid)
        h.check_eq(int(b['mlid'], 16), mlid, 'both members have the MLID')
        s = stats()
        h.check_eq(s['sa_joins'], 1, 'one SA join for two members')
        h.check_eq(s['members'], 2, 'two members')
        h.check(MGID in saquery(['-g']), 'the group in saquery -g')
        h.check_eq(state(), 1, 'this port FullMember of the group (saquery -m)')
        h.info('two members, one SA join, MLID 0x%x' % mlid)

        # 2. a new SM: ClientReregister, the manager re-joins by itself
        mark = len(host.log().splitlines())
        h.stop(osm)
        osm = sa.opensm('opensm2')

        def seen(pattern):
            return [ln for ln in host.log().splitlines()[mark:] if re.search(pattern, ln)]
        h.wait_for(lambda: seen(r'^EVENT CLIENT_REREGISTER port=1 '), timeout=30,
                   what='the CLIENT_REREGISTER event')
        ok = r'^MCAST member=%s status=0 '
        h.wait_for(lambda: seen(ok % a['member']) and seen(ok % b['member']), timeout=40,
                   what='both members re-joined: %s' % host.log().splitlines()[mark:])
        h.wait_for(lambda: MGID in saquery(['-g']), timeout=10, interval=0.5,
                   what='the group back at the new SA')
        h.check_eq(state(), 1, 'this port FullMember again')
        time.sleep(2)   # a late duplicate would come within the SA time-out
        for m in (a, b):
            h.check_eq(len(seen(ok % m['member'])), 1,
                       'member %s re-joined exactly once' % m['member'])
        s2 = stats()
        h.info('after the new SM: %s; callbacks: %s' % (s2, seen(r'^MCAST ')))
        h.check_eq(s2['sa_joins'] - s['sa_joins'], s2['rejoins'] - s['rejoins'],
                   'every SA join since was a re-join')
        h.check(s2['events'] > s['events'], 'the event reached the manager')

        # 3. the first leave keeps the group, the second removes it
        answer(h, host, 'MLEAVE %s' % a['member'])
        h.check_eq(stats()['sa_leaves'], 0, 'no SA leave for the first member')
        h.check(MGID in saquery(['-g']), 'the group stays after the first leave')
        h.check_eq(state(), 1, 'still FullMember after the first leave')
        answer(h, host, 'MLEAVE %s' % b['member'])
        h.wait_for(lambda: MGID not in saquery(['-g']), timeout=10, interval=0.5,
                   what='%s gone after the second leave' % MGID)
        s3 = stats()
        h.check_eq(s3['sa_leaves'], 1, 'one SA leave')
        h.check_eq(s3['groups'], 0, 'the manager holds no group')
        h.info('leaves: the group stayed after the first, gone after the second')
        answer(h, host, 'QUIT')
        h.wait_for(lambda: not host.alive(), timeout=30, what='sa_host exits')
        h.stop(osm)
        sa.sm_host.write('QUIT\n')
        h.wait_for(lambda: not sa.sm_host.alive(), timeout=30, what='sm_host exits')


if __name__ == '__main__':
    main()
