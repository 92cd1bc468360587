#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-3-Clause
# Copyright(c) 2026 The dpdk-ipoib authors
"""What net_ipoib puts on the wire decodes in tshark (issue 26, "Show"):
the test bed of ipoib_testpmd (two dpdk-testpmd hosts, net_ipoib0 in
mode=eth to a TAP in a namespace, OpenSM on a third DPDK host), and
ibfabric's capture of host B's cable (`capture start "hostb" 1 <file>`,
doc/guides/tools/ibfabric.rst, Captures) while the kernels resolve each
other and ping, IPv4 and IPv6, both ways.

In the capture, read back by Debian's tshark:
- every packet has a right ICRC and VCRC, and no packet is malformed or
  carries an expert error (pcaplib.check_pcap);
- ARP over IPoIB: hardware type 32, hardware size 20, protocol size 4
  (RFC 4391 section 4.3), requests and replies;
- ND: neighbour solicitations and advertisements whose link-layer
  address option has length 3 (units of 8 octets, RFC 4391 section
  9.1.2) and a good ICMPv6 checksum (the rewrite from the kernel's
  6-byte option keeps it right);
- ICMP and ICMPv6 echo requests and replies over IPoIB, with the IPoIB
  Q_Key of the broadcast group (0x0b1b, what OpenSM gives the IPoIB
  broadcast group by default).

usage: test_ipoib_capture.py <ibfabric> <netfile> <sa_host>
           <librte_net_mthca.so> <librte_net_ipoib.so> <preload> <dpdk-ib-ns>
"""

import sys

from harness import Harness
from ipoib_testbed import Testbed, eth_hosts, wait_ping
from pcaplib import check_pcap, tshark_argv

HOSTS = (('b', '0000:11:00.0', 2), ('c', '0000:12:00.0', 3))
FIELDS = ['frame.protocols', 'arp.hw.type', 'arp.hw.size', 'arp.proto.size', 'arp.opcode',
          'icmp.type', 'icmpv6.type', 'icmpv6.opt.type', 'icmpv6.opt.length',
          'icmpv6.checksum.status', 'infiniband.deth.q_key']


def decode(h, path):
    """One dict per packet of @path: field -> list of its occurrences."""
    argv = tshark_argv(h, path)
    r = h.run(argv + ['-T', 'fields', '-E', 'separator=|', '-E', 'occurrence=a',
                      '-E', 'aggregator=,'] + sum([['-e', f] for f in FIELDS], []),
              timeout=60)
    pkts = []
    for ln in r.stdout.splitlines():
        vals = ln.split('|')
        pkts.append({f: [x for x in v.split(',') if x] for f, v in zip(FIELDS, vals)})
    return pkts


def check_ipoib(h, pkts):
    ipoib = [p for p in pkts if any(x in ''.join(p['frame.protocols'])
                                    for x in (':arp', ':ip:', ':ipv6:'))]
    h.check(ipoib, 'no IPoIB packet decoded')
    arp = [p for p in ipoib if ':arp' in ''.join(p['frame.protocols'])]
    h.check(arp, 'no ARP packet in the capture')
    for p in arp:
        h.check_eq((p['arp.hw.type'], p['arp.hw.size'], p['arp.proto.size']),
                   (['32'], ['20'], ['4']), 'ARP hardware type, sizes (RFC 4391 4.3)')
    ops = set(sum((p['arp.opcode'] for p in arp), []))
    h.check({'1', '2'} <= ops, 'ARP requests and replies: opcodes %s' % ops)
    nd = [p for p in ipoib if set(p['icmpv6.type']) & {'135', '136'}]
    h.check({'135', '136'} <= set(sum((p['icmpv6.type'] for p in nd), [])),
            'neighbour solicitations and advertisements in the capture')
    for p in ipoib:
        if ':icmpv6' not in ''.join(p['frame.protocols']):
            continue
        for t, ln in zip(p['icmpv6.opt.type'], p['icmpv6.opt.length']):
            if t in ('1', '2'):
                h.check_eq(ln, '3', 'ICMPv6 type %s: link-layer option length '
                           '(RFC 4391 9.1.2)' % p['icmpv6.type'])
        h.check_eq(p['icmpv6.checksum.status'], ['1'],
                   'ICMPv6 type %s checksum' % p['icmpv6.type'])
    lla = sum(1 for p in nd if p['icmpv6.opt.type'])
    h.check(lla >= 2, 'ND packets with a link-layer option: %d' % lla)
    icmp = set(sum((p['icmp.type'] for p in ipoib), []))
    h.check({'0', '8'} <= icmp, 'ICMP echo request and reply: types %s' % icmp)
    icmp6 = set(sum((p['icmpv6.type'] for p in ipoib), []))
    h.check({'128', '129'} <= icmp6, 'ICMPv6 echo request and reply: types %s' % icmp6)
    qkeys = set(int(q, 16) for p in ipoib for q in p['infiniband.deth.q_key'])
    h.check_eq(qkeys, {0x0b1b}, 'the IPoIB packets\' Q_Key')
    h.info('%d IPoIB packets: %d ARP (opcodes %s), %d NS/NA with the 20-byte option, '
           'ICMP %s, ICMPv6 %s' % (len(ipoib), len(arp), sorted(ops), lla, sorted(icmp),
                                   sorted(icmp6)))


def main():
    with Harness('ipoib_capture', timeout=290) as h:
        h.need_program('tshark')
        tb = Testbed(h, 'ipcap', sys.argv[1:8], HOSTS[-1][1])
        osm = tb.opensm()
        cap = h.path('hostb.pcap')
        tb.fabric.ctl.cmd('capture start "hostb" 1 %s' % cap)
        hosts = eth_hosts(tb, HOSTS)
        b, c = hosts
        wait_ping(h, b, ['10.0.0.3'], 'b -> c IPv4')
        wait_ping(h, c, ['10.0.0.2'], 'c -> b IPv4')
        wait_ping(h, b, ['-6', '2001:db8::3'], 'b -> c IPv6')
        wait_ping(h, c, ['-6', '2001:db8::2'], 'c -> b IPv6')
        tb.fabric.ctl.cmd('capture stop "hostb" 1')
        n = check_pcap(h, cap, 20)
        h.info('%s: %d packets, CRCs right, none malformed' % (cap, n))
        check_ipoib(h, decode(h, cap))
        tb.close(hosts, osm)


if __name__ == '__main__':
    main()
