#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-3-Clause
# Copyright(c) 2026 The dpdk-ipoib authors
"""A hostile node for test_mad_trust.py, in its own process: attaches to
ibfabric as an ibsim-protocol client of @node (test/lib/u2sclient.py),
then for each line "<dlid> <request MAD hex> <tid> [<tid> ...]" on stdin
sends, from its own LID, the GetResp answer of the request (byte 64 =
0xee) once per TID, and prints "FORGED <n>".

usage: mad_forger.py <ibfabric socket name> <node>
"""

import struct
import sys

from u2sclient import U2SClient


def main():
    sock, node = sys.argv[1:3]
    c = U2SClient(sock)
    if not c.connect(node, issm=1):
        print('ERR CONNECT to %s refused' % node, flush=True)
        sys.exit(1)
    print('ATTACHED %s slot %d' % (node, c.slot), flush=True)
    for line in sys.stdin:
        words = line.split()
        if not words or words[0] == 'QUIT':
            break
        dlid, req = int(words[0]), bytes.fromhex(words[1])
        n = 0
        for t in words[2:]:
            forged = bytearray(req)
            forged[3] = 0x81                       # GetResp
            forged[8:16] = struct.pack('>Q', int(t, 16))
            forged[64] = 0xee
            c.send_mad(bytes(forged), dlid=dlid, dqp=1, sqp=1)
            n += 1
        print('FORGED %d' % n, flush=True)
    c.close()


if __name__ == '__main__':
    main()
