#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-3-Clause
# Copyright(c) 2026 The dpdk-ipoib authors
"""dpdk-pmdinfo.py (Debian's, from the dpdk package) on the built
librte_net_mthca.so: the driver name, every mthca PCI ID (Linux
mthca_main.c mthca_pci_table: Tavor, Arbel in compatibility and native
mode, Sinai and its older ID, each Mellanox- and Topspin-branded), the
kernel modules and the devargs (doc/guides/nics/mthca.rst).

usage: test_pmdinfo.py <librte_net_mthca.so>
"""

import json
import shutil
import subprocess
import sys

WANT_IDS = {(v, d) for v in ('15b3', '1867')
            for d in ('5a44', '6278', '6282', '6274', '5e8c')}


def main():
    so = sys.argv[1]
    tool = shutil.which('dpdk-pmdinfo.py')
    if tool is None:
        print('FAIL: dpdk-pmdinfo.py not installed (Debian package "dpdk"; '
              'usertools/ipoib-setup.sh installs it)')
        return 1
    out = subprocess.run([tool, so], capture_output=True, text=True, check=True).stdout
    drivers = json.loads(out)
    mthca = [d for d in drivers if d.get('name') == 'net_mthca']
    errors = []
    if len(mthca) != 1:
        errors.append('net_mthca listed %d times in %s' % (len(mthca), out))
    else:
        d = mthca[0]
        ids = {(i['vendor'], i['device']) for i in d.get('pci_ids', [])}
        if ids != WANT_IDS:
            errors.append('PCI IDs %s, want %s' % (sorted(ids), sorted(WANT_IDS)))
        if d.get('kmod') != '* vfio-pci | uio_pci_generic':
            errors.append('kmod %r' % d.get('kmod'))
        if not d.get('params', '').startswith('node_desc=') or not d['params'].endswith(' '):
            errors.append('params %r: node_desc=, each entry ending with a space'
                          % d.get('params'))
    for e in errors:
        print('FAIL: ' + e)
    if not errors:
        print('ok: net_mthca, %d PCI IDs, kmod and params' % len(WANT_IDS))
    return 1 if errors else 0


if __name__ == '__main__':
    sys.exit(main())
