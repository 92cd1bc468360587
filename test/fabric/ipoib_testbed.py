# SPDX-License-Identifier: BSD-3-Clause
# Copyright(c) 2026 The dpdk-ipoib authors
"""The one net_ipoib test bed of the fabric tests that run Debian's
dpdk-testpmd over IPoIB (ipoib_testpmd*, ipoib_capture, ipoib_partition,
ipoib_mcast, the fault tests ipoib_fault_* and ipoib_sa_economy):
ibfabric with its simulated PCI functions, the PMDs in a directory EAL
accepts for -d, a DPDK host A running the user-MAD service for OpenSM
and infiniband-diags (through dpdk-ib-ns), and dpdk-testpmd hosts, each
in io mode between a net_ipoib port and a net_tap/net_tun whose kernel
side is in a network namespace the test made. Everything started here is
torn down by the harness, also on failure.

The command line of every such test starts with:
    <ibfabric> <netfile> <sa_host> <librte_net_mthca.so>
    <librte_net_ipoib.so> <preload> <dpdk-ib-ns>
"""

import ipaddress
import os
import re
import shutil
import subprocess

from simlib import Fabric, eal_private_dir, sanitizer_preload
from test_ipoib_if import start_opensm

SM_BDF = '0000:10:00.0'
# B and C, the two testpmd hosts of hca3.net (and of hca4.net, beside D)
HOSTS = (('b', '0000:11:00.0', 2), ('c', '0000:12:00.0', 3))
# the IPv4 broadcast group of P_Key %04x (RFC 4391 section 4)
BCAST_MGID = 'ff12:401b:%04x:0000:0000:0000:ffff:ffff'
# Set by meson in the sanitizer pass (ipoib_san_env in
# test/fabric/meson.build): traffic lengths shrink there, checks do not.
SANITIZED = os.environ.get('IPOIB_TEST_SANITIZED') == '1'


def by_pass(normal, sanitized):
    """@normal in the normal pass, @sanitized under ASan and UBSan."""
    return sanitized if SANITIZED else normal


class Testbed:
    """ibfabric, the PMD plugin directory, the SM host and its OpenSM,
    and the testpmd hosts the test starts on it (self.hosts)."""

    def __init__(self, h, tag, args, last_bdf=HOSTS[-1][1], fabric_extra=(),
                 osm_extra=()):
        (self.ibfabric, self.netfile, self.sa_host, self.mthca_so, self.ipoib_so,
         self.preload, self.ns_tool) = (os.path.abspath(a) for a in args[:7])
        self.h, self.tag = h, tag
        for prog in ('dpdk-testpmd', 'opensm', 'unshare', 'ping', 'stdbuf'):
            h.need_program(prog)
        self.root = h.path('pci')
        self.fabric = Fabric(h, self.ibfabric, self.netfile, tag=tag,
                             extra=['--pci-root', self.root] + list(fabric_extra))
        h.wait_for(lambda: os.path.exists(os.path.join(self.root, last_bdf, 'iommu.sock')),
                   timeout=10, what='the simulated PCI functions')
        # Both PMDs in one private directory for -d (EAL refuses plugins
        # below a world-writable directory); they find the project's
        # libraries by RUNPATH. EAL loads a directory's *.so files only.
        self.plugdir = eal_private_dir(h, 'dpdk-ipoib-pmds.')
        for so in (self.mthca_so, self.ipoib_so):
            base = os.path.basename(so)
            shutil.copy2(so, os.path.join(self.plugdir, base[:base.index('.so') + 3]))
        self.env = dict(sanitizer_preload(h, self.ipoib_so), SYSFS_PCI_DEVICES=self.root,
                        LD_LIBRARY_PATH=None)
        if self.env.get('LD_PRELOAD'):
            # LeakSanitizer's exit check walks each thread's dynamic TLS
            # through what it intercepted of __tls_get_addr; after a link
            # outage it met a bogus DTLS range (0x1000000a3-...) on a
            # testpmd thread and died ("Tracer caught signal 11", exit 1,
            # no leak report: google/sanitizers#1353). Leak checking stays
            # on, without that interception.
            self.env['LSAN_OPTIONS'] = 'intercept_tls_get_addr=0'
        self.osm_extra = list(osm_extra)
        self.part_file = None
        self.osm = None
        self.hosts = []
        self.run = self.umad_run('umad-sm')
        self.sm_host = h.spawn([self.sa_host, '--no-huge', '-m', '256', '--file-prefix',
                                '%ssm%d' % (tag, os.getpid()), '-a', SM_BDF, '--', 'idle'],
                               name='sm_host', stdin=True,
                               env={'SYSFS_PCI_DEVICES': self.root, 'DPDK_IB_UMAD_DIR': self.run})
        h.wait_for(lambda: os.path.exists(os.path.join(self.run, 'dev', 'umad0')),
                   timeout=60, what='umad0 of the SM host')

    def umad_run(self, name):
        """A run directory for a user-MAD service (DPDK_IB_UMAD_DIR),
        its FUSE mount undone at teardown."""
        run = self.h.path(name)
        os.makedirs(run)
        self.h.on_teardown(lambda: subprocess.run(['umount', '-l', os.path.join(run, 'dev')],
                                                  stderr=subprocess.DEVNULL))
        return run

    def umad_env(self, umad_so, name):
        """The testpmd environment of a host that also serves the
        user-MAD service: librte_ibumad preloaded (its RUNPATH finds
        lib/ibmad from where it lies) starts it when DPDK_IB_UMAD_DIR is
        set; after the sanitizer runtimes, which must come first."""
        pre = ':'.join(x for x in (self.env.get('LD_PRELOAD'), umad_so) if x)
        return dict(self.env, DPDK_IB_UMAD_DIR=self.umad_run('umad-' + name), LD_PRELOAD=pre)

    def partitions(self, text):
        """Write OpenSM's partition file (-P, given to every OpenSM of
        the bed from now on); rewrite it and SIGHUP OpenSM (a heavy sweep
        re-reads it) to change partitions."""
        if self.part_file is None:
            self.part_file = self.h.path('partitions.conf')
        with open(self.part_file, 'w') as f:
            f.write(text)
        return self.part_file

    def opensm(self, name='opensm', extra=(), on=None):
        """OpenSM on the SM host (or through testpmd host @on's user-MAD
        service), returned once the subnet is up; the bed's OpenSM."""
        extra = self.osm_extra + list(extra)
        if self.part_file:
            extra += ['-P', self.part_file]
        if on is None:
            osm = start_opensm(self.h, self.ns_tool, self.run, self.preload, name, extra)
        else:
            osm = self.h.spawn(on.via_umad(['opensm', '-F', '/dev/null', '-f', '-', '-d2',
                                            '-s', '1'] + extra), name=name,
                               env={'DPDK_IB_UMAD_PRELOAD': self.preload})
            self.h.wait_log(osm, 'SUBNET UP', timeout=90)
        self.osm = osm
        return osm

    def diag(self, *argv, timeout=30, check=True, on=None):
        """An infiniband-diags command on the SM host's port (or on
        testpmd host @on's); its output."""
        argv = on.via_umad(argv) if on else [self.ns_tool, self.run] + list(argv)
        r = self.h.run(argv, env={'DPDK_IB_UMAD_PRELOAD': self.preload}, timeout=timeout,
                       check=check)
        return r.stdout + (r.stderr if not check else '')

    def saquery(self, *args, on=None):
        """saquery with the SM_Key (OpenSM's default, 1): OpenSM gives
        other ports' MCMemberRecords only to a requester that has it."""
        return self.diag('saquery', '--smkey', '1', *args, check=False, on=on)

    def eth_pair(self, env_b=None):
        """B and C (HOSTS), net_ipoib0 in mode=eth to a TAP, forwarding,
        the TAPs at 10.0.0.<idx>/24 and 2001:db8::<idx>/64; returned once
        each pings the other."""
        self.hosts = eth_hosts(self, HOSTS, {'b': env_b})
        b, c = self.hosts
        wait_ping(self.h, b, ['10.0.0.3'], 'b -> c IPv4')
        wait_ping(self.h, c, ['10.0.0.2'], 'c -> b IPv4')
        return b, c

    def quit(self, hosts):
        """Quit each testpmd of @hosts: exit status 0 (nothing restarted)."""
        for t in hosts:
            t.p.write('quit\n')
        for t in hosts:
            self.h.wait_for(lambda t=t: not t.p.alive(), timeout=60,
                            what='%s quits' % t.p.name)
            self.h.check_eq(t.p.popen.returncode, 0, '%s exit status' % t.p.name)

    def close(self, hosts=None, osm=None):
        """Quit every testpmd (self.hosts by default), stop OpenSM (the
        bed's last by default) and quit the SM host."""
        self.quit(self.hosts if hosts is None else hosts)
        osm = osm or self.osm
        if osm is not None:
            self.h.stop(osm)
        self.sm_host.write('QUIT\n')
        self.h.wait_for(lambda: not self.sm_host.alive(), timeout=30, what='sm_host exits')


class Testpmd:
    """One dpdk-testpmd host in its namespace: @vdevs are its --vdev
    arguments (a net_ipoib and a net_tap/net_tun, paired in io mode)."""

    def __init__(self, tb, name, bdf, idx, vdevs, main_lcore=None, env=None):
        h = tb.h
        self.tb, self.h, self.name, self.idx, self.bdf = tb, h, name, idx, bdf
        self.ns = h.netns(name)
        self.tap = 'ipt' + name
        self.port = None
        self.env = env or tb.env
        self.prefix = prefix = '%s%s%d' % (tb.tag, name, os.getpid())
        # One forwarding lcore each, on different cores (2-core machines).
        if main_lcore is None:
            main_lcore = idx % 2
        argv = ['stdbuf', '-oL', 'dpdk-testpmd', '-d', tb.plugdir, '--no-huge',
                '-m', '384', '-l', '0,1', '--main-lcore', str(main_lcore),
                '--file-prefix', prefix, '-a', bdf]
        argv += ['--vdev=' + v for v in vdevs]
        argv += ['--log-level=pmd.net.ipoib:info', '--', '-i', '--forward-mode=io',
                 '--total-num-mbufs=4096']
        self.p = h.spawn(argv, name='testpmd_' + name, stdin=True, env=self.env,
                         netns=self.ns)
        h.wait_log(self.p, 'testpmd>', timeout=90, line=False)

    def cmd(self, line, until, timeout=15):
        """Send @line; return the output after it once regex @until matches."""
        start = len(self.p.log())
        self.p.write(line + '\n')
        got = []

        def seen():
            text = self.p.log()[start:]
            if re.search(until, text):
                got.append(text)
                return True
            if not self.p.alive():
                self.h.fail('%s exited:\n%s' % (self.p.name, self.p.log()[-3000:]))
            return False
        self.h.wait_for(seen, timeout=timeout, what='%r answered on %s' % (line, self.name))
        return got[0]

    def ipoib_port(self, vdev='net_ipoib0'):
        """(ethdev of @vdev, ethdev of the IB port it owns), from its log."""
        m = re.search(r'%s: port (\d+) on .* \(ethdev (\d+)\)' % vdev, self.p.log())
        self.h.check(m is not None, '%s: %s probed:\n%s' % (self.name, vdev,
                                                             self.p.log()[-2000:]))
        return int(m.group(1)), int(m.group(2))

    def port_of(self, name):
        """The ethdev of device @name (net_tap0, net_tun0 ...) from testpmd's
        port summary: not always the net_ipoib port's + 1, since a child's
        own UD ethdev is allocated between them (owned, hidden)."""
        out = self.cmd('show port summary all', r'testpmd>')
        m = re.search(r'^(\d+)\s+\S+\s+%s\s' % re.escape(name), out, re.M)
        self.h.check(m is not None, '%s: %s in the port summary:\n%s' % (self.name, name, out))
        return int(m.group(1))

    def mac(self, port):
        out = self.cmd('show port info %d' % port, r'Driver name: +\S+[\s\S]*testpmd>')
        self.h.check('Driver name: net_ipoib' in out, '%s: port %d is net_ipoib:\n%s' %
                     (self.name, port, out))
        return re.search(r'MAC address: ([0-9A-Fa-f:]{17})', out).group(1).lower()

    def is_up(self, port=None):
        """Whether @port (the host's net_ipoib port) says link up."""
        out = self.cmd('show port info %d' % (self.port if port is None else port),
                       r'Link status: \S+[\s\S]*testpmd>')
        return re.search(r'Link status: up', out) is not None

    def link_up(self, port=None, timeout=60):
        self.h.wait_for(lambda: self.is_up(port), timeout=timeout, interval=0.5,
                        what='%s: port %s link up' % (self.name,
                                                      self.port if port is None else port))

    def lsc_events(self, port=None):
        """testpmd's link state change events for @port so far."""
        return self.p.log().count('Port %d: link state change event' %
                                  (self.port if port is None else port))

    def xstats(self, port=None):
        """A net_ipoib port's xstats as a dict of ints (ctrl_link_changes
        is the last net_ipoib prints)."""
        out = self.cmd('show port xstats %d' % (self.port if port is None else port),
                       r'ctrl_link_changes: +\d+')
        return {k: int(v) for k, v in re.findall(r'(\w+): +(\d+)', out)}

    def via_umad(self, argv):
        """@argv through this host's user-MAD service (testpmd started
        with Testbed.umad_env()). testpmd runs under `ip netns exec`,
        whose mount namespace holds the service's FUSE mounts: entered
        with nsenter, then dpdk-ib-ns as on any host."""
        return ['nsenter', '-t', str(self.p.popen.pid), '-m', '--', self.tb.ns_tool,
                self.env['DPDK_IB_UMAD_DIR']] + list(argv)

    def ip(self, *args, check=True):
        return self.h.run(['ip', '-n', self.ns] + list(args), timeout=20, check=check).stdout

    def ping(self, *args, count=3):
        return self.h.run(['ping'] + list(args) + ['-c', str(count), '-W', '2', '-i', '0.3'],
                          netns=self.ns, timeout=30, check=False)


def start_eth(t, port, tap_port, ipv4, ipv6):
    """Forward @port <-> @tap_port, wait for the IPoIB link, then give
    the TAP the port's MAC and the addresses (setup_kernel)."""
    mac = t.mac(port)
    t.cmd('set portlist %d,%d' % (port, tap_port), r'testpmd>')
    t.cmd('start', r'testpmd>')
    t.link_up(port)
    setup_kernel(t.h, t, False, mac, ipv4, ipv6)
    return mac


def eth_hosts(tb, hosts, envs=None):
    """A dpdk-testpmd per (name, bdf, idx) of @hosts (environment
    envs[name] if given): net_ipoib0 in mode=eth to a TAP, forwarding,
    the TAP at 10.0.0.<idx>/24 and 2001:db8::<idx>/64. The hosts are
    brought up side by side: their links, then their kernels' duplicate
    address detection, at the same time."""
    envs = envs or {}
    out = [Testpmd(tb, n, bdf, idx, ['net_ipoib0,dev=%s,mode=eth' % bdf,
                                     'net_tap0,iface=ipt' + n], env=envs.get(n))
           for n, bdf, idx in hosts]
    for t in out:
        t.port, _ = t.ipoib_port()
        t.mac_addr = t.mac(t.port)
        t.cmd('set portlist %d,%d' % (t.port, t.port_of('net_tap0')), r'testpmd>')
        t.cmd('start', r'testpmd>')
    for t in out:
        t.link_up()
        setup_kernel(t.h, t, False, t.mac_addr, '10.0.0.%d/24' % t.idx,
                     '2001:db8::%d/64' % t.idx, wait=False)
    for t in out:
        link_local_ready(t.h, t)
    return out


def main_wakeups(pid):
    """Times the main thread of process @pid has slept and woken
    (voluntary context switches)."""
    with open('/proc/%d/task/%d/status' % (pid, pid)) as f:
        return int(re.search(r'^voluntary_ctxt_switches:\s+(\d+)', f.read(), re.M).group(1))


def wait_ping(h, host, args, what, timeout=40):
    """Pings until one answer (the first packets may wait for ARP/ND and a
    PathRecord), then 3 of 3 must come back. The first answer is waited
    for by one ping sending every 0.2 s until it gets one (-c 1 -w):
    a lost first packet costs 0.2 s, not ping's 2 s wait for it."""
    r = h.run(['ping'] + list(args) + ['-c', '1', '-i', '0.2', '-w', str(timeout)],
              netns=host.ns, timeout=timeout + 20, check=False)
    h.check(r.returncode == 0, 'timed out after %ss waiting for %s: a first answer:\n%s' %
            (timeout, what, r.stdout + r.stderr))
    r = host.ping(*args)
    h.check(r.returncode == 0 and ' 0% packet loss' in r.stdout,
            '%s: 3 of 3 answered:\n%s' % (what, r.stdout + r.stderr))
    h.info('%s: %s' % (what, r.stdout.strip().splitlines()[-1]))


def setup_kernel(h, t, l3, mac, ipv4, ipv6, dev=None, wait=True):
    """The kernel side in the namespace: addresses, and for a TAP the MAC
    of the net_ipoib port (the Ethernet view's ARP and ND carry the port's
    MAC). Down and up again once the IB link is up, so that the kernel's
    MLD reports for its solicited-node groups (which lib/ipoib joins) and
    its duplicate address detection happen over a working link; @wait:
    returns once the TAP's link-local address is ready (link_local_ready)."""
    dev = dev or t.tap
    t.ip('link', 'set', dev, 'down')
    if not l3:
        t.ip('link', 'set', dev, 'address', mac)
    t.ip('addr', 'add', ipv4, 'dev', dev)
    t.ip('-6', 'addr', 'add', ipv6, 'dev', dev, 'nodad')
    t.ip('link', 'set', dev, 'up')
    if not l3 and wait:
        link_local_ready(h, t, dev)


def link_local_ready(h, t, dev=None):
    """Wait for the end of the duplicate address detection of @t's TAP
    (its link-local address there, none tentative)."""
    dev = dev or t.tap
    h.wait_for(lambda: 'fe80' in t.ip('-6', 'addr', 'show', 'dev', dev, 'scope', 'link')
               and 'tentative' not in t.ip('-6', 'addr', 'show', 'dev', dev),
               timeout=20, interval=0.2, what='%s: link-local address ready' % t.name)


def link_local(t, dev=None):
    out = t.ip('-6', 'addr', 'show', 'dev', dev or t.tap, 'scope', 'link')
    return re.search(r'inet6 (fe80::[0-9a-f:]+)/64', out).group(1)


def bcast_members(text, mgid):
    """Port GIDs of @mgid's members in saquery -m's records (one block
    per record; saquery prints GIDs as inet_ntop does, compressed)."""
    want = ipaddress.IPv6Address(mgid)
    gids = []
    for block in re.split(r'\n(?=\S)', text):
        m = re.search(r'MGID\.+(\S+)', block)
        p = re.search(r'PortGid\.+(\S+)', block)
        if m and p and ipaddress.IPv6Address(m.group(1)) == want:
            gids.append(p.group(1))
    return gids
