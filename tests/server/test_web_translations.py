"""The UI's translation tables, read without a browser: Hive's (``panal/web/js/i18n.js``), the
players' pages' (``i18n_players.js``) and the Enjambre pages' (``enjambre_i18n.js``). In each,
every language has every key, and the Brazilian table, which takes the European one and changes
only what Brazilians say differently, changes keys that exist and keeps none of the European
forms that Brazilians do not use; a count's word forms ("{n|ficha|fichas}") are well made. (The
browser tests check the merged tables of every page, and the forms chosen.)"""

from __future__ import annotations

import re
from importlib.resources import files

import pytest

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


@pytest.mark.parametrize(
    ("module", "keys"), [("i18n.js", 200), ("i18n_players.js", 100), ("enjambre_i18n.js", 150)]
)
def test_the_reader_reads_every_table(module: str, keys: int) -> None:
    merged, _ = TABLES[module]
    assert set(merged) == set(LANGUAGES)
    assert len(merged["en"]) > keys  # the whole table, not a prefix


@pytest.mark.parametrize("module", MODULES)
@pytest.mark.parametrize("language", LANGUAGES)
def test_every_language_has_every_key(module: str, language: str) -> None:
    merged, _ = TABLES[module]
    assert sorted(merged[language]) == sorted(merged["en"])


@pytest.mark.parametrize("module", MODULES)
def test_brazilian_portuguese_changes_only_existing_words(module: str) -> None:
    merged, own = TABLES[module]
    european, brazilian = merged["pt-PT"], own["pt-BR"]
    assert brazilian, "pt-BR overrides some words"
    assert set(brazilian) <= set(european)  # an override of a key nobody uses is a typo
    assert all(brazilian[key] != european[key] for key in brazilian)  # no idle repeats
    assert len(brazilian) < len(european)  # it does not repeat the table


@pytest.mark.parametrize(
    "european",
    [r"\btu\b", r"\bteus?\b", r"\btuas?\b", r"\bestás\b", r"à espera", r"\becrã\b", r"\bronda"],
)
def test_brazilian_portuguese_has_no_european_forms(european: str) -> None:
    found = [
        (key, text)
        for key, text in MERGED["pt-BR"].items()
        if re.search(european, text, re.IGNORECASE)
    ]
    assert found == []


_PLURAL = re.compile(r"\{(\w+)\|([^|{}]*)\|([^|{}]*)\}")


@pytest.mark.parametrize("language", LANGUAGES)
def test_word_forms_follow_a_number_of_the_same_text(language: str) -> None:
    forms = 0
    for key, text in MERGED[language].items():
        for name, one, other in _PLURAL.findall(text):
            forms += 1
            assert "{" + name + "}" in text, f"{language} {key}: no number {{{name}}}"
            assert one.strip() and other.strip() and one != other, f"{language} {key}"
        assert "|" not in _PLURAL.sub("", text), f"{language} {key}: a malformed word form"
    assert forms >= 4  # the counts of tiles, steps, destinations, minutes
