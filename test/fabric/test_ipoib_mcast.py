#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-3-Clause
# Copyright(c) 2026 The dpdk-ipoib authors
"""IP multicast over net_ipoib (issue 26, "Show"), on the test bed of
ipoib_testpmd (two dpdk-testpmd hosts, net_ipoib0 in mode=eth to a TAP
in a namespace, OpenSM on a third DPDK host):

1. A receiver in B's namespace joins 239.1.2.3 and ff15::1:2 (sockets:
   IP_ADD_MEMBERSHIP, IPV6_JOIN_GROUP); B's kernel sends IGMP and MLD
   reports out of the TAP, lib/ipoib sees them on transmit and joins the
   groups' MGIDs (RFC 4391 section 4: ff12:401b:<P_Key>::<low 28 bits>,
   ff12:601b:<P_Key>:<low 80 bits>) as full member.
2. A sender in C's namespace sends UDP datagrams to both groups; the
   receiver gets them, 100 of each: C joins send-only, and its first
   datagrams to each group wait for the join (held, as Linux
   ipoib_mcast_send() queues on the group) instead of being dropped.
   OpenSM programs a group's MFT entry only once the group has two
   member ports (mcast_mgr_build_spanning_tree(): fewer is "nothing to
   do"), and does so after it answers C's join: the held datagrams,
   sent on that answer, race the switch's MFT Set. So the held ones
   (and only those) may be lost, and the switch's MFT then has B's
   port for each group (ibroute -M): what a real fabric does as well.
3. `saquery -m` (infiniband-diags on the SM host, through dpdk-ib-ns)
   shows B's port FullMember (JoinState 0x1) and C's port
   SendOnlyFullMember (0x8: the SA's ClassPortInfo CapabilityMask2
   bit 12 says it may, as Linux ipoib_mcast_join() checks) of each
   group, and `saquery -g` lists both. C sending to a group nobody
   joined fully creates it as SendOnlyFullMember (a SendOnlyNonMember
   join is refused there) and none of C's held packets is dropped.
4. The receiver closes its sockets: the kernel's IGMP/MLD leave makes
   lib/ipoib leave; B's membership is gone within 15 s; the groups stay,
   held by C's SendOnlyFullMember membership. A multicast address added
   to B's net_ipoib0 (testpmd mcast_addr add) makes B a FullMember of
   its group, and its removal makes that membership go (saquery -m).
5. OpenSM restarted with --consolidate_ipv6_snm_req (one MLID for every
   solicited-node group, what large sites run): the hosts re-join, and
   IPv6 neighbour discovery still works: ping -6 to an address added
   after the restart (a solicited-node group never joined before).

usage: test_ipoib_mcast.py <ibfabric> <netfile> <sa_host>
           <librte_net_mthca.so> <librte_net_ipoib.so> <preload> <dpdk-ib-ns>
"""

import re
import sys
import time

from harness import Harness
from ipoib_testbed import Testbed, by_pass, eth_hosts, wait_ping
from test_mcast_join import member_state

HOSTS = (('b', '0000:11:00.0', 2), ('c', '0000:12:00.0', 3))
GROUP4, GROUP6, PORT = '239.1.2.3', 'ff15::1:2', 5000
# RFC 4391 section 4, scope 2 and P_Key 0xffff (the broadcast group's)
MGID4 = 'ff12:401b:ffff::f01:203'
MGID6 = 'ff12:601b:ffff::1:2'
# A group nobody listens to: C's send-only join creates it
LONE4, LONE6 = '239.4.5.6', 'ff15::4:5:6'
LONE_MGID4, LONE_MGID6 = 'ff12:401b:ffff::f04:506', 'ff12:601b:ffff::4:5:6'
# OpenSM 3.3.23's SA sets ClassPortInfo CapabilityMask2 bit 12
# (SendOnlyFullMember supported): lib/ipoib joins send-only as 0x8
FULL, SENDONLY = 1, 8
# between C's datagrams: the join its first one starts took < 0.2 s here
SEND_GAP_S = by_pass(0.05, 0.1)

RECEIVER = r'''
import select, socket, struct, sys
ifindex = socket.if_nametoindex(sys.argv[1])
s4 = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
s4.bind((sys.argv[2], %(port)d))
s4.setsockopt(socket.IPPROTO_IP, socket.IP_ADD_MEMBERSHIP,
              socket.inet_aton(sys.argv[2]) + socket.inet_aton(sys.argv[3]))
s6 = socket.socket(socket.AF_INET6, socket.SOCK_DGRAM)
s6.setsockopt(socket.IPPROTO_IPV6, socket.IPV6_V6ONLY, 1)
s6.bind(('::', %(port)d))
s6.setsockopt(socket.IPPROTO_IPV6, socket.IPV6_JOIN_GROUP,
              socket.inet_pton(socket.AF_INET6, sys.argv[4]) + struct.pack('=I', ifindex))
print('JOINED', flush=True)
while True:
    r, _, _ = select.select([s4, s6, sys.stdin], [], [])
    if sys.stdin in r:
        s4.close()
        s6.close()
        print('LEFT', flush=True)
        break
    for s in r:
        data, addr = s.recvfrom(2048)
        print('RX %%s from %%s' %% (data.decode(), addr[0]), flush=True)
''' % {'port': PORT}

SENDER = r'''
import socket, struct, sys, time
ifindex = socket.if_nametoindex(sys.argv[1])
s4 = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
s4.setsockopt(socket.IPPROTO_IP, socket.IP_MULTICAST_IF, socket.inet_aton(sys.argv[2]))
s6 = socket.socket(socket.AF_INET6, socket.SOCK_DGRAM)
s6.setsockopt(socket.IPPROTO_IPV6, socket.IPV6_MULTICAST_IF, struct.pack('=I', ifindex))
for i in range(int(sys.argv[5])):
    s4.sendto(b'v4-%%d' %% i, (sys.argv[3], %(port)d))
    s6.sendto(b'v6-%%d' %% i, (sys.argv[4], %(port)d, 0, ifindex))
    time.sleep(float(sys.argv[6]))
print('SENT', flush=True)
''' % {'port': PORT}


def port_gid(tb, node):
    guid = int(tb.fabric.ports(node)[0]['guid'], 16)
    return 'fe80::%x:%x:%x:%x' % (guid >> 48, (guid >> 32) & 0xffff,
                                  (guid >> 16) & 0xffff, guid & 0xffff)


def received(log, kind):
    """Indices of the datagrams of @kind (v4, v6) the receiver printed."""
    return {int(i) for i in re.findall(r'^RX %s-(\d+) ' % kind, log, re.M)}


def mft_ports(tb, mlid):
    """The switch's MFT ports for @mlid (ibroute -M from the SM host;
    the switch is one hop away: DR path 0,1)."""
    out = tb.diag('ibroute', '-M', '-D', '0,1', check=False)
    head = re.search(r'^\s*Ports:((?: \d+)+)', out, re.M)
    row = re.search(r'^0x%04x(.*)$' % mlid, out, re.M | re.I)
    if head is None or row is None:
        return set()
    at = head.start(1) - head.start(0)
    ports = set()
    for num in re.finditer(r'\d+', head.group(1)):
        col = at + num.start()
        if col < len(row.group(0)) and row.group(0)[col] == 'x':
            ports.add(int(num.group(0)))
    return ports


def check_held(h, tb, c, log, groups):
    """Every datagram is sent: C's first ones to each group start its
    send-only join and wait for it on the control side (lib/ipoib's
    held packets, as Linux ipoib_mcast_send() queues on the group)
    instead of being dropped; xstats show them held and sent. Only
    held ones may miss the receiver: they race OpenSM's MFT Set for
    the group (module docstring, 2.), after which B's port is in the
    group's MFT entry (its MLID from @groups, saquery -g's output)."""
    x = c.xstats(c.ipoib_port()[0])
    h.info('C xstats: tx_held_packets %d tx_held_sent %d tx_held_drops %d '
           'tx_no_neigh_drops %d' % (x.get('tx_held_packets', -1), x.get('tx_held_sent', -1),
                                     x.get('tx_held_drops', -1), x.get('tx_no_neigh_drops', -1)))
    h.check(x.get('tx_held_packets', 0) >= 2 and x.get('tx_held_sent', 0) >= 2,
            'C held and sent the first datagram of each group: %s' % x)
    h.check_eq(x.get('tx_held_drops'), 0, 'C: tx_held_drops')
    h.check_eq(x.get('tx_no_neigh_drops'), 0, 'C: tx_no_neigh_drops')
    held = x['tx_held_sent']
    sw_port = None
    for kind, mgid in (('v4', MGID4), ('v6', MGID6)):
        missing = sorted(set(range(100)) - received(log, kind))
        h.check(all(i < held for i in missing),
                '%s datagrams missing: %s (only the first %d, the held ones, may race '
                'the MFT)' % (kind, missing, held))
        if not missing:
            continue
        m = re.search(r'MGID\.+%s\s.*?Mlid\.+(0x[0-9a-fA-F]+)' % re.escape(mgid), groups,
                      re.S)
        h.check(m is not None, 'saquery -g: no MLID for %s:\n%s' % (mgid, groups))
        ports = mft_ports(tb, int(m.group(1), 16))
        h.info('%s: held datagram(s) %s lost to the MFT race; the MFT of MLID %s now has '
               'ports %s' % (kind, missing, m.group(1), sorted(ports)))
        if sw_port is None:
            sw_port = int([p for p in tb.fabric.ports('hostb')
                           if p['num'] == '1'][0]['peer_port'])
        h.check(sw_port in ports,
                'the MFT of %s has B\'s switch port %d: %s' % (mgid, sw_port, ports))


def check_lone_group(h, tb, c, gid_c):
    """C sends to groups nobody joined: its send-only joins create them
    (SendOnlyFullMember, 0x8), and no held datagram is dropped."""
    lone = h.spawn(['python3', '-c', SENDER, c.tap, '10.0.0.3', LONE4, LONE6, '3',
                    str(SEND_GAP_S)],
                   name='sender_c_lone', netns=c.ns)
    h.wait_for(lambda: 'SENT' in lone.log(), timeout=20, what='the lone sender done')

    def lone_states():
        out = tb.diag('saquery', '--smkey', '1', '-m')
        return [member_state(out, g, gid_c) for g in (LONE_MGID4, LONE_MGID6)]
    h.wait_for(lambda: lone_states() == [SENDONLY, SENDONLY], timeout=20, interval=1,
               what='C SendOnlyFullMember of %s and %s, groups nobody joined fully '
               '(saquery -m)' % (LONE_MGID4, LONE_MGID6))
    x = c.xstats(c.ipoib_port()[0])
    h.info('C after the lone groups: tx_held_packets %d sent %d dropped %d' %
           (x['tx_held_packets'], x['tx_held_sent'], x['tx_held_drops']))
    h.check_eq(x['tx_held_drops'], 0, 'C: held packets dropped (refused joins)')


def check_mc_addr_leave(h, tb, b, gid_b):
    """A multicast address of net_ipoib0 (testpmd's mcast_addr: the
    ethdev's set_mc_addr_list) joins its group as full member, and its
    removal leaves it: B's membership (saquery -m, the port's, not the
    group's, which OpenSM may keep) appears and goes."""
    port, _ = b.ipoib_port()
    mac, mgid = '33:33:00:0a:0b:0c', 'ff12:601b:ffff::a:b0c'   # ff02::a:b0c

    def state():
        return member_state(tb.diag('saquery', '--smkey', '1', '-m'), mgid, gid_b)
    b.cmd('mcast_addr add %d %s' % (port, mac), r'testpmd>')
    h.wait_for(lambda: state() == FULL, timeout=20, interval=1,
               what='B FullMember of %s after mcast_addr add (saquery -m)' % mgid)
    b.cmd('mcast_addr remove %d %s' % (port, mac), r'testpmd>')
    t0 = time.monotonic()
    h.wait_for(lambda: state() is None, timeout=15, interval=1,
               what='B\'s membership of %s gone after mcast_addr remove (saquery -m)' % mgid)
    h.info('mcast_addr %s: joined, then left in %.1f s (saquery -m)' %
           (mac, time.monotonic() - t0))


def main():
    with Harness('ipoib_mcast', timeout=290) as h:
        tb = Testbed(h, 'ipmc', sys.argv[1:8], HOSTS[-1][1])
        osm = tb.opensm()
        hosts = eth_hosts(tb, HOSTS)
        b, c = hosts
        wait_ping(h, b, ['10.0.0.3'], 'b -> c IPv4 (the path works)')
        gid_b, gid_c = port_gid(tb, 'hostb'), port_gid(tb, 'hostc')

        rx = h.spawn(['python3', '-c', RECEIVER, b.tap, GROUP4, '10.0.0.2', GROUP6],
                     name='receiver_b', stdin=True, netns=b.ns)
        h.wait_log(rx, 'JOINED', timeout=10)

        def members():
            out = tb.diag('saquery', '--smkey', '1', '-m')
            return {(g, gid): member_state(out, g, gid)
                    for g in (MGID4, MGID6) for gid in (gid_b, gid_c)}
        h.wait_for(lambda: all(members()[(g, gid_b)] == FULL for g in (MGID4, MGID6)),
                   timeout=20, interval=1,
                   what='B FullMember of %s and %s (saquery -m)' % (MGID4, MGID6))

        tx = h.spawn(['python3', '-c', SENDER, c.tap, '10.0.0.3', GROUP4, GROUP6, '100',
                      str(SEND_GAP_S)], name='sender_c', netns=c.ns)
        h.wait_for(lambda: 'RX v4-' in rx.log() and 'RX v6-' in rx.log(), timeout=20,
                   interval=0.2, what='the receiver gets both groups\' datagrams')
        h.wait_for(lambda: all(members()[(g, gid_c)] == SENDONLY for g in (MGID4, MGID6)),
                   timeout=20, interval=1,
                   what='C SendOnlyFullMember of both groups (saquery -m)')
        m = members()
        h.check(all(m[(g, gid_b)] == FULL for g in (MGID4, MGID6)),
                'B still FullMember: %s' % m)
        groups = tb.diag('saquery', '-g')
        h.check(MGID4 in groups and MGID6 in groups, 'saquery -g lists both groups:\n' + groups)
        h.wait_for(lambda: 'SENT' in tx.log(), timeout=40, what='the sender done')
        log = rx.log()
        h.info('receiver: %d of 100 IPv4, %d of 100 IPv6 datagrams; saquery -m: B 0x1, '
               'C 0x%x' % (len(received(log, 'v4')), len(received(log, 'v6')), SENDONLY))
        check_held(h, tb, c, log, groups)
        check_lone_group(h, tb, c, gid_c)
        h.check(' from 10.0.0.3' in rx.log() and ' from fe80::' in rx.log() or
                ' from 2001:db8::3' in rx.log(), 'the sources are C\'s:\n' + rx.log()[-500:])

        rx.write('LEAVE\n')
        h.wait_log(rx, 'LEFT', timeout=10)
        t0 = time.monotonic()
        h.wait_for(lambda: all(members()[(g, gid_b)] is None for g in (MGID4, MGID6)),
                   timeout=15, interval=1, what='B\'s membership gone after the leave')
        h.info('B left both groups in %.1f s' % (time.monotonic() - t0))
        h.wait_for(lambda: not rx.alive(), timeout=10, what='the receiver exits')
        # C's SendOnlyFullMember membership keeps the groups (a send-only
        # full member is a full member for the group's life, IBA
        # 15.2.5.17 errata; OpenSM deletes a group with neither)
        m = members()
        h.check(all(m[(g, gid_c)] == SENDONLY for g in (MGID4, MGID6)),
                'the groups kept with C SendOnlyFullMember after B left: %s' % m)
        check_mc_addr_leave(h, tb, b, gid_b)

        h.stop(osm)
        osm = tb.opensm('opensm_consolidate', ['--consolidate_ipv6_snm_req'])
        with open('/proc/%d/cmdline' % osm.pid, 'rb') as f:
            h.check(b'--consolidate_ipv6_snm_req' in f.read(),
                    'OpenSM runs with --consolidate_ipv6_snm_req')
        c.ip('-6', 'addr', 'add', '2001:db8::33/64', 'dev', c.tap, 'nodad')
        b.ip('-6', 'neigh', 'flush', 'dev', b.tap)
        wait_ping(h, b, ['-6', '2001:db8::33'], 'b -> c IPv6, a new solicited-node group')
        wait_ping(h, c, ['-6', '2001:db8::2'], 'c -> b IPv6')
        tb.close(hosts, osm)


if __name__ == '__main__':
    main()
