"""setuptools' build backend, plus mypy when ``PANAL_MYPYC=1`` asks for the compiled build.

pip builds panal in an isolated environment holding only what the backend requests; the
compiled build (setup.py) needs mypyc, which ships with mypy. The pure build asks for nothing
more than setuptools.
"""

from __future__ import annotations

import os
from typing import Any

from setuptools import build_meta
from setuptools.build_meta import *  # noqa: F403  (the backend's other hooks, unchanged)

MYPY = "mypy>=2.4,<2.5"  # the version the test extra pins


def _compiled() -> bool:
    return os.environ.get("PANAL_MYPYC", "") not in ("", "0")


# setuptools finds its extra requirements by running setup.py, which for the compiled build
# needs mypyc already: ask for mypy directly then (setup.py declares no other requirement).


def get_requires_for_build_wheel(config_settings: dict[str, Any] | None = None) -> list[str]:
    if _compiled():
        return [MYPY]
    return build_meta.get_requires_for_build_wheel(config_settings)


def get_requires_for_build_editable(config_settings: dict[str, Any] | None = None) -> list[str]:
    if _compiled():
        return [MYPY]
    return build_meta.get_requires_for_build_editable(config_settings)
