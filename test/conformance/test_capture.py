#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-3-Clause
# Copyright(c) 2026 The dpdk-ipoib authors
"""A pcap of a whole OpenSM sweep decodes in tshark with zero malformed
packets, and every packet's ICRC and VCRC are right (issue 3, "Show").

usage: test_capture.py <ibfabric> <netfile>

The CRC engines and the tshark check are test/lib/pcaplib.py (IBA 7.8).
The capture must be LINKTYPE_INFINIBAND (247).
"""

import os
import signal
import sys

from pcaplib import check_pcap
from simlib import Fabric, Harness, find_umad2sim, first_ca, start_opensm


def main():
    ibfabric, netfile = os.path.abspath(sys.argv[1]), sys.argv[2]
    with Harness('capture', timeout=150) as h:
        lib = find_umad2sim(h)
        h.need_program('tshark')
        h.need_file(netfile)
        whole = h.path('sweep.pcap')
        fab = Fabric(h, ibfabric, netfile, extra=['--capture', whole])
        host = first_ca(fab.nodes())
        osm, _ = start_opensm(h, fab, lib, host)

        # One port, both directions, from the control socket.
        one = h.path('port.pcap')
        fab.ctl.cmd('capture start "%s" 1 %s' % (host, one))
        # Ask the switch at the other end of the cable, so the MADs cross it.
        peer = fab.ports(host)[0]['peer']
        lid = int([p for p in fab.ports(peer) if p['num'] == '0'][0]['lid'])
        h.run(['smpquery', 'nodeinfo', str(lid)], env=fab.env(lib, host), timeout=30)
        h.run(['perfquery', str(lid), '1'], env=fab.env(lib, host), timeout=30)
        fab.ctl.cmd('capture stop "%s" 1' % host)

        h.stop(osm)
        fab.ctl.close()
        h.check_eq(h.stop(fab.proc, signal.SIGTERM, timeout=10), 0, 'ibfabric exit code')

        n = check_pcap(h, whole, 50)
        m = check_pcap(h, one, 2)
        h.info('sweep capture: %d packets, port capture: %d packets, all clean' % (n, m))


if __name__ == '__main__':
    main()
