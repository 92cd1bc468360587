#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-3-Clause
# Copyright(c) 2026 The dpdk-ipoib authors
"""Write the seed corpora of the lib/ipoib fuzz targets (corpus/ipoib_*).

Run from test/fuzz/ when the input formats of fuzz_ipoib_*.c change; the
output is committed. Frames are built here from RFC 791, 826, 4861 and
RFC 4391 (6, 9.1.1, 9.1.2), for the host fuzz_ipoib.h sets up.
"""

import os
import struct

LOCAL_GID = bytes.fromhex('fe800000000000000002c90300000002')
PEER_GID = bytes.fromhex('fe800000000000000002c90300000003')
LOCAL_HW = struct.pack('>I', 0x48) + LOCAL_GID
PEER_HW = struct.pack('>I', 0x49) + PEER_GID
# 02 then (GUID[39:0] ^ QPN << 16)[39:0] (rte_ipoib_mac_from_hwaddr)
LOCAL_MAC = bytes.fromhex('020300480002')
PEER_MAC = bytes.fromhex('020300490003')
BCAST_MGID = bytes.fromhex('ff12401bffff000000000000ffffffff')
SNM_MGID = bytes.fromhex('ff12601bffff000000000001ff000003')
IP_L, IP_P = bytes([10, 0, 0, 2]), bytes([10, 0, 0, 3])
IP6_L = bytes.fromhex('fe800000000000000000000000000002')
IP6_P = bytes.fromhex('fe800000000000000000000000000003')
SNM_P = bytes.fromhex('ff0200000000000000000001ff000003')


def ipv4_udp(src, dst, n):
    return (struct.pack('>BBHHHBBH', 0x45, 0, 28 + n, 0, 0, 64, 17, 0) + src + dst +
            struct.pack('>HHHH', 53, 53, 8 + n, 0) + bytes(range(n)))


def csum6(ip6_src, ip6_dst, icmp):
    data = ip6_src + ip6_dst + struct.pack('>IxxxB', len(icmp), 58) + icmp
    if len(data) % 2:
        data += b'\0'
    s = sum(struct.unpack('>%dH' % (len(data) // 2), data))
    while s >> 16:
        s = (s & 0xffff) + (s >> 16)
    return (~s) & 0xffff


def nd(icmp_type, src, dst, target, opt_type, lladdr_opt):
    flags = 0x60000000 if icmp_type == 136 else 0
    body = struct.pack('>BBHI', icmp_type, 0, 0, flags) + target + lladdr_opt
    ck = csum6(src, dst, body)
    body = body[:2] + struct.pack('>H', ck) + body[4:]
    return struct.pack('>IHBB', 0x60000000, len(body), 58, 255) + src + dst + body


def opt_eth(t, mac):
    return bytes([t, 1]) + mac


def opt_ib(t, hw):
    return bytes([t, 3, 0, 0]) + hw


def arp_ib(op, sha, spa, tha, tpa):
    return struct.pack('>HHBBH', 32, 0x0800, 20, 4, op) + sha + spa + tha + tpa


def arp_eth(op, sha, spa, tha, tpa):
    return struct.pack('>HHBBH', 1, 0x0800, 6, 4, op) + sha + spa + tha + tpa


def eth(dst, src, typ, payload):
    return dst + src + struct.pack('>H', typ) + payload


def ipoib(typ, payload):
    return struct.pack('>HH', typ, 0) + payload


def rx(flags, slid, qpn, frame, sgid=None, dgid=None):
    hdr = bytes([flags]) + struct.pack('>H', slid) + qpn.to_bytes(3, 'big')
    if flags & 2:
        grh = struct.pack('>IHBB', 0x60000000, len(frame), 0x1b, 1) + sgid + dgid
        hdr += grh
    return hdr + frame


def write(d, name, data):
    os.makedirs(d, exist_ok=True)
    with open(os.path.join(d, name), 'wb') as f:
        f.write(data)


def main():
    d = 'corpus/ipoib_decap'
    write(d, 'ipv4_from_peer.bin', rx(0, 3, 0x49, ipoib(0x0800, ipv4_udp(IP_P, IP_L, 32))))
    write(d, 'ipv4_l3.bin', rx(1, 3, 0x49, ipoib(0x0800, ipv4_udp(IP_P, IP_L, 8))))
    write(d, 'arp_request_grh.bin', rx(2, 3, 0x49, ipoib(0x0806, arp_ib(
        1, PEER_HW, IP_P, bytes(20), IP_L)), PEER_GID, BCAST_MGID))
    write(d, 'arp_reply.bin', rx(0, 3, 0x49, ipoib(0x0806, arp_ib(
        2, PEER_HW, IP_P, LOCAL_HW, IP_L))))
    write(d, 'ns_grh.bin', rx(2, 3, 0x49, ipoib(0x86dd, nd(
        135, IP6_P, SNM_P, IP6_L, 1, opt_ib(1, PEER_HW))), PEER_GID, SNM_MGID))
    write(d, 'na.bin', rx(0, 3, 0x49, ipoib(0x86dd, nd(
        136, IP6_P, IP6_L, IP6_P, 2, opt_ib(2, PEER_HW)))))
    write(d, 'wrong_pkey.bin', rx(4, 3, 0x49, ipoib(0x0800, ipv4_udp(IP_P, IP_L, 4))))

    d = 'corpus/ipoib_encap'
    write(d, 'ipv4_to_peer.bin', b'\0' + eth(PEER_MAC, LOCAL_MAC, 0x0800,
                                            ipv4_udp(IP_L, IP_P, 32)))
    write(d, 'ipv4_mcast.bin', b'\0' + eth(bytes.fromhex('01005e0000fb'), LOCAL_MAC, 0x0800,
                                          ipv4_udp(IP_L, bytes([224, 0, 0, 251]), 8)))
    write(d, 'arp_request.bin', b'\0' + eth(b'\xff' * 6, LOCAL_MAC, 0x0806,
                                           arp_eth(1, LOCAL_MAC, IP_L, bytes(6), IP_P)))
    write(d, 'arp_reply.bin', b'\0' + eth(PEER_MAC, LOCAL_MAC, 0x0806,
                                         arp_eth(2, LOCAL_MAC, IP_L, PEER_MAC, IP_P)))
    write(d, 'ns.bin', b'\0' + eth(bytes.fromhex('3333ff000003'), LOCAL_MAC, 0x86dd,
                                  nd(135, IP6_L, SNM_P, IP6_P, 1, opt_eth(1, LOCAL_MAC))))
    write(d, 'na.bin', b'\0' + eth(PEER_MAC, LOCAL_MAC, 0x86dd,
                                  nd(136, IP6_L, IP6_P, IP6_L, 2, opt_eth(2, LOCAL_MAC))))
    write(d, 'l3_ipv4.bin', b'\1' + ipv4_udp(IP_L, IP_P, 16))
    write(d, 'l3_arp.bin', b'\3' + arp_ib(1, LOCAL_HW, IP_L, bytes(20), IP_P))

    d = 'corpus/ipoib_parse'
    write(d, 'arp.bin', b'\0' + arp_ib(1, LOCAL_HW, IP_L, bytes(20), IP_P))
    write(d, 'ns.bin', b'\1' + nd(135, IP6_L, SNM_P, IP6_P, 1, opt_ib(1, LOCAL_HW)))
    write(d, 'na.bin', b'\2' + nd(136, IP6_L, IP6_P, IP6_L, 2, opt_ib(2, LOCAL_HW)))
    write(d, 'hwaddr.bin', b'\3' + b':'.join(b'%02x' % b for b in LOCAL_HW))


if __name__ == '__main__':
    main()
