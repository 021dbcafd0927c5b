"""Small hand-made game records shared by the record and replay tests."""

from __future__ import annotations

# The converted game of FORMATS.md §1.5 (HV-SmartBot0-ChuckQ-2020-03-29-2246): bQ surrounded.
CHUCKQ = (
    "Base;WhiteWins;Black[11];wA1;bA1 /wA1;wS1 wA1-;bA2 bA1\\;wQ wS1\\;bB1 bA2\\;wA2 wQ\\;"
    "bQ -bA1;wA2 /bQ;bB1 /wQ;wS1 bQ/;bG1 /bB1;wS2 \\wA1;bG1 wQ/;wS2 -bQ;bG2 \\bG1;wB1 wA2\\;"
    "bG2 wQ-;wB1 bQ\\;bG3 bG2-;wA1 \\bQ"
)


def sgf(*actions: tuple[int, str], su: str = "Hive", re: str | None = None, cm: str = "0,1") -> str:
    """A boardspace SGF file: ``actions`` are (player, "command args") with plain attachments."""
    lines = [" (;", "GM[27]VV[1]", f"CM[{cm}]", f"SU[{su}]", "DT[Sun Mar 29 18:46:33 EDT 2020]"]
    lines.append("GN[HV-alice-bob-2020-03-29-2246]")
    if re is not None:
        lines.append(f"RE[{re}]")
    lines += ['P0[id "alice"]', 'P1[id "bob"]', "; P0[0 Start P0]"]
    for seq, (player, action) in enumerate(actions, 1):
        escaped = action.replace("\\", "\\\\").replace("]", "\\]")
        lines.append(f"; P{player}[{seq} {escaped}]TM[{seq * 1000}]")
    lines += [";", "P0[time 0:01:48 ]", "P1[time 0:02:56 ]", ")", " "]
    return "\n".join(lines)


OPENING = [  # wA1 at N 13, bA1 south-west of it, wS1 east of wA1
    (0, "Move W wA1 N 13 ."),
    (0, "Done"),
    (1, "Pick B 1 bA1"),
    (1, "Dropb bA1 M 12 /wA1"),
    (1, "Done"),
    (0, "Move W wS1 O 13 wA1-"),
    (0, "Done"),
]
