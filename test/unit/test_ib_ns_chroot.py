#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-3-Clause
# Copyright(c) 2026 The dpdk-ipoib authors
"""usertools/dpdk-ib-ns run in a chroot whose "/" is a plain directory, not
a mount point: it must say so and what to do, and exit 2, instead of
unshare's "cannot change root filesystem propagation: Invalid argument"
(and it must not go on with the host's mount propagation).

The chroot is built in a private mount namespace of its own (bind mounts
of /usr and /etc, the /bin and /lib links, a /proc), so nothing outside
changes and everything goes with the namespace. A control run of
unshare itself in the same chroot shows that the condition is real here.

usage: test_ib_ns_chroot.py <dpdk-ib-ns>
"""

import os
import shutil
import subprocess
import sys
import tempfile

SETUP = r'''
set -e
root=$1
for d in usr etc; do
	mkdir -p "$root/$d"
	mount --rbind "/$d" "$root/$d"
done
for l in bin sbin lib lib32 lib64 libx32; do
	if [ -L "/$l" ]; then
		cp -P "/$l" "$root/$l"
	elif [ -d "/$l" ]; then
		mkdir -p "$root/$l"
		mount --rbind "/$l" "$root/$l"
	fi
done
mkdir -p "$root/proc" "$root/dev" "$root/tmp/run/dev" "$root/tmp/run/sys/class/infiniband_mad"
mount -t proc proc "$root/proc"
cp "$2" "$root/tmp/dpdk-ib-ns"
echo "== unshare"
chroot "$root" unshare --mount --propagation private true 2>&1 || echo "rc=$?"
echo "== dpdk-ib-ns"
chroot "$root" /tmp/dpdk-ib-ns /tmp/run true 2>&1 || echo "rc=$?"
'''


def main():
    script = os.path.abspath(sys.argv[1])
    if os.geteuid() != 0:
        print('SKIP: needs root (mount namespaces)')
        sys.exit(77)
    for prog in ('unshare', 'chroot', 'awk', 'bash'):
        if shutil.which(prog) is None:
            print('SKIP: no %s' % prog)
            sys.exit(77)
    root = tempfile.mkdtemp(prefix='ibns-chroot-')
    try:
        r = subprocess.run(['unshare', '--mount', '--propagation', 'private', 'bash', '-c',
                            SETUP, 'setup', root, script],
                           capture_output=True, text=True, timeout=60)
    finally:
        shutil.rmtree(root, ignore_errors=True)
    print(r.stdout + r.stderr)
    if r.returncode != 0:
        sys.exit('FAIL: building the chroot: exit %d' % r.returncode)
    control, ours = r.stdout.split('== dpdk-ib-ns\n', 1)
    if 'rc=' not in control:
        print('SKIP: unshare works in a chroot here; nothing to test')
        sys.exit(77)
    fails = []
    if '/ is not a mount point' not in ours:
        fails.append('dpdk-ib-ns did not say that / is not a mount point')
    if 'mount --bind' not in ours:
        fails.append('dpdk-ib-ns did not say what to do')
    if 'Invalid argument' in ours:
        fails.append("unshare's bare EINVAL reached the user")
    if 'rc=2' not in ours:
        fails.append('dpdk-ib-ns did not exit 2')
    if fails:
        sys.exit('FAIL: ' + '; '.join(fails))
    print('OK')


if __name__ == '__main__':
    main()
