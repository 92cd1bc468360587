#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-3-Clause
# Copyright(c) 2026 The dpdk-ipoib authors
"""Answers come from whom the request went to (issue 29): a DPDK host
(sa_host on hosta, the MAD core of librte_ibmad) sends a request from an
agent to ca-peer, whose ibsim-protocol client (test/lib/u2sclient.py, a
sockets) answers it; ca-evil's client (test/fabric/mad_forger.py, a
process of its own) forges GetResp answers from its own LID while the
request is outstanding:

  guessed   128 answers with the TIDs a counter-based stack hands out
            first (high part 1..16, low part 1..8, as librte_ibmad did
            before: agents numbered from 1, each one's TIDs from 1)
  observed  one answer with the very TID of the request, as a snooper
            of the wire (or a predictable sequence) knows it: read from
            the request ca-peer received

The host must take none of them (it counts them, rx_bad_source when
the TID and class are those of the request) and still complete the
request with ca-peer's real answer (its SLID, its payload byte 0x5a).
OpenSM (under libumad2sim, on ca-sm) brings the ports up.

usage: test_mad_trust.py guessed|observed <ibfabric> <netfile> <sa_host>
"""

import os
import struct
import sys
import time

from simlib import Fabric, Harness, find_umad2sim, start_opensm
from u2sclient import U2SClient

BDF = '0000:10:00.0'       # hosta
CLASS = 0x09               # vendor range 1: no firmware agent on a passive CA
REAL = 0x5a
FORGER = os.path.join(os.path.dirname(os.path.abspath(__file__)), 'mad_forger.py')


def kv_line(text, prefix):
    """key=value words of the first line of @text that starts with @prefix."""
    line = next(ln for ln in text.splitlines() if ln.startswith(prefix))
    return dict(w.split('=', 1) for w in line.split()[1:] if '=' in w)


def answer_of(mad, data):
    """The GetResp to @mad (a Get) carrying @data at byte 64."""
    r = bytearray(mad)
    r[3] = 0x81
    r[64] = data
    return bytes(r)


def start_bed(h, ibfabric, netfile, sa_host, tag):
    """The fabric of @netfile (test/data/trust.net), OpenSM on ca-sm under
    libumad2sim, and the DPDK host (sa_host, lib.ibmad's debug log) on
    hosta's HCA once READY: (fab, host)."""
    lib = find_umad2sim(h)
    root = h.path('pci')
    fab = Fabric(h, ibfabric, netfile, tag=tag, extra=['--pci-root', root])
    h.wait_for(lambda: os.path.exists(os.path.join(root, BDF, 'iommu.sock')),
               timeout=10, what='the simulated PCI function')
    start_opensm(h, fab, lib, 'ca-sm', sweep=1)
    host = h.spawn([sa_host, '--no-huge', '-m', '256', '--file-prefix',
                    '%s%d' % (tag, os.getpid()), '-a', BDF,
                    '--log-level=lib.ibmad:debug'],
                   name='sa_host', stdin=True, env={'SYSFS_PCI_DEVICES': root})
    h.wait_log(host, 'READY', timeout=120)
    return fab, host


def main():
    scenario = sys.argv[1]
    ibfabric, netfile, sa_host = (os.path.abspath(a) for a in sys.argv[2:5])
    if scenario not in ('guessed', 'observed'):
        raise SystemExit('scenario: guessed or observed, not %r' % scenario)
    with Harness('mad_trust_' + scenario, timeout=240) as h:
        fab, host = start_bed(h, ibfabric, netfile, sa_host, 'trust')
        host_lid = int(kv_line(host.log(), 'READY')['lid'])

        def lid_of(node):
            return int([p for p in fab.ports(node) if p['num'] == '1'][0]['lid'])
        peer_lid, evil_lid = lid_of('ca-peer'), lid_of('ca-evil')
        # Requests to QP1 of a passive CA go to an issm client (ibsim's rule).
        peer = U2SClient(fab.sock)
        h.on_teardown(peer.close)
        h.check(peer.connect('ca-peer', issm=1), 'ca-peer client attached')
        evil = h.spawn([sys.executable, FORGER, fab.sock, 'ca-evil'], name='forger',
                       stdin=True)
        h.wait_log(evil, 'ATTACHED', timeout=10)

        start = len(host.log().splitlines())
        host.write('MAD %d %x 20000\n' % (peer_lid, CLASS))
        sent = h.wait_for(lambda: next((ln for ln in host.log().splitlines()[start:]
                                        if ln.startswith(('SENT', 'ERR'))), None),
                          timeout=30, what='the host sending its request')
        h.check(sent.startswith('SENT'), 'host: %s' % sent)
        got = peer.recv_mad(timeout=10)
        h.check(got is not None, 'ca-peer received no request')
        req = got[1]
        tid = struct.unpack('>Q', req[8:16])[0]
        h.check_eq(tid, int(kv_line(sent, 'SENT')['tid'], 16), 'TID on the wire')
        h.info('request TID 0x%016x from LID %d to ca-peer LID %d; ca-evil LID %d'
               % (tid, host_lid, peer_lid, evil_lid))

        if scenario == 'guessed':
            tids = ['%x' % (hi << 32 | lo) for hi in range(1, 17) for lo in range(1, 9)]
        else:
            tids = ['%x' % tid]
        evil.write('%d %s %s\n' % (host_lid, req.hex(), ' '.join(tids)))
        h.wait_log(evil, 'FORGED %d' % len(tids), timeout=10)
        h.info('ca-evil (LID %d) sent %d answers with %s TIDs'
               % (evil_lid, len(tids), scenario))

        # Give the forgeries time to arrive and be judged.
        time.sleep(1.0)
        done = [ln for ln in host.log().splitlines()[start:] if ln.startswith('MAD ')]
        h.check(not done, 'the host took a forged answer: %s' % done)
        # Each forgery reached the host and was dropped by name (the MAD
        # core's debug log): a TID of nobody's, or the request's TID from
        # another LID.
        log = host.log()
        seen = log.count('matches no send') + log.count('not the LID the request went to')
        h.check(seen >= len(tids), 'the host saw %d of the %d forgeries' % (seen, len(tids)))
        if scenario == 'observed':
            h.check('not the LID the request went to' in log,
                    'the host did not drop the forged answer as from another LID')

        peer.send_mad(answer_of(req, REAL), dlid=host_lid, dqp=1, sqp=1)
        line = h.wait_for(lambda: next((ln for ln in host.log().splitlines()[start:]
                                        if ln.startswith(('MAD ', 'ERR'))), None),
                          timeout=30, what='the host completing its request')
        h.check(line.startswith('MAD '), 'host: %s' % line)
        res = kv_line(line, 'MAD')
        h.check_eq(int(res['slid']), peer_lid, 'the answer came from ca-peer')
        h.check_eq(int(res['data'], 16), REAL, 'the answer is ca-peer\'s')
        h.info('completed by ca-peer: %s' % line)
        host.write('QUIT\n')
        h.wait_for(lambda: not host.alive(), timeout=30, what='sa_host exits')


if __name__ == '__main__':
    main()
