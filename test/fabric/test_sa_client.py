#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-3-Clause
# Copyright(c) 2026 The dpdk-ipoib authors
"""The SA client of librte_ibmad (rte_ibmad_sa.h, issue 14) against the
real OpenSM's SA, checked against saquery asking the same SA the same
questions from the same DPDK host (through the user-MAD service and
usertools/dpdk-ib-ns):

1. PathRecord GetTable from the host to the SM's node: the fields the
   client unpacks (DLID, SLID, SL, MTU, rate, P_Key, PacketLifeTime)
   equal saquery's;
2. MCMemberRecord Set (a full-member join of a new group, with the
   broadcast group's parameters as IPoIB joins): the group appears in
   saquery -g with the MLID the client was given; Get returns it;
3. MCMemberRecord Delete (leave): the group is gone from saquery -g;
4. PathRecord Get to every CA port with 64 queries in flight for 0.6 s
   (sa_host's QPS command, started again from each callback, as
   test/bench/bench_sa_qps.py runs it): every answer is the path asked
   for (SLID, DLID, SGID, DGID), no error, no time-out.

OpenSM runs on a first DPDK host (sa_host, idle, on hosta) through the
user-MAD service, so that its SA answers with real RMPP (an OpenSM behind
libumad2sim leaves the RMPP headers to a kernel that is not there); the
SA client runs in a second sa_host, on hostb.

usage: test_sa_client.py <ibfabric> <netfile> <sa_host> <preload> <dpdk-ib-ns>
"""

import ipaddress
import os
import re
import subprocess
import sys
import time

from simlib import Fabric, Harness, sa_host_answer as answer

BDF = '0000:11:00.0'       # hostb: the SA client
SM_BDF = '0000:10:00.0'    # hosta: OpenSM
MGID = 'ff12:601b:ffff::1:ff00:abcd'


def kv(line):
    return dict(w.split('=', 1) for w in line.split()[1:] if '=' in w)


def sq_field(text, name):
    m = re.search(r'^\s*%s\.+(\S+)' % re.escape(name), text, re.M)
    return m.group(1) if m else None


class SaSetup:
    """ibfabric on @netfile; OpenSM on a first DPDK host (sa_host idle, on
    hosta) through the user-MAD service, so that its SA answers with real
    RMPP (an OpenSM behind libumad2sim leaves the RMPP headers to a kernel
    that is not there); the SA client in a second sa_host, on hostb, READY
    and seen in its sysfs tree (saquery finds the SA there). @tag names
    the run's files. Also used by test_mcast_join.py."""

    def __init__(self, h, ibfabric, netfile, sa_host, preload, ns, tag):
        for prog in ('opensm', 'saquery', 'unshare'):
            h.need_program(prog)
        self.h, self.ns = h, ns
        root = h.path('pci')
        self.fab = Fabric(h, ibfabric, netfile, tag=tag, extra=['--pci-root', root])
        h.wait_for(lambda: os.path.exists(os.path.join(root, BDF, 'iommu.sock')),
                   timeout=10, what='the simulated PCI function')
        self.runs = runs = {}
        for k in ('sm', 'client'):
            runs[k] = h.path('umad-' + k)
            os.makedirs(runs[k])
            h.on_teardown(lambda d=runs[k]: subprocess.run(
                ['umount', '-l', os.path.join(d, 'dev')], stderr=subprocess.DEVNULL))
        self.env = {'DPDK_IB_UMAD_PRELOAD': preload}
        self.sm_host = h.spawn([sa_host, '--no-huge', '-m', '256', '--file-prefix',
                                '%ssm%d' % (tag, os.getpid()), '-a', SM_BDF, '--', 'idle'],
                               name='sm_host', stdin=True,
                               env={'SYSFS_PCI_DEVICES': root, 'DPDK_IB_UMAD_DIR': runs['sm']})
        h.wait_for(lambda: os.path.exists(os.path.join(runs['sm'], 'dev', 'umad0')),
                   timeout=60, what='umad0 of the SM host')
        self.osm = self.opensm('opensm')
        run = runs['client']
        self.host = h.spawn([sa_host, '--no-huge', '-m', '256', '--file-prefix',
                             '%s%d' % (tag, os.getpid()), '-a', BDF,
                             '--log-level=lib.ibmad:info'],
                            name='sa_host', stdin=True,
                            env={'SYSFS_PCI_DEVICES': root, 'DPDK_IB_UMAD_DIR': run})
        h.wait_log(self.host, 'READY', timeout=120)
        self.ready = kv([ln for ln in self.host.log().splitlines()
                         if ln.startswith('READY')][0])

        def sysfs_sm_lid():
            for d in os.listdir(os.path.join(run, 'sys/class/infiniband')):
                with open(os.path.join(run, 'sys/class/infiniband', d, 'ports/1/sm_lid')) as f:
                    return int(f.read(), 0)
            return 0
        # saquery finds the SA through sysfs, which follows the port within 1 s
        h.wait_for(lambda: sysfs_sm_lid() != 0, timeout=10, what='sm_lid in sysfs')

    def opensm(self, name):
        """Start OpenSM on the SM host; return it once the subnet is up."""
        p = self.h.spawn([self.ns, self.runs['sm'], 'opensm', '-F', '/dev/null', '-f', '-',
                          '-d2', '-s', '1'], name=name, env=self.env)
        self.h.wait_log(p, 'SUBNET UP', timeout=90)
        return p

    def saquery(self, args):
        """saquery from the SA client's host."""
        return self.h.run([self.ns, self.runs['client'], 'saquery'] + args,
                          env=self.env, timeout=30).stdout


def main():
    ibfabric, netfile, sa_host, preload, ns = (os.path.abspath(a) for a in sys.argv[1:6])
    with Harness('sa_client', timeout=240) as h:
        sa = SaSetup(h, ibfabric, netfile, sa_host, preload, ns, 'sac')
        fab, host, ready = sa.fab, sa.host, sa.ready
        lid, sm_lid = int(ready['lid']), int(ready['sm_lid'])
        casm = int([p for p in fab.ports('ca-sm') if p['num'] == '1'][0]['lid'])
        sm_port = int([p for p in fab.ports('hosta') if p['num'] == '1'][0]['lid'])
        h.check_eq(sm_lid, sm_port, 'the host found the SM on hosta')

        saquery = sa.saquery

        # 1. PathRecord
        ours = [kv(ln) for ln in answer(h, host, 'PR %d' % casm) if ln.startswith('PR ')]
        h.check(len(ours) >= 1, 'the SA client got no PathRecord')
        theirs = saquery(['--src-to-dst', '%d:%d' % (lid, casm)])
        h.check('PathRecord dump' in theirs, 'saquery PR: %r' % theirs)
        p = ours[0]
        for name, key, mask in (('dlid', 'dlid', None), ('slid', 'slid', None),
                                ('sl', 'sl', None), ('mtu', 'mtu', 0x3f),
                                ('rate', 'rate', 0x3f), ('pkey', 'pkey', None),
                                ('pkt_life', 'pkt_life', 0x3f)):
            v = int(sq_field(theirs, name), 0)
            if mask is not None:
                v &= mask
            h.check_eq(int(p[key], 0), v, 'PathRecord %s: SA client vs saquery' % name)
        h.info('PathRecord %d -> %d equal in %d fields' % (lid, casm, 7))

        # 2. join
        joined = kv(answer(h, host, 'JOIN %s' % MGID)[-1])
        mlid = int(joined['mlid'], 16)
        h.check(mlid >= 0xc000, 'a multicast LID: 0x%x' % mlid)
        groups = saquery(['-g'])
        m = re.search(r'MGID\.+%s\s*\n\s*Mlid\.+(0x[0-9A-Fa-f]+)' % re.escape(MGID), groups)
        h.check(m is not None, 'saquery -g lacks %s: %r' % (MGID, groups))
        h.check_eq(int(m.group(1), 16), mlid, 'MLID: SA client vs saquery')
        got = kv([ln for ln in answer(h, host, 'MC %s' % MGID) if ln.startswith('MC ')][0])
        h.check_eq(int(got['mlid'], 16), mlid, 'Get of the group')

        # 3. leave
        answer(h, host, 'LEAVE %s' % MGID)

        def gone():
            return MGID not in saquery(['-g'])
        h.wait_for(gone, timeout=10, interval=0.5, what='%s gone from the SA' % MGID)

        # 4. many queries in flight
        dests = ['%s %s' % (p['lid'], ipaddress.IPv6Address((0xfe80 << 112) |
                                                          int(p['guid'], 16)))
                 for n in fab.nodes() if n['type'] == 'ca'
                 for p in fab.ports(n['name']) if p['state'] == 'ACTIVE']
        dest_file = h.write_file('dests.txt', '\n'.join(dests) + '\n')
        res = kv(answer(h, host, 'QPS %s 600 64' % dest_file, timeout=60)[-1])
        h.info('%d ports, 64 in flight: %s' % (len(dests), res))
        for k in ('errors', 'timeouts', 'bad', 'send_errors'):
            h.check_eq(int(res[k]), 0, 'QPS %s' % k)
        h.check(int(res['done']) >= 64, 'QPS: %s answers in 0.6 s' % res['done'])
        answer(h, host, 'QUIT')
        h.wait_for(lambda: not host.alive(), timeout=30, what='sa_host exits')


if __name__ == '__main__':
    main()
