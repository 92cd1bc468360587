#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-3-Clause
# Copyright(c) 2026 The dpdk-ipoib authors
"""dpdk-ipoib-kernel-link's command line (issue 26), on a net_null port, no
fabric: every bad option is refused with a message naming the option and
the value, exit status 2, and no kernel interface made; then one good run
in a namespace the test makes: a TAP with the port's MAC and MTU, up
with the port's link, final statistics and exit status 0 on SIGINT.

usage: test_kernel_link_args.py <dpdk-ipoib-kernel-link>
"""

import json
import os
import signal
import sys

from harness import Harness

LONG = 'abcdefghijklmnop'
BAD = [
    (['--kind=bogus'], '--kind=bogus: not one of tap, tun, virtio_user'),
    (['--kind='], '--kind=: not one of tap, tun, virtio_user'),
    (['--iface='], '--iface=: not an interface name'),
    (['--iface=..'], '--iface=..: not an interface name'),
    (['--iface=' + LONG], '--iface=%s: longer than 15 characters' % LONG),
    (['--iface=a/b'], "--iface=a/b: '/' not allowed in an interface name"),
    (['--iface=a b'], "--iface=a b: ' ' not allowed in an interface name"),
    (['--iface=a,mac=x'], "--iface=a,mac=x: ',' not allowed in an interface name"),
    (['--port=5'], '--port=5: no such port (1 ports'),
    (['--port=x'], '--port=x: no port of that name'),
    (['--port=5x'], '--port=5x: not a number'),
    (['--port=99999'], '--port=99999: out of range 0..'),
    (['--data-lcores=0'], '--data-lcores=0: out of range 1..2'),
    (['--data-lcores=3'], '--data-lcores=3: out of range 1..2'),
    (['--data-lcores=2'], '--data-lcores=2: needs 2 worker lcores, EAL has 1'),
    (['--burst=0'], '--burst=0: out of range 1..512'),
    (['--burst=513'], '--burst=513: out of range 1..512'),
    (['--burst=0x10'], '--burst=0x10: not a number'),
    (['--idle-sleep=10001'], '--idle-sleep=10001: out of range 0..10000'),
    (['--stats-period=-1'], '--stats-period=-1: not a number'),
    (['--stats-period=3601'], '--stats-period=3601: out of range 0..3600'),
    (['--vhost-path=/dev/vhost-net'], '--vhost-path=/dev/vhost-net: only with --kind=virtio_user'),
    (['--kind=virtio_user', '--vhost-path=/nonexistent/vhost'],
     '--kind=virtio_user: /nonexistent/vhost: No such file or directory'),
    (['--kind=virtio_user', '--vhost-path=a,b'], '--vhost-path=a,b: not a usable path'),
    (['--colour=blue'], '--colour=blue: unknown option'),
    (['--burst'], '--burst: needs a value'),
    (['stray'], 'stray: unexpected argument'),
]


def eal(exe, tag):
    return [exe, '--no-huge', '-m', '128', '--no-pci', '--vdev', 'net_null0', '-l', '0,1',
            '--file-prefix', 'klargs%s%d' % (tag, os.getpid()), '--log-level=lib.eal:warning',
            '--']


def main():
    exe = os.path.abspath(sys.argv[1])
    with Harness('kernel_link_args', timeout=110) as h:
        ns = h.netns('klargs')
        for i, (args, want) in enumerate(BAD):
            r = h.run(eal(exe, str(i)) + ['--iface=klbad'] + args, timeout=30, check=False,
                      netns=ns)
            out = r.stdout + r.stderr
            h.check_eq(r.returncode, 2, '%s: exit status (%s)' % (' '.join(args), out))
            h.check(want in out, '%s: no %r in:\n%s' % (' '.join(args), want, out))
            h.check('Kernel link:' not in out, '%s: started anyway' % ' '.join(args))
        links = h.run(['ip', '-o', 'link'], netns=ns).stdout
        h.check('klbad' not in links, 'a refused run left an interface: %s' % links)
        h.info('%d bad option lists refused' % len(BAD))
        r = h.run(eal(exe, 'help') + ['--help'], timeout=30)
        h.check('--kind=KIND' in r.stdout, '--help: %s' % r.stdout)

        # a good run: net_null (always up) into a TAP in the namespace
        p = h.spawn(eal(exe, 'run') + ['--iface=klgood', '--stats-period=1'],
                    name='klink', netns=ns)
        h.wait_log(p, 'Link up', timeout=30)
        h.wait_log(p, 'Statistics after', timeout=30)
        link = json.loads(h.run(['ip', '-j', 'link', 'show', 'klgood'], netns=ns).stdout)[0]
        h.check('UP' in link['flags'], 'klgood is up: %s' % link)
        h.check_eq(link['mtu'], 1500, 'the MTU of net_null')
        rc = h.stop(p, sig=signal.SIGINT, timeout=20)
        out = p.log()
        h.check_eq(rc, 0, 'exit status after SIGINT')
        for want in ('Final statistics after', 'Bye (ok)'):
            h.check(want in out, 'no %r:\n%s' % (want, out[-2000:]))
        links = h.run(['ip', '-o', 'link'], netns=ns).stdout
        h.check('klgood' not in links, 'the TAP outlived the app: %s' % links)


if __name__ == '__main__':
    main()
