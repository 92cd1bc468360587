#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-3-Clause
# Copyright(c) 2026 The dpdk-ipoib authors
"""lib/ib's SA record tables against two programs nobody here wrote:
OpenSM's SA packs NodeRecords, PortInfoRecords and its ClassPortInfo,
saquery decodes them. The test captures the SA's GetResp/GetTableResp
MADs on the querying CA's link, unpacks each record with lib/ib's tables
(sa_record_dump) and compares every field saquery prints with ours.
It also checks the GetTable AttributeOffset OpenSM chose (the record
stride, IBA 15.2.5.2: 112 bytes for a NodeRecord, 72 for a
PortInfoRecord) against the wire sizes lib/ib declares.

usage: test_sa_records.py <ibfabric> <sa_record_dump> <netfile>
"""

import os
import re
import struct
import sys

from pcaplib import read_pcap
from simlib import Fabric, Harness, find_umad2sim, start_opensm

SA_CLASS = 0x03
SA_HDR = 56          # MAD header 24 + RMPP 12 + SM_Key 8 + AttrOffset 2 + resv 2 + CompMask 8
NODE_REC, PORT_INFO_REC, CLASS_PORT_INFO = 0x11, 0x12, 0x01

NODE_TYPES = {'Channel Adapter': 1, 'Switch': 2, 'Router': 3}
PORT_STATES = {'Down': 1, 'Initialize': 2, 'Init': 2, 'Armed': 3, 'Active': 4}
PHYS_STATES = {'Sleep': 1, 'Polling': 2, 'Disabled': 3, 'PortConfigurationTraining': 4,
               'LinkUp': 5, 'LinkErrorRecovery': 6, 'PhyTest': 7}
WIDTHS = {'1X': 1, '4X': 2, '8X': 4, '12X': 8, '2X': 16}
SPEEDS = {'2.5 Gbps': 1, '5.0 Gbps': 2, '10.0 Gbps': 4}
MTUS = {'256': 1, '512': 2, '1024': 3, '2048': 4, '4096': 5}
VLS = {'VL0': 1, 'VL0-1': 2, 'VL0-3': 3, 'VL0-7': 4, 'VL0-14': 5}


def sa_responses(path):
    """(attr_id, attr_offset, record bytes) of every SA response in a capture."""
    _, pkts = read_pcap(path)
    out = []
    for p, _ in pkts:
        off = 8 + (40 if (p[1] & 3) == 3 else 0) + 12 + 8   # LRH [+GRH] + BTH + DETH
        mad = p[off:len(p) - 6]                             # less ICRC and VCRC
        if len(mad) < SA_HDR or mad[1] != SA_CLASS or not mad[3] & 0x80:
            continue
        attr = struct.unpack('>H', mad[16:18])[0]
        attr_off = struct.unpack('>H', mad[44:46])[0]
        out.append((attr, attr_off, mad[SA_HDR:]))
    return out


def ours(h, tool, attr, data):
    """lib/ib's reading of one record: {field name: int or str}."""
    r = h.run([tool, '0x%x' % attr, data.hex()])
    fields = {}
    for line in r.stdout.splitlines():
        name, _, value = line.partition(': ')
        name = name.split('.', 1)[1]
        fields[name] = int(value, 16) if value.startswith('0x') else value
    return fields


def saquery_fields(text):
    """'name....value' lines of saquery's dump -> {name: value}."""
    return {m.group(1): m.group(2).strip()
            for m in re.finditer(r'^\s*([A-Za-z_ 0-9/]+?):?\.+:?(.*)$', text, re.M)}


def flags(value, table):
    """'1X or 4X' -> 1 | 2 with the value table of saquery's printer."""
    got = 0
    for word in value.split(' or '):
        got |= table[word.strip()]
    return got


def num(value):
    return int(value, 0)


def check_fields(h, what, theirs, mine, rows):
    """rows: (saquery name, our field name, converter)."""
    for sq, lib, conv in rows:
        h.check(sq in theirs, '%s: saquery printed no %s: %s' % (what, sq, sorted(theirs)))
        h.check_eq(mine[lib], conv(theirs[sq]), '%s %s (saquery %s)' % (what, lib, sq))


NODE_ROWS = [
    ('lid', 'LID', num), ('base_version', 'BaseVersion', num),
    ('class_version', 'ClassVersion', num), ('node_type', 'NodeType', NODE_TYPES.get),
    ('num_ports', 'NumPorts', num), ('sys_guid', 'SystemImageGUID', num),
    ('node_guid', 'NodeGUID', num), ('port_guid', 'PortGUID', num),
    ('partition_cap', 'PartitionCap', num), ('device_id', 'DeviceID', num),
    ('revision', 'Revision', num), ('port_num', 'LocalPortNum', num),
    ('vendor_id', 'VendorID', num),
]

PORT_ROWS = [
    ('EndPortLid', 'EndportLID', num), ('PortNum', 'PortNum', num), ('Options', 'Options', num),
    ('GidPrefix', 'GidPrefix', num), ('Lid', 'LID', num), ('SMLid', 'MasterSMLID', num),
    ('CapMask', 'CapabilityMask', num), ('DiagCode', 'DiagCode', num),
    ('MkeyLeasePeriod', 'M_KeyLeasePeriod', num), ('LocalPort', 'LocalPortNum', num),
    ('LinkWidthEnabled', 'LinkWidthEnabled', lambda v: flags(v, WIDTHS)),
    ('LinkWidthSupported', 'LinkWidthSupported', lambda v: flags(v, WIDTHS)),
    ('LinkWidthActive', 'LinkWidthActive', lambda v: flags(v, WIDTHS)),
    ('LinkSpeedSupported', 'LinkSpeedSupported', lambda v: flags(v, SPEEDS)),
    ('LinkState', 'PortState', PORT_STATES.get),
    ('PhysLinkState', 'PortPhysicalState', PHYS_STATES.get),
    ('LinkDownDefState', 'LinkDownDefaultState', PHYS_STATES.get),
    ('ProtectBits', 'M_KeyProtectBits', num), ('LMC', 'LMC', num),
    ('LinkSpeedActive', 'LinkSpeedActive', lambda v: flags(v, SPEEDS)),
    ('LinkSpeedEnabled', 'LinkSpeedEnabled', lambda v: flags(v, SPEEDS)),
    ('NeighborMTU', 'NeighborMTU', MTUS.get), ('SMSL', 'MasterSMSL', num),
    ('VLCap', 'VLCap', VLS.get), ('InitType', 'InitType', num),
    ('VLHighLimit', 'VLHighLimit', num), ('VLArbHighCap', 'VLArbitrationHighCap', num),
    ('VLArbLowCap', 'VLArbitrationLowCap', num), ('InitReply', 'InitTypeReply', num),
    ('MtuCap', 'MTUCap', MTUS.get), ('VLStallCount', 'VLStallCount', num),
    ('HoqLife', 'HOQLife', num), ('OperVLs', 'OperationalVLs', VLS.get),
    ('PartEnforceInb', 'PartitionEnforcementInbound', num),
    ('PartEnforceOutb', 'PartitionEnforcementOutbound', num),
    ('FilterRawInb', 'FilterRawInbound', num), ('FilterRawOutb', 'FilterRawOutbound', num),
    ('MkeyViolations', 'M_KeyViolations', num), ('PkeyViolations', 'P_KeyViolations', num),
    ('QkeyViolations', 'Q_KeyViolations', num), ('GuidCap', 'GUIDCap', num),
    ('ClientReregister', 'ClientReregister', num),
    ('McastPkeyTrapSuppressionEnabled', 'MulticastPKeyTrapSuppressionEnabled', num),
    ('SubnetTimeout', 'SubnetTimeOut', num), ('RespTimeVal', 'RespTimeValue', num),
    ('LocalPhysErr', 'LocalPhyErrors', num), ('OverrunErr', 'OverrunErrors', num),
    ('MaxCreditHint', 'MaxCreditHint', num), ('RoundTrip', 'LinkRoundTripLatency', num),
    ('CapabilityMask2', 'CapabilityMask2', num),
    ('LinkSpeedExtSupported', 'LinkSpeedExtSupported', num),
    ('LinkSpeedExtEnabled', 'LinkSpeedExtEnabled', num),
]

CPI_ROWS = [
    ('Base version', 'BaseVersion', num), ('Class version', 'ClassVersion', num),
    ('Capability mask', 'CapabilityMask', num),
    ('Capability mask 2', 'CapabilityMask2', num),
    ('Response time value', 'RespTimeValue', num),
    ('Redirect LID', 'RedirectLID', num), ('Redirect PKey', 'RedirectP_Key', num),
    ('Redirect QKey', 'RedirectQ_Key', num), ('Trap LID', 'TrapLID', num),
    ('Trap PKey', 'TrapP_Key', num), ('Trap QKey', 'TrapQ_Key', num),
]


def main():
    ibfabric, tool, netfile = (os.path.abspath(a) for a in sys.argv[1:4])
    with Harness('sa_records', timeout=110) as h:
        lib = find_umad2sim(h)
        h.need_file(netfile)
        h.need_program('saquery')
        fab = Fabric(h, ibfabric, netfile)
        nodes = {n['name']: n for n in fab.nodes()}
        cas = sorted(n['name'] for n in nodes.values() if n['type'] == 'ca')
        h.check(len(cas) >= 2, 'need two CAs in %s' % netfile)
        start_opensm(h, fab, lib, cas[0])
        client = cas[1]
        env = fab.env(lib, client)
        cap = h.path('sa.pcap')
        fab.ctl.cmd('capture start "%s" 1 %s' % (client, cap))

        # One NodeRecord and one PortInfoRecord per node (single records:
        # libumad2sim has no RMPP, so whole tables would be cut at 256 bytes).
        targets = []
        for name in sorted(nodes):
            port = '0' if nodes[name]['type'] == 'switch' else '1'
            lid = int([p for p in fab.ports(name) if p['num'] == port][0]['lid'])
            h.check(lid > 0, '%s has no LID: the SM did not sweep' % name)
            targets.append((name, lid, int(port)))
        texts = []
        for name, lid, port in targets:
            texts.append(('NR', name, h.run(['saquery', 'NR', str(lid)], env=env).stdout))
            texts.append(('PIR', name, h.run(['saquery', 'PIR', '%d/%d' % (lid, port)],
                                              env=env).stdout))
        texts.append(('CPI', 'SA', h.run(['saquery', 'CPI'], env=env).stdout))
        fab.ctl.cmd('capture stop "%s" 1' % client)

        resp = sa_responses(cap)
        kinds = {'NR': NODE_REC, 'PIR': PORT_INFO_REC, 'CPI': CLASS_PORT_INFO}
        h.check_eq(len(resp), len(texts), 'SA responses captured')
        checked = 0
        for (kind, name, text), (attr, attr_off, data) in zip(texts, resp):
            what = '%s of %s' % (kind, name)
            h.check_eq(attr, kinds[kind], '%s: attribute of the response' % what)
            mine = ours(h, tool, attr, data)
            theirs = saquery_fields(text)
            if kind == 'NR':
                h.check_eq(attr_off * 8, 112, '%s: GetTable stride (IBA 15.2.5.2)' % what)
                check_fields(h, what, theirs, mine, NODE_ROWS)
                desc = data[44:108].split(b'\0', 1)[0].decode()
                h.check_eq(theirs['NodeDescription'], desc, '%s NodeDescription' % what)
                h.check_eq(desc, nodes[name]['desc'], '%s NodeDescription vs fabric' % what)
                checked += len(NODE_ROWS) + 1
            elif kind == 'PIR':
                h.check_eq(attr_off * 8, 72, '%s: GetTable stride (IBA 15.2.5.3)' % what)
                check_fields(h, what, theirs, mine, PORT_ROWS)
                checked += len(PORT_ROWS)
            else:
                check_fields(h, what, theirs, mine, CPI_ROWS)
                # Printed as raw 32-bit words: reserved bits above the QPs.
                h.check_eq(mine['RedirectQP'], num(theirs['Redirect QP']) & 0xffffff,
                           'CPI RedirectQP')
                hl_qp = num(theirs['Trap HL/QP'])
                h.check_eq((mine['TrapHL'] << 24) | mine['TrapQP'], hl_qp, 'CPI TrapHL/QP')
                checked += len(CPI_ROWS) + 2
        h.info('%d records, %d fields: lib/ib agrees with OpenSM + saquery'
               % (len(resp), checked))


if __name__ == '__main__':
    main()
