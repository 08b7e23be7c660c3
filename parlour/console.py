"""The console the command line and terminal play print to: rich, without the spaces rich
pads its tables, titles and paragraphs with to the console's width. Those spaces are
invisible on a terminal but land in every file the output is piped or copied into.

>>> import io
>>> from rich.table import Table
>>> out = io.StringIO()
>>> table = Table("game", "seats", box=None)
>>> table.add_row("spades", "4")
>>> output_console(out, width=40).print(table)
>>> [line for line in out.getvalue().splitlines() if line != line.rstrip()]
[]
"""

from __future__ import annotations

import io
import re
import sys
from typing import IO, Any, cast

from rich.console import Console

#: Spaces and colour codes (SGR escapes) at the end of a line; the codes are kept.
_LINE_END = re.compile(r"(?:\x1b\[[0-9;]*m| )+(?=\n)")
_CODE = re.compile(r"\x1b\[[0-9;]*m")


class TrimmedLines(io.TextIOBase):
    """A text stream writing through to ``target`` (default: standard output, looked up at
    each write, as rich does) with each line's trailing spaces removed. Text after the last
    newline (a prompt) is written as it is."""

    def __init__(self, target: IO[str] | None = None) -> None:
        super().__init__()
        self._target = target

    @property
    def target(self) -> IO[str]:
        return self._target if self._target is not None else sys.stdout

    def write(self, text: str) -> int:
        self.target.write(_LINE_END.sub(lambda m: "".join(_CODE.findall(m.group())), text))
        return len(text)

    def flush(self) -> None:
        self.target.flush()

    def isatty(self) -> bool:
        return self.target.isatty()

    def fileno(self) -> int:
        return self.target.fileno()

    @property
    def encoding(self) -> str:  # type: ignore[override]
        return getattr(self.target, "encoding", None) or "utf-8"

    def writable(self) -> bool:
        return True


def output_console(target: IO[str] | None = None, **settings: Any) -> Console:
    """A rich console on ``target`` (standard output) that leaves no trailing spaces;
    ``settings`` are rich's (``width``, ``color_system``...)."""
    return Console(file=cast(IO[str], TrimmedLines(target)), **settings)
