#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-3-Clause
# Copyright(c) 2026 The dpdk-ipoib authors
"""Packets built by lib/ipoib decode in tshark as IP over InfiniBand
(issue 17, "Show"): ARP with hardware type 32 and 20-byte addresses, IPv4
unicast and multicast, IPv6 ND with the IPoIB link-layer address option
(length 3) and a right ICMPv6 checksum; no malformed packet, no expert
error.

usage: test_ipoib_tshark.py <ipoib_frames>

ipoib_frames prints each packet from its IPoIB header on, with the
destination the library chose (DLID, QPN, Q_Key, MGID). This script puts
it in a UD SEND-only datagram as the PMD would on the wire (IBA 5.2:
LRH, a GRH for multicast, BTH opcode 0x64, DETH, payload padded to 4
bytes, ICRC, VCRC; the CRCs from pcaplib.py, IBA 7.8), writes a
LINKTYPE_INFINIBAND (247) pcap and reads it back with tshark.
"""

import os
import struct
import sys

from harness import Harness
from pcaplib import LINKTYPE_INFINIBAND, check_pcap, crc16_vcrc, icrc, tshark_argv

SLID = 2
SRC_QPN = 0x48
SGID = bytes.fromhex('fe800000000000000002c90300000002')
UD_SEND_ONLY = 0x64


def ud_datagram(dlid, dqpn, qkey, dgid, payload):
    pad = (-len(payload)) % 4
    body = payload + b'\0' * pad
    bth = struct.pack('>BBHII', UD_SEND_ONLY, pad << 4, 0xffff, dqpn & 0xffffff, 0)
    deth = struct.pack('>II', qkey, SRC_QPN)
    grh = b''
    lnh = 2                                      # IBA local: BTH follows
    if dgid is not None:
        lnh = 3                                  # IBA global: GRH follows
        paylen = len(bth) + len(deth) + len(body) + 4
        grh = struct.pack('>IHBB', 6 << 28, paylen, 0x1b, 1) + SGID + dgid
    words = (8 + len(grh) + len(bth) + len(deth) + len(body) + 4) // 4
    lrh = struct.pack('>BBHHH', 0, lnh, dlid, words, SLID)
    pkt = lrh + grh + bth + deth + body
    pkt += struct.pack('<I', icrc(pkt, len(pkt)))
    return pkt + struct.pack('<H', crc16_vcrc(pkt))


def write_pcap(path, pkts):
    with open(path, 'wb') as f:
        f.write(struct.pack('<IHHiIII', 0xa1b2c3d4, 2, 4, 0, 0, 65535, LINKTYPE_INFINIBAND))
        for i, p in enumerate(pkts):
            f.write(struct.pack('<IIII', 1700000000 + i, 0, len(p), len(p)))
            f.write(p)


FIELDS = ['frame.protocols', 'arp.hw.type', 'arp.hw.size', 'arp.proto.size', 'arp.opcode',
          'ip.dst', 'udp.dstport', 'icmpv6.type', 'icmpv6.opt.type', 'icmpv6.opt.length',
          'icmpv6.checksum.status', 'ipv6.dst', 'infiniband.deth.q_key',
          'infiniband.bth.destqp']


def main():
    frames = os.path.abspath(sys.argv[1])
    with Harness('ipoib_tshark', timeout=120) as h:
        h.need_program('tshark')
        r = h.run([frames], timeout=30)
        rows = [ln.split() for ln in r.stdout.splitlines() if ln.strip()]
        h.check_eq(len(rows), 8, 'packets from ipoib_frames')
        names, pkts = [], []
        for name, dlid, qpn, qkey, dgid, payload in rows:
            names.append(name)
            pkts.append(ud_datagram(int(dlid), int(qpn), int(qkey),
                                    None if dgid == '-' else bytes.fromhex(dgid),
                                    bytes.fromhex(payload)))
        path = h.path('ipoib.pcap')
        write_pcap(path, pkts)
        check_pcap(h, path, len(pkts))
        argv = tshark_argv(h, path)
        r = h.run(argv + ['-T', 'fields', '-E', 'separator=|', '-E', 'occurrence=f'] +
                  sum([['-e', f] for f in FIELDS], []), timeout=60)
        lines = r.stdout.splitlines()
        h.check_eq(len(lines), len(pkts), 'decoded frames')
        for name, ln in zip(names, lines):
            v = dict(zip(FIELDS, ln.split('|')))
            h.info('%-13s %s' % (name, v['frame.protocols']))
            h.check_eq(int(v['infiniband.deth.q_key'], 16), 0x0b1b, name + ': DETH Q_Key')
            if name.startswith('arp') or name == 'ctl_arp':
                h.check(':arp' in v['frame.protocols'], name + ': decoded as ARP')
                h.check_eq(v['arp.hw.type'], '32', name + ': ARP hardware type (RFC 4391)')
                h.check_eq(v['arp.hw.size'], '20', name + ': ARP hardware size')
                h.check_eq(v['arp.proto.size'], '4', name + ': ARP protocol size')
                h.check_eq(v['arp.opcode'], '2' if name == 'arp_reply' else '1',
                           name + ': opcode')
            elif name.startswith('ipv4'):
                h.check(':ip:udp' in v['frame.protocols'], name + ': decoded as IPv4/UDP')
                h.check_eq(v['ip.dst'], '224.0.0.251' if name == 'ipv4_mcast' else '10.0.0.3',
                           name + ': destination')
                h.check_eq(v['udp.dstport'], '12345', name + ': UDP port')
            else:
                h.check(':ipv6:icmpv6' in v['frame.protocols'], name + ': decoded as ICMPv6')
                h.check_eq(v['icmpv6.type'], '136' if name == 'nd_na' else '135', name)
                h.check_eq(v['icmpv6.opt.type'], '2' if name == 'nd_na' else '1',
                           name + ': link-layer address option')
                h.check_eq(v['icmpv6.opt.length'], '3',
                           name + ': option length 3 (RFC 4391 9.1.2)')
                h.check_eq(v['icmpv6.checksum.status'], '1', name + ': ICMPv6 checksum good')
        # The ND option's address as tshark shows it, byte for byte.
        r = h.run(argv + ['-V', '-Y', 'icmpv6.type == 135'], timeout=60)
        h.check('00:00:00:48:fe:80:00:00:00:00:00:00:00:02:c9:03:00:00:00:02' in r.stdout
                or '000000480fe80' in r.stdout.replace(':', '') or
                '00000048fe800000000000000002c90300000002' in r.stdout.replace(':', ''),
                'NS option carries the 20-byte address:\n' + r.stdout[-1500:])
        h.info('%d packets, all decoded, no malformed or expert error' % len(pkts))


if __name__ == '__main__':
    main()
