#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-3-Clause
# Copyright(c) 2026 The dpdk-ipoib authors
"""Hostile and careless ibsim-protocol clients cannot freeze ibfabric or
speak for another client (issue 15; doc/guides/tools/ibfabric.rst,
"Clients that misbehave"). Each scenario is what a local process can
do with real sockets (test/lib/u2sclient.py), next to real OpenSM and
diags under libumad2sim.

usage: test_hostile_u2s.py SCENARIO IBFABRIC NETFILE

  impostor    a process claims OpenSM's pid in CONNECT, then sends
              DISCONNECT and SET_ISSM(0) for OpenSM's slot: refused,
              OpenSM keeps its slot and IsSM
  full-table  64 clients attach and die without DISCONNECT; a new
              client is taken at once (a full table reaps first)
  slow-reader a client floods SMPs and reads one reply every 300 ms;
              another client's round trips stay fast
  ibping-sm   "ibping <SM's LID>" (vendor class 0x32, which OpenSM has
              no agent for) fails cleanly and OpenSM survives it
"""

import os
import signal
import socket
import sys
import time

from simlib import Fabric, Harness, find_umad2sim, first_ca, start_opensm
from u2sclient import CTL_SET_ISSM, U2SClient, dr_smp_get, sim_request

ATTR_NODE_INFO = 0x0011
SLOTS = 64


def clients(fab):
    return {int(c['slot']): c for c in fab.ctl.records('show clients', 'client')}


def sm_slot(fab, pid):
    for slot, c in clients(fab).items():
        if int(c['pid']) == pid:
            return slot
    return None


def impostor(h, fab, lib, ca):
    osm, _ = start_opensm(h, fab, lib, ca)
    slot = sm_slot(fab, osm.pid)
    h.check(slot is not None, 'OpenSM not in show clients')
    x = U2SClient(fab.sock)
    # CONNECT claiming OpenSM's pid (its data socket name is ours to bind
    # only for our own pid: bind in<our pid>, claim the other).
    ok = x.connect(ca, claim=osm.pid)
    h.check(not ok, 'a CONNECT claiming OpenSM\'s pid %d was accepted' % osm.pid)
    h.check_eq(sm_slot(fab, osm.pid), slot, 'OpenSM\'s slot after the borrowed-pid CONNECT')
    # Speak for OpenSM's slot from our own socket.
    rtype, _ = x.call(slot, CTL_SET_ISSM, b'\0\0\0\0', 4)
    h.check_eq(rtype, 0, 'reply type to a foreign SET_ISSM(0) (0 = ERROR)')
    h.check_eq(x.disconnect(slot), 0, 'reply type to a foreign DISCONNECT (0 = ERROR)')
    c = clients(fab).get(slot)
    h.check(c is not None and int(c['pid']) == osm.pid and c['issm'] == '1',
            'OpenSM lost its slot or IsSM: %r' % c)
    h.check(osm.alive(), 'OpenSM died')
    r = h.run(['sminfo'], env=fab.env(lib, ca), timeout=30)
    h.check('SMINFO_MASTER' in r.stdout, 'sminfo after the attempts: %r' % r.stdout)
    x.close()


def full_table(h, fab, lib, ca):
    """Judged by counts, not by time: the table is seen full of dead
    clients right before a live one connects, and the connect succeeds;
    only a reap at CONNECT can have made room, unless umad2sim's 1 s
    liveness check ran in the few milliseconds between."""
    def dead_client(i):
        r, w = os.pipe()
        pid = os.fork()
        if pid == 0:
            os.close(r)
            try:
                c = U2SClient(fab.sock)
                os.write(w, b'1' if c.connect(ca) else b'0')
            finally:
                os._exit(0)         # no DISCONNECT: the process vanishes
        os.close(w)
        got = os.read(r, 1)
        os.close(r)
        os.waitpid(pid, 0)
        h.check_eq(got, b'1', 'client %d attached' % i)

    # The liveness check may free slots while the table fills: fill it
    # again until one listing shows every slot held by a dead process.
    for _ in range(5):
        held = len(clients(fab))
        if held == SLOTS:
            break
        for i in range(SLOTS - held):
            dead_client(i)
    h.check_eq(len(clients(fab)), SLOTS, 'slots held by dead clients before the connect')
    t0 = time.monotonic()
    c = U2SClient(fab.sock)
    ok = c.connect(ca)
    dt = time.monotonic() - t0
    h.check(ok, 'a full table of dead clients refused a live one')
    table = clients(fab)
    h.check_eq(int(table[c.slot]['pid']), os.getpid(), 'our slot')
    h.check_eq(len(table), 1, 'slots held after the connect (the dead reaped)')
    h.info('a table of %d dead clients, then CONNECT: taken in %.1f ms, the dead reaped' %
           (SLOTS, dt * 1000))
    c.close()


def slow_reader(h, fab, lib, ca):
    r, w = os.pipe()
    pid = os.fork()
    if pid == 0:
        # The flooder, its own process: SMPs to its own node's SMA, never
        # waiting for room, reading one reply every 300 ms.
        try:
            os.close(r)
            slow = U2SClient(fab.sock)
            os.write(w, b'%d\n' % slow.slot if slow.connect(ca) else b'-1\n')
            tid = 1
            end = time.monotonic() + 8
            while time.monotonic() < end:
                for _ in range(64):
                    try:
                        slow.data.send(sim_request(dr_smp_get(ATTR_NODE_INFO, tid)),
                                       socket.MSG_DONTWAIT)
                    except (BlockingIOError, socket.timeout):
                        break       # its own sends may wait: that is its business
                    tid += 1
                time.sleep(0.3)
                slow.recv_mad(timeout=0.01)
        finally:
            os._exit(0)
    os.close(w)
    try:
        slot = int(os.read(r, 32).decode().strip())
        h.check(slot >= 0, 'slow client attached')
        time.sleep(1)               # let its queue fill
        fast = U2SClient(fab.sock)
        h.check(fast.connect(first_other_ca(fab, ca)), 'fast client attached')
        worst = 0.0
        for i in range(40):
            t0 = time.monotonic()
            fast.send_mad(dr_smp_get(ATTR_NODE_INFO, 0x1000 + i))
            rep = fast.recv_mad(timeout=5)
            dt = time.monotonic() - t0
            h.check(rep is not None and rep[0] == 0, 'round trip %d: %r' % (i, rep and rep[0]))
            worst = max(worst, dt)
            time.sleep(0.05)
        h.info('worst round trip next to a slow reader: %.1f ms' % (worst * 1000))
        h.check(worst < 0.1, 'a slow reader delayed another client by %.0f ms' % (worst * 1000))
        c = clients(fab)[slot]
        h.info('slow client: %r' % c)
        h.check(int(c['mads_lost']) > 0, 'losses of the slow client not counted: %r' % c)
        fast.close()
    finally:
        os.close(r)
        os.kill(pid, signal.SIGKILL)
        os.waitpid(pid, 0)


def first_other_ca(fab, ca):
    for n in fab.nodes():
        if n['type'] == 'ca' and n['name'] != ca:
            return n['name']
    return None


def ibping_sm(h, fab, lib, ca):
    h.need_program('ibping')
    osm, _ = start_opensm(h, fab, lib, ca)
    other = first_other_ca(fab, ca)
    h.check(other is not None, 'need a second CA')
    sm_lid = int([p for p in fab.ports(ca) if p['num'] == '1'][0]['lid'])
    r = h.run(['ibping', '-c', '2', str(sm_lid)], env=fab.env(lib, other), timeout=30,
              check=False)
    h.info('ibping to the SM: rc %d: %s' % (r.returncode, (r.stdout + r.stderr).strip()[-200:]))
    time.sleep(0.5)
    h.check(osm.alive(), 'OpenSM died after "ibping %d" (its LID)' % sm_lid)
    h.check('2 received' not in r.stdout, 'OpenSM answered pings: %r' % r.stdout)
    r = h.run(['sminfo'], env=fab.env(lib, other), timeout=30)
    h.check('SMINFO_MASTER' in r.stdout, 'sminfo after the pings: %r' % r.stdout)


SCENARIOS = {'impostor': impostor, 'full-table': full_table, 'slow-reader': slow_reader,
             'ibping-sm': ibping_sm}


def main():
    scenario = sys.argv[1]
    ibfabric, netfile = os.path.abspath(sys.argv[2]), sys.argv[3]
    with Harness('hostile_u2s_' + scenario.replace('-', '_'), timeout=110) as h:
        lib = find_umad2sim(h)
        h.need_file(netfile)
        fab = Fabric(h, ibfabric, netfile)
        ca = first_ca(fab.nodes())
        SCENARIOS[scenario](h, fab, lib, ca)
        h.check(fab.proc.alive(), 'ibfabric died')
    return 0


if __name__ == '__main__':
    sys.exit(main())
