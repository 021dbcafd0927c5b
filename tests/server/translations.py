"""The UI's translation catalogs read without a browser, for the tests (see
``test_web_translations.py``): ``panal/web/locales/<language>/<area>.json``, layered as the
page's loader (``web/js/i18n.js``) layers them."""

from __future__ import annotations

import json
from importlib.resources import files
from typing import Any

LANGUAGES = ("en", "es", "pt-PT", "pt-BR")
AREAS = (
    "common",
    "hive",
    "players",
    "enjambre",
    "mygames",
    "analysis",
    "training",
    "tournaments",
    "ladder",
    "community",
    "everyday",
    "chat",
    "notifications",
    "account",
    "challenges",
)
# A language whose catalogs hold only what differs from another's.
LAYERED_ON = {"pt-BR": "pt-PT"}
LOCALES = files("panal.web").joinpath("locales")


def _no_twice(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    keys = [key for key, _ in pairs]
    twice = sorted({key for key in keys if keys.count(key) > 1})
    assert not twice, f"keys written twice: {twice}"  # JSON would keep the last one silently
    return dict(pairs)


def read_catalog(language: str, area: str) -> dict[str, str]:
    """One catalog file, checked to be a flat table of texts."""
    text = LOCALES.joinpath(language, f"{area}.json").read_text(encoding="utf-8")
    table = json.loads(text, object_pairs_hook=_no_twice)
    assert isinstance(table, dict)
    assert all(isinstance(value, str) for value in table.values()), f"{language}/{area}"
    return table


def read_area(area: str) -> tuple[dict[str, dict[str, str]], dict[str, dict[str, str]]]:
    """(every language's texts of ``area`` with the layers resolved, each language's own file)."""
    own = {language: read_catalog(language, area) for language in LANGUAGES}
    merged: dict[str, dict[str, str]] = {}
    for language in LANGUAGES:
        below = merged[LAYERED_ON[language]] if language in LAYERED_ON else {}
        merged[language] = {**below, **own[language]}
    return merged, own


TABLES = {area: read_area(area) for area in AREAS}
# Every area merged, as the loader merges them for the pages.
MERGED: dict[str, dict[str, str]] = {language: {} for language in LANGUAGES}
for _merged, _own in TABLES.values():
    for _language, _table in _merged.items():
        MERGED[_language].update(_table)
