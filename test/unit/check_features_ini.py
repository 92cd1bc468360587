#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-3-Clause
# Copyright(c) 2026 The dpdk-ipoib authors
"""Every feature a PMD claims in doc/guides/nics/features/<drv>.ini (DPDK's
feature-matrix format) is backed by its code: the dev_op, flag or field
that provides it appears in drivers/net/<drv>/*.c. A claim of something
the driver does not do (net_ipoib's promiscuous mode, say) fails, naming
the key and what was looked for; so does a key this check does not know.

usage: check_features_ini.py <top of the source tree>
"""

import glob
import os
import re
import sys

# feature -> regex in the driver's C sources (ethdev_driver.h names)
BACKED = {
    'Speed capabilities': r'speed_capa\s*=',
    'Link status': r'\.link_update\s*=',
    'Link status event': r'RTE_ETH_DEV_INTR_LSC',
    'MTU update': r'\.mtu_set\s*=',
    'Promiscuous mode': r'\.promiscuous_enable\s*=',
    'Allmulticast mode': r'\.allmulticast_enable\s*=',
    'Multicast MAC filter': r'\.set_mc_addr_list\s*=',
    'Unicast MAC filter': r'\.mac_addr_add\s*=',
    'Rx descriptor status': r'rx_descriptor_status\s*=',
    'Tx descriptor status': r'tx_descriptor_status\s*=',
    'Basic stats': r'\.stats_get\s*=',
    'Extended stats': r'\.xstats_get\s*=',
    'Stats per queue': r'q_ipackets\[|q_opackets\[',
    'FW version': r'\.fw_version_get\s*=',
    'Queue start/stop': r'\.rx_queue_start\s*=',
    'Rx interrupt': r'\.rx_queue_intr_enable\s*=',
    'Multiprocess aware': r'rte_eth_dev_attach_secondary\(',
}
# platform and documentation rows: nothing in the code to look for
INFO = {'Linux', 'FreeBSD', 'Windows', 'x86-32', 'x86-64', 'ARMv7', 'ARMv8',
        'Power8', 'rv64', 'Usage doc', 'Design doc', 'Perf doc'}


def main():
    top = sys.argv[1]
    errors, n = [], 0
    for ini in sorted(glob.glob(os.path.join(top, 'doc/guides/nics/features/*.ini'))):
        drv = os.path.splitext(os.path.basename(ini))[0]
        srcs = glob.glob(os.path.join(top, 'drivers/net', drv, '*.c'))
        if not srcs:
            errors.append('%s: no drivers/net/%s/*.c' % (ini, drv))
            continue
        code = ''.join(open(s).read() for s in srcs)
        for line in open(ini):
            m = re.match(r'^([^;\[=][^=]*?)\s*=\s*(\S+)', line)
            if not m:
                continue
            key, val = m.groups()
            n += 1
            if key in INFO:
                continue
            if key not in BACKED:
                errors.append('%s: "%s = %s": a key this check does not know' % (ini, key, val))
            elif val in ('Y', 'P') and not re.search(BACKED[key], code):
                errors.append('%s: "%s = %s" claimed, but drivers/net/%s has no /%s/' %
                              (ini, key, val, drv, BACKED[key]))
    for e in errors:
        print('FAIL: ' + e)
    if not errors:
        print('ok: %d feature rows backed by their drivers' % n)
    return 1 if errors else 0


if __name__ == '__main__':
    sys.exit(main())
