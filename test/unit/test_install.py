#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-3-Clause
# Copyright(c) 2026 The dpdk-ipoib authors
"""The installed tree (issue 27; doc/guides/build.rst, "Installing"):
meson install into a scratch DESTDIR, then

1. every library and the PMD as librte_X.so -> .so.<major> -> .so.<abi>,
   SONAME librte_X.so.<major>, RUNPATH the installed libdir;
2. the PMD linked from DPDK's plugin directory and from the project's
   own, both to the file in libdir; the public headers under
   include/dpdk-ipoib; dpdk-ib-ns in bin;
3. a program from outside the tree (pkgconfig_user.c) compiled and linked
   with nothing but `pkg-config --cflags --libs libdpdk-ipoib` (the .pc
   file is relocatable: found by PKG_CONFIG_PATH in the DESTDIR, it
   points there), and run;
4. Debian's dpdk-testpmd loads the PMD from each of the two directories
   with -d.

The files installed point at the final prefix, not at the DESTDIR, so the
runs get LD_LIBRARY_PATH=<DESTDIR><libdir>.

usage: test_install.py <meson> <build dir> <prefix> <libdir> <ABI version>
                       <EAL plugin dir> <pkgconfig_user.c>
"""

import os
import re
import sys

from harness import Harness
from simlib import eal_private_dir, sanitizer_preload, testpmd_load

LIBS = ('rte_ib', 'rte_ibmad', 'rte_ipoib', 'rte_net_mthca')
HEADERS = ('rte_ib_dev.h', 'rte_ib_types.h', 'ib_proto.h', 'rte_ibmad.h',
           'rte_ibmad_umad.h', 'rte_ipoib.h', 'rte_ipoib_encap.h', 'rte_pmd_mthca.h')


def dynamic(h, path):
    r = h.run(['readelf', '-d', path])
    return dict(re.findall(r'\((SONAME|RUNPATH|RPATH)\)\s+\S+ \S+: \[(.*)\]', r.stdout))


def main():
    meson, build, prefix, libdir, abi, eal_pmd_dir, prog = sys.argv[1:8]
    major = abi.split('.')[0]
    with Harness('install', timeout=120) as h:
        for p in ('readelf', 'pkg-config', 'cc', 'dpdk-testpmd'):
            h.need_program(p)
        # EAL refuses plugins below a world-writable directory (/tmp): the
        # DESTDIR is a private one under /run (root) or ~/.cache
        dest = eal_private_dir(h, 'dpdk-ipoib-install.')
        h.run([meson, 'install', '-C', build, '--destdir', dest, '--no-rebuild', '--quiet'],
              timeout=120)
        lib = dest + os.path.join(prefix, libdir)

        # 1. names, SONAMEs, RUNPATHs
        for name in LIBS:
            so = os.path.join(lib, 'lib%s.so' % name)
            h.check_eq(os.readlink(so), 'lib%s.so.%s' % (name, major), so)
            h.check_eq(os.readlink(so + '.' + major), 'lib%s.so.%s' % (name, abi),
                       so + '.' + major)
            d = dynamic(h, so + '.' + abi)
            h.check_eq(d.get('SONAME'), 'lib%s.so.%s' % (name, major), so + ' SONAME')
            h.check_eq(d.get('RUNPATH'), os.path.join(prefix, libdir), so + ' RUNPATH')

        # 2. where the PMD, the headers and the wrapper are
        real = os.path.realpath(os.path.join(lib, 'librte_net_mthca.so.' + abi))
        own_dir = os.path.join(lib, 'dpdk-ipoib', 'pmds-' + abi)
        eal_dir = dest + eal_pmd_dir
        for d in (own_dir, eal_dir):
            link = os.path.join(d, 'librte_net_mthca.so')
            h.check(os.path.islink(link) and not os.path.isabs(os.readlink(link)),
                    '%s: not a relative link' % link)
            h.check_eq(os.path.realpath(link), real, link)
        h.check_eq(sorted(os.listdir(own_dir)), ['librte_net_mthca.so'], own_dir)
        inc = dest + os.path.join(prefix, 'include', 'dpdk-ipoib')
        for f in HEADERS:
            h.check(os.path.isfile(os.path.join(inc, f)), '%s: not installed' % f)
        ns = dest + os.path.join(prefix, 'bin', 'dpdk-ib-ns')
        h.check(os.access(ns, os.X_OK), '%s: not installed executable' % ns)

        # 3. an out-of-tree program through pkg-config
        pc = os.path.join(lib, 'pkgconfig')
        env = {'PKG_CONFIG_PATH': pc}
        flags = h.run(['pkg-config', '--cflags', '--libs', 'libdpdk-ipoib'], env=env)
        h.info('pkg-config libdpdk-ipoib: ' + flags.stdout.strip())
        words = [w[:2] + os.path.normpath(w[2:]) if w[:2] in ('-I', '-L') else w
                 for w in flags.stdout.split()]
        h.check('-I' + inc in words, 'Cflags: %r' % flags.stdout)
        h.check('-L' + lib in words and words.index('-lrte_ib') < words.index('-lrte_eal'),
                'Libs: %r' % flags.stdout)
        v = h.run(['pkg-config', '--variable=pmd_dir', 'libdpdk-ipoib'], env=env)
        h.check_eq(os.path.normpath(v.stdout.strip()), own_dir, 'pmd_dir variable')
        exe = h.path('pkgconfig_user')
        pre = sanitizer_preload(h, os.path.join(lib, 'librte_ib.so.' + abi))
        h.run(['cc', '-o', exe, '-DALLOW_EXPERIMENTAL_API', '-Werror', prog] +
              flags.stdout.split() + (['-fsanitize=address,undefined'] if pre else []),
              env=env)
        run_env = dict(pre, LD_LIBRARY_PATH=lib)
        r = h.run([exe], env=run_env)
        h.check_eq(r.stdout, 'rte_ib_device_list: 0\n'
                   'rte_ibmad_service_id_get: -1 ENOENT\n'
                   'rte_ipoib_hwaddr: qpn 0xffffff mcast 1 '
                   '00:ff:ff:ff:ff:12:40:1b:ff:ff:00:00:00:00:00:00:ff:ff:ff:ff\n',
                   'pkgconfig_user output')

        # 4. EAL loads the PMD from either directory
        run_env = dict(sanitizer_preload(h, real), LD_LIBRARY_PATH=lib)
        for tag, d in (('own', own_dir), ('eal', eal_dir)):
            out = testpmd_load(h, run_env, d, 'install' + tag)
            h.check('open shared lib %s/librte_net_mthca.so' % d in out,
                    'EAL did not load the PMD from %s:\n%s' % (d, out[-2000:]))


if __name__ == '__main__':
    main()
