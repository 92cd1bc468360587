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
       umad_client.py <umad file> rmpp-serve <bytes> <delay ms>
           serve vendor class 0x30 (OUI 0x001405) Get with host-side RMPP
           (rmpp_version 1): <delay ms> after each request (or once a line
           is read from stdin, for "stdin"), answer it with
           a GetResp of <bytes> payload bytes (pattern_bytes()), which
           the service segments; print "REQUEST tid=<TID> lid=<SLID>",
           "ANSWERING sha=<sha256 of the payload>" and "ANSWERED"
       umad_client.py <umad file> rmpp-ask <lid> <timeout ms>
           from a send-only agent with host-side RMPP (the service
           reassembles), a vendor class 0x30 Get to <lid>; print "ASKED",
           then the answer as "GOT status=<errno> tid=<TID> bytes=<payload
           bytes> sha=<sha256 of the payload>" and "DONE"
       umad_client.py <umad file> rmpp-forge <lid> <TID> <segments> <seconds>
           for <seconds>, every 2 ms, the RMPP ACK (a window far beyond
           what was sent, and the final one, <segments>), STOP and ABORT
           a receiver would send for the vendor class 0x30 response with
           <TID>, R bit set (the TID stays) from a send-only agent without
           RMPP and an ABORT from one with host-side RMPP, and an ABORT
           with the R bit clear (the request's kind: the TID gets its
           agent's high part); print per kind "<kind> sent=<n>
           refused=<n> errno=<names>", then "DONE"
       umad_client.py <umad file> dr-serve <delay ms>
           take directed-route Get of the vendor SMP attribute 0xff10
           (QP0 agent, class 0x81); <delay ms> after each (or once a line
           is read from stdin, for "stdin"), answer it with
           the request turned around (GetResp, D bit) carrying "REAL";
           print "REQUEST tid=<TID> hop=<ptr>/<cnt> path=<p1>,..." and
           "ANSWERED"
       umad_client.py <umad file> dr-ask <path> <timeout ms>
           from a send-only QP0 agent, a directed-route Get(0xff10) along
           <path> (comma-separated InitialPath entries 1..HopCount, e.g.
           "5"); print "ASKED", each MAD read as "GOT status=<errno>
           tid=<TID> hop=<ptr>/<cnt> path=<...> data=<4 bytes>", "DONE"
       umad_client.py <umad file> dr-forge <TID> <spec>...
           from a send-only QP0 agent, a directed-route GetResp(0xff10)
           with <TID> and "FAKE" per <spec> "<InitialPath>/<ReturnPath>"
           (comma-separated entries 1..HopCount; the ReturnPath steers
           it back); print "FORGE <spec> <sent|refused errno>", "DONE"
"""

import errno
import fcntl
import hashlib
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
CLASS_RMPP_VENDOR = 0x30          # vendor range 2: RMPP, needs an OUI
RMPP_OUI = 0x001405
RMPP_HDR = 40                     # IB_MGMT_VENDOR_HDR: data after the OUI
RMPP_ACK, RMPP_STOP, RMPP_ABORT = 2, 3, 4
CLASS_DR = 0x81
ATTR_DR_VENDOR = 0xff10           # vendor SMP attribute: no SMA takes it


class Umad:
    def __init__(self, path, nonblock=False):
        self.fd = os.open(path, os.O_RDWR | (os.O_NONBLOCK if nonblock else 0))
        fcntl.ioctl(self.fd, IOCTL_ENABLE_PKEY)
        self.tid = 0x1000

    def register(self, mgmt_class, version=1, methods=(), qpn=1, rmpp=0, oui=0):
        mask = 0
        for m in methods:
            mask |= 1 << m
        req = REG.pack(0, mask.to_bytes(16, 'little'), qpn, mgmt_class, version,
                       oui.to_bytes(3, 'big'), rmpp)
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

    def recv(self, timeout_s, size=256):
        """(header fields, MAD) of the next MAD read, or None."""
        if not select.select([self.fd], [], [], max(0.0, timeout_s))[0]:
            return None
        buf = os.read(self.fd, HDR.size + size)
        return HDR.unpack(buf[:HDR.size]), buf[HDR.size:]


def pattern_bytes(n):
    """The payload rmpp-serve sends: no two segments alike."""
    return bytes((i * 131 + i // 216) & 0xff for i in range(n))


def rmpp_mad(method, tid, rtype, flags, status=0, d1=0, d2=0, data=b''):
    """A vendor class 0x30 MAD: common header, RMPP header, OUI, @data."""
    return (struct.pack('>BBBBHHQHHI', 1, CLASS_RMPP_VENDOR, 1, method, 0, 0, tid,
                        ATTR_VENDOR, 0, 0) +
            struct.pack('>BBBBII', 1, rtype, flags, status, d1, d2) +
            b'\0' + RMPP_OUI.to_bytes(3, 'big') + data)


def dr_mad(method, tid, hop_ptr, hop_cnt, path, ret, data, d_bit):
    """A directed-route SMP (IBA 14.2.1.2) of attribute 0xff10."""
    status = 0x8000 if d_bit else 0
    mad = bytearray(256)
    mad[0:24] = struct.pack('>BBBBHBBQHHI', 1, CLASS_DR, 1, method, status,
                            hop_ptr, hop_cnt, tid, ATTR_DR_VENDOR, 0, 0)
    mad[32:36] = b'\xff\xff\xff\xff'        # DrSLID, DrDLID permissive
    mad[64:68] = data.ljust(4, b'\0')
    for i, port in enumerate(path, 1):
        mad[128 + i] = port
    for i, port in enumerate(ret, 1):
        mad[192 + i] = port
    return bytes(mad)


def dr_route(mad):
    hop_cnt = mad[7]
    return 'hop=%d/%d path=%s' % (mad[6], hop_cnt,
                                  ','.join(str(p) for p in mad[129:129 + hop_cnt]))


def vendor_mad(method, tid, data):
    return struct.pack('>BBBBHHQHHI', 1, CLASS_VENDOR, 1, method, 0, 0, tid,
                       ATTR_VENDOR, 0, 0).ljust(24, b'\0') + data.ljust(232, b'\0')


def got_line(hdr, mad):
    """A LID-routed MAD read: its status, method, TID and data."""
    return 'GOT status=%d method=0x%02x tid=0x%016x data=%s' % (
        hdr[1], mad[3], struct.unpack('>Q', mad[8:16])[0],
        mad[24:28].decode('ascii', 'replace'))


def next_request(u):
    """The next request read, printed as REQUEST: (header, TID, its SLID)."""
    hdr, mad = u.recv(3600)
    tid = struct.unpack('>Q', mad[8:16])[0]
    lid = struct.unpack('>H', hdr[7])[0]
    print('REQUEST tid=0x%016x lid=0x%x' % (tid, lid))
    return hdr, tid, lid


def print_reads(u, seconds, stop_after=None, line=got_line):
    """Print every MAD read (as @line makes it) for @seconds (or until
    @stop_after GOT lines and 1.5 s more); return how many."""
    got = 0
    end = time.monotonic() + seconds
    while time.monotonic() < end:
        r = u.recv(end - time.monotonic())
        if r is None:
            break
        got += 1
        print(line(*r))
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
            hdr, tid, lid = next_request(u)
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
    elif mode == 'rmpp-serve':
        u = Umad(path)
        agent = u.register(CLASS_RMPP_VENDOR, 1, [METHOD_GET], rmpp=1, oui=RMPP_OUI)
        payload = pattern_bytes(int(sys.argv[3]))
        print('SERVING agent=%d' % agent)
        while True:
            hdr, tid, lid = next_request(u)
            if sys.argv[4] == 'stdin':
                sys.stdin.readline()
            else:
                time.sleep(int(sys.argv[4]) / 1000.0)
            print('ANSWERING sha=%s' % hashlib.sha256(payload).hexdigest())
            u.send_mad(agent, lid, rmpp_mad(METHOD_GET_RESP, tid, 1, 0x01,
                                            data=payload),
                       qpn=struct.unpack('>I', hdr[5])[0])
            print('ANSWERED tid=0x%016x' % tid)
    elif mode == 'rmpp-ask':
        u = Umad(path)
        agent = u.register(0, rmpp=1)
        timeout = int(sys.argv[4])
        u.send_mad(agent, int(sys.argv[3], 0),
                   rmpp_mad(METHOD_GET, 0x3001, 0, 0).ljust(256, b'\0'),
                   timeout_ms=timeout)
        print('ASKED')
        end = time.monotonic() + timeout / 1000.0 + 2
        got = 0
        while time.monotonic() < end:
            r = u.recv(end - time.monotonic(), size=4 << 20)
            if r is None:
                break
            hdr, mad = r
            got += 1
            # A send that got no answer comes back with the request's
            # 24-byte common header only.
            data = mad[RMPP_HDR:]
            print('GOT status=%d tid=0x%016x bytes=%d sha=%s' % (
                hdr[1], struct.unpack('>Q', mad[8:16])[0], len(data),
                hashlib.sha256(data).hexdigest()))
            end = min(end, time.monotonic() + 1.5)
        print('DONE got=%d' % got)
    elif mode == 'rmpp-forge':
        u = Umad(path)
        plain = u.register(0)
        rmpp = u.register(0, rmpp=1)
        lid, tid = int(sys.argv[3], 0), int(sys.argv[4], 0)
        segs, seconds = int(sys.argv[5]), float(sys.argv[6])
        kinds = (
            ('ack-window', plain, rmpp_mad(METHOD_GET_RESP, tid, RMPP_ACK, 0x01,
                                           d1=1, d2=1 << 30)),
            ('ack-final', plain, rmpp_mad(METHOD_GET_RESP, tid, RMPP_ACK, 0x01,
                                          d1=segs, d2=segs)),
            ('stop', plain, rmpp_mad(METHOD_GET_RESP, tid, RMPP_STOP, 0x01, 1)),
            ('abort', plain, rmpp_mad(METHOD_GET_RESP, tid, RMPP_ABORT, 0x01, 127)),
            ('abort-rmpp-agent', rmpp, rmpp_mad(METHOD_GET_RESP, tid, RMPP_ABORT,
                                                0x01, 127)),
            ('abort-request-kind', plain, rmpp_mad(METHOD_GET, tid, RMPP_ABORT,
                                                   0x01, 127)),
        )
        sent = {k[0]: 0 for k in kinds}
        refused = {k[0]: 0 for k in kinds}
        why = {k[0]: set() for k in kinds}
        print('FORGING')
        end = time.monotonic() + seconds
        while time.monotonic() < end:
            for name, agent, mad in kinds:
                try:
                    u.send_mad(agent, lid, mad.ljust(256, b'\0'))
                    sent[name] += 1
                except OSError as e:
                    refused[name] += 1
                    why[name].add(errno.errorcode.get(e.errno, str(e.errno)))
            time.sleep(0.002)
        for name, _, _ in kinds:
            print('%s sent=%d refused=%d errno=%s' % (
                name, sent[name], refused[name], ','.join(sorted(why[name])) or '-'))
        print('DONE got=%d' % print_reads(u, 0.5))
    elif mode == 'dr-serve':
        u = Umad(path)
        agent = u.register(CLASS_DR, 1, [METHOD_GET], qpn=0)
        print('SERVING agent=%d' % agent)
        while True:
            hdr, mad = u.recv(3600)
            tid = struct.unpack('>Q', mad[8:16])[0]
            print('REQUEST tid=0x%016x %s' % (tid, dr_route(mad)))
            if sys.argv[3] == 'stdin':
                sys.stdin.readline()
            else:
                time.sleep(int(sys.argv[3]) / 1000.0)
            resp = bytearray(mad)
            resp[3] = METHOD_GET_RESP
            resp[4] |= 0x80                     # D bit: returning
            resp[64:68] = b'REAL'
            u.send_mad(agent, struct.unpack('>H', hdr[7])[0], bytes(resp), qpn=0)
            print('ANSWERED tid=0x%016x' % tid)
    elif mode == 'dr-ask':
        u = Umad(path)
        agent = u.register(0, qpn=0)
        route = [int(x) for x in sys.argv[3].split(',')]
        timeout = int(sys.argv[4])
        u.send_mad(agent, 0xffff, dr_mad(METHOD_GET, 0x4001, 0, len(route), route,
                                         [], b'', False), qpn=0, timeout_ms=timeout)
        print('ASKED')
        got = print_reads(u, timeout / 1000.0 + 2, stop_after=1, line=lambda hdr, mad: (
            'GOT status=%d tid=0x%016x %s data=%s' % (
                hdr[1], struct.unpack('>Q', mad[8:16])[0], dr_route(mad),
                mad[64:68].decode('ascii', 'replace'))))
        print('DONE got=%d' % got)
    elif mode == 'dr-forge':
        u = Umad(path)
        agent = u.register(0, qpn=0)
        tid = int(sys.argv[3], 0)
        for spec in sys.argv[4:]:
            path_s, ret_s = spec.split('/')
            route = [int(x) for x in path_s.split(',')]
            ret = [int(x) for x in ret_s.split(',')]
            # As the responder at the end of the route sends it: HopPointer
            # HopCount + 1, the D bit set (IBA 14.2.2.4).
            mad = dr_mad(METHOD_GET_RESP, tid, len(route) + 1, len(route), route,
                         ret, b'FAKE', True)
            try:
                u.send_mad(agent, 0xffff, mad, qpn=0)
                print('FORGE %s sent' % spec)
            except OSError as e:
                print('FORGE %s refused %s' % (spec, errno.errorcode.get(e.errno, e.errno)))
        print('DONE')
    else:
        sys.exit('umad_client.py: unknown mode %r' % mode)


if __name__ == '__main__':
    main()
