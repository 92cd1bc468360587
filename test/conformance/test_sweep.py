#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-3-Clause
# Copyright(c) 2026 The dpdk-ipoib authors
"""OpenSM reaches SUBNET UP on an ibfabric fabric; afterwards every cabled
port is ACTIVE and every LID is unique (issue 3, "Show" item 1).

usage: test_sweep.py <ibfabric> <netfile | gen:fattree:<hosts>>

The LIDs are read twice: from ibfabric's "show ports" and, through
libumad2sim, with smpquery portinfo against each LID OpenSM assigned,
which must name the same port GUID's node back (NodeInfo over the wire).
"""

import os
import sys

from simlib import Fabric, Harness, find_umad2sim, first_ca, start_opensm


def main():
    ibfabric, spec = os.path.abspath(sys.argv[1]), sys.argv[2]
    name = 'sweep-' + os.path.basename(spec).replace(':', '-')
    with Harness(name, timeout=170) as h:
        lib = find_umad2sim(h)
        if spec.startswith('gen:'):
            _, shape, hosts = spec.split(':')
            netfile = h.path('gen.net')
            h.run([ibfabric, 'gen', shape, '--hosts', hosts, '-o', netfile])
        else:
            netfile = h.need_file(spec)
        fab = Fabric(h, ibfabric, netfile)
        nodes = fab.nodes()
        h.check(len(nodes) > 0, 'show nodes listed nothing')
        sm_host = first_ca(nodes)
        h.check(sm_host is not None, 'no CA in %s' % netfile)
        osm, secs = start_opensm(h, fab, lib, sm_host, timeout=120)
        h.info('SUBNET UP after %.2f s on %d nodes' % (secs, len(nodes)))

        lids = {}
        for n, p in fab.all_ports():
            cabled = 'peer' in p
            mgmt = n['type'] == 'switch' and p['num'] == '0'
            if not (cabled or mgmt):
                continue
            h.check(p['state'] == 'ACTIVE', '%s port %s: state %s after SUBNET UP' %
                    (n['name'], p['num'], p['state']))
            # LIDs belong to CA ports and switch port 0 (IBA 14.2.5.6: a switch
            # port's LID is its port 0 LID).
            if n['type'] == 'ca' or mgmt:
                lid = int(p['lid'])
                h.check(lid != 0, '%s port %s: LID 0' % (n['name'], p['num']))
                h.check(lid not in lids, 'LID %d on %s and %s' % (lid, lids.get(lid), n['name']))
                lids[lid] = '%s/%s' % (n['name'], p['num'])

        # Cross-check over the wire: a sample for big fabrics, all for small.
        env = fab.env(lib, sm_host)
        sample = sorted(lids.items())
        if len(sample) > 24:
            sample = sample[::max(1, len(sample) // 24)]
        for lid, where in sample:
            r = h.run(['smpquery', 'nodedesc', str(lid)], env=env, timeout=30)
            node = where.split('/')[0]
            desc = [n['desc'] for n in nodes if n['name'] == node][0]
            h.check(desc in r.stdout, 'smpquery nodedesc %d: %r, expected %r (%s)' %
                    (lid, r.stdout.strip(), desc, where))
        h.info('%d LIDs unique, %d checked with smpquery' % (len(lids), len(sample)))


if __name__ == '__main__':
    main()
