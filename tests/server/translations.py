"""The UI's translation tables read without a browser, for the tests (see
``test_web_translations.py``)."""

from __future__ import annotations

import re
from importlib.resources import files

MODULES = ("i18n.js", "i18n_players.js", "enjambre_i18n.js")
LANGUAGES = ("en", "es", "pt-PT", "pt-BR")

# A language's table as a constant (PT_PT), or as an entry of the module's table of languages.
_OPEN = re.compile(r'^(?:const (?P<const>[A-Z]{2}_[A-Z]{2}) = \{|  "?(?P<lang>[a-zA-Z-]+)"?: \{)$')
_ALIAS = re.compile(r'^  "?(?P<lang>[a-zA-Z-]+)"?: (?P<const>[A-Z_]+),$')
_ENTRY = re.compile(r'^\s+"(?P<key>[a-zA-Z0-9_.]+)": (?P<text>".*"),$')
_SPREAD = re.compile(r"^\s+\.\.\.(?P<const>[A-Z_]+),$")


def read_tables(source: str) -> tuple[dict[str, dict[str, str]], dict[str, dict[str, str]]]:
    """(every language's table with spreads resolved, each language's own entries). A line of
    a table that is neither an entry nor a spread fails: this reader must not skip keys."""
    consts: dict[str, dict[str, str]] = {}
    merged: dict[str, dict[str, str]] = {}
    own: dict[str, dict[str, str]] = {}
    current: dict[str, str] | None = None  # the table being read
    entries: dict[str, str] = {}  # its own entries (not spread from another)
    own_name: str | None = None  # its language, unless it is a constant
    for number, line in enumerate(source.splitlines(), 1):
        if current is None:
            opened = _OPEN.match(line)
            alias = _ALIAS.match(line)
            if alias:
                merged[alias["lang"]] = dict(consts[alias["const"]])
                own[alias["lang"]] = dict(consts[alias["const"]])
            elif opened and opened["const"]:
                current, entries = {}, {}
                consts[opened["const"]] = current
                own_name = None
            elif opened and opened["lang"]:
                current, entries = {}, {}
                merged[opened["lang"]] = current
                own_name = opened["lang"]
            continue
        if line in ("};", "  },"):
            if own_name is not None:
                own[own_name] = entries
            current = None
            continue
        if line.lstrip().startswith("//"):
            continue
        spread = _SPREAD.match(line)
        entry = _ENTRY.match(line)
        if spread:
            current.update(consts[spread["const"]])
        elif entry:
            assert entry["key"] not in entries, f"line {number}: {entry['key']} twice"
            current[entry["key"]] = entries[entry["key"]] = entry["text"]
        else:
            raise AssertionError(f"line {number} is not a table entry: {line!r}")
    return merged, own


TABLES = {
    module: read_tables(files("panal.web").joinpath(f"js/{module}").read_text(encoding="utf-8"))
    for module in MODULES
}
# Every module's tables merged, as i18n.js merges them for the pages.
MERGED: dict[str, dict[str, str]] = {language: {} for language in LANGUAGES}
for _merged, _own in TABLES.values():
    for _language, _table in _merged.items():
        MERGED[_language].update(_table)
