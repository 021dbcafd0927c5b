"""What every JSON request body of the HTTP API is built on."""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, ConfigDict

__all__ = ["ColorChoice", "Look", "StrictModel"]

Look = Literal["classic", "football"]
ColorChoice = Literal["white", "black", "random"]


class StrictModel(BaseModel):
    """A request body: unknown fields and loose types are refused (422), never ignored."""

    model_config = ConfigDict(extra="forbid", strict=True)
