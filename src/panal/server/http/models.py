"""What the HTTP API's requests are built on: every JSON body, an archive's page."""

from __future__ import annotations

from typing import Annotated, Literal

from fastapi import Query
from pydantic import BaseModel, ConfigDict

__all__ = ["ColorChoice", "Look", "PageLimit", "PageOffset", "StrictModel"]

Look = Literal["classic", "football"]
ColorChoice = Literal["white", "black", "random"]
#: An archive's page (``?limit=&offset=``, newest first): how many rows, after how many.
PageLimit = Annotated[int, Query(ge=1, le=200)]
PageOffset = Annotated[int, Query(ge=0, le=10_000_000)]


class StrictModel(BaseModel):
    """A request body: unknown fields and loose types are refused (422), never ignored."""

    model_config = ConfigDict(extra="forbid", strict=True)
