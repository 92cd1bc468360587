#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-3-Clause
# Copyright(c) 2026 The dpdk-ipoib authors
"""A small raw user-MAD client, run in the namespace of usertools/dpdk-ib-ns
by the fabric tests: it speaks the kernel's umad ABI version 5
(<rdma/ib_user_mad.h>: struct ib_user_mad_hdr, 64 bytes after
IB_USER_MAD_ENABLE_PKEY; struct ib_user_mad_reg_req; the ioctl numbers
of Linux Documentation/infiniband/user_mad.rst) with nothing between it
and the file, to do what the diags do not: hold a request outstanding
and be killed, never read, register a class twice.

usage: umad_client.py <umad file> hold <lid>
           register agents (a send-only one, PerfMgt receiving Get,
           vendor class 0x09), send a PerfMgt Get to <lid> with a long
           time-out, print "HOLDING", wait in read() (to be killed)
       umad_client.py <umad file> register <class>
           try to register <class> (QP1, version 1, method Get); print
           "REGISTERED id=<n>" or "REFUSED <errno name>"
       umad_client.py <umad file> flood <lid> <count>
           send <count> PerfMgt Get(PortCounters) to <lid>, 64 at most
           outstanding, never read; print "FLOODED sent=<n>" and sleep
       umad_client.py <umad file> hog <files>
           open <files> files and register send-only agents in each until
           refused; print "HOGGED agents=<n> files=<n> refused=<errno
           names>" and sleep, holding them
       umad_client.py <umad file> serve <delay ms>
           answer vendor class 0x09 Get (registered, QP1) with a GetResp
           carrying "REAL", sent from a second (send-only) agent of the
           same file, <delay ms> after each request; print
           "REQUEST tid=<TID> lid=<SLID>" when one comes, "ANSWERED" after
       umad_client.py <umad file> ask <lid> <timeout ms>
           send a vendor class 0x09 Get to <lid> from a send-only agent;
           print "ASKED", then each MAD read in <timeout ms> + 2 s as
           "GOT status=<errno> method=<m> tid=<TID> data=<4 bytes>", and
           "DONE got=<n>"
       umad_client.py <umad file> forge <lid> <TID>
           from a send-only agent of its own: a GetResp of vendor class
           0x09 with <TID> and "FAKE" to <lid>, then a Get with <TID> (a
           replay of the request); print "FORGE <sent|refused errno>" and
           "REPLAY <...>", then each MAD read in 6 s as GOT lines, "DONE"
       umad_client.py <umad file> forge <lid> guess
           the same without a TID to start from: learn its own agent's TID
           high part from a request to LID 0x77 (nobody) that times out,
           and send the GetResp with "FAKE" for low part 0x2001 under each
           of the 8 high parts below its own (print "GUESS hi=<hi>" and a
           FORGE line for each); no replay
"""

import errno
import fcntl
import os
import select
import struct
import sys
import time

IOCTL_REGISTER_AGENT = 0xc01c1b01     # _IOWR(0x1b, 1, ib_user_mad_reg_req)
IOCTL_ENABLE_PKEY = 0x1b03            # _IO(0x1b, 3)
HDR = struct.Struct('=IIIII4s4s2sBBBBBB16s4sH6x')   # ib_user_mad_hdr, 64 bytes
REG = struct.Struct('=I16sBBB3sBx')                 # ib_user_mad_reg_req, 28
METHOD_GET = 0x01
METHOD_GET_RESP = 0x81
CLASS_VENDOR = 0x09
ATTR_VENDOR = 0x0010
CLASS_PERF = 0x04
GSI_QKEY = 0x80010000
ATTR_PORT_COUNTERS = 0x0012


class Umad:
    def __init__(self, path, nonblock=False):
        self.fd = os.open(path, os.O_RDWR | (os.O_NONBLOCK if nonblock else 0))
        fcntl.ioctl(self.fd, IOCTL_ENABLE_PKEY)
        self.tid = 0x1000

    def register(self, mgmt_class, version=1, methods=(), qpn=1, rmpp=0):
        mask = 0
        for m in methods:
            mask |= 1 << m
        req = REG.pack(0, mask.to_bytes(16, 'little'), qpn, mgmt_class, version,
                       b'\0\0\0', rmpp)
        buf = bytearray(req)
        fcntl.ioctl(self.fd, IOCTL_REGISTER_AGENT, buf)    # id written back
        return REG.unpack(bytes(buf))[0]

    def send(self, agent, lid, mgmt_class, attr, timeout_ms=1000, retries=0,
             qpn=1, qkey=GSI_QKEY):
        self.tid += 1
        mad = struct.pack('>BBBBHHQHHI', 1, mgmt_class, 1, METHOD_GET, 0, 0,
                          self.tid, attr, 0, 0).ljust(256, b'\0')
        hdr = HDR.pack(agent, 0, timeout_ms, retries, 0, struct.pack('>I', qpn),
                       struct.pack('>I', qkey), struct.pack('>H', lid), 0, 0, 0, 0,
                       0, 0, b'\0' * 16, b'\0' * 4, 0)
        os.write(self.fd, hdr + mad)

    def send_mad(self, agent, lid, mad, qpn=1, timeout_ms=0):
        hdr = HDR.pack(agent, 0, timeout_ms, 0, 0, struct.pack('>I', qpn),
                       struct.pack('>I', GSI_QKEY), struct.pack('>H', lid), 0, 0, 0, 0,
                       0, 0, b'\0' * 16, b'\0' * 4, 0)
        os.write(self.fd, hdr + mad)

    def recv(self, timeout_s):
        """(header fields, MAD) of the next MAD read, or None."""
        if not select.select([self.fd], [], [], max(0.0, timeout_s))[0]:
            return None
        buf = os.read(self.fd, HDR.size + 256)
        return HDR.unpack(buf[:HDR.size]), buf[HDR.size:]


def vendor_mad(method, tid, data):
    return struct.pack('>BBBBHHQHHI', 1, CLASS_VENDOR, 1, method, 0, 0, tid,
                       ATTR_VENDOR, 0, 0).ljust(24, b'\0') + data.ljust(232, b'\0')


def print_reads(u, seconds, stop_after=None):
    """Print every MAD read for @seconds (or until @stop_after GOT lines
    and 1.5 s more); return how many."""
    got = 0
    end = time.monotonic() + seconds
    while time.monotonic() < end:
        r = u.recv(end - time.monotonic())
        if r is None:
            break
        hdr, mad = r
        got += 1
        print('GOT status=%d method=0x%02x tid=0x%016x data=%s' % (
            hdr[1], mad[3], struct.unpack('>Q', mad[8:16])[0],
            mad[24:28].decode('ascii', 'replace')))
        if stop_after is not None and got >= stop_after:
            end = min(end, time.monotonic() + 1.5)
    return got


def main():
    path, mode = sys.argv[1], sys.argv[2]
    sys.stdout.reconfigure(line_buffering=True)
    if mode == 'hold':
        u = Umad(path)
        send_only = u.register(0)
        perf = u.register(CLASS_PERF, 1, [METHOD_GET])
        vendor = u.register(0x09, 1, [METHOD_GET])
        # No node answers this LID: the send stays outstanding.
        u.send(send_only, int(sys.argv[3], 0), CLASS_PERF, ATTR_PORT_COUNTERS,
               timeout_ms=20000, retries=3)
        print('HOLDING agents=%d,%d,%d' % (send_only, perf, vendor))
        os.read(u.fd, 4096)
        print('UNEXPECTED read returned')
    elif mode == 'register':
        u = Umad(path)
        try:
            print('REGISTERED id=%d' % u.register(int(sys.argv[3], 0), 1, [METHOD_GET]))
        except OSError as e:
            print('REFUSED %s' % errno.errorcode.get(e.errno, e.errno))
    elif mode == 'flood':
        u = Umad(path, nonblock=True)
        agent = u.register(0)
        lid, count = int(sys.argv[3], 0), int(sys.argv[4])
        sent = 0
        deadline = time.monotonic() + 30
        while sent < count and time.monotonic() < deadline:
            try:
                u.send(agent, lid, CLASS_PERF, ATTR_PORT_COUNTERS)
                sent += 1
            except OSError as e:
                # 64 outstanding at most (rte_ibmad): wait for answers.
                if e.errno != errno.ENOBUFS:
                    raise
                time.sleep(0.005)
        print('FLOODED sent=%d' % sent)
        while True:
            time.sleep(60)
    elif mode == 'hog':
        held, agents, refused = [], 0, set()
        for _ in range(int(sys.argv[3])):
            u = Umad(path)
            held.append(u)
            while True:
                try:
                    u.register(0)
                    agents += 1
                except OSError as e:
                    refused.add(errno.errorcode.get(e.errno, str(e.errno)))
                    break
        print('HOGGED agents=%d files=%d refused=%s' %
              (agents, len(held), ','.join(sorted(refused))))
        while True:
            time.sleep(60)
    elif mode == 'serve':
        u = Umad(path)
        agent = u.register(CLASS_VENDOR, 1, [METHOD_GET])
        # It answers on another agent of its file, as OpenSM may.
        answer = u.register(0)
        delay = int(sys.argv[3]) / 1000.0
        print('SERVING agent=%d' % agent)
        while True:
            hdr, mad = u.recv(3600)
            tid = struct.unpack('>Q', mad[8:16])[0]
            lid = struct.unpack('>H', hdr[7])[0]
            print('REQUEST tid=0x%016x lid=0x%x' % (tid, lid))
            time.sleep(delay)
            u.send_mad(answer, lid, vendor_mad(METHOD_GET_RESP, tid, b'REAL'),
                       qpn=struct.unpack('>I', hdr[5])[0])
            print('ANSWERED tid=0x%016x' % tid)
    elif mode == 'ask':
        u = Umad(path)
        agent = u.register(0)
        timeout = int(sys.argv[4])
        u.send_mad(agent, int(sys.argv[3], 0), vendor_mad(METHOD_GET, 0x2001, b''),
                   timeout_ms=timeout)
        print('ASKED')
        print('DONE got=%d' % print_reads(u, timeout / 1000.0 + 2, stop_after=1))
    elif mode == 'forge':
        u = Umad(path)
        agent = u.register(0)
        lid = int(sys.argv[3], 0)
        if sys.argv[4] == 'guess':
            u.send_mad(agent, 0x77, vendor_mad(METHOD_GET, 0, b''), timeout_ms=200)
            hdr, mad = u.recv(10)
            own = struct.unpack('>Q', mad[8:16])[0] >> 32
            print('GUESS own=0x%08x status=%d' % (own, hdr[1]))
            for hi in range(own - 8, own):
                try:
                    u.send_mad(agent, lid, vendor_mad(METHOD_GET_RESP,
                                                      hi << 32 | 0x2001, b'FAKE'))
                    print('FORGE sent hi=0x%08x' % hi)
                except OSError as e:
                    print('FORGE refused %s hi=0x%08x' % (
                        errno.errorcode.get(e.errno, e.errno), hi))
            print('DONE got=%d' % print_reads(u, 1))
            return
        tid = int(sys.argv[4], 0)
        for what, method, data in (('FORGE', METHOD_GET_RESP, b'FAKE'),
                                   ('REPLAY', METHOD_GET, b'')):
            try:
                u.send_mad(agent, lid, vendor_mad(method, tid, data),
                           timeout_ms=0 if method == METHOD_GET_RESP else 8000)
                print('%s sent' % what)
            except OSError as e:
                print('%s refused %s' % (what, errno.errorcode.get(e.errno, e.errno)))
        print('DONE got=%d' % print_reads(u, 6))
    else:
        sys.exit('umad_client.py: unknown mode %r' % mode)


if __name__ == '__main__':
    main()
