"""Modules that do not lean on each other: no import cycles, and the layers point one way.

Every ``import`` statement in the package counts, at module level, inside functions and under
``TYPE_CHECKING`` alike: a cycle hidden inside a function is still a cycle.
"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

SRC = Path(__file__).resolve().parents[1] / "src"
PACKAGE = SRC / "panal"


def _module_name(path: Path) -> str:
    parts = list(path.relative_to(SRC).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


MODULES = {_module_name(p): p for p in PACKAGE.rglob("*.py")}


def _imports(name: str) -> set[str]:
    """The panal modules that module ``name`` imports (``from x import y`` counts x.y when y is
    a module)."""
    path = MODULES[name]
    package = name if path.name == "__init__.py" else name.rpartition(".")[0]
    found: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            found.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                anchor = package.split(".")[: len(package.split(".")) - node.level + 1]
                base = ".".join([*anchor, *([base] if base else [])])
            submodules = {f"{base}.{alias.name}" for alias in node.names} & MODULES.keys()
            # ``from panal.hive import movement`` imports the module, not the package's names.
            found.update(submodules or {base})
            if len(submodules) < len(node.names):
                found.add(base)
    return {module for module in found if module in MODULES and module != name}


GRAPH = {name: _imports(name) for name in MODULES}


def _cycles(nodes: set[str]) -> list[list[str]]:
    """Strongly connected components with more than one module (Tarjan), within ``nodes``."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: list[list[str]] = []

    def visit(node: str) -> None:
        index[node] = low[node] = len(index)
        stack.append(node)
        on_stack.add(node)
        for target in GRAPH[node] & nodes:
            if target not in index:
                visit(target)
                low[node] = min(low[node], low[target])
            elif target in on_stack:
                low[node] = min(low[node], index[target])
        if low[node] == index[node]:
            component = []
            while True:
                member = stack.pop()
                on_stack.discard(member)
                component.append(member)
                if member == node:
                    break
            if len(component) > 1:
                found.append(sorted(component))

    for node in sorted(nodes):
        if node not in index:
            visit(node)
    return found


@pytest.mark.parametrize(
    "package", ["panal.hex", "panal.hive", "panal.ai", "panal.uhp", "panal.puzzles"]
)
def test_no_import_cycles_in_the_library(package: str) -> None:
    members = {name for name in MODULES if name == package or name.startswith(package + ".")}
    # A package's __init__ re-exports its modules; only cycles among the modules themselves count.
    assert _cycles(members - {package}) == []


def _package(module: str) -> str:
    return ".".join(module.split(".")[:2])


def test_the_layers_point_one_way() -> None:
    """hex <- hive <- ai <- uhp <- server: no module imports a layer above its own."""
    order = ["panal.hex", "panal.hive", "panal.ai", "panal.uhp", "panal.server"]
    for name, targets in GRAPH.items():
        if _package(name) not in order:
            continue
        level = order.index(_package(name))
        for target in targets:
            if _package(target) in order:
                assert order.index(_package(target)) <= level, f"{name} imports {target}"


def test_puzzles_stand_on_the_library_alone() -> None:
    """panal.puzzles uses the rules and the AI; only the command line (by name, through
    ``panal.cli.SUBSYSTEMS``) and the server's trainer (``panal.server.training``) reach it."""
    allowed = {"panal.hex", "panal.hive", "panal.ai", "panal.puzzles"}
    for name, targets in GRAPH.items():
        if _package(name) == "panal.puzzles":
            assert {_package(t) for t in targets} <= allowed, name
        elif not name.startswith("panal.server.training."):
            assert "panal.puzzles" not in {_package(t) for t in targets}, name


def test_rules_know_nothing_of_the_rest() -> None:
    for name, targets in GRAPH.items():
        if _package(name) in ("panal.hex", "panal.hive"):
            assert {_package(t) for t in targets} <= {"panal.hex", "panal.hive"}, name


def test_the_hive_modules_import_at_the_top() -> None:
    """game, notation, rules and svg used to import each other inside functions to dodge
    cycles; now every panal.hive module imports what it needs at the top (the command-line
    glue excepted, which keeps ``panal`` quick to start)."""
    for name, path in MODULES.items():
        if not name.startswith("panal.hive") or name.endswith(".commands"):
            continue
        tree = ast.parse(path.read_text(encoding="utf-8"))
        for node in ast.walk(tree):
            if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
                nested = [n for n in ast.walk(node) if isinstance(n, ast.Import | ast.ImportFrom)]
                assert not nested, f"{name}.{node.name} imports inside a function"


# --- the server's layers ------------------------------------------------------------------------

SERVER = "panal.server"
#: The kinds of live rooms: each a folder that knows no other.
ROOM_KINDS = ("panal.server.hive_games", "panal.server.enjambre_tables", "panal.server.analysis")
#: What the live-room core and the process's runtime are built on, and must know no kind of; with
#: the concerns that every kind plugs into or publishes to (the chat, the notifications).
CORE = (
    "panal.server.room",
    "panal.server.runtime",
    "panal.server.database",
    "panal.server.chat",
    "panal.server.notifications",
    "panal.server.mail",
)


def _in(module: str, packages: tuple[str, ...]) -> str | None:
    for package in packages:
        if module == package or module.startswith(package + "."):
            return package
    return None


def test_no_import_cycles_in_the_server() -> None:
    members = {name for name in MODULES if name.startswith(SERVER + ".")}
    packages = {name for name in members if MODULES[name].name == "__init__.py"}
    assert _cycles(members - packages) == []


def test_the_live_room_core_knows_no_kind_of_room() -> None:
    """The core, the runtime and the database layer know neither Hive games nor Enjambre
    tables (nor any game's rules): a new kind of room is a new folder, not a change here."""
    for name, targets in GRAPH.items():
        if _in(name, CORE) is None:
            continue
        for target in targets:
            assert _in(target, ROOM_KINDS) is None, f"{name} imports {target}"
            assert _package(target) not in ("panal.hive", "panal.enjambre", "panal.ai"), (
                f"{name} imports {target}"
            )


def test_a_kind_of_room_knows_no_other() -> None:
    for name, targets in GRAPH.items():
        kind = _in(name, ROOM_KINDS)
        if kind is None:
            continue
        for target in targets:
            other = _in(target, ROOM_KINDS)
            assert other in (None, kind), f"{name} imports {target}"


def test_the_server_is_in_folders_by_concern() -> None:
    """Every server module but the process's entry points lives in a folder named for its
    concern; none is over 600 lines."""
    entry_points = {
        "panal.server",
        "panal.server.app",
        "panal.server.commands",
        "panal.server.worker",
    }
    for name, path in MODULES.items():
        if not name.startswith(SERVER):
            continue
        in_folder = name.count(".") >= 3 or path.name == "__init__.py"
        assert name in entry_points or in_folder, f"{name} is not in a folder"
        lines = path.read_text(encoding="utf-8").count("\n")
        assert lines <= 600, f"{name}: {lines} lines"


def test_tournament_pairings_and_standings_know_no_web() -> None:
    """The tournaments' library (pairings, standings) is pure functions over plain data: it
    imports nothing of the server, the web or a game's rules."""
    for name in ("panal.server.tournaments.pairing", "panal.server.tournaments.standings"):
        assert GRAPH[name] == set(), f"{name} imports {GRAPH[name]}"
        tree = ast.parse(MODULES[name].read_text(encoding="utf-8"))
        imported = {
            alias.name.split(".")[0]
            for node in ast.walk(tree)
            if isinstance(node, ast.Import | ast.ImportFrom)
            for alias in (
                node.names if isinstance(node, ast.Import) else [ast.alias(node.module or "")]
            )
        }
        assert imported <= {"__future__", "collections", "dataclasses", "networkx"}, imported
