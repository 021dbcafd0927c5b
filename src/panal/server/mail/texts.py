"""The e-mails' texts, in the player's language, from the same catalogs as the pages
(``panal/web/locales/<language>/account.json``, keys ``mail.*``): one place to translate."""

from __future__ import annotations

import functools
import json
from importlib.resources import files

__all__ = ["LANGUAGES", "mail_text"]

LANGUAGES = ("en", "es", "pt-PT", "pt-BR")
#: A language whose catalog holds only what differs from another's (as the pages layer them).
_LAYERED_ON = {"pt-BR": "pt-PT"}


@functools.cache
def _catalog(language: str) -> dict[str, str]:
    path = files("panal.web").joinpath("locales").joinpath(language).joinpath("account.json")
    own: dict[str, str] = json.loads(path.read_text(encoding="utf-8"))
    below = _catalog(_LAYERED_ON[language]) if language in _LAYERED_ON else {}
    return {**below, **own}


def mail_text(language: str | None, key: str, **values: object) -> str:
    """The text ``mail.<key>`` in ``language`` (English when the player chose none), with each
    ``{name}`` replaced by its value."""
    catalog = _catalog(language if language in LANGUAGES else "en")
    text = catalog.get(f"mail.{key}") or _catalog("en")[f"mail.{key}"]
    for name, value in values.items():
        text = text.replace("{" + name + "}", str(value))
    return text
