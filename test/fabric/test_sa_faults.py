#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-3-Clause
# Copyright(c) 2026 The dpdk-ipoib authors
"""The SM dies and another takes over (issue 14, the seeds' update_sm_ah()
and client reregister, IBA 14.4.11): three DPDK hosts (sa_host) on one
switch (test/data/hca3.net).

1. OpenSM runs on host A (hosta) through usertools/dpdk-ib-ns; host C
   (hostc) runs the SA client: PathRecord to the passive CA succeeds,
   and an InformInfo subscription to trap 64 (GID in service) shows at
   A's SA as one InformInfoRecord with C's port GID (saquery IIR);
2. OpenSM is SIGKILLed on A (issm closed, IsSM cleared) and a new OpenSM
   starts on host B (hostb): C sees the port events SM_CHANGE (to B's
   LID) and CLIENT_REREGISTER, the SA client moves its SM address to B's
   LID (its log), re-subscribes by itself: B's SA holds exactly one
   InformInfoRecord for C, trap 64; a PathRecord query afterwards
   succeeds;
3. no stale state on the wire: a capture of C's port from the kill to
   the end holds SA requests from C (the re-subscription and the query)
   and every one of them is addressed to B's LID, none to A's.

usage: test_sa_faults.py <ibfabric> <netfile> <sa_host> <preload> <dpdk-ib-ns>
"""

import ipaddress
import os
import re
import struct
import subprocess
import sys

from pcaplib import read_pcap
from simlib import Fabric, Harness
from test_sa_client import answer, kv     # sa_host's command protocol

BDFS = {'a': '0000:10:00.0', 'b': '0000:11:00.0', 'c': '0000:12:00.0'}
CLASS_SUBN_ADM = 0x03
TRAP_GID_IN_SERVICE = 64


def sa_requests(path, slid):
    """(DLID, method, attribute) of every SA request @slid sent in a capture
    (LRH, BTH, DETH, then the MAD; IBA 7.7, 9.2, 9.3, 13.4.2)."""
    _, pkts = read_pcap(path)
    out = []
    for pkt, _ in pkts:
        if len(pkt) < 8 + 12 + 8 + 24 or (pkt[1] & 3) != 2:   # LNH: IBA local
            continue
        dlid, slid_ = struct.unpack('>H', pkt[2:4])[0], struct.unpack('>H', pkt[6:8])[0]
        mad = pkt[8 + 12 + 8:]
        if slid_ != slid or mad[1] != CLASS_SUBN_ADM or mad[3] & 0x80:
            continue
        out.append((dlid, mad[3], struct.unpack('>H', mad[16:18])[0]))
    return out


def main():
    ibfabric, netfile, sa_host, preload, ns = (os.path.abspath(a) for a in sys.argv[1:6])
    with Harness('sa_faults', timeout=240) as h:
        for prog in ('opensm', 'saquery', 'unshare'):
            h.need_program(prog)
        root = h.path('pci')
        fab = Fabric(h, ibfabric, netfile, tag='saf', extra=['--pci-root', root])
        h.wait_for(lambda: all(os.path.exists(os.path.join(root, b, 'iommu.sock'))
                               for b in BDFS.values()),
                   timeout=10, what='the simulated PCI functions')
        env = {'DPDK_IB_UMAD_PRELOAD': preload}
        runs, hosts = {}, {}
        for k in ('a', 'b', 'c'):
            runs[k] = h.path('umad-' + k)
            os.makedirs(runs[k])
            h.on_teardown(lambda d=runs[k]: subprocess.run(
                ['umount', '-l', os.path.join(d, 'dev')], stderr=subprocess.DEVNULL))
        for k in ('a', 'b'):
            hosts[k] = h.spawn([sa_host, '--no-huge', '-m', '256', '--file-prefix',
                                'saf%s%d' % (k, os.getpid()), '-a', BDFS[k], '--', 'idle'],
                               name='host_' + k, stdin=True,
                               env={'SYSFS_PCI_DEVICES': root, 'DPDK_IB_UMAD_DIR': runs[k]})
        for k in ('a', 'b'):
            h.wait_for(lambda k=k: os.path.exists(os.path.join(runs[k], 'dev', 'umad0')),
                       timeout=60, what='umad0 of host %s' % k)

        def opensm(k):
            p = h.spawn([ns, runs[k], 'opensm', '-F', '/dev/null', '-f', '-', '-d2',
                         '-s', '1'], name='opensm_' + k, env=env)
            h.wait_log(p, 'SUBNET UP', timeout=90)
            return p

        def port(node):
            return [p for p in fab.ports(node) if p['num'] == '1'][0]

        def saquery(k, args):
            return h.run([ns, runs[k], 'saquery'] + args, env=env, timeout=30).stdout

        osm_a = opensm('a')
        host = h.spawn([sa_host, '--no-huge', '-m', '256', '--file-prefix',
                        'safc%d' % os.getpid(), '-a', BDFS['c'],
                        '--log-level=lib.ibmad:info'],
                       name='host_c', stdin=True,
                       env={'SYSFS_PCI_DEVICES': root, 'DPDK_IB_UMAD_DIR': runs['c']})
        h.wait_log(host, 'READY', timeout=120)
        ready = kv([ln for ln in host.log().splitlines() if ln.startswith('READY')][0])
        lid_a, lid_b = int(port('hosta')['lid']), int(port('hostb')['lid'])
        lid_c, casm = int(ready['lid']), int(port('ca-sm')['lid'])
        gid_c = ipaddress.IPv6Address(ready['gid'])
        h.check_eq(int(ready['sm_lid']), lid_a, 'host C found the SM on A')
        h.check(lid_b not in (0, lid_a), 'host B has its own LID: %d' % lid_b)

        def subscriptions(k):
            """InformInfoRecords at host k's SA whose subscriber is C."""
            out = saquery(k, ['IIR'])
            gids = [ipaddress.IPv6Address(g) for g in
                    re.findall(r'SubscriberGID\.+(\S+)', out, re.I)]
            return sum(1 for g in gids if g == gid_c), out

        # 1. under A's SM
        h.check(len([ln for ln in answer(h, host, 'PR %d' % casm)
                     if ln.startswith('PR ')]) >= 1, 'a PathRecord from A\'s SA')
        answer(h, host, 'SUB %d' % TRAP_GID_IN_SERVICE)
        h.wait_for(lambda: subscriptions('a')[0] == 1, timeout=10, interval=0.5,
                   what="C's subscription at A's SA: %s" % subscriptions('a')[1][-600:])

        # 2. A's OpenSM killed, B's started; C's port captured meanwhile
        cap = h.path('hostc.pcap')
        fab.ctl.cmd('capture start "hostc" 1 %s' % cap)
        mark = len(host.log().splitlines())
        h.stop(osm_a, sig=9)
        h.wait_for(lambda: not int(port('hosta')['cap_mask'], 16) & 0x2, timeout=10,
                   what='IsSM cleared on A after the kill')
        osm_b = opensm('b')

        def seen(pattern):
            return any(re.search(pattern, ln) for ln in host.log().splitlines()[mark:])
        h.wait_for(lambda: seen(r'^EVENT SM_CHANGE port=1 .*sm_lid=%d$' % lid_b), timeout=20,
                   what="C's SM_CHANGE event to B's LID %d" % lid_b)
        h.wait_for(lambda: seen(r'^EVENT CLIENT_REREGISTER port=1 '), timeout=20,
                   what="C's CLIENT_REREGISTER event")
        h.wait_for(lambda: seen(r'SA address now LID %d \(was %d\)' % (lid_b, lid_a)),
                   timeout=10, what="C's SA client moving to B's LID")
        h.info('C after the kill: %s' % ' | '.join(
            ln for ln in host.log().splitlines()[mark:]
            if ln.startswith('EVENT') or 'SA address' in ln))
        h.check(not seen(r'InformInfo for trap'), 'a re-subscription failed: %s' %
                '\n'.join(host.log().splitlines()[mark:]))
        h.wait_for(lambda: subscriptions('b')[0] == 1, timeout=15, interval=0.5,
                   what="C's subscription re-sent to B's SA: %s" % subscriptions('b')[1][-600:])
        prs = [kv(ln) for ln in answer(h, host, 'PR %d' % casm) if ln.startswith('PR ')]
        h.check(len(prs) >= 1 and int(prs[0]['slid']) == lid_c and
                int(prs[0]['dlid']) == casm, 'PathRecord from B\'s SA: %r' % prs)
        fab.ctl.cmd('capture stop "hostc" 1')

        # 3. on the wire, every SA request C sent went to B
        reqs = sa_requests(cap, lid_c)
        h.info('SA requests from C after the kill: %s' %
               ', '.join('LID %d method 0x%02x attr 0x%04x' % r for r in reqs))
        h.check(any(m == 0x02 and a == 0x0003 for _, m, a in reqs),
                'the re-subscription (Set InformInfo) on the wire: %r' % reqs)
        h.check(any(m == 0x12 and a == 0x0035 for _, m, a in reqs),
                'the PathRecord GetTable on the wire: %r' % reqs)
        stale = [r for r in reqs if r[0] != lid_b]
        h.check(not stale, 'SA requests not sent to the new SM (LID %d): %r' % (lid_b, stale))
        h.info('C: SM LID %d -> %d, %d SA requests after the change, all to %d' %
               (lid_a, lid_b, len(reqs), lid_b))

        answer(h, host, 'QUIT')
        h.stop(osm_b)
        for k in ('a', 'b'):
            hosts[k].write('QUIT\n')
        for p in (host, hosts['a'], hosts['b']):
            h.wait_for(lambda p=p: not p.alive(), timeout=30, what='%s exits' % p.name)


if __name__ == '__main__':
    main()
