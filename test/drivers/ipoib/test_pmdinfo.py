#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-3-Clause
# Copyright(c) 2026 The dpdk-ipoib authors
"""dpdk-pmdinfo.py (Debian's) on the built librte_net_ipoib.so: one
driver, net_ipoib, a vdev (no PCI IDs, no kernel module), whose devargs
string names every key doc/guides/nics/ipoib.rst documents, each entry
ending with a space.

usage: test_pmdinfo.py <librte_net_ipoib.so> <doc/guides/nics/ipoib.rst>
"""

import json
import re
import shutil
import subprocess
import sys


def documented_keys(rst):
    """The first column of the Devargs table: "``key``", ..."""
    text = open(rst).read()
    table = text[text.index('\nDevargs\n'):]
    table = table[:table.index('\nA bad one')]
    return re.findall(r'^    "``([a-z0-9_]+)``"', table, re.M)


def main():
    so, rst = sys.argv[1:3]
    tool = shutil.which('dpdk-pmdinfo.py')
    if tool is None:
        print('FAIL: dpdk-pmdinfo.py not installed (Debian package "dpdk")')
        return 1
    info = json.loads(subprocess.run([tool, so], capture_output=True, text=True,
                                     check=True).stdout)
    errors = []
    if [d.get('name') for d in info] != ['net_ipoib']:
        errors.append('drivers %s, want only net_ipoib' % [d.get('name') for d in info])
    else:
        d = info[0]
        params = d.get('params', '')
        keys = documented_keys(rst)
        if len(keys) < 9:
            errors.append('only %d keys found in the guide\'s table: %s' % (len(keys), keys))
        listed = re.findall(r'(?:^| )([a-z0-9_]+)=', params)
        if listed != keys:
            errors.append('pmdinfo lists %s, the guide documents %s' % (listed, keys))
        if not params.endswith(' '):
            errors.append('params %r: each entry ends with a space' % params)
        for k in ('pci_ids', 'kmod'):
            if d.get(k):
                errors.append('a vdev has no %s: %r' % (k, d[k]))
    for e in errors:
        print('FAIL: ' + e)
    if not errors:
        print('ok: net_ipoib with devargs %s' % params)
    return 1 if errors else 0


if __name__ == '__main__':
    sys.exit(main())
