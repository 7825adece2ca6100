"""Write docs/cli.md: every ``xianniu`` command with its help, from the click commands
themselves (tests/core/test_cli_reference.py keeps the file in step with the code).

    python scripts/docs/cli_reference.py           # rewrite docs/cli.md
    python scripts/docs/cli_reference.py --check   # exit 1 if docs/cli.md is out of date
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

import click

ROOT = Path(__file__).resolve().parents[2]
OUT = ROOT / "docs" / "cli.md"
HEAD = """# Command reference

Generated from the commands' own help by `python scripts/docs/cli_reference.py`; do not edit by
hand (a test fails when this file and the code disagree). Every command is also a Python
function in `analyzer.<game>.api`. Bad input ends with one line on standard error and exit
status 2.
"""


def _context(cmd: click.Command, name: str, parent: click.Context | None) -> click.Context:
    # As click's make_context does: the command's context_settings apply (so -h, --help
    # reads the same as on the command line, whatever click version builds it).
    return click.Context(cmd, info_name=name, parent=parent,
                         **{"terminal_width": 100, "max_content_width": 100,
                            **cmd.context_settings})


def _walk(cmd: click.Command, path: list[str], ctx: click.Context):
    yield path, cmd, ctx
    if isinstance(cmd, click.Group):
        for name in cmd.list_commands(ctx):
            sub = cmd.get_command(ctx, name)
            if sub is None or getattr(sub, "hidden", False):
                continue
            yield from _walk(sub, [*path, name], _context(sub, name, ctx))


def reference() -> str:
    """The whole of docs/cli.md."""
    sys.path.insert(0, str(ROOT))
    from analyzer.cli import cli

    root = _context(cli, "xianniu", None)
    parts = [HEAD]
    for path, cmd, ctx in _walk(cli, ["xianniu"], root):
        ctx.terminal_width = ctx.max_content_width = 100
        title = " ".join(path)
        level = "##" if len(path) <= 2 else "###"
        parts.append(f"{level} `{title}`\n\n```text\n{cmd.get_help(ctx).rstrip()}\n```\n")
    return "\n".join(parts)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--check", action="store_true", help="only check that the file is current")
    args = ap.parse_args(argv)
    text = reference()
    if args.check:
        current = OUT.read_text(encoding="utf-8") if OUT.exists() else ""
        if current != text:
            print(f"{OUT.relative_to(ROOT)} is out of date: run "
                  "python scripts/docs/cli_reference.py", file=sys.stderr)
            return 1
        return 0
    from analyzer.core.fileio import write_atomic

    write_atomic(OUT, text)
    print(OUT.relative_to(ROOT))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
