#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-3-Clause
# Copyright(c) 2026 The dpdk-ipoib authors
"""pcapng captures a user can read (issue 15): one interface per link end,
named "<node>[<port>]" and described "<node>[<port>] -> <peer>[<port>]".

usage: test_capture_pcapng.py <ibfabric> <netfile>

A whole-fabric capture (--capture x.pcapng) of an OpenSM sweep and a port
capture (capture start <node> <port> y.pcapng) are read by tshark: every
packet has an interface name, every interface's description is a cable
of the fabric as "show ports" reports it, both directions of the
captured port are there; with the tshark 4.0 workaround (the IDBs' link
type 247 rewritten to 147, bound to the InfiniBand dissector) every
packet decodes as InfiniBand. A .pcap name still gets classic pcap,
LINKTYPE 247.
"""

import os
import struct
import subprocess
import sys

from simlib import Fabric, Harness, find_umad2sim, first_ca, start_opensm

UAT = 'uat:user_dlts:"User 0 (DLT=147)","infiniband","0","","0",""'


def idb_linktype_147(src, dst):
    """Copy a little-endian pcapng, each IDB's LinkType set to 147 (tshark 4.0)."""
    data = bytearray(open(src, 'rb').read())
    off = 0
    while off + 12 <= len(data):
        btype, blen = struct.unpack_from('<II', data, off)
        if blen < 12 or off + blen > len(data):
            raise ValueError('bad pcapng block at %d' % off)
        if btype == 1:
            struct.pack_into('<H', data, off + 8, 147)
        off += blen
    open(dst, 'wb').write(data)


def tshark_fields(h, path, fields, extra=()):
    argv = ['tshark', '-r', path] + list(extra) + ['-T', 'fields']
    for f in fields:
        argv += ['-e', f]
    r = h.run(argv)
    return [ln.split('\t') for ln in r.stdout.splitlines() if ln]


def main():
    ibfabric, netfile = os.path.abspath(sys.argv[1]), sys.argv[2]
    with Harness('capture_pcapng', timeout=120) as h:
        lib = find_umad2sim(h)
        h.need_program('tshark')
        whole, port_cap, classic = (h.path(n) for n in ('all.pcapng', 'port.pcapng',
                                                         'all.pcap'))
        fab = Fabric(h, ibfabric, netfile, extra=['--capture', whole])
        host = first_ca(fab.nodes())
        fab.ctl.cmd('capture start "%s" 1 %s' % (host, port_cap))
        fab2 = Fabric(h, ibfabric, netfile, tag='b', extra=['--capture', classic])
        start_opensm(h, fab, lib, host)
        cables = {'%s[%s]' % (n['name'], p['num']): '%s[%s]' % (p['peer'], p['peer_port'])
                  for n, p in fab.all_ports() if 'peer' in p}
        fab.ctl.cmd('capture stop "%s" 1' % host)
        h.stop(fab.proc)
        h.stop(fab2.proc)

        rows = tshark_fields(h, whole, ['frame.interface_name',
                                        'frame.interface_description'])
        h.check(len(rows) > 20, 'whole capture: %d packets' % len(rows))
        names = set()
        for r in rows:
            h.check(len(r) == 2 and r[0] and r[1], 'packet without interface: %r' % r)
            name, desc = r
            src, dst = desc.split(' -> ')
            h.check(src == name and cables.get(src) == dst,
                    'interface %r "%s" is not a cable of the fabric' % (name, desc))
            names.add(name)
        h.check(len(names) >= 4, 'only %d link ends seen: %s' % (len(names), names))

        rows = tshark_fields(h, port_cap, ['frame.interface_name'])
        seen = {r[0] for r in rows}
        want = {'%s[1]' % host, cables['%s[1]' % host]}
        h.check(seen == want, 'port capture: interfaces %s, want both ends %s' % (seen, want))

        # tshark 4.0 does not map link type 247: the copy says 147, bound to InfiniBand.
        fixed = h.path('all-147.pcapng')
        idb_linktype_147(whole, fixed)
        rows = tshark_fields(h, fixed, ['frame.protocols', '_ws.malformed'], ['-o', UAT])
        bad = [r for r in rows if 'infiniband' not in r[0] or (len(r) > 1 and r[1])]
        h.check(not bad, '%d packets not InfiniBand or malformed: %s' % (len(bad), bad[:3]))

        with open(classic, 'rb') as f:
            hdr = f.read(24)
        h.check(struct.unpack('<I', hdr[20:24])[0] == 247, 'classic pcap linktype %r'
                % hdr[20:24])
        h.info('%d packets over %d link ends, all decoded as InfiniBand' % (len(rows),
                                                                           len(names)))


if __name__ == '__main__':
    main()
