#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-3-Clause
# Copyright(c) 2026 The dpdk-ipoib authors
"""No user-MAD client starves another (doc/guides/prog_guide/ibmad_umad.rst,
"Limits"), each hostile client a real process next to OpenSM on the same
DPDK host:

1. a hog opens four umad files and registers agents until refused, before
   OpenSM starts: ENOMEM after its share (64 per process), and OpenSM
   still starts, sweeps, and smpquery answers;
2. processes blocked in open(issm0) (OpenSM holds it) end on SIGINT with
   EINTR and on SIGKILL, as Linux's down_interruptible() does; their
   places are gone: when OpenSM quits, the next waiter gets issm0;
3. a process floods the channel socket with connections that present no
   token: past 8 of them, each is closed at once (counted), not after the
   2 s every silent connection gets;
4. an attached client sends a message of 0 bytes: refused and counted
   (chan_bad_writes), the connection and its agents stay;
5. a process asks for 70 tokens: the table (64) does not evict a live
   one (the 65th is refused with EBUSY, the file stays on FUSE), and the
   first token still attaches;
6. the DPDK host runs out of file descriptors (prlimit) while a process
   holds connections: accepting pauses (counted, once per timer tick at
   most, not a spin) and resumes when descriptors are free.
"""

import errno
import fcntl
import os
import signal
import socket
import struct
import sys
import time

from simlib import Harness
from umad_host import UmadHost
from test_umad_channel import (IOCTL_REGISTER_AGENT, REG, ask_token,
                               closed_by_peer, hello)

OPENER = ('import os, signal, sys\n'
          'def stop(*a):\n'
          '    raise InterruptedError\n'
          'signal.signal(signal.SIGINT, stop)\n'
          'print("OPENING", flush=True)\n'
          'try:\n'
          '    fd = os.open(sys.argv[1], os.O_RDWR)\n'
          '    print("OPENED", flush=True)\n'
          '    sys.stdin.read()\n'
          'except InterruptedError:\n'
          '    print("EINTR", flush=True)\n')

FLOOD = ('import socket, sys, time\n'
         'conns = []\n'
         'for i in range(int(sys.argv[2])):\n'
         '    s = socket.socket(socket.AF_UNIX, socket.SOCK_SEQPACKET)\n'
         '    s.connect(sys.argv[1])\n'
         '    conns.append((time.monotonic(), s))\n'
         'early = 0\n'
         'for t0, s in conns:\n'
         '    s.settimeout(max(0.0, t0 + 1.5 - time.monotonic()))\n'
         '    try:\n'
         '        early += s.recv(16) == b""\n'
         '    except ConnectionResetError:\n'
         '        early += 1\n'
         '    except (socket.timeout, BlockingIOError):\n'
         '        pass\n'
         'print("CLOSED_EARLY %d" % early, flush=True)\n')


HOLD = ('import socket, sys, time\n'
        'conns = []\n'
        'for i in range(int(sys.argv[2])):\n'
        '    s = socket.socket(socket.AF_UNIX, socket.SOCK_SEQPACKET)\n'
        '    s.connect(sys.argv[1])\n'
        '    conns.append(s)\n'
        'time.sleep(float(sys.argv[3]))\n')


def blocked_in_open(pid):
    """True once @pid sleeps in the kernel (FUSE open waits there)."""
    try:
        with open('/proc/%d/stat' % pid) as f:
            return f.read().rsplit(')', 1)[1].split()[0] in ('S', 'D')
    except OSError:
        return False


def main():
    with Harness('umad_hostile', timeout=280) as h:
        for prog in ('opensm', 'smpquery', 'unshare'):
            h.need_program(prog)
        u = UmadHost(h, 'uho')
        umad0 = os.path.join(u.run, 'dev', 'umad0')
        issm0 = os.path.join(u.run, 'dev', 'issm0')
        sock = os.path.join(u.run, 'umad.sock')

        # 1. a hog first; OpenSM after it
        hog = h.spawn([sys.executable, os.path.join(os.path.dirname(__file__),
                                                    'umad_client.py'), umad0, 'hog', '4'],
                      name='hog')
        h.wait_log(hog, 'HOGGED', timeout=30)
        got = [ln for ln in hog.log().splitlines() if ln.startswith('HOGGED')][0]
        h.info('hog: %s' % got)
        n = int(got.split('agents=')[1].split()[0])
        h.check(n <= 64, 'one process holds %d agents, more than its 64' % n)
        h.check(got.endswith('refused=ENOMEM'), 'the hog was refused with ENOMEM only: %s'
                % got)
        osm = u.opensm()
        h.wait_for(lambda: u.stats().get('issm') == 1, timeout=10,
                   what='stats: OpenSM holds issm0')
        sw_lid = int(u.port('sw', '0')['lid'])
        r = u.tool(['smpquery', 'nodeinfo', str(sw_lid)])
        h.check('Guid' in r.stdout, 'smpquery answered next to the hog')

        # 2. openers blocked behind OpenSM's issm0: SIGINT, SIGKILL
        waiters = []
        opener = h.write_file('opener.py', OPENER)
        for tag in ('sigint', 'sigkill', 'next'):
            p = h.spawn([sys.executable, opener, issm0], name='issm-' + tag, stdin=True)
            h.wait_log(p, 'OPENING', timeout=20)
            waiters.append(p)
            time.sleep(0.3)
        for p in waiters:
            h.wait_for(lambda: blocked_in_open(p.pid), timeout=10,
                       what='%s blocked in open(issm0)' % p.name)
        time.sleep(0.5)
        h.check(all(p.alive() and 'OPENED' not in p.log() for p in waiters),
                'issm0 is exclusive: every opener waits')
        os.kill(waiters[0].pid, signal.SIGINT)
        h.wait_for(lambda: not waiters[0].alive(), timeout=10,
                   what='the opener given SIGINT to leave open()')
        h.check('EINTR' in waiters[0].log(), 'open(issm0) ended with EINTR: %r'
                % waiters[0].log())
        os.kill(waiters[1].pid, signal.SIGKILL)
        h.wait_for(lambda: not waiters[1].alive(), timeout=10,
                   what='the opener given SIGKILL to die')
        h.check(osm.alive() and waiters[2].alive(), 'OpenSM and the last opener live on')

        # 3. a flood of connections without a token, from another process
        base = u.stats()
        r = h.run([sys.executable, h.write_file('flood.py', FLOOD), sock, '40'], timeout=60)
        early = int(r.stdout.split('CLOSED_EARLY')[1])
        h.info('flood: %d of 40 connections closed within 1.5 s' % early)
        h.check(early >= 40 - 8, 'past 8 connections owing a token, each is closed '
                'at once (%d of 40 closed within 1.5 s)' % early)
        # The 8 it was allowed hung up when it ended: not refusals.
        u.stats_are({'chan_refused': base['chan_refused'] + 32}, 'the 32 refused, counted')

        # 4. a 0-byte message on an attached connection
        pre = u.stats()
        fd = os.open(umad0, os.O_RDWR)
        token, path = ask_token(fd)
        s, status, page = hello(path, token)
        h.check(status == 0, 'attached (status %r)' % status)
        os.close(page)
        req = bytearray(REG.pack(0, (1 << 1).to_bytes(16, 'little'), 1, 0x09, 1,
                                 b'\0\0\0', 0))
        fcntl.ioctl(fd, IOCTL_REGISTER_AGENT, req)
        u.stats_are({'channels': pre['channels'] + 1, 'agents': pre['agents'] + 1},
                    'attached, one agent')
        base = u.stats()
        s.send(b'')
        u.stats_are({'chan_bad_writes': base['chan_bad_writes'] + 1},
                    'a 0-byte message counted')
        h.check(not closed_by_peer(s, timeout=1), 'a 0-byte message is no hang-up')
        u.stats_are({'channels': base['channels'], 'agents': base['agents']},
                    'connection and agent kept')
        s.close()
        os.close(fd)

        # 5. 70 tokens asked for: no live one evicted
        fds, tokens, busy = [], [], 0
        for i in range(70):
            fds.append(os.open(umad0, os.O_RDWR))
            try:
                tokens.append(ask_token(fds[-1])[0])
            except OSError as e:
                h.check(e.errno == errno.EBUSY, 'token %d: %s' % (i, e))
                busy += 1
        h.info('tokens: %d given, %d refused' % (len(tokens), busy))
        h.check(busy >= 6, 'a full token table refuses (%d refused)' % busy)
        s, status, page = hello(path, tokens[0])
        h.check(status == 0, 'the first token still attaches (status %r)' % status)
        if page is not None:
            os.close(page)
        s.close()
        for f in fds:
            os.close(f)

        # 6. the host out of file descriptors while connections wait: the
        # listening socket is paused, not polled in a spin (judged by the
        # count of failed accepts, one per timer tick at most), and
        # accepting resumes once descriptors are free again
        pid = u.host.pid
        nfd = len(os.listdir('/proc/%d/fd' % pid))
        limit = h.run(['prlimit', '--pid', str(pid), '--nofile', '--raw',
                       '--noheadings', '--output', 'SOFT,HARD']).stdout.split()
        h.run(['prlimit', '--pid', str(pid), '--nofile=%d:%s' % (nfd + 4, limit[1])])
        base = u.stats()
        r = h.run([sys.executable, h.write_file('hold.py', HOLD), sock, '8', '3'], timeout=60)
        h.run(['prlimit', '--pid', str(pid), '--nofile=%s:%s' % tuple(limit)])
        h.wait_for(lambda: u.stats().get('chan_accept_pauses', 0) > base.get(
            'chan_accept_pauses', 0), timeout=10, what='stats: accepting paused')
        pauses = u.stats()['chan_accept_pauses'] - base['chan_accept_pauses']
        h.info('out of descriptors for 3 s: %d accepts paused' % pauses)
        h.check(pauses <= 20, 'a spin on the listening socket: %d failed accepts' % pauses)
        fd = os.open(umad0, os.O_RDWR)
        token, path = ask_token(fd)
        s, status, page = hello(path, token)
        h.check(status == 0, 'descriptors free again: a client attaches (status %r)' % status)
        if page is not None:
            os.close(page)
        s.close()
        os.close(fd)

        # 2, end: OpenSM quits; the waiter left gets issm0 (the dead ones
        # took their places with them)
        h.stop(osm)
        h.wait_log(waiters[2], 'OPENED', timeout=20)
        u.stats_are({'issm': 1}, 'the last opener holds issm0')
        waiters[2].write('\n')
        waiters[2].popen.stdin.close()
        h.wait_for(lambda: not waiters[2].alive(), timeout=10, what='the last opener ends')
        u.stats_are({'issm': 0}, 'issm0 free')
        h.stop(hog)
        u.stats_are({'files': 0, 'agents': 0}, 'the hog gone, its agents too')
        u.host.write('QUIT\n')
        h.wait_for(lambda: not u.host.alive(), timeout=30, what='the DPDK host quits')


if __name__ == '__main__':
    main()
