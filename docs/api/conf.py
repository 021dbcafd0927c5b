"""Sphinx configuration of panal's API reference (built from the docstrings).

Build it with ``python -m sphinx -b html docs/api docs/api/_build``; every example in it runs
with ``python -m sphinx -b doctest docs/api docs/api/_build`` (tests/test_api_docs.py does
both). Nothing here needs the internet: no intersphinx, no remote themes.
"""

from __future__ import annotations

project = "panal"
author = "panal's developers"
copyright = "panal's developers"
extensions = ["sphinx.ext.autodoc", "sphinx.ext.doctest"]
exclude_patterns = ["_build"]
html_theme = "alabaster"
autodoc_member_order = "bysource"
autodoc_typehints = "description"
autodoc_default_options = {"members": True, "show-inheritance": True}
# Examples in docstrings are plain ``>>>`` blocks; the doctest builder runs them all.
doctest_test_doctest_blocks = "default"
nitpicky = False
