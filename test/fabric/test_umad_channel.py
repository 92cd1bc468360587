#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-3-Clause
# Copyright(c) 2026 The dpdk-ipoib authors
"""The user-MAD service's channel against peers that do not play by its
rules (doc/guides/prog_guide/ibumad_lib.rst, "The channel"), each a real
process speaking to the real socket, next to OpenSM on the same DPDK
host (its own file on a channel through dpdk-ib-ns):

1. a connection that never presents a token, one with a wrong token:
   closed, counted (stats chan_refused);
2. a token asked for by this process, presented by another process:
   refused (SO_PEERCRED), and the token is spent: this process's own
   connection with it is refused too;
3. a fresh token, presented by its owner: attached (ack status 0 with the
   shared page, stats channels + 1); a message too short to be a write:
   counted (chan_bad_writes), the connection stays; a message longer than
   any write: the connection is closed;
4. an attached client that hangs up with its FUSE file still open: its
   agents are unregistered at once (stats agents back);
and after all of it OpenSM's sweeps and smpquery through the wrapper
still work."""

import array
import fcntl
import os
import socket
import struct
import subprocess
import sys
import time

from simlib import Harness
from umad_host import UmadHost

IOC_READ = 2
CHAN_INFO = 16 + 108                  # struct umad_chan_info
IOCTL_CHANNEL = (IOC_READ << 30) | (CHAN_INFO << 16) | (0x1b << 8) | 0x71
IOCTL_REGISTER_AGENT = 0xc01c1b01
IOCTL_ENABLE_PKEY = 0x1b03
MAGIC = 0x756d6331
REG = struct.Struct('=I16sBBB3sBx')
MAX_MSG = 64 + (4 << 20)              # UMAD_CHAN_MAX_MSG


def ask_token(fd):
    buf = bytearray(CHAN_INFO)
    fcntl.ioctl(fd, IOCTL_CHANNEL, buf)
    return bytes(buf[:16]), bytes(buf[16:]).split(b'\0', 1)[0].decode()


def hello(path, token, timeout=5):
    """Connect and present @token: (socket, ack status or None, page fd)."""
    s = socket.socket(socket.AF_UNIX, socket.SOCK_SEQPACKET)
    s.settimeout(timeout)
    s.connect(path)
    s.send(struct.pack('=I16s', MAGIC, token))
    try:
        msg, anc, _, _ = s.recvmsg(64, socket.CMSG_SPACE(4))
    except (ConnectionResetError, socket.timeout):
        return s, None, None
    if not msg:
        return s, None, None
    fds = array.array('i')
    for level, kind, data in anc:
        if level == socket.SOL_SOCKET and kind == socket.SCM_RIGHTS:
            fds.frombytes(data[:4])
    magic, status = struct.unpack('=Ii', msg[:8])
    return s, (status if magic == MAGIC else None), (fds[0] if fds else None)


def closed_by_peer(s, timeout=5):
    s.settimeout(timeout)
    try:
        return s.recv(16) == b''
    except ConnectionResetError:
        return True
    except socket.timeout:
        return False


def main():
    with Harness('umad_channel', timeout=240) as h:
        for prog in ('opensm', 'smpquery', 'unshare'):
            h.need_program(prog)
        u = UmadHost(h, 'uch')
        osm = u.opensm()
        h.wait_for(lambda: u.stats().get('issm') == 1, timeout=10,
                   what='stats: OpenSM holds issm0')
        time.sleep(1.2)
        base = u.stats()
        h.info('OpenSM alone: %r' % base)
        h.check_eq(base.get('channels'), base['files'], "OpenSM's umad file on a channel")
        sw_lid = int(u.port('sw', '0')['lid'])
        umad0 = os.path.join(u.run, 'dev', 'umad0')

        # 1. no token, a wrong token
        silent = socket.socket(socket.AF_UNIX, socket.SOCK_SEQPACKET)
        silent.connect(os.path.join(u.run, 'umad.sock'))
        fd = os.open(umad0, os.O_RDWR)
        token, path = ask_token(fd)
        h.check_eq(path, os.path.join(u.run, 'umad.sock'), 'the socket the service names')
        s, status, _ = hello(path, bytes(b ^ 0xff for b in token))
        h.check(status is None and closed_by_peer(s), 'a wrong token: connection closed')
        h.check(closed_by_peer(silent, timeout=6), 'no token within 2 s: connection closed')
        u.stats_are({'chan_refused': base['chan_refused'] + 2}, 'two refusals counted')

        # 2. another process presents this process's token; then it is spent
        code = ('import socket, struct, sys\n'
                's = socket.socket(socket.AF_UNIX, socket.SOCK_SEQPACKET)\n'
                's.settimeout(5)\n'
                's.connect(sys.argv[1])\n'
                's.send(struct.pack("=I16s", %d, bytes.fromhex(sys.argv[2])))\n'
                'try:\n'
                '    r = s.recv(64)\n'
                'except ConnectionResetError:\n'
                '    r = b""\n'
                'print("ACK" if r else "CLOSED")\n' % MAGIC)
        r = h.run([sys.executable, '-c', code, path, token.hex()])
        h.check_eq(r.stdout.strip(), 'CLOSED', "another process's token")
        s, status, _ = hello(path, token)
        h.check(status is None, 'a spent token refused (got status %r)' % status)
        u.stats_are({'chan_refused': base['chan_refused'] + 4}, 'four refusals counted')

        # 3. the owner with a fresh token; garbage; an oversized message
        fcntl.ioctl(fd, IOCTL_ENABLE_PKEY)
        token, path = ask_token(fd)
        s, status, page = hello(path, token)
        h.check(status == 0 and page is not None,
                'the owner attached (status %r, page fd %r)' % (status, page))
        os.close(page)
        req = bytearray(REG.pack(0, (1 << 1).to_bytes(16, 'little'), 1, 0x09, 1,
                                 b'\0\0\0', 0))
        fcntl.ioctl(fd, IOCTL_REGISTER_AGENT, req)
        u.stats_are({'channels': base['channels'] + 1, 'agents': base['agents'] + 1,
                     'files': base['files'] + 1}, 'attached, one agent')
        s.send(b'garbage!!!')
        u.stats_are({'chan_bad_writes': base['chan_bad_writes'] + 1}, 'a short write counted')
        s.setsockopt(socket.SOL_SOCKET, 32, 16 << 20)     # SO_SNDBUFFORCE
        s.settimeout(10)
        try:
            s.send(b'\0' * (MAX_MSG + 1))
        except (BrokenPipeError, ConnectionResetError):
            pass
        h.check(closed_by_peer(s), 'an oversized message: connection closed')

        # 4. the hang-up unregistered the agent; the FUSE file is still open
        u.stats_are({'channels': base['channels'], 'agents': base['agents'],
                     'files': base['files'] + 1}, 'hung up: agents gone, file open')
        os.close(fd)
        u.stats_are({'files': base['files']}, 'file closed')

        # 5. the service and OpenSM carry on
        h.check(osm.alive(), 'OpenSM still runs')
        r = u.tool(['smpquery', 'nodeinfo', str(sw_lid)])
        h.check('NodeGuid' in r.stdout or 'Guid' in r.stdout, 'smpquery answered')
        h.info('after: %r' % u.stats())
        u.quit(osm)


if __name__ == '__main__':
    main()
