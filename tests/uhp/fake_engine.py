"""A deliberately bad UHP engine for client and arena tests: ``python fake_engine.py MODE``.

Modes: ``good`` (plays the first valid move), ``crash`` (dies on bestmove), ``hang`` (never
answers bestmove), ``illegal`` (answers bestmove with an illegal move), ``nobanner`` (starts
without the ``id`` line), ``err`` (refuses every play), ``slowstart`` (sleeps before the banner).
"""

from __future__ import annotations

import sys
import time

from panal.uhp.engine import PanalEngine


def main() -> None:
    mode = sys.argv[1]
    if mode == "slowstart":
        time.sleep(30)
    engine = PanalEngine()
    out = sys.stdout
    if mode == "nobanner":
        out.write("hello\nok\n")
    else:
        out.write("id fake engine\nMosquito;Ladybug;Pillbug\nok\n")
    out.flush()
    for line in sys.stdin:
        command = line.strip()
        if command == "exit":
            return
        if command.startswith("bestmove"):
            if mode == "crash":
                sys.stderr.write("fake engine: simulated crash\n")
                sys.stderr.flush()
                sys.exit(3)
            if mode == "hang":
                time.sleep(60)
            if mode == "illegal":
                out.write("wQ wQ-\nok\n")
                out.flush()
                continue
            moves = engine.handle("validmoves")[0].split(";")
            out.write(f"{moves[0]}\nok\n")
            out.flush()
            continue
        if command.startswith("play") and mode == "err":
            out.write("err I refuse\nok\n")
            out.flush()
            continue
        out.write("\n".join(engine.handle(command)) + "\n")
        out.flush()


if __name__ == "__main__":
    main()
