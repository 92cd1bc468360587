#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-3-Clause
# Copyright(c) 2026 The dpdk-ipoib authors
"""IPoIB interfaces of lib/ipoib (rte_ipoib_if.h, issue 26) on ibfabric
under the real OpenSM: two DPDK hosts, each with one interface in the
Ethernet view (test/fabric/ipoib_host.c), OpenSM on a third DPDK host
through the user-MAD service.

1. both interfaces come up: the broadcast group joined (its Q_Key 0x0b1b
   and MTU 2048 as OpenSM makes the group, so UD MTU 2044), the link
   callback's state up, all-hosts and all-nodes joined too;
2. B sends an ARP request to the broadcast group: C receives it with B's
   MAC as source, learns B (one neighbour) and asks the SA one
   PathRecord; B does not deliver its own request (a copy that comes
   back is dropped as looped: source LID ours, source QPN one of our
   tx QPs);
3. C sends UDP to B's MAC: the first packets wait on the path (at most
   3), then go; B receives them from C's tx QP, which no neighbour
   names: delivered with the MAC derived from (SLID, QPN), 06:...

With the scenario "l3" the interfaces present the L3 view, B with
10.0.0.2 and C with 10.0.0.3 (rte_ipoib_if_addr_set()), and after step
1: C sends IPv4 to 10.0.0.2 with no neighbour for it: its control side
sends an ARP request, B's control side answers it (and learns C), C
learns B from the reply, binds the IP, one PathRecord query each way,
and C's next packets reach B.

usage: test_ipoib_if.py <eth|l3> <ibfabric> <netfile> <sa_host> <ipoib_host> <preload>
                        <dpdk-ib-ns>
"""

import os
import subprocess
import sys

from simlib import Fabric, Harness, sa_host_answer as answer

SM_BDF = '0000:10:00.0'    # hosta: OpenSM
B_BDF = '0000:11:00.0'     # hostb
C_BDF = '0000:12:00.0'     # hostc


def kv(line):
    return dict(w.split('=', 1) for w in line.split() if '=' in w)


def main():
    scenario = sys.argv[1]
    ibfabric, netfile, sa_host, ipoib_host, preload, ns = (
        os.path.abspath(a) for a in sys.argv[2:8])
    with Harness('ipoib_if_' + scenario, timeout=280) as h:
        for prog in ('opensm', 'unshare'):
            h.need_program(prog)
        root = h.path('pci')
        Fabric(h, ibfabric, netfile, tag='ipif', extra=['--pci-root', root])
        h.wait_for(lambda: os.path.exists(os.path.join(root, C_BDF, 'iommu.sock')),
                   timeout=10, what='the simulated PCI functions')
        run = h.path('umad-sm')
        os.makedirs(run)
        h.on_teardown(lambda: subprocess.run(['umount', '-l', os.path.join(run, 'dev')],
                                             stderr=subprocess.DEVNULL))
        sm_host = h.spawn([sa_host, '--no-huge', '-m', '256', '--file-prefix',
                           'ipifsm%d' % os.getpid(), '-a', SM_BDF, '--', 'idle'],
                          name='sm_host', stdin=True,
                          env={'SYSFS_PCI_DEVICES': root, 'DPDK_IB_UMAD_DIR': run})
        h.wait_for(lambda: os.path.exists(os.path.join(run, 'dev', 'umad0')),
                   timeout=60, what='umad0 of the SM host')
        osm = start_opensm(h, ns, run, preload, 'opensm', [])
        hosts = {}
        for name, bdf, ip in (('b', B_BDF, '10.0.0.2'), ('c', C_BDF, '10.0.0.3')):
            hosts[name] = h.spawn([ipoib_host, '--no-huge', '-m', '256', '--file-prefix',
                                   'ipif%s%d' % (name, os.getpid()), '-a', bdf,
                                   '--log-level=lib.ipoib:info'] +
                                  (['--', 'l3', ip] if scenario == 'l3' else []),
                                  name='ipoib_' + name, stdin=True,
                                  env={'SYSFS_PCI_DEVICES': root})
        for p in hosts.values():
            h.wait_log(p, 'READY', timeout=120)
        b, c = hosts['b'], hosts['c']

        def info(p):
            return kv(answer(h, p, 'INFO')[-1])

        def stats(p):
            return {k: int(v) for k, v in kv(answer(h, p, 'STATS')[-1]).items()}

        def rx(p):
            return kv(answer(h, p, 'RX')[-1])

        # 1. link up after the broadcast join, with the group's Q_Key and MTU
        for p in (b, c):
            h.wait_for(lambda p=p: info(p)['link'] == '1', timeout=60, interval=0.5,
                       what='link up on %s: %s' % (p.name, p.log()[-2000:]))
            i = info(p)
            h.check_eq(int(i['qkey'], 16), 0x0b1b, '%s: Q_Key of the broadcast group' % p.name)
            h.check_eq(int(i['ud_mtu']), 2044, '%s: UD MTU of a 2048 group' % p.name)
            h.check_eq(int(i['mtu']), 2044, '%s: IP MTU' % p.name)
            h.check_eq(int(i['pkey'], 16), 0xffff, '%s: default P_Key' % p.name)
            h.wait_for(lambda p=p: stats(p)['mcast_joins'] >= 3, timeout=30, interval=0.5,
                       what='%s: broadcast, all-hosts, all-nodes joined' % p.name)
            h.check_eq(stats(p)['link_changes'], 1, '%s: one link change' % p.name)
        ib, ic = info(b), info(c)
        h.info('links up: b lid %s qpn %s, c lid %s qpn %s' % (ib['lid'], ib['qpn'],
                                                               ic['lid'], ic['qpn']))

        if scenario == 'l3':
            l3_resolution(h, b, c, stats, rx)
        elif scenario == 'child':
            osm = children(h, b, c, info, stats, rx, osm,
                           lambda name, extra: start_opensm(h, ns, run, preload, name, extra))
        else:
            eth_exchange(h, b, c, ib, ic, stats, rx)
            groups(h, b, stats, lambda: h.run([ns, run, 'saquery', '-g'],
                                              env={'DPDK_IB_UMAD_PRELOAD': preload},
                                              timeout=30).stdout)
        for p in (b, c):
            answer(h, p, 'QUIT')
            h.wait_for(lambda p=p: not p.alive(), timeout=30, what='%s exits' % p.name)
        h.stop(osm)
        sm_host.write('QUIT\n')
        h.wait_for(lambda: not sm_host.alive(), timeout=30, what='sm_host exits')


def l3_resolution(h, b, c, stats, rx):
    """The L3 view: C's control side resolves 10.0.0.2 by ARP."""
    h.wait_for(lambda: answer(h, c, 'IP4 10.0.0.2 1') and int(rx(b)['ipv4']) >= 1,
               timeout=20, interval=0.5,
               what='B receives C\'s IPv4 after ARP')
    sb, sc = stats(b), stats(c)
    h.check(sb['arp_answered'] >= 1, 'B answered the ARP request: %s' % sb)
    h.check_eq(sb['neigh_added'], 1, 'B learned C from the request')
    h.check_eq(sc['neigh_added'], 1, 'C learned B from the reply')
    h.check_eq(sc['path_queries'], 1, 'C: one PathRecord query')
    h.check_eq(sb['path_queries'], 1, 'B: one PathRecord query')
    h.check_eq(sc['path_errors'] + sb['path_errors'], 0, 'no path error')
    h.info('L3: B %s; C %s' % (sb, sc))


def start_opensm(h, ns, run, preload, name, extra):
    """OpenSM on the SM host, returned once the subnet is up."""
    osm = h.spawn([ns, run, 'opensm', '-F', '/dev/null', '-f', '-', '-d2', '-s', '1'] + extra,
                  name=name, env={'DPDK_IB_UMAD_PRELOAD': preload})
    h.wait_log(osm, 'SUBNET UP', timeout=90)
    return osm


def children(h, b, c, info, stats, rx, osm, opensm):
    """Children on P_Key 0x8001: made before the SM programs the P_Key,
    up when it does; traffic in their partition only; made and destroyed
    at run time."""
    for p in (b, c):
        r = kv(answer(h, p, 'CHILD 8001')[-1])
        h.check_eq(r['name'], 'ib0.8001', '%s: the child\'s name' % p.name)
        h.check_eq(int(r['pkey_index']), 0xffff, '%s: P_Key 0x8001 not in the table yet' % p.name)
        answer(h, p, 'USE 1')
        h.check_eq(info(p)['link'], '0', '%s: the child is down' % p.name)
    # A new SM with the partition (OpenSM's partition file, ipoib flag:
    # it creates the partition's broadcast group).
    conf = h.write_file('partitions.conf',
                        'Default=0x7fff, ipoib : ALL=full ;\n'
                        'P1=0x8001, ipoib : ALL=full ;\n')
    h.stop(osm)
    osm = opensm('opensm2', ['-P', conf])
    for p in (b, c):
        h.wait_for(lambda p=p: info(p)['link'] == '1', timeout=60, interval=0.5,
                   what='%s: the child up once the SM programmed 0x8001' % p.name)
        i = info(p)
        h.check_eq(int(i['pkey'], 16), 0x8001, '%s: child P_Key' % p.name)
        h.check(int(i['pkey_index']) != 0xffff, '%s: child P_Key index %s' % (p.name, i))
        h.check_eq(int(i['ud_mtu']), 2044, '%s: child UD MTU' % p.name)
    ib, ic = info(b), info(c)
    h.check(ib['qpn'] != '0x000014', 'the child has its own QP: %s' % ib['qpn'])
    # B's child asks, C's child hears; C's parent does not.
    answer(h, b, 'ARP 10.1.0.%s' % ic['lid'])
    h.wait_for(lambda: int(rx(c)['arp']) >= 1, timeout=10, interval=0.2,
               what='C\'s child receives the ARP request')
    h.check_eq(rx(c)['arp_src'], ib['mac'], 'from B\'s child')
    h.wait_for(lambda: stats(c)['neigh_added'] >= 1, timeout=10, interval=0.2,
               what='C\'s child learns B\'s child')
    answer(h, c, 'USE 0')
    h.check_eq(int(rx(c)['arp']), 0, 'C\'s parent does not see the partition\'s ARP')
    for p in (b, c):
        answer(h, p, 'USE 0')
        h.check_eq(info(p)['link'], '1', '%s: the parent stays up' % p.name)
    # Destroyed and made again at run time: up at once, the P_Key is there.
    answer(h, b, 'UNCHILD')
    r = kv(answer(h, b, 'CHILD 8001')[-1])
    h.check(int(r['pkey_index']) != 0xffff, 'the new child finds 0x8001: %s' % r)
    answer(h, b, 'USE 1')
    h.wait_for(lambda: info(b)['link'] == '1', timeout=30, interval=0.5,
               what='the re-made child up')
    answer(h, b, 'USE 0')
    h.info('children: down before the SM, up after, own QP, own partition, remade')
    return osm


def groups(h, b, stats, saquery_g):
    """IP groups: rte_ipoib_if_mcast_add()/del() and an MLD report."""
    v4 = 'ff12:401b:ffff::f01:203'   # 239.1.2.3: its low 28 bits (RFC 4391 4)
    v6 = 'ff12:601b:ffff::1:ff00:1234'        # ff02::1:ff00:1234
    joins = stats(b)['mcast_joins']
    answer(h, b, 'MADD 239.1.2.3')
    h.wait_for(lambda: v4 in saquery_g(), timeout=15, interval=0.5,
               what='%s in saquery -g after mcast_add' % v4)
    h.check_eq(stats(b)['mcast_joins'], joins + 1, 'one join for mcast_add')
    answer(h, b, 'MLD ff02::1:ff00:1234')
    h.wait_for(lambda: v6 in saquery_g(), timeout=15, interval=0.5,
               what='%s in saquery -g after an MLD report' % v6)
    answer(h, b, 'MLD ff02::1:ff00:1234')     # reports repeat: one reference
    answer(h, b, 'MDEL 239.1.2.3')
    h.wait_for(lambda: v4 not in saquery_g(), timeout=15, interval=0.5,
               what='%s gone after mcast_del' % v4)
    h.check(v6 in saquery_g(), 'the MLD group stays')
    h.check('ERR' in answer_err(h, b, 'MDEL 239.1.2.3'), 'a second del: ENOENT')
    h.info('groups: mcast_add/del and an MLD report seen in saquery -g')


def answer_err(h, p, cmd):
    """The last line @p answers to @cmd, OK or ERR."""
    start = len(p.log().splitlines())
    p.write(cmd + '\n')
    got = []

    def done():
        new = [ln for ln in p.log().splitlines()[start:]
               if ln.startswith('OK') or ln.startswith('ERR')]
        got[:] = new
        return bool(new)
    h.wait_for(done, timeout=10, what='an answer to %r' % cmd)
    return got[0]


def eth_exchange(h, b, c, ib, ic, stats, rx):
    """The Ethernet view: an ARP request learned, UDP over the path."""
    # 2. an ARP request from B through the broadcast group
    answer(h, b, 'ARP 10.0.0.%s' % ic['lid'])
    h.wait_for(lambda: int(rx(c)['arp']) >= 1, timeout=10, interval=0.2,
               what='C receives the ARP request')
    h.check_eq(rx(c)['arp_src'], ib['mac'], 'the ARP comes from B\'s MAC')
    h.wait_for(lambda: stats(c)['neigh_added'] >= 1, timeout=10, interval=0.2,
               what='C learns B')
    sc = stats(c)
    h.check_eq(sc['neigh_added'], 1, 'C: one neighbour (B)')
    h.check_eq(sc['path_queries'], 1, 'C: one PathRecord query')
    # A copy that comes back (the HCA's multicast loopback) is dropped as
    # looped, one that does not is not delivered either (test_ipoib_dp
    # covers the rule); the switch sends nothing back out its ingress port.
    h.check_eq(int(rx(b)['arp']), 0, 'B does not deliver its own ARP')
    h.info('B: own copies dropped as looped: %d' % stats(b)['looped'])

    # 3. unicast from C to B over the resolved path
    h.wait_for(lambda: int(kv(answer(h, c, 'UDP %s 1' % ib['mac'])[-1])['consumed']) >= 0
               and int(rx(b)['ipv4']) >= 1, timeout=20, interval=0.5,
               what='B receives C\'s UDP')
    rb = rx(b)
    h.check(rb['ipv4_src'].startswith('06:'),
            'B: source MAC derived from (SLID, QPN): %s' % rb['ipv4_src'])
    sc = stats(c)
    h.check_eq(sc['path_errors'], 0, 'C: no path error')
    h.check_eq(sc['path_queries'], 1, 'C: still one PathRecord query')
    h.info('C resolved B: %s; B got %s IPv4 from %s' % (sc, rb['ipv4'], rb['ipv4_src']))


if __name__ == '__main__':
    main()
