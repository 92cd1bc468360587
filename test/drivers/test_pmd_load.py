#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-3-Clause
# Copyright(c) 2026 The dpdk-ipoib authors
"""A PMD of the project loads into Debian's dpdk-testpmd from the build
tree with -d and no LD_LIBRARY_PATH (issue 27; doc/guides/nics/mthca.rst,
"Usage with dpdk-testpmd"): in place, and as a copy in a private
directory (what a build tree under a world-writable /tmp needs, since EAL
refuses plugins below one). Before, net_mthca's copy failed with
"librte_ibmad.so: cannot open shared object file": the PMD found rte_ib
and rte_ibmad only by $ORIGIN. test/drivers/meson.build runs it for
every PMD of pmd_libs (doc/guides/build.rst, "Adding a library, a driver
or an example").

EAL initialises with no device (--no-pci) and testpmd prints its usage;
EAL's debug log names each plugin it opened.

usage: test_pmd_load.py <test name> <librte_net_X.so[.<abi>] in the build tree>
"""

import os
import re
import shutil
import sys

from harness import Harness
from simlib import eal_private_dir, sanitizer_preload, testpmd_load


def load(h, env, plugin, tag):
    out = testpmd_load(h, env, plugin, tag)
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
    name, so = sys.argv[1], os.path.abspath(sys.argv[2])
    base = re.sub(r'\.so(\.[0-9.]+)?$', '.so', os.path.basename(so))
    with Harness(name, timeout=120) as h:
        h.need_program('dpdk-testpmd')
        env = dict(sanitizer_preload(h, so), LD_LIBRARY_PATH=None)
        # the name the guide gives: the link meson makes next to the file
        named = os.path.join(os.path.dirname(so), base)
        h.check(os.path.islink(named), '%s: no link to the versioned file' % named)
        ww = world_writable_above(named)
        if ww:
            h.info('%s is below world-writable %s: EAL refuses it in place' % (named, ww))
        else:
            load(h, env, named, 'pmdloada')
        # outside any build tree, at another depth: $ORIGIN finds nothing there
        priv = eal_private_dir(h, 'dpdk-ipoib-plugin.')
        copy = os.path.join(priv, base)
        shutil.copy(named, copy)
        load(h, env, copy, 'pmdloadb')


if __name__ == '__main__':
    main()
