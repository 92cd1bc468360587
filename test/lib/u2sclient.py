# SPDX-License-Identifier: BSD-3-Clause
# Copyright(c) 2026 The dpdk-ipoib authors
"""A client of ibsim's socket protocol written from its wire layout, for
tests that must behave as no libumad2sim would: lie about their pid,
speak for another client's slot, never read, flood.

Layout (ibsim's include/ibsim.h, as doc/guides/tools/ibfabric.rst
describes the server): abstract UNIX datagram sockets "<base>:ctl"
(control), "<base>:out<slot>" (the server's data socket of a slot); the
client binds "<base>:ctl<pid>" and "<base>:in<pid>". A control datagram
is struct sim_ctl, 80 bytes, host order: magic 0xdeadbeef, clientid,
type, len, 64 data bytes. CONNECT (type 1) carries sim_client_info:
id (the pid), qp, issm, nodeid[32]; the reply's id is the slot. A data
datagram is struct sim_request, 288 bytes: dlid, slid (the big-endian
LID in the low bytes of a u32), dqp, sqp, status (big-endian), pad,
length (big-endian u64), the 256-byte MAD.
"""

import os
import socket
import struct

MAGIC = 0xdeadbeef
CTL_ERROR, CTL_CONNECT, CTL_DISCONNECT, CTL_GET_PORT = 0, 1, 2, 3
CTL_SET_ISSM = 9
CTL_SIZE = 80
REQ_SIZE = 288


def abstract(name):
    """Abstract socket name with its trailing NUL, as ibsim builds it."""
    return b'\0' + name.encode() + b'\0'


def ctl_msg(clientid, ctype, data=b'', dlen=None):
    data = data[:64].ljust(64, b'\0')
    return struct.pack('<IIII', MAGIC, clientid, ctype,
                       len(data) if dlen is None else dlen) + data


def dr_smp_get(attr, tid, mod=0):
    """A directed-route SMP Get with hop count 0: the node's own SMA answers
    (IBA 14.2.2; DrSLID and DrDLID permissive)."""
    mad = bytearray(256)
    mad[0:4] = bytes([1, 0x81, 1, 0x01])        # BaseVersion, class, ClassVersion, Get
    struct.pack_into('>Q', mad, 8, tid)
    struct.pack_into('>HxxI', mad, 16, attr, mod)
    struct.pack_into('>HH', mad, 32, 0xffff, 0xffff)
    return bytes(mad)


def sim_request(mad, dlid=0xffff, slid=0, dqp=0, sqp=0, length=256):
    return (struct.pack('>H', dlid) + b'\0\0' + struct.pack('>H', slid) + b'\0\0' +
            struct.pack('>IIII', dqp, sqp, 0, 0) + struct.pack('>Q', length) + mad)


class U2SClient:
    """One ibsim client on its own sockets. @p pid names the sockets and is
    claimed in CONNECT (default: this process's)."""

    def __init__(self, base, pid=None):
        self.base = base
        self.pid = os.getpid() if pid is None else pid
        self.slot = None
        self.ctl = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM)
        self.ctl.bind(abstract('%s:ctl%d' % (base, self.pid)))
        self.ctl.connect(abstract('%s:ctl' % base))
        self.ctl.settimeout(5)
        self.data = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM)
        self.data.bind(abstract('%s:in%d' % (base, self.pid)))

    def close(self):
        self.ctl.close()
        self.data.close()

    def call(self, clientid, ctype, data=b'', dlen=None):
        """Send a control message and return (reply type, reply data)."""
        self.ctl.send(ctl_msg(clientid, ctype, data, dlen))
        r = self.ctl.recv(CTL_SIZE + 16)
        magic, _, rtype, _ = struct.unpack('<IIII', r[:16])
        if magic != MAGIC or len(r) != CTL_SIZE:
            raise ValueError('bad control reply (%d bytes)' % len(r))
        return rtype, r[16:]

    def connect(self, node='', issm=0, claim=None):
        """CONNECT claiming @p claim (default: our pid). Returns True on success."""
        info = struct.pack('<III32s', self.pid if claim is None else claim, 0, issm,
                           node.encode()[:31])
        rtype, data = self.call(0, CTL_CONNECT, info, 44)
        if rtype != CTL_CONNECT:
            return False
        self.slot = struct.unpack('<I', data[:4])[0]
        try:
            self.data.connect(abstract('%s:out%d' % (self.base, self.slot)))
        except OSError:
            pass        # the server connected the slot to another pid's socket
        return True

    def disconnect(self, slot=None):
        return self.call(self.slot if slot is None else slot, CTL_DISCONNECT)[0]

    def send_mad(self, mad, **kw):
        self.data.send(sim_request(mad, **kw))

    def recv_mad(self, timeout=5):
        """(status, MAD) of the next datagram, or None on timeout."""
        self.data.settimeout(timeout)
        try:
            r = self.data.recv(REQ_SIZE + 8)
        except socket.timeout:
            return None
        return struct.unpack('>I', r[16:20])[0], r[32:]
