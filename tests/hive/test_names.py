"""Bug and colour names: European and Brazilian Portuguese are told apart."""

from __future__ import annotations

import pytest

from panal.hive import names
from panal.hive.pieces import Bug


def test_portuguese_by_region() -> None:
    assert names.LANGUAGES == ("en", "es", "pt-PT", "pt-BR")
    assert names.bug_name(Bug.PILLBUG, "pt-PT") == "Bicho-de-conta"
    assert names.bug_name(Bug.PILLBUG, "pt-BR") == "Tatuzinho"
    assert names.bug_name(Bug.BEETLE, "pt-BR") == "Besouro"
    assert names.bug_name(Bug.PILLBUG, "pt-BR", "football") == "Goleiro"
    assert names.bug_name(Bug.PILLBUG, "pt-PT", "football") == "Guarda-redes"
    # "pt" without a region is the rulebook's (001) European Portuguese.
    assert names.table("pt") == names.table("pt-PT")
    assert names.color_name(1, "pt") == "Pretas"


def test_every_language_names_every_bug_and_both_colours() -> None:
    for look in names.LOOKS:
        for language in names.LANGUAGES:
            table = names.table(language, look)
            assert sorted(table) == sorted(bug.letter for bug in Bug)
            assert all(table.values())
            assert all(names.color_name(color, language, look) for color in (0, 1))


def test_an_unknown_language_is_refused() -> None:
    with pytest.raises(ValueError, match="unknown language 'pt-XX'"):
        names.bug_name(Bug.QUEEN, "pt-XX")
