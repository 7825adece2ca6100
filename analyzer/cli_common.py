"""Pieces shared by both games' command lines."""

from __future__ import annotations

import json
from typing import Any

import click

JSON_OPTION = click.option("--json", "as_json", is_flag=True, help="Print JSON.")


def emit_json(data: Any) -> None:
    """Print ``data`` as indented JSON, Chinese left readable."""
    click.echo(json.dumps(data, ensure_ascii=False, indent=2))
