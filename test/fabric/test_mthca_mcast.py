#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-3-Clause
# Copyright(c) 2026 The dpdk-ipoib authors
"""Multicast on net_mthca (issue 13): attach and detach through the rte_ib
device ops, with the group joined through librte_ibmad's SA client.

Two DPDK hosts (sa_host on hosta and hostb, each on its own simulated
MT25208), OpenSM attached through umad2sim to the passive CA (the joins
are single MADs both ways: no RMPP needed).

1. Both hosts join MGID with an MCMemberRecord Set that creates the group
   with net_mthca's default Q_Key; the SA answers the MLID and Q_Key.
2. hostb attaches its rx queue's UD QP to MGID/MLID (rte_ib_mcast_attach,
   the PMD's MGM entry written with WRITE_MGM): the model now counts one
   multicast group with one QP for hostb's function ("hca hostb
   resources").
3. hosta sends datagrams to the MLID with a GRH to MGID, DQPN 0xffffff
   and the group's Q_Key: hostb receives every one, payload verified, each
   with the GRH flag and the MGID as the GRH's DGID.
4. hostb detaches: the model's counts are back to zero, and hostb receives
   none of what hosta sends next.
5. Both leave.

usage: test_mthca_mcast.py <ibfabric> <netfile> <sa_host>
"""

import os
import sys
import time

from simlib import Fabric, Harness, find_umad2sim, start_opensm
from test_sa_client import answer, kv

HOSTS = (('hosta', '0000:10:00.0'), ('hostb', '0000:11:00.0'))
MGID = 'ff12:601b:ffff::1:ff00:1313'
QKEY = 0x0b1b          # net_mthca's default Q_Key: what its UD QPs accept
COUNT = 200


def resources(fab, node):
    out = fab.ctl.cmd('hca "%s" resources' % node)
    line = next(x for x in out if x.startswith('hca_resources '))
    return {k: int(v) for k, v in (f.split('=', 1) for f in line.split()[2:])}


def exchange(h, src, dst, mlid, qkey, count, ms):
    """@src sends @count datagrams to the group; what @dst got in @ms."""
    seen = len(dst.log().splitlines())
    dst.write('MRECV %s %d %d\n' % (MGID, count, ms))
    answer(h, src, 'MSEND %s %x %x %d 256' % (MGID, mlid, qkey, count), timeout=60)

    def done():
        return next((x for x in dst.log().splitlines()[seen:]
                     if x.startswith(('OK mrecv', 'ERR'))), None)
    line = h.wait_for(done, timeout=ms / 1000 + 30, what='MRECV on the receiver')
    h.check(line.startswith('OK'), line)
    return {k: int(v) for k, v in kv(line).items()}


def main():
    ibfabric, netfile, sa_host = (os.path.abspath(a) for a in sys.argv[1:4])
    with Harness('mthca_mcast', timeout=280) as h:
        lib = find_umad2sim(h)
        root = h.path('pci')
        fab = Fabric(h, ibfabric, netfile, tag='mcast', extra=['--pci-root', root])
        h.wait_for(lambda: all(os.path.exists(os.path.join(root, b, 'iommu.sock'))
                               for _, b in HOSTS), timeout=10, what='the PCI functions')
        start_opensm(h, fab, lib, 'ca-sm', sweep=1)
        hosts = {}
        for name, bdf in HOSTS:
            hosts[name] = h.spawn([sa_host, '--no-huge', '-m', '256', '--file-prefix',
                                   'mcast%s%d' % (name, os.getpid()), '-a', bdf],
                                  name=name, stdin=True, env={'SYSFS_PCI_DEVICES': root})
        for p in hosts.values():
            h.wait_log(p, 'READY', timeout=120)
        a, b = hosts['hosta'], hosts['hostb']

        # 1. joins through the SA client
        jb = kv(answer(h, b, 'JOINQ %s %x' % (MGID, QKEY))[-1])
        mlid, qkey = int(jb['mlid'], 16), int(jb['qkey'], 16)
        h.check(mlid >= 0xc000, 'a multicast LID: 0x%x' % mlid)
        h.check_eq(qkey, QKEY, 'the group\'s Q_Key from the join')
        ja = kv(answer(h, a, 'JOINQ %s %x' % (MGID, QKEY))[-1])
        h.check_eq(int(ja['mlid'], 16), mlid, 'the second member\'s MLID')

        # 2. attach: one group, one QP in hostb's model
        base = resources(fab, 'hostb')
        h.check_eq((base['mcgs'], base['mcg_qps']), (0, 0), 'hostb multicast before attach')
        answer(h, b, 'ATTACH %s %x' % (MGID, mlid))
        res = resources(fab, 'hostb')
        h.check_eq((res['mcgs'], res['mcg_qps']), (1, 1), 'hostb multicast after attach')

        # 3. hosta -> the group: every datagram reaches hostb, with the GRH.
        # OpenSM programs the switch's MFT after the joins: a first probe
        # until the path is there.
        deadline = time.monotonic() + 30
        while exchange(h, a, b, mlid, qkey, 5, 1000)['got'] == 0:
            h.check(time.monotonic() < deadline, 'no multicast datagram reached hostb in 30 s')
        got = exchange(h, a, b, mlid, qkey, COUNT, 20000)
        h.info('attached: %s' % got)
        h.check_eq(got, {'got': COUNT, 'grh': COUNT, 'bad': 0},
                   'datagrams to the group while attached')

        # 4. detach: nothing more in hostb's MGM, nothing received
        answer(h, b, 'DETACH %s %x' % (MGID, mlid))
        res = resources(fab, 'hostb')
        h.check_eq((res['mcgs'], res['mcg_qps']), (0, 0), 'hostb multicast after detach')
        got = exchange(h, a, b, mlid, qkey, COUNT, 3000)
        h.info('detached: %s' % got)
        h.check_eq(got, {'got': 0, 'grh': 0, 'bad': 0}, 'datagrams to the group after detach')

        # 5. leave
        for p in (a, b):
            answer(h, p, 'LEAVE %s' % MGID)
            p.write('QUIT\n')
            h.wait_for(lambda: not p.alive(), timeout=30, what='sa_host to exit')
            h.check_eq(p.popen.returncode, 0, 'sa_host exit status')


if __name__ == '__main__':
    main()
