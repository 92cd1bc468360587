#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-3-Clause
# Copyright(c) 2026 The dpdk-ipoib authors
"""Clients of the user-MAD service that die (issue 14,
doc/guides/prog_guide/ibumad_lib.rst "Clients that die"): OpenSM on a
DPDK host (sa_host idle on hosta, through usertools/dpdk-ib-ns) and,
next to it:

1. a raw umad client (umad_client.py hold) with three agents and a send
   outstanding is SIGKILLed mid-transaction: the service's counters
   (<run dir>/stats) go back to what OpenSM alone holds, and a class the
   dead client held (vendor 0x09, method Get), refused to a second
   client while the first lived, is registered by a new one;
2. OpenSM itself is SIGKILLed: no file, agent or issm is left, IsSM
   leaves the port's CapabilityMask, and a new OpenSM registers the SM
   classes again (as many agents as the first) and brings the subnet up.

usage: test_umad_clients.py <ibfabric> <netfile> <sa_host> <preload> <dpdk-ib-ns>
"""

import os
import time

from simlib import Harness
from umad_host import UmadHost


def main():
    with Harness('umad_clients', timeout=240) as h:
        for prog in ('opensm', 'sminfo', 'unshare'):
            h.need_program(prog)
        u = UmadHost(h, 'ucl')
        osm = u.opensm()
        h.wait_for(lambda: u.stats().get('issm') == 1, timeout=10,
                   what='stats: OpenSM holds issm0')
        time.sleep(1.2)        # one more refresh: OpenSM's agents all counted
        base = u.stats()
        h.info('OpenSM alone: %r' % base)
        h.check(base['files'] >= 1 and base['agents'] >= 2,
                'OpenSM holds a umad file and its agents: %r' % base)
        # The channel (ibumad_lib.rst) unless DPDK_IB_UMAD_CHANNEL=0.
        chan = os.environ.get('DPDK_IB_UMAD_CHANNEL', '1') != '0'
        h.check_eq(base.get('channels'), base['files'] if chan else 0,
                   "OpenSM's files on a channel")

        # 1. a client killed mid-transaction
        holder = u.spawn_client('holder', 'hold', '0x77')
        h.wait_log(holder, 'HOLDING', timeout=20)
        u.stats_are({'files': base['files'] + 1, 'agents': base['agents'] + 3,
                     'channels': base['channels'] + (1 if chan else 0)},
                    'the holder open with 3 agents')
        r = u.client('register', '0x09')
        h.check('REFUSED' in r.stdout, 'vendor class 0x09 Get taken twice: %r' % r.stdout)
        h.info('second registration while the holder lives: %s' % r.stdout.strip())
        h.stop(holder, sig=9)
        u.stats_are({'files': base['files'], 'agents': base['agents'],
                     'channels': base['channels']}, 'the SIGKILLed holder released')
        r = u.client('register', '0x09')
        h.check('REGISTERED' in r.stdout, 'class 0x09 after the holder died: %r' % r.stdout)
        u.stats_are({'files': base['files'], 'agents': base['agents']},
                    'the registering client exited')

        # 2. OpenSM killed: its SM-class agents and issm go, a new one comes up
        h.stop(osm, sig=9)
        u.stats_are({'files': 0, 'agents': 0, 'issm': 0}, 'OpenSM SIGKILLed')

        def sm_bit():
            return int(u.port('hosta')['cap_mask'], 16) & 0x2
        h.wait_for(lambda: not sm_bit(), timeout=10, what='IsSM cleared after the kill')
        osm = u.opensm()
        h.check(sm_bit(), 'IsSM set again by the new OpenSM')
        u.stats_are({'files': base['files'], 'agents': base['agents'], 'issm': 1},
                    'the new OpenSM registered its agents again')
        r = u.tool(['sminfo'])
        h.check('sm lid %s' % u.port('hosta')['lid'] in r.stdout and
                'SMINFO_MASTER' in r.stdout, 'sminfo after the restart: %r' % r.stdout)
        u.quit(osm)


if __name__ == '__main__':
    main()
