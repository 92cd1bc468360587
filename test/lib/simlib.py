# SPDX-License-Identifier: BSD-3-Clause
# Copyright(c) 2026 The dpdk-ipoib authors
"""Helpers shared by the conformance tests: start ibfabric (or ibsim) and
OpenSM under libumad2sim, talk to ibfabric's control socket, and parse
what the infiniband-diags print.

Facts used here: the environment a libumad2sim client needs (ibsim
0.10's umad2sim/sim_client.c: SIM_HOST, IBSIM_SOCKNAME, a writable cwd),
OpenSM's sandbox options (opensm(8): -f -, -d2 flushes the log;
OSM_CACHE_DIR, OSM_TMP_DIR) and the diags' output formats
(infiniband-diags 44).
"""

import glob
import os
import re
import shlex
import socket
import subprocess
import time

from harness import Harness, TestFailure, proc_cpu_seconds, proc_peak_rss_kib  # noqa: F401

NET_EXAMPLES = '/usr/share/doc/ibsim-utils/net-examples'
UMAD2SIM_GLOBS = [
    '/usr/lib/x86_64-linux-gnu/umad2sim/libumad2sim.so*',
    '/usr/lib/*/umad2sim/libumad2sim.so*',
    '/usr/lib*/umad2sim/libumad2sim.so*',
]


def eal_private_dir(h, prefix):
    """A new private directory EAL accepts plugins below (never under a
    world-writable /tmp): under /run (root) or ~/.cache, removed at
    teardown."""
    import shutil
    import tempfile
    base = '/run' if os.access('/run', os.W_OK) else os.path.expanduser('~/.cache')
    os.makedirs(base, exist_ok=True)
    priv = tempfile.mkdtemp(prefix=prefix, dir=base)
    h.on_teardown(lambda: shutil.rmtree(priv, ignore_errors=True))
    return priv


def testpmd_load(h, env, plugin, tag):
    """Debian's dpdk-testpmd with -d @plugin (a file or a directory), no
    device (--no-pci), its usage only, EAL's debug log on (it names each
    plugin it opens). Fails the test when a library is not found or
    testpmd exits non-zero; returns the output."""
    prefix = '%s%d' % (tag, os.getpid())
    r = h.run(['dpdk-testpmd', '-d', plugin, '--no-huge', '-m', '64', '--no-pci',
               '--file-prefix', prefix, '--log-level=lib.eal:debug', '--', '--help'],
              env=env, timeout=60, check=False)
    out = r.stdout + r.stderr
    h.check('cannot open shared object file' not in out,
            '%s: a library was not found:\n%s' % (plugin, out[-2000:]))
    h.check_eq(r.returncode, 0, 'testpmd -d %s: exit status (%s)' % (plugin, out[-1500:]))
    return out


def eal_safe_plugin(h, path):
    """A copy of @path that EAL's -d accepts.

    EAL refuses a plugin below a world-writable directory ("directory path
    /tmp is world-writable and insecure"), so a build tree under /tmp
    cannot be loaded from in place: copy the .so into a private directory
    under /run (root) or ~/.cache, removed at teardown.
    """
    d = os.path.dirname(os.path.abspath(path))
    while True:
        if os.stat(d).st_mode & 0o002:
            break
        if d == '/':
            return path
        d = os.path.dirname(d)
    import shutil
    priv = eal_private_dir(h, 'dpdk-ipoib-plugin.')
    dst = os.path.join(priv, os.path.basename(path))
    shutil.copy2(path, dst)
    return dst


def sanitizer_preload(h, path):
    """The environment under which Debian's dpdk-testpmd can load plugin
    @path: {} for a plain build; for one built with ASan (and UBSan), the
    sanitizer runtimes @path itself links, from ldd, in LD_PRELOAD.

    ASan must be the first library of a process ("ASan runtime does not
    come first in initial library list"): dlopen() of an instrumented
    plugin from an uninstrumented program aborts unless the runtime is
    preloaded. Preloaded, it intercepts malloc for the whole process, so
    LeakSanitizer also covers testpmd and DPDK at exit; a report fails the
    test as in every other process.
    """
    r = h.run(['ldd', path], timeout=30)
    libs = {}
    for line in r.stdout.splitlines():
        m = re.match(r'\s*(lib(?:asan|ubsan)\.so\S*) => (\S+)', line)
        if m:
            libs[m.group(1).split('.')[0]] = m.group(2)
    if 'libasan' not in libs:
        return {}
    pre = [libs['libasan']] + ([libs['libubsan']] if 'libubsan' in libs else [])
    h.info('%s is built with the sanitizers: LD_PRELOAD=%s' % (path, ':'.join(pre)))
    return {'LD_PRELOAD': ':'.join(pre)}


def find_umad2sim(h):
    """Path of libumad2sim.so, or fail the test."""
    for pattern in UMAD2SIM_GLOBS:
        hits = sorted(glob.glob(pattern))
        if hits:
            return hits[0]
    try:
        out = subprocess.run(['dpkg', '-L', 'libumad2sim0'], capture_output=True,
                             text=True).stdout
        for line in out.splitlines():
            if line.endswith('.so') or '.so.' in line:
                if os.path.isfile(line):
                    return line
    except OSError:
        pass
    # usertools/ipoib-setup.sh installs it (with ibsim-utils): missing fails
    h.fail('libumad2sim.so not installed (package libumad2sim0)')
    return None


def parse_record(line):
    """'kind k=v k="v w"' -> (kind, {k: v})."""
    words = shlex.split(line)
    rec = {}
    for w in words[1:]:
        if '=' in w:
            k, v = w.split('=', 1)
            rec[k] = v
    return words[0], rec


def sock_name(tag):
    return 'cf%d%s' % (os.getpid(), tag)


class Ctl:
    """A connection to ibfabric's --ctl socket."""

    def __init__(self, path, timeout=30):
        # The socket file appears at bind(), a moment before listen().
        deadline = time.monotonic() + 10
        while True:
            self.s = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
            self.s.settimeout(timeout)
            try:
                self.s.connect(path)
                break
            except ConnectionRefusedError:
                self.s.close()
                if time.monotonic() > deadline:
                    raise
                time.sleep(0.02)
        self.buf = b''

    def close(self):
        self.s.close()

    def _line(self):
        while b'\n' not in self.buf:
            chunk = self.s.recv(65536)
            if not chunk:
                raise TestFailure('control socket closed')
            self.buf += chunk
        line, self.buf = self.buf.split(b'\n', 1)
        return line.decode()

    def cmd(self, line, ok=True):
        """Send one command; return its output lines. ok: fail on 'error:'."""
        self.s.sendall((line + '\n').encode())
        out = []
        while True:
            ln = self._line()
            if ln == 'ok':
                return out
            if ln.startswith('error: '):
                if ok:
                    raise TestFailure('ibfabric: %r: %s' % (line, ln))
                out.append(ln)
                return out
            out.append(ln)

    def records(self, line, kind):
        return [r for k, r in (parse_record(x) for x in self.cmd(line)) if k == kind]


class Fabric:
    """One ibfabric process with a control socket."""

    def __init__(self, h, ibfabric, netfile, tag='a', extra=(), wait=True):
        self.h = h
        self.sock = sock_name(tag)
        self.ctl_path = h.path(self.sock + '.ctl')
        self.proc = h.spawn([ibfabric, '--sock-name', self.sock, '--ctl', self.ctl_path,
                             '--no-console'] + list(extra) + [netfile], name='ibfabric')
        self.ctl = None
        if wait:
            h.wait_for(lambda: self._ready(), timeout=30, what='ibfabric control socket')
            self.ctl = Ctl(self.ctl_path)

    def _ready(self):
        if not self.proc.alive():
            raise TestFailure('ibfabric exited (rc %s)' % self.proc.popen.returncode)
        return os.path.exists(self.ctl_path)

    def env(self, lib, host=None, issm=False):
        e = {'LD_PRELOAD': lib, 'IBSIM_SOCKNAME': self.sock, 'SIM_HOST': host,
             'IBSIM_SERVER_NAME': None, 'SIM_SET_ISSM': '1' if issm else None}
        return e

    def nodes(self):
        return self.ctl.records('show nodes', 'node')

    def ports(self, node):
        return self.ctl.records('show ports "%s"' % node, 'port')

    def all_ports(self):
        out = []
        for n in self.nodes():
            out += [(n, p) for p in self.ports(n['name'])]
        return out

    def stop_clean(self):
        """Check that ibfabric logged no DMA fault and no error, stop it, and
        check it exits 0 (the end of a test that ran hosts on it)."""
        log = self.proc.log()
        for bad in ('DMA fault', 'error:'):
            self.h.check(bad not in log, 'ibfabric logged "%s":\n%s' % (bad, log[-3000:]))
        self.h.check_eq(self.h.stop(self.proc), 0, 'ibfabric exit status')


def testpmd_fabric(h, ibfabric, netfile, so, tag, bdf='0000:10:00.0'):
    """ibfabric on @netfile publishing its HCAs' PCI functions, and what
    Debian's dpdk-testpmd (or another Debian DPDK program) needs to load
    the PMD @so on @bdf: (fab, plugin, env). The plugin is a copy EAL
    accepts (eal_safe_plugin()); env has the sanitizer runtimes the PMD
    links preloaded (sanitizer_preload()) and no LD_LIBRARY_PATH (the PMD
    finds the project's libraries by its RUNPATH)."""
    root = h.path('pci')
    fab = Fabric(h, ibfabric, netfile, tag=tag, extra=['--pci-root', root])
    h.wait_for(lambda: os.path.exists(os.path.join(root, bdf, 'iommu.sock')), timeout=10,
               what='the simulated PCI function')
    env = dict(sanitizer_preload(h, so), SYSFS_PCI_DEVICES=root, LD_LIBRARY_PATH=None)
    return fab, eal_safe_plugin(h, so), env


class IbSim:
    """The real ibsim on the same net file, for comparisons."""

    def __init__(self, h, netfile, tag='ibsim', extra=()):
        self.h = h
        self.sock = sock_name(tag)
        # -s starts the fabric, -n drops the console (its 100 % spin at EOF).
        self.proc = h.spawn(['ibsim', '-s', '-n'] + list(extra) + [netfile], name='ibsim',
                            env={'IBSIM_SOCKNAME': self.sock})
        h.wait_log(self.proc, 'Network simulator ready', timeout=60)

    def env(self, lib, host=None, issm=False):
        return {'LD_PRELOAD': lib, 'IBSIM_SOCKNAME': self.sock, 'SIM_HOST': host,
                'IBSIM_SERVER_NAME': None, 'SIM_SET_ISSM': '1' if issm else None}


def start_opensm(h, sim, lib, host, name='opensm', timeout=60, sweep=0, extra=()):
    """OpenSM attached to @host of @sim; returns (proc, seconds to SUBNET UP)."""
    h.need_program('opensm')
    cache = h.path('%s-cache' % name)
    os.makedirs(cache, exist_ok=True)
    env = sim.env(lib, host)
    env['OSM_CACHE_DIR'] = cache
    env['OSM_TMP_DIR'] = h.dir
    t0 = time.monotonic()
    p = h.spawn(['opensm', '-F', '/dev/null', '-f', '-', '-d2', '-s', str(sweep)] + list(extra),
                name=name, env=env, cwd=h.dir)
    h.wait_log(p, 'SUBNET UP', timeout=timeout)
    return p, time.monotonic() - t0


def sa_host_answer(h, proc, cmd, timeout=30):
    """Send @cmd to test/fabric/sa_host; return its lines up to its OK/ERR
    line (failing the test on ERR)."""
    start = len(proc.log().splitlines())
    proc.write(cmd + '\n')
    lines = []

    def finished():
        new = proc.log().splitlines()[start:]
        for i, ln in enumerate(new):
            if ln.startswith('OK') or ln.startswith('ERR'):
                lines[:] = new[:i + 1]
                return True
        return False
    h.wait_for(finished, timeout=timeout, what='sa_host answering %r' % cmd)
    h.check(lines[-1].startswith('OK'), 'sa_host %r: %s' % (cmd, lines))
    return lines


def first_ca(sim_nodes):
    for n in sim_nodes:
        if n['type'] == 'ca':
            return n['name']
    return None


def net_file_nodes(path):
    """(type, name, nports) of each node header in a net file, in order."""
    out = []
    rx = re.compile(r'^\s*(Switch|Hca|Ca|Rt)\s+(\d+)\s+"([^"]+)"')
    with open(path) as f:
        for line in f:
            m = rx.match(line)
            if m:
                t = 'switch' if m.group(1) == 'Switch' else ('router' if m.group(1) == 'Rt' else 'ca')
                out.append((t, m.group(3), int(m.group(2))))
    return out


def parse_ibnetdiscover(text):
    """Nodes {(type, desc, nports)} and links {(desc, port, peer desc, peer port)}."""
    head = re.compile(r'^(Switch|Ca|Rt)\s+(\d+)\s+"([^"]+)"\s*#\s*"([^"]*)"')
    link = re.compile(r'^\[(\d+)\](?:\([0-9a-fA-F]+\))?\s+"([^"]+)"\[(\d+)\]')
    id2desc = {}
    raw_links = []
    nodes = set()
    cur = None
    for line in text.splitlines():
        m = head.match(line)
        if m:
            t = {'Switch': 'switch', 'Ca': 'ca', 'Rt': 'router'}[m.group(1)]
            cur = m.group(3)
            id2desc[cur] = m.group(4)
            nodes.add((t, m.group(4), int(m.group(2))))
            continue
        m = link.match(line)
        if m and cur is not None:
            raw_links.append((cur, int(m.group(1)), m.group(2), int(m.group(3))))
    links = set()
    for a, pa, b, pb in raw_links:
        links.add((id2desc.get(a, a), pa, id2desc.get(b, b), pb))
    return nodes, links


def telemetry(prefix, cmd, timeout=10):
    """Ask DPDK's telemetry socket of the process with --file-prefix
    @prefix (/var/run/dpdk/<prefix>/dpdk_telemetry.v2, as
    dpdk-telemetry.py does) one command; returns the decoded JSON
    answer, {cmd: value}."""
    import json
    path = '/var/run/dpdk/%s/dpdk_telemetry.v2' % prefix
    s = socket.socket(socket.AF_UNIX, socket.SOCK_SEQPACKET)
    s.settimeout(timeout)
    try:
        s.connect(path)
        hello = json.loads(s.recv(16384).decode())
        s.send(cmd.encode())
        return json.loads(s.recv(hello.get('max_output_len', 16384)).decode())
    finally:
        s.close()


def pmd_plugin_dir(h, sos):
    """A private directory (eal_private_dir()) with a copy of each PMD of
    @sos, for one `-d DIR`: EAL refuses plugins below a world-writable
    directory, and loads only a directory's *.so files (so
    librte_net_x.so.0.1 is copied as librte_net_x.so). The copies find
    the project's libraries by their RUNPATH."""
    import shutil
    d = eal_private_dir(h, 'dpdk-ipoib-pmds.')
    for so in sos:
        base = os.path.basename(so)
        shutil.copy2(so, os.path.join(d, base[:base.index('.so') + 3]))
    return d
