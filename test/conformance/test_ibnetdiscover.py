#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-3-Clause
# Copyright(c) 2026 The dpdk-ipoib authors
"""ibnetdiscover finds the same fabric on ibfabric as on the real ibsim
for the same net file (issue 3, "Show" item 2).

usage: test_ibnetdiscover.py <ibfabric> <netfile>

Both simulators run at once under their own IBSIM_SOCKNAME, each with an
OpenSM attached to the same CA. The outputs are parsed, not diffed:
nodes compare as (type, NodeDescription, number of ports) and links as
(desc, port) -> (desc, port); GUIDs differ by design (ibfabric derives
them from node names, ibsim counts them up).
"""

import os
import sys

from simlib import (Fabric, Harness, IbSim, find_umad2sim, first_ca,
                    parse_ibnetdiscover, start_opensm)


def main():
    ibfabric, netfile = os.path.abspath(sys.argv[1]), sys.argv[2]
    with Harness('ibnetdiscover', timeout=150) as h:
        lib = find_umad2sim(h)
        h.need_file(netfile)
        h.need_program('ibsim')
        h.need_program('ibnetdiscover')
        fab = Fabric(h, ibfabric, netfile)
        host = first_ca(fab.nodes())
        sim = IbSim(h, netfile)
        start_opensm(h, fab, lib, host, name='opensm-ibfabric')
        start_opensm(h, sim, lib, host, name='opensm-ibsim')

        got = {}
        for what, s in (('ibfabric', fab), ('ibsim', sim)):
            r = h.run(['ibnetdiscover'], env=s.env(lib, host), timeout=60)
            h.write_file('ibnetdiscover-%s.txt' % what, r.stdout)
            got[what] = parse_ibnetdiscover(r.stdout)
            h.info('%s: %d nodes, %d link ends' % (what, len(got[what][0]), len(got[what][1])))
        (fn, fl), (sn, sl) = got['ibfabric'], got['ibsim']
        h.check(len(sn) > 0, 'ibsim: ibnetdiscover found nothing')
        h.check(fn == sn, 'nodes differ:\n only ibfabric: %s\n only ibsim: %s' %
                (sorted(fn - sn), sorted(sn - fn)))
        h.check(fl == sl, 'links differ:\n only ibfabric: %s\n only ibsim: %s' %
                (sorted(fl - sl), sorted(sl - fl)))


if __name__ == '__main__':
    main()
