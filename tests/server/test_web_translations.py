"""The UI's translation tables, read without a browser: Hive's (``panal/web/js/i18n.js``), the
players' pages' (``i18n_players.js``) and the Enjambre pages' (``enjambre_i18n.js``). In each,
every language has every key, and the Brazilian table, which takes the European one and changes
only what Brazilians say differently, changes keys that exist and keeps none of the European
forms that Brazilians do not use; a count's word forms ("{n|ficha|fichas}") are well made. (The
browser tests check the merged tables of every page, and the forms chosen.)"""

from __future__ import annotations

import re

import pytest

from tests.server.translations import LANGUAGES, MERGED, MODULES, TABLES


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
