#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-3-Clause
# Copyright(c) 2026 The dpdk-ipoib authors
"""A host that truncates memory it registered cannot crash ibfabric, and
BAR files never outlive a run (issue 15; doc/guides/nics/mthca_hw.rst,
"The IOMMU socket").

usage: test_hostile_dma.py SCENARIO IBFABRIC NETFILE [HCA_HOST]

  truncate  a host (this script) registers a tmpfs file as a DMA window
            (tmpfs cannot be sealed), truncates it, then asks QUERY_FW to
            write its output mailbox there: the command fails with status
            0x01 (INTERNAL_ERR, a DMA fault), the window is revoked, and
            ibfabric lives on
  traffic   under OpenSM, hca_host (test/lib/hca_host, "shrink": a separate
            process) sends UD datagrams from hosta to hostb and truncates
            hostb's DMA memfd while they arrive: hostb's HCA reports the
            catastrophic error (uplink bus error, the data-path outcome in
            mthca_hw.rst), hosta's sends all complete and a datagram it sends
            itself arrives; ibfabric logs the bus error, never dies of
            SIGBUS, answers its console and exits 0 on SIGTERM
  traffic_send  the same, hostb cutting only its payload buffer and then
            sending from it: the bus error is in the send path's gather
  stale     ibfabric killed with SIGKILL leaves its BAR files in /dev/shm;
            the next ibfabric (another PCI root) removes them at start, and
            one ended by SIGTERM or SIGHUP leaves nothing behind

The host side is written from the layouts in doc/guides/nics/mthca_hw.rst:
the IOMMU socket's MAP message {u16 version 1, u16 type 1, u32 seq, u64
iova, len, offset} with the fd in SCM_RIGHTS, reply {hdr, s32 status};
the HCR at BAR0 + 0x80680, seven big-endian words, GO bit 23 of the last,
status in its bits 31..24 (Linux mthca_cmd_post_hcr()); QUERY_FW 0x004
with an output mailbox (Linux mthca_QUERY_FW()).
"""

import glob
import mmap
import os
import socket
import struct
import sys
import tempfile
import time

from simlib import Fabric, Harness, find_umad2sim, start_opensm

HCR = 0x80680
GO = 1 << 23
OP_QUERY_FW = 0x004
STAT_INTERNAL_ERR = 0x01
IOVA = 0x10000000
WIN = 0x10000


def pci_dirs(root):
    return sorted(os.path.join(root, d) for d in os.listdir(root) if d.startswith('0000:'))


def start(h, ibfabric, netfile, tag):
    root = h.path('pci-' + tag)
    fab = Fabric(h, ibfabric, netfile, tag=tag, extra=['--pci-root', root])
    h.wait_for(lambda: os.path.isdir(root) and len(pci_dirs(root)) >= 1 and
               all(os.path.exists(os.path.join(d, 'iommu.sock')) for d in pci_dirs(root)),
               timeout=10, what='PCI functions')
    fab.ctl.cmd('show nodes')       # the event loop runs: signals are handled
    return fab, root


def hcr_cmd(bar, op, out_param, timeout=5):
    """Post a command through the HCR and return its status."""
    words = [0, 0, 0, out_param >> 32, out_param & 0xffffffff, 0x1234 << 16]
    for i, w in enumerate(words):
        bar[HCR + 4 * i:HCR + 4 * i + 4] = struct.pack('>I', w)
    bar[HCR + 24:HCR + 28] = struct.pack('>I', GO | op)
    end = time.monotonic() + timeout
    while time.monotonic() < end:
        w6 = struct.unpack('>I', bar[HCR + 24:HCR + 28])[0]
        if not w6 & GO:
            return w6 >> 24
        time.sleep(0.001)
    return None


def truncate(h, ibfabric, netfile, *_):
    fab, root = start(h, ibfabric, netfile, 'a')
    fn = pci_dirs(root)[0]
    sock = socket.socket(socket.AF_UNIX, socket.SOCK_SEQPACKET)
    try:
        sock.connect(os.path.join(fn, 'iommu.sock'))
    except OSError as e:
        h.fail('connect to %s/iommu.sock: %s' % (fn, e))
    fd = os.open(os.path.join(fn, 'resource0'), os.O_RDWR)
    bar = mmap.mmap(fd, os.fstat(fd).st_size)
    os.close(fd)

    # A tmpfs file, not a memfd: it cannot be sealed against shrinking.
    mem = tempfile.NamedTemporaryFile(dir='/dev/shm', prefix='dpdk-ipoib-test-')
    os.ftruncate(mem.fileno(), WIN)
    msg = struct.pack('<HHIQQQ', 1, 1, 7, IOVA, WIN, 0)
    socket.send_fds(sock, [msg], [mem.fileno()])
    rep = sock.recv(64)
    _, rtype, seq, status, _ = struct.unpack('<HHIiI', rep[:16])
    h.check_eq((rtype, seq, status), (0x8001, 7, 0), 'MAP reply (type, seq, status)')

    # The command works while the memory is there.
    h.check_eq(hcr_cmd(bar, OP_QUERY_FW, IOVA), 0, 'QUERY_FW status before the truncation')
    os.ftruncate(mem.fileno(), 0)
    st = hcr_cmd(bar, OP_QUERY_FW, IOVA)
    h.check(fab.proc.alive(), 'ibfabric died when the model wrote to truncated memory')
    h.check_eq(st, STAT_INTERNAL_ERR, 'QUERY_FW status into truncated memory')
    # The window is gone: the next access is an ordinary DMA fault.
    h.check_eq(hcr_cmd(bar, OP_QUERY_FW, IOVA), STAT_INTERNAL_ERR,
               'QUERY_FW status into the revoked window')
    h.check(fab.proc.alive(), 'ibfabric died')
    h.check('bus error' in open(h.path('ibfabric.log')).read(),
            'the fault is not logged as a bus error')
    out = fab.ctl.cmd('show nodes')
    h.check(len(out) > 0, 'control socket answers')
    bar.close()
    sock.close()
    mem.close()
    h.check_eq(h.stop(fab.proc, timeout=10), 0, 'exit status after SIGTERM')


def traffic(h, ibfabric, netfile, hca_host, mode='shrink'):
    fab, root = start(h, ibfabric, netfile, 'a')
    h.wait_for(lambda: len(pci_dirs(root)) == 2, timeout=10, what='two PCI functions')
    a, b = pci_dirs(root)
    sm, _ = start_opensm(h, fab, find_umad2sim(h), 'ca-sm', sweep=1)
    r = h.run([h.need_file(hca_host), mode, a, b], timeout=100, check=False)
    print(r.stdout[-3000:])
    h.check(fab.proc.alive(), 'ibfabric died when a host truncated memory under traffic')
    h.check(r.returncode == 0, 'hca_host %s failed:\n%s%s' % (mode, r.stdout[-2000:],
                                                                r.stderr[-2000:]))
    h.check('bus error' in open(h.path('ibfabric.log')).read(),
            'the data-path fault is not logged as a bus error')
    h.check(len(fab.ctl.cmd('show nodes')) > 0, 'control socket answers')
    h.stop(sm)
    h.check_eq(h.stop(fab.proc, timeout=10), 0, 'exit status after SIGTERM')


def bar_files(pid):
    return glob.glob('/dev/shm/ibfabric-%d-*' % pid)


def stale(h, ibfabric, netfile, *_):
    import signal
    fab, root = start(h, ibfabric, netfile, 'a')
    pid = fab.proc.pid
    h.check(len(bar_files(pid)) >= 2, 'BAR files of pid %d: %r' % (pid, bar_files(pid)))
    h.stop(fab.proc, sig=signal.SIGKILL, timeout=10)
    left = bar_files(pid)
    h.check(len(left) >= 2, 'a killed run should leave its BAR files: %r' % left)

    fab2, root2 = start(h, ibfabric, netfile, 'b')
    h.check_eq(bar_files(pid), [], 'BAR files of the killed run after the next start')
    pid2 = fab2.proc.pid
    h.check_eq(h.stop(fab2.proc, sig=signal.SIGHUP, timeout=10), 0, 'exit status after SIGHUP')
    h.check_eq(bar_files(pid2), [], 'BAR files after SIGHUP')
    h.check(not os.path.exists(root2), 'PCI tree %s left after SIGHUP' % root2)


def traffic_send(h, ibfabric, netfile, hca_host):
    traffic(h, ibfabric, netfile, hca_host, 'shrink_send')


SCENARIOS = {'truncate': truncate, 'stale': stale, 'traffic': traffic,
             'traffic_send': traffic_send}


def main():
    scenario = sys.argv[1]
    ibfabric, netfile = os.path.abspath(sys.argv[2]), sys.argv[3]
    with Harness('hostile_dma_' + scenario, timeout=100) as h:
        h.need_file(netfile)
        SCENARIOS[scenario](h, ibfabric, netfile, *(os.path.abspath(x) for x in sys.argv[4:]))
    return 0


if __name__ == '__main__':
    sys.exit(main())
