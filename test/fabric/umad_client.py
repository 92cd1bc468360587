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
"""

import errno
import fcntl
import os
import struct
import sys
import time

IOCTL_REGISTER_AGENT = 0xc01c1b01     # _IOWR(0x1b, 1, ib_user_mad_reg_req)
IOCTL_ENABLE_PKEY = 0x1b03            # _IO(0x1b, 3)
HDR = struct.Struct('=IIIII4s4s2sBBBBBB16s4sH6x')   # ib_user_mad_hdr, 64 bytes
REG = struct.Struct('=I16sBBB3sBx')                 # ib_user_mad_reg_req, 28
METHOD_GET = 0x01
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
    else:
        sys.exit('umad_client.py: unknown mode %r' % mode)


if __name__ == '__main__':
    main()
