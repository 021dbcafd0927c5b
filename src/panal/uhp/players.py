"""Reference opponents as UHP engines, for arena baselines.

    python -m panal.uhp.players random   # a uniformly random legal move
    python -m panal.uhp.players greedy   # the best move by the evaluation one ply ahead

Both speak the whole protocol of ``panal uhp`` (they are that engine with another ``bestmove``);
``greedy`` still takes wins in one and avoids handing over an immediate loss only by accident.
"""

from __future__ import annotations

import random
import sys

from panal.uhp.engine import PanalEngine, UhpError

PLAYERS = ("random", "greedy")


class BaselineEngine(PanalEngine):
    """``panal uhp`` whose ``bestmove`` is a fixed simple policy, whatever its arguments."""

    def __init__(self, policy: str, seed: int | None = None) -> None:
        super().__init__()
        if policy not in PLAYERS:
            raise ValueError(f"unknown player {policy!r}; choose one of {', '.join(PLAYERS)}")
        self.policy = policy
        self.rng = random.Random(seed)
        self.commands["bestmove"] = self.bestmove

    def info(self, _args: str) -> list[str]:
        reply = super().info(_args)
        reply[0] = f"{reply[0]} ({self.policy} player)"
        return reply

    def bestmove(self, args: str) -> list[str]:
        game = self._current()
        codes = game.legal_move_codes()
        if not codes:
            raise UhpError("the game is over: there is no best move")
        if self.policy == "random":
            code = self.rng.choice(sorted(codes))
        else:
            from panal.ai import think

            code = think(game, "strongest", depth=1, seed=self.rng.randrange(2**31)).code
        return [game.move_string(code)]


def main(argv: list[str] | None = None) -> int:
    args = sys.argv[1:] if argv is None else argv
    if len(args) not in (1, 2) or args[0] not in PLAYERS:
        print(f"usage: python -m panal.uhp.players {{{'|'.join(PLAYERS)}}} [seed]", file=sys.stderr)
        return 2
    seed = int(args[1]) if len(args) == 2 else None
    sys.stdin.reconfigure(errors="replace")  # type: ignore[union-attr]
    BaselineEngine(args[0], seed).serve(sys.stdin, sys.stdout)
    return 0


if __name__ == "__main__":
    sys.exit(main())
