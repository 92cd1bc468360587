# SPDX-License-Identifier: BSD-3-Clause
# Copyright(c) 2026 The dpdk-ipoib authors
#
# Sphinx configuration of the dpdk-ipoib guides. Built by the meson target
# "doc" (doc/meson.build) and checked without warnings by the unit test
# "docs_sphinx": sphinx-build -W -b html doc/guides <out>.

import os
import re

project = 'dpdk-ipoib'
copyright = '2026, The dpdk-ipoib authors'
author = 'The dpdk-ipoib authors'


def _project_version():
    """The version of the top meson.build's project(), the single source."""
    top = os.path.join(os.path.dirname(os.path.abspath(__file__)), '..', '..')
    with open(os.path.join(top, 'meson.build')) as f:
        m = re.search(r"version:\s*'([^']+)'", f.read())
    return m.group(1) if m else 'unknown'


version = release = _project_version()
master_doc = 'index'
exclude_patterns = ['_build']
highlight_language = 'console'
html_theme = 'alabaster'
html_show_sourcelink = False
# Guides quote C identifiers in ``literals``; the default role must not
# turn `single backquotes` into cross references that cannot resolve.
default_role = 'literal'
