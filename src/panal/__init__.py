"""panal: Hive and Enjambre Tácticas in Python."""

import importlib.machinery
import importlib.util

__version__ = "0.1.0"


def compiled() -> bool:
    """Whether this install is the compiled build (mypyc; docs/library.md, "Compiled build").

    The compiled build also checks every argument's type against its annotation: a wrongly typed
    argument raises ``TypeError`` with mypyc's message before panal's own check can.
    """
    spec = importlib.util.find_spec("panal.hive.game")
    origin = spec.origin if spec is not None else None
    return bool(origin and origin.endswith(tuple(importlib.machinery.EXTENSION_SUFFIXES)))
