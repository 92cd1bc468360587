#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-3-Clause
# Copyright(c) 2026 The dpdk-ipoib authors
"""The ICRC and VCRC engines of test/lib/pcaplib.py against packets that
real InfiniBand silicon sent (issue 16, independent oracles): every ICRC
the sending HCA computed, and every VCRC, is the one pcaplib computes, for
local packets and for global ones (IPoIB broadcast and multicast with a
GRH), and tshark decodes the capture with no malformed packet.

The capture (test/data/captures/infiniband.pcap, kept byte for byte) is a
public sample capture of a live IB link in Endace ERF records of type
InfiniBand, published in the GitHub repository
srinivaskoritala/rdma-softroce-demo as infiniband.pcap (commit
091d8b4a3640e815425f144466fc7e7344e1b38d); test/unit/test_pkt_silicon.c
runs ibfabric's own engine (pkt.c) on the same file and says more about
it.

usage: test_icrc_silicon.py <infiniband.pcap>
"""

import hashlib
import struct
import sys

from harness import Harness
from pcaplib import LINKTYPE_ERF, check_pcap, icrc, read_pcap

SHA256 = '4aff5a8d5c37e6176cd75e477eefae2075f68b3498fbf9735a4ccef0796f5444'


def main():
    path = sys.argv[1]
    with Harness('icrc_silicon', timeout=60) as h:
        h.need_program('tshark')
        with open(h.need_file(path), 'rb') as f:
            h.check_eq(hashlib.sha256(f.read()).hexdigest(), SHA256,
                       '%s is not the published capture' % path)
        n = check_pcap(h, path, 43)
        h.check_eq(n, 43, 'frames')
        linktype, pkts = read_pcap(path)
        h.check_eq(linktype, LINKTYPE_ERF, 'link type')
        glob = [p for p, _ in pkts if (p[1] & 3) == 3]
        h.check_eq(len(glob), 6, 'frames with a GRH')

        # The silicon's ICRC survives what IBA 7.8.1 lets a router change
        # (the LRH but LNH, TClass, FlowLabel, HopLmt, BTH resv8a) and no
        # other change (DGID, DestQP).
        for i, p in enumerate(glob, 1):
            end = len(p) - 6
            got = struct.unpack('<I', p[end:end + 4])[0]
            q = bytearray(p)
            for off, mask in ((0, 0xff), (1, 0xfc), (2, 0xff), (3, 0xff), (4, 0xff),
                              (5, 0xff), (6, 0xff), (7, 0xff), (8, 0x0f), (9, 0xff),
                              (10, 0xff), (11, 0xff), (15, 0xff), (52, 0xff)):
                q[off] ^= mask
            h.check_eq(icrc(bytes(q), end), got, 'global frame %d: variant fields' % i)
            for off, what in ((8 + 24 + 15, 'DGID'), (48 + 7, 'DestQP')):
                q = bytearray(p)
                q[off] ^= 1
                h.check(icrc(bytes(q), end) != got, 'global frame %d: %s not covered' %
                        (i, what))
        h.info('%d frames (%d with a GRH): every ICRC and VCRC as the hardware sent it'
               % (n, len(glob)))


if __name__ == '__main__':
    main()
