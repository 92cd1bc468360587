# SPDX-License-Identifier: BSD-3-Clause
# Copyright(c) 2026 The dpdk-ipoib authors
"""Reading and checking InfiniBand captures: ibfabric's (LINKTYPE_INFINIBAND,
247) and captures of real links (LINKTYPE_ERF, 197, InfiniBand records).

check_pcap() verifies every packet's ICRC and VCRC with its own CRC
engines (tshark's InfiniBand dissector does not verify CRCs), written from
IBA 7.8:
- ICRC (7.8.1): CRC-32 of IEEE 802.3 (zlib.crc32: reflected 0x04C11DB7,
  seed and final XOR all ones) over LRH..pad, the fields a switch or a
  router may change replaced by ones. A local packet (no GRH) never meets
  a router: only LRH:VL and BTH:Resv8a are masked, the rest of the LRH is
  covered. A global packet masks the whole LRH (a router rebuilds it),
  GRH TClass, FlowLabel and HopLmt, and BTH:Resv8a. (IBA 7.8.1 figures of
  the local and global cases, as summarised in T. Shanley, "InfiniBand
  Network Architecture", ch. 25 "Packet CRCs", figs. 25-15 and 25-16.)
  Sent least significant byte first, as the Ethernet FCS;
- VCRC: CRC-16, polynomial 0x100B reflected (0xD008), seed all ones,
  result complemented, over LRH..ICRC, least significant byte first.
then has tshark decode the file with zero malformed packets. The ICRC
engine agrees with real HCAs: test_icrc_silicon checks it on a capture of
a live link holding local and global (GRH) packets.
"""

import struct
import zlib

LINKTYPE_INFINIBAND = 247
LINKTYPE_ERF = 197
ERF_TYPE_INFINIBAND = 21


def crc16_vcrc(data):
    c = 0xffff
    for b in data:
        c ^= b
        for _ in range(8):
            c = (c >> 1) ^ 0xd008 if c & 1 else c >> 1
    return (~c) & 0xffff


def icrc(pkt, icrc_off):
    hdr = bytearray(pkt[:icrc_off])
    bth = 8
    if (pkt[1] & 3) == 3:               # LNH: GRH follows, a global packet
        hdr[0:8] = b'\xff' * 8          # the whole LRH
        hdr[8] |= 0x0f                  # TClass[7:4]
        hdr[9] = hdr[10] = hdr[11] = 0xff   # TClass[3:0], FlowLabel
        hdr[15] = 0xff                  # HopLmt
        bth = 48
    else:
        hdr[0] |= 0xf0                  # LRH:VL only
    if len(hdr) > bth + 4:
        hdr[bth + 4] = 0xff             # BTH Resv8a
    return zlib.crc32(bytes(hdr)) & 0xffffffff


def read_pcap(path):
    """(linktype, [(packet, original length)]). In a LINKTYPE_ERF file (a
    capture of a real link by an Endace DAG card) every record must be an
    InfiniBand one (ERF type 21, no extension header): the packet is what
    follows the 16-byte ERF header, LRH to VCRC, its length ERF's wlen."""
    with open(path, 'rb') as f:
        data = f.read()
    magic = struct.unpack('<I', data[:4])[0]
    if magic in (0xa1b2c3d4, 0xa1b23c4d):
        endian = '<'
    elif magic in (0xd4c3b2a1, 0x4d3cb2a1):
        endian = '>'
    else:
        raise ValueError('%s: not a pcap file (magic 0x%08x)' % (path, magic))
    linktype = struct.unpack(endian + 'I', data[20:24])[0]
    pkts = []
    off = 24
    while off + 16 <= len(data):
        _, _, incl, orig = struct.unpack(endian + 'IIII', data[off:off + 16])
        rec = data[off + 16:off + 16 + incl]
        off += 16 + incl
        if linktype == LINKTYPE_ERF:
            if len(rec) < 16 or rec[8] != ERF_TYPE_INFINIBAND:
                raise ValueError('%s: record %d is not a plain InfiniBand ERF record' %
                                 (path, len(pkts) + 1))
            wlen = struct.unpack('>H', rec[14:16])[0]
            pkts.append((rec[16:16 + wlen], wlen))
        else:
            pkts.append((rec, orig))
    return linktype, pkts


def tshark_argv(h, path):
    """The tshark command that reads @path: directly, or, where tshark's
    pcap reader does not know LINKTYPE 247, through a copy whose header
    says DLT_USER0 (147), bound to the InfiniBand dissector."""
    tshark = ['tshark', '-n', '-r', path]
    r = h.run(tshark + ['-c', '1'], timeout=60, check=False)
    if r.returncode != 0 and 'network type 247 unknown' in r.stderr:
        # Wireshark 4.0 (Debian 12) has the InfiniBand dissector but no
        # mapping for LINKTYPE_INFINIBAND in its pcap reader.
        copy = path + '.user0.pcap'
        with open(path, 'rb') as f:
            data = bytearray(f.read())
        data[20:24] = struct.pack('<I' if data[:4] == b'\xd4\xc3\xb2\xa1' else '>I', 147)
        with open(copy, 'wb') as f:
            f.write(data)
        h.info('tshark cannot read LINKTYPE 247; decoding %s as DLT_USER0 -> infiniband' % copy)
        tshark = ['tshark', '-n', '-r', copy, '-o',
                  'uat:user_dlts:"User 0 (DLT=147)","infiniband","0","","0",""']
    return tshark


def check_pcap(h, path, min_pkts):
    linktype, pkts = read_pcap(path)
    h.check(linktype in (LINKTYPE_INFINIBAND, LINKTYPE_ERF),
            '%s: link type %d, not InfiniBand (247) or ERF (197)' % (path, linktype))
    h.check(len(pkts) >= min_pkts, '%s: %d packets, expected >= %d' % (path, len(pkts), min_pkts))
    bad = []
    for i, (p, orig) in enumerate(pkts, 1):
        if len(p) != orig or len(p) < 8 + 12 + 6:
            bad.append('#%d: truncated (%d of %d bytes)' % (i, len(p), orig))
            continue
        pktlen = (struct.unpack('>H', p[4:6])[0] & 0x7ff) * 4
        if pktlen + 2 != len(p):
            bad.append('#%d: LRH PktLen %d + VCRC != %d bytes' % (i, pktlen, len(p)))
            continue
        want_i = icrc(p, len(p) - 6)
        got_i = struct.unpack('<I', p[-6:-2])[0]
        want_v = crc16_vcrc(p[:-2])
        got_v = struct.unpack('<H', p[-2:])[0]
        if want_i != got_i:
            bad.append('#%d: ICRC 0x%08x, expected 0x%08x (IBA 7.8.1, %s)' %
                       (i, got_i, want_i, 'global packet: whole LRH masked'
                        if (p[1] & 3) == 3 else 'local packet: only LRH:VL masked'))
        if want_v != got_v:
            bad.append('#%d: VCRC 0x%04x, expected 0x%04x' % (i, got_v, want_v))
    h.check(not bad, '%s: %d bad packets: %s' % (path, len(bad), '; '.join(bad[:5])))

    tshark = tshark_argv(h, path)
    r = h.run(tshark + ['-Y', '_ws.malformed || _ws.expert.severity >= error'], timeout=60)
    h.check(r.stdout.strip() == '', '%s: tshark malformed/error packets:\n%s' %
            (path, r.stdout[:2000]))
    r = h.run(tshark + ['-T', 'fields', '-e', 'frame.protocols'], timeout=60)
    lines = r.stdout.splitlines()
    h.check_eq(len(lines), len(pkts), 'tshark frame count')
    h.check(all('infiniband' in ln for ln in lines), 'frames not decoded as InfiniBand')
    return len(pkts)
