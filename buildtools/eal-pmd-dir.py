#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-3-Clause
# Copyright(c) 2026 The dpdk-ipoib authors
"""Print the plugin directory an installed EAL loads drivers from.

usage: eal-pmd-dir.py <libdpdk's libdir>

DPDK's EAL keeps the directory it was built with (RTE_EAL_PMD_PATH) as
the string "DPDK_PLUGIN_PATH=<dir>" for dpdk-pmdinfo.py
(lib/eal/common/eal_common_options.c, dpdk_solib_path[]); read it from
librte_eal.so.
"""

import glob
import os
import re
import sys


def main():
    if len(sys.argv) != 2:
        sys.exit(__doc__.strip())
    libdir = sys.argv[1]
    cands = sorted(glob.glob(os.path.join(libdir, 'librte_eal.so*')))
    if not cands:
        sys.exit('%s: no librte_eal.so' % libdir)
    with open(cands[0], 'rb') as f:
        m = re.search(rb'DPDK_PLUGIN_PATH=([^\0]*)\0', f.read())
    if m is None or not m.group(1):
        sys.exit('%s: no DPDK_PLUGIN_PATH= string (a static EAL has no plugin directory)'
                 % cands[0])
    print(m.group(1).decode())


if __name__ == '__main__':
    main()
