"""No function of kernels/shengji takes more than 8 arguments unless a comment on its def line
says why: arguments travel in the named bundles of kernels/shengji/__init__.py."""

from __future__ import annotations

import ast
from pathlib import Path

KERNELS = Path(__file__).resolve().parents[2] / "kernels" / "shengji"
MOST = 8


def _arguments(node: ast.FunctionDef) -> int:
    a = node.args
    return len(a.posonlyargs) + len(a.args) + len(a.kwonlyargs) + bool(a.vararg) + \
        bool(a.kwarg)


def over(path: Path) -> list[str]:
    """``file:line name (n)`` of each function of ``path`` over MOST arguments without a
    comment on its ``def`` line."""
    lines = path.read_text(encoding="utf-8").splitlines()
    out = []
    for node in ast.walk(ast.parse("\n".join(lines))):
        if isinstance(node, ast.FunctionDef) and _arguments(node) > MOST:
            if "#" not in lines[node.lineno - 1]:
                out.append(f"{path.name}:{node.lineno} {node.name} ({_arguments(node)})")
    return out


def test_no_kernel_takes_more_than_eight_arguments():
    assert [f for p in sorted(KERNELS.glob("*.py")) for f in over(p)] == []


def test_the_count_has_teeth(tmp_path):
    src = tmp_path / "k.py"
    src.write_text("def a(p1, p2, p3, p4, p5, p6, p7, p8, p9):\n    pass\n"
                   "def b(p1, p2, p3, p4, p5, p6, p7, p8, p9):  # a reason\n    pass\n"
                   "def c(p1, p2, p3, p4, p5, p6, p7, p8):\n    pass\n", encoding="utf-8")
    assert over(src) == ["k.py:1 a (9)"]
