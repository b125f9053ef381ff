"""Sphinx configuration for cardrules."""

from __future__ import annotations

import os
import sys

sys.path.insert(0, os.path.abspath(os.path.join(os.path.dirname(__file__), "..", "src")))

from cardrules import __version__  # noqa: E402

project = "cardrules"
author = "The cardrules developers"
copyright = "2026, the cardrules developers"
release = version = __version__

extensions = [
    "sphinx.ext.autodoc",
    "sphinx.ext.doctest",
    "sphinx.ext.intersphinx",
    "sphinx.ext.napoleon",
    "sphinx.ext.viewcode",
]
html_theme = "furo"
html_title = f"cardrules {release}"
exclude_patterns = ["_build"]
autodoc_member_order = "bysource"
autodoc_typehints = "description"
autodoc_default_options = {"members": True, "undoc-members": False, "show-inheritance": True}
# The build machines have no network: intersphinx reads the Python inventory only when
# one is cached next to this file (docs/_static/python-objects.inv); otherwise links to
# the standard library stay plain text.
_inv = os.path.join(os.path.dirname(__file__), "_static", "python-objects.inv")
intersphinx_mapping = {"python": ("https://docs.python.org/3", _inv)} if os.path.exists(_inv) else {}
nitpicky = False
