#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-3-Clause
# Copyright(c) 2026 The dpdk-ipoib authors
"""The installed tree (issue 27; doc/guides/build.rst, "Installing"):
meson install into a scratch DESTDIR, then

1. every library and PMD as librte_X.so -> .so.<major> -> .so.<abi>,
   SONAME librte_X.so.<major>, RUNPATH the installed libdir; no other
   librte_*.so in libdir than the ones meson lists (a library or driver
   that installs itself without joining project_libs or pmd_libs, which
   the .pc file and the PMD links come from, fails here);
2. each PMD linked from DPDK's plugin directory and from the project's
   own, both to the file in libdir; the public headers under
   include/dpdk-ipoib, each one compiling alone with the .pc file's
   Cflags; dpdk-ib-ns in bin, libibumad_preload.so in libdir;
3. a program from outside the tree (pkgconfig_user.c) compiled and linked
   with nothing but `pkg-config --cflags --libs libdpdk-ipoib` (the .pc
   file is relocatable: found by PKG_CONFIG_PATH in the DESTDIR, it
   points there), and run;
4. Debian's dpdk-testpmd loads the PMDs from each of the two directories
   with -d.

The files installed point at the final prefix, not at the DESTDIR, so the
runs get LD_LIBRARY_PATH=<DESTDIR><libdir>.

usage: test_install.py <meson> <build dir> <prefix> <libdir> <ABI version>
                       <EAL plugin dir> <pkgconfig_user.c>
                       --libs <lib>... --pmds <pmd>... --headers <header>...
  (the build tree's shared libraries of project_libs and pmd_libs, and
  public_headers: meson's lists)
"""

import os
import re
import sys

from harness import Harness
from simlib import eal_private_dir, sanitizer_preload, testpmd_load


def lists(argv):
    """--libs/--pmds/--headers: names (rte_ib, rte_net_mthca; header
    basenames) from the paths meson passes."""
    out = {'--libs': [], '--pmds': [], '--headers': []}
    cur = None
    for a in argv:
        if a in out:
            cur = out[a]
        elif cur is None:
            sys.exit('%s: not after --libs, --pmds or --headers' % a)
        elif a.endswith('.h'):
            cur.append(os.path.basename(a))
        else:
            m = re.match(r'lib(.+?)\.so', os.path.basename(a))
            if m is None:
                sys.exit('%s: not a shared library' % a)
            cur.append(m.group(1))
    if not out['--libs'] or not out['--headers']:
        sys.exit('no --libs or no --headers')
    return out['--libs'], out['--pmds'], out['--headers']


def dynamic(h, path):
    r = h.run(['readelf', '-d', path])
    return dict(re.findall(r'\((SONAME|RUNPATH|RPATH)\)\s+\S+ \S+: \[(.*)\]', r.stdout))


def main():
    meson, build, prefix, libdir, abi, eal_pmd_dir, prog = sys.argv[1:8]
    libs, pmds, headers = lists(sys.argv[8:])
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

        # 1. names, SONAMEs, RUNPATHs; nothing installed that meson's lists miss
        h.info('libraries %s, PMDs %s' % (' '.join(libs), ' '.join(pmds)))
        for name in libs + pmds:
            so = os.path.join(lib, 'lib%s.so' % name)
            h.check(os.path.islink(so), '%s: not installed as a link' % so)
            h.check_eq(os.readlink(so), 'lib%s.so.%s' % (name, major), so)
            h.check_eq(os.readlink(so + '.' + major), 'lib%s.so.%s' % (name, abi),
                       so + '.' + major)
            d = dynamic(h, so + '.' + abi)
            h.check_eq(d.get('SONAME'), 'lib%s.so.%s' % (name, major), so + ' SONAME')
            h.check_eq(d.get('RUNPATH'), os.path.join(prefix, libdir), so + ' RUNPATH')
        unlisted = sorted(f for f in os.listdir(lib) if re.fullmatch(r'librte_.+\.so', f)
                          and f[3:-3] not in libs + pmds)
        h.check(not unlisted, 'installed but in neither project_libs nor pmd_libs: %s'
                % ' '.join(unlisted))
        h.check(os.path.isfile(os.path.join(lib, 'libibumad_preload.so')),
                'libibumad_preload.so: not installed in libdir')

        # 2. where the PMDs, the headers and the wrapper are
        own_dir = os.path.join(lib, 'dpdk-ipoib', 'pmds-' + abi)
        eal_dir = dest + eal_pmd_dir
        for name in pmds:
            real = os.path.realpath(os.path.join(lib, 'lib%s.so.%s' % (name, abi)))
            for d in (own_dir, eal_dir):
                link = os.path.join(d, 'lib%s.so' % name)
                h.check(os.path.islink(link) and not os.path.isabs(os.readlink(link)),
                        '%s: not a relative link' % link)
                h.check_eq(os.path.realpath(link), real, link)
        if pmds:
            h.check_eq(sorted(os.listdir(own_dir)), sorted('lib%s.so' % n for n in pmds),
                       own_dir)
        inc = dest + os.path.join(prefix, 'include', 'dpdk-ipoib')
        h.check_eq(sorted(os.listdir(inc)), sorted(headers), inc)
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
        h.check('-L' + lib in words, 'Libs: no -L%s: %r' % (lib, flags.stdout))
        for name in libs:
            h.check('-l' + name in words and
                    words.index('-l' + name) < words.index('-lrte_eal'),
                    'Libs: -l%s missing or after -lrte_eal: %r' % (name, flags.stdout))
        v = h.run(['pkg-config', '--variable=pmd_dir', 'libdpdk-ipoib'], env=env)
        h.check_eq(os.path.normpath(v.stdout.strip()), own_dir, 'pmd_dir variable')
        # every public header compiles alone with the installed Cflags (none
        # reaches for a private header of the source tree)
        cflags = h.run(['pkg-config', '--cflags', 'libdpdk-ipoib'], env=env).stdout.split()
        for f in headers:
            src = h.write_file('hdr_%s.c' % f[:-2], '#include <%s>\n' % f)
            r = h.run(['cc', '-c', '-o', os.devnull, '-DALLOW_EXPERIMENTAL_API',
                       '-DALLOW_INTERNAL_API', '-Werror', src] + cflags,
                      env=env, check=False)
            h.check_eq(r.returncode, 0, '%s alone with pkg-config\'s Cflags (%s)'
                       % (f, (r.stdout + r.stderr)[-1500:]))
        exe = h.path('pkgconfig_user')
        pre = sanitizer_preload(h, os.path.join(lib, 'librte_ib.so.' + abi))
        h.run(['cc', '-o', exe, '-DALLOW_EXPERIMENTAL_API', '-Werror', prog] +
              flags.stdout.split() + (['-fsanitize=address,undefined'] if pre else []),
              env=env)
        run_env = dict(pre, LD_LIBRARY_PATH=lib)
        r = h.run([exe], env=run_env)
        h.check_eq(r.stdout, 'rte_ib_device_list: 0\n'
                   'rte_ibmad_service_id_get: -1 ENOENT\n'
                   'rte_ibmad_umad_stats_get: -1 ENOENT\n'
                   'rte_ipoib_hwaddr: qpn 0xffffff mcast 1 '
                   '00:ff:ff:ff:ff:12:40:1b:ff:ff:00:00:00:00:00:00:ff:ff:ff:ff\n',
                   'pkgconfig_user output')

        # 4. EAL loads the PMDs from either directory
        if pmds:
            real = os.path.join(lib, 'lib%s.so.%s' % (pmds[0], abi))
            run_env = dict(sanitizer_preload(h, real), LD_LIBRARY_PATH=lib)
        for tag, d in (('own', own_dir), ('eal', eal_dir)) if pmds else ():
            out = testpmd_load(h, run_env, d, 'install' + tag)
            for name in pmds:
                h.check('open shared lib %s/lib%s.so' % (d, name) in out,
                        'EAL did not load lib%s.so from %s:\n%s' % (name, d, out[-2000:]))


if __name__ == '__main__':
    main()
