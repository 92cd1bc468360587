#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-3-Clause
# Copyright(c) 2026 The dpdk-ipoib authors
"""net_mthca loads into Debian's dpdk-testpmd from the build tree with -d
and no LD_LIBRARY_PATH (issue 27; doc/guides/nics/mthca.rst, "Usage with
dpdk-testpmd"): in place, and as a copy in a private directory (what a
build tree under a world-writable /tmp needs, since EAL refuses plugins
below one). Before, the copy failed with "librte_ibmad.so: cannot open
shared object file": the PMD found rte_ib and rte_ibmad only by $ORIGIN.

EAL initialises with no device (--no-pci) and testpmd prints its usage;
EAL's debug log names each plugin it opened.

usage: test_pmd_load.py <librte_net_mthca.so in the build tree>
"""

import os
import shutil
import sys
import tempfile

from harness import Harness
from simlib import sanitizer_preload


def load(h, env, plugin, tag):
    prefix = 'pmdload%s%d' % (tag, os.getpid())
    h.on_teardown(lambda: shutil.rmtree('/var/run/dpdk/' + prefix, ignore_errors=True))
    r = h.run(['dpdk-testpmd', '-d', plugin, '--no-huge', '-m', '64', '--no-pci',
               '--file-prefix', prefix, '--log-level=lib.eal:debug', '--', '--help'],
              env=env, timeout=60, check=False)
    out = r.stdout + r.stderr
    h.check('cannot open shared object file' not in out,
            '%s: a library was not found:\n%s' % (plugin, out[-2000:]))
    h.check_eq(r.returncode, 0, '%s: testpmd exit status (%s)' % (plugin, out[-1500:]))
    h.check('open shared lib %s' % plugin in out, '%s: EAL did not open it:\n%s'
            % (plugin, out[-2000:]))


def world_writable_above(path):
    d = os.path.dirname(os.path.abspath(path))
    while d != '/':
        if os.stat(d).st_mode & 0o002:
            return d
        d = os.path.dirname(d)
    return None


def main():
    so = os.path.abspath(sys.argv[1])
    with Harness('mthca_pmd_load', timeout=120) as h:
        h.need_program('dpdk-testpmd')
        env = dict(sanitizer_preload(h, so), LD_LIBRARY_PATH=None)
        # the name the guide gives: the link meson makes next to the file
        named = os.path.join(os.path.dirname(so), 'librte_net_mthca.so')
        h.check(os.path.islink(named), '%s: no link to the versioned file' % named)
        ww = world_writable_above(named)
        if ww:
            h.info('%s is below world-writable %s: EAL refuses it in place' % (named, ww))
        else:
            load(h, env, named, 'a')
        # outside any build tree, at another depth: $ORIGIN finds nothing there
        base = '/run' if os.access('/run', os.W_OK) else os.path.expanduser('~/.cache')
        os.makedirs(base, exist_ok=True)
        priv = tempfile.mkdtemp(prefix='dpdk-ipoib-plugin.', dir=base)
        h.on_teardown(lambda: shutil.rmtree(priv, ignore_errors=True))
        copy = os.path.join(priv, 'librte_net_mthca.so')
        shutil.copy(named, copy)
        load(h, env, copy, 'b')


if __name__ == '__main__':
    main()
