"""The UI's translation catalogs (``panal/web/locales/<language>/<area>.json``), read without a
browser. In each area every language has every key, and the Brazilian catalogs, which hold only
what Brazilians say differently from the European ones they are layered on, change keys that
exist and keep none of the European forms that Brazilians do not use; a count's word forms
("{n|ficha|fichas}") are well made; the loader and the installable app know every catalog. (The
browser tests check the merged texts of every page, and the forms chosen.)"""

from __future__ import annotations

import re
from collections import Counter

import pytest
from fastapi.testclient import TestClient

from tests.server.translations import AREAS, LANGUAGES, LOCALES, MERGED, TABLES


@pytest.mark.parametrize(
    ("area", "keys"),
    [("common", 50), ("hive", 150), ("players", 60), ("enjambre", 150), ("ladder", 10)],
)
def test_the_reader_reads_every_catalog(area: str, keys: int) -> None:
    merged, _ = TABLES[area]
    assert set(merged) == set(LANGUAGES)
    assert len(merged["en"]) > keys  # the whole catalog, not a part


def test_the_catalogs_are_the_languages_and_areas_the_loader_knows() -> None:
    on_disk = {
        (folder.name, file.name)
        for folder in LOCALES.iterdir()
        if folder.is_dir()
        for file in folder.iterdir()
    }
    assert on_disk == {(language, f"{area}.json") for language in LANGUAGES for area in AREAS}
    loader = LOCALES.joinpath("../js/i18n.js").read_text(encoding="utf-8")
    listed = re.search(r"export const AREAS = \[(.*)\];", loader)
    assert listed is not None
    assert re.findall(r'"([\w-]+)"', listed[1]) == list(AREAS)
    languages = re.search(r"export const LANGUAGES = \[(.*)\];", loader)
    assert languages is not None
    assert re.findall(r'"([\w-]+)"', languages[1]) == list(LANGUAGES)


def test_a_key_lives_in_one_area() -> None:
    counts = Counter(key for merged, _ in TABLES.values() for key in merged["en"])
    assert [key for key, n in counts.items() if n > 1] == []


@pytest.mark.parametrize("area", AREAS)
@pytest.mark.parametrize("language", LANGUAGES)
def test_every_language_has_every_key(area: str, language: str) -> None:
    merged, _ = TABLES[area]
    assert sorted(merged[language]) == sorted(merged["en"])


@pytest.mark.parametrize("area", AREAS)
def test_brazilian_portuguese_changes_only_existing_words(area: str) -> None:
    merged, own = TABLES[area]
    european, brazilian = merged["pt-PT"], own["pt-BR"]
    assert brazilian, "pt-BR overrides some words"
    assert set(brazilian) <= set(european)  # an override of a key nobody uses is a typo
    assert all(brazilian[key] != european[key] for key in brazilian)  # no idle repeats
    assert len(brazilian) < len(european)  # it does not repeat the catalog


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


def test_the_catalogs_are_served_as_json_and_kept_for_offline(client: TestClient) -> None:
    worker = client.get("/sw.js").text
    for language in LANGUAGES:
        for area in AREAS:
            url = f"/static/locales/{language}/{area}.json"
            answer = client.get(url)
            assert answer.status_code == 200
            assert answer.headers["content-type"].startswith("application/json")
            assert answer.json() == TABLES[area][1][language]
            assert f'"{url}"' in worker  # the service worker caches it
