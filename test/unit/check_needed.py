#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-3-Clause
# Copyright(c) 2026 The dpdk-ipoib authors

"""Check that shared libraries do not need a library they must not load.

Usage: check_needed.py FORBIDDEN LIB.so [LIB.so ...] [--needs NEEDED LIB.so]

Issue 28: the user-MAD service and its FUSE dependency live in
librte_ibumad alone, so an application that loads the PMD, the MAD core
or IPoIB does not load libfuse3. For every LIB.so, `readelf -d` must
list NEEDED entries (an empty list means readelf read nothing: fail) and
none whose name starts with FORBIDDEN. After --needs, LIB.so must list
NEEDED itself: the check's own control (librte_ibumad needs libfuse3, so
a check that cannot see a NEEDED entry fails).

Exit status: 0 pass, 1 fail (readelf missing fails too). Python stdlib only.
"""

import re
import shutil
import subprocess
import sys


def needed(lib):
    out = subprocess.run(['readelf', '-d', lib], check=True,
                         capture_output=True, text=True).stdout
    return re.findall(r'\(NEEDED\)\s+Shared library: \[([^\]]+)\]', out)


def main(argv):
    if len(argv) < 3 or shutil.which('readelf') is None:
        print(__doc__ if len(argv) < 3 else 'check_needed: readelf not found')
        return 1
    forbidden = argv[1]
    libs = argv[2:]
    control = None
    if '--needs' in libs:
        i = libs.index('--needs')
        control = libs[i + 1:i + 3]
        libs = libs[:i]
    ok = True
    for lib in libs:
        names = needed(lib)
        bad = [n for n in names if n.startswith(forbidden)]
        if not names:
            print('FAIL %s: no NEEDED entry read' % lib)
            ok = False
        elif bad:
            print('FAIL %s: NEEDED %s' % (lib, ', '.join(bad)))
            ok = False
        else:
            print('ok   %s: NEEDED %s' % (lib, ' '.join(names)))
    if control is not None:
        name, lib = control
        names = needed(lib)
        if not any(n.startswith(name) for n in names):
            print('FAIL control %s: %s not among NEEDED %s' %
                  (lib, name, ' '.join(names)))
            ok = False
        else:
            print('ok   control %s: NEEDED %s' % (lib, name))
    return 0 if ok else 1


if __name__ == '__main__':
    sys.exit(main(sys.argv))
