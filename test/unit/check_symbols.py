#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-3-Clause
# Copyright(c) 2026 The dpdk-ipoib authors

"""Check a shared library's exports against its version.map.

Usage: check_symbols.py [--self-test] LIB.so VERSION.map [OBJ_OR_ARCHIVE ...]

Checks (DPDK's check-symbols.sh idea, written for this project):
  1. every symbol LIB.so exports is listed in VERSION.map, and every
     symbol the map lists is exported;
  2. each exported symbol carries the version node of the map block that
     lists it;
  3. in the given objects or static archives (the linker folds
     .text.experimental into .text of the .so, so sections are read from
     the objects): every function of the EXPERIMENTAL block is in
     .text.experimental, every function of the INTERNAL block in
     .text.internal, no function of another block is in either, and no
     global function in those sections is missing from its block.

--self-test first checks the real inputs, then checks that broken maps
derived from them (a symbol dropped, a bogus symbol added, an
experimental symbol moved to a stable block) are rejected.

Exit status: 0 pass, 1 fail (objdump missing fails too). Python stdlib only.
"""

import os
import re
import shutil
import subprocess
import sys
import tempfile

SECTION_OF_BLOCK = {
    'EXPERIMENTAL': '.text.experimental',
    'INTERNAL': '.text.internal',
}

# objdump -t / -T line: address, 7 flag characters, section, size, rest.
SYM_RE = re.compile(r'^([0-9a-fA-F]+) (.{7}) (\S+)\s+([0-9a-fA-F]+)\s+(.*)$')


def is_global(flags):
    """objdump flags: column 1 l/g/u (local/global/unique), column 2 w (weak)."""
    return flags[0] in 'gu' or flags[1] == 'w'


def parse_map(path):
    """Return {block: [symbols]} of the global symbols of a version map."""
    with open(path, encoding='utf-8') as f:
        text = re.sub(r'#[^\n]*', '', f.read())
    blocks = {}
    for m in re.finditer(r'([A-Za-z0-9_.]+)\s*\{(.*?)\}\s*[A-Za-z0-9_.]*\s*;',
                         text, re.S):
        name, body = m.group(1), m.group(2)
        syms = []
        scope = 'global'
        for tok in re.split(r'[;\s]+', body):
            if not tok:
                continue
            if tok.endswith(':'):
                scope = tok[:-1]
                continue
            if scope == 'global':
                syms.append(tok)
        blocks[name] = syms
    if not blocks:
        raise ValueError('%s: no version block found' % path)
    return blocks


def objdump(args):
    out = subprocess.run(['objdump'] + args, check=True,
                         capture_output=True, text=True).stdout
    return out.splitlines()


def exported_symbols(so):
    """Return {name: version} of the symbols LIB.so defines and exports."""
    syms = {}
    for line in objdump(['-T', so]):
        m = SYM_RE.match(line)
        if m is None:
            continue
        flags, section, rest = m.group(2), m.group(3), m.group(5).split()
        if section == '*UND*' or not rest or not is_global(flags):
            continue
        name = rest[-1]
        version = rest[0].strip('()') if len(rest) > 1 else ''
        if section == '*ABS*' and name == version:
            continue        # the version node's own definition
        syms[name] = version
    return syms


def object_symbols(objs):
    """Return {name: (section, is_function)} of global defined symbols."""
    syms = {}
    for obj in objs:
        for line in objdump(['-t', obj]):
            m = SYM_RE.match(line)
            if m is None:
                continue
            flags, section, rest = m.group(2), m.group(3), m.group(5).split()
            if section == '*UND*' or not rest or not is_global(flags):
                continue
            syms[rest[-1]] = (section, flags[6] == 'F')
    return syms


def check(so, map_path, objs):
    """Return a list of problems, empty when everything holds."""
    problems = []
    blocks = parse_map(map_path)
    block_of = {}
    for block, names in blocks.items():
        for name in names:
            if name in block_of:
                problems.append('%s: listed in both %s and %s'
                                % (name, block_of[name], block))
            block_of[name] = block
    exported = exported_symbols(so)

    for name in sorted(set(exported) - set(block_of)):
        problems.append('%s: exported by %s but not in %s'
                        % (name, os.path.basename(so), map_path))
    for name in sorted(set(block_of) - set(exported)):
        problems.append('%s: in block %s of %s but not exported'
                        % (name, block_of[name], map_path))
    for name in sorted(set(block_of) & set(exported)):
        if exported[name] != block_of[name]:
            problems.append('%s: exported with version "%s", map block is %s'
                            % (name, exported[name], block_of[name]))

    if not objs:
        return problems
    defined = object_symbols(objs)
    for name, block in sorted(block_of.items()):
        if name not in defined:
            problems.append('%s: in block %s but defined in none of the objects'
                            % (name, block))
            continue
        section, is_func = defined[name]
        if not is_func:
            continue
        want = SECTION_OF_BLOCK.get(block)
        if want is not None and section != want:
            problems.append('%s: in block %s but in section %s, not %s '
                            '(missing __rte_%s?)'
                            % (name, block, section, want, block.lower()))
        if want is None and section in SECTION_OF_BLOCK.values():
            problems.append('%s: in stable block %s but in section %s'
                            % (name, block, section))
    for name, (section, is_func) in sorted(defined.items()):
        for block, want in SECTION_OF_BLOCK.items():
            if is_func and section == want and block_of.get(name) != block:
                problems.append('%s: in section %s but not in block %s of %s'
                                % (name, section, block, map_path))
    return problems


def write_map(path, blocks):
    with open(path, 'w', encoding='utf-8') as f:
        for block, names in blocks.items():
            f.write('%s {\n\tglobal:\n\n' % block)
            for name in names:
                f.write('\t%s;\n' % name)
            f.write('\n\tlocal: *;\n};\n\n')


def self_test(so, map_path, objs):
    """Check the real inputs pass and broken maps fail; return failures."""
    failures = []
    problems = check(so, map_path, objs)
    if problems:
        failures.append('real map rejected: ' + '; '.join(problems))
    blocks = parse_map(map_path)
    exp = blocks.get('EXPERIMENTAL', [])
    mutants = []
    for block, names in blocks.items():
        if names:
            dropped = dict(blocks)
            dropped[block] = names[1:]
            mutants.append(('drop %s from %s' % (names[0], block), dropped))
            break
    added = {b: list(n) for b, n in blocks.items()}
    first = next(iter(added))
    added[first].append('rte_no_such_symbol_for_self_test')
    mutants.append(('add a bogus symbol', added))
    if exp:
        moved = {b: list(n) for b, n in blocks.items() if b != 'EXPERIMENTAL'}
        moved['EXPERIMENTAL'] = exp[1:]
        moved['SELFTEST_STABLE'] = [exp[0]]
        mutants.append(('move %s to a stable block' % exp[0], moved))
    with tempfile.TemporaryDirectory(prefix='check_symbols.') as tmp:
        for what, blocks_m in mutants:
            path = os.path.join(tmp, 'mutant.map')
            write_map(path, blocks_m)
            found = check(so, path, objs)
            print('self-test: %s: %d problem(s) found%s'
                  % (what, len(found), ', e.g. ' + found[0] if found else ''))
            if not found:
                failures.append('broken map accepted (%s)' % what)
    return failures


def main(argv):
    args = argv[1:]
    selftest = False
    if args and args[0] == '--self-test':
        selftest = True
        args = args[1:]
    if len(args) < 2:
        print(__doc__)
        return 1
    if shutil.which('objdump') is None:
        # binutils comes with build-essential (usertools/ipoib-setup.sh)
        print('objdump not found (binutils): cannot check the exports')
        return 1
    so, map_path, objs = args[0], args[1], args[2:]
    if selftest:
        failures = self_test(so, map_path, objs)
        for failure in failures:
            print('FAIL: ' + failure)
        print('self-test %s' % ('failed' if failures else 'passed'))
        return 1 if failures else 0
    problems = check(so, map_path, objs)
    for problem in problems:
        print('FAIL: ' + problem)
    nsyms = sum(len(v) for v in parse_map(map_path).values())
    print('%s: %d symbols in %s, %d problem(s)'
          % (os.path.basename(so), nsyms, os.path.basename(map_path),
             len(problems)))
    return 1 if problems else 0


if __name__ == '__main__':
    sys.exit(main(sys.argv))
