#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-3-Clause
# Copyright(c) 2026 The dpdk-ipoib authors
"""TCP ends for the IPoIB fault and economy tests, run inside a test's
network namespace (traffic only between namespaces the test made).

  recv <port> <file>               accept one connection, write what comes
                                   to <file>, print "sha256 <hex> <bytes>"
  send <host> <port> <file> <Bps>  send <file>, paced at <Bps> bytes/s so
                                   that the copy spans the test's outage
  serve <port> <n>                 accept <n> connections, read each to EOF,
                                   print "served <n>"
  connect <host> <port> <n>        open <n> connections one after the other,
                                   each sends one line and closes; print
                                   "connected <n>"
"""

import hashlib
import socket
import sys
import time

CHUNK = 16384


def listener(port):
    s = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    s.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    s.bind(('0.0.0.0', port))
    s.listen(128)
    print('listening %d' % port, flush=True)
    return s


def recv(port, path):
    c, _ = listener(port).accept()
    h = hashlib.sha256()
    n = 0
    with open(path, 'wb') as f:
        while True:
            b = c.recv(65536)
            if not b:
                break
            h.update(b)
            f.write(b)
            n += len(b)
    print('sha256 %s %d' % (h.hexdigest(), n), flush=True)


def send(host, port, path, rate):
    s = socket.create_connection((host, port), timeout=60)
    s.settimeout(120)
    start = time.monotonic()
    sent = 0
    with open(path, 'rb') as f:
        while True:
            b = f.read(CHUNK)
            if not b:
                break
            s.sendall(b)
            sent += len(b)
            ahead = sent / rate - (time.monotonic() - start)
            if ahead > 0:
                time.sleep(ahead)
    s.shutdown(socket.SHUT_WR)
    s.recv(1)   # the peer's close: everything was read
    print('sent %d in %.1f s' % (sent, time.monotonic() - start), flush=True)


def serve(port, n):
    s = listener(port)
    for _ in range(n):
        c, _ = s.accept()
        c.settimeout(30)
        while c.recv(4096):
            pass
        c.close()
    print('served %d' % n, flush=True)


def connect(host, port, n):
    for i in range(n):
        s = socket.create_connection((host, port), timeout=30)
        s.sendall(b'connection %d\n' % i)
        s.close()
    print('connected %d' % n, flush=True)


def main():
    cmd, args = sys.argv[1], sys.argv[2:]
    if cmd == 'recv':
        recv(int(args[0]), args[1])
    elif cmd == 'send':
        send(args[0], int(args[1]), args[2], float(args[3]))
    elif cmd == 'serve':
        serve(int(args[0]), int(args[1]))
    elif cmd == 'connect':
        connect(args[0], int(args[1]), int(args[2]))
    else:
        sys.exit('ipoib_tcp_tool: unknown command %r' % cmd)


if __name__ == '__main__':
    main()
