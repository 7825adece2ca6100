"""The layout holds: kernels import nothing from analyzer, the core names no game, games do
not import each other, and no module imports itself back through others."""

from __future__ import annotations

import ast
import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
GAMES = ("xianniu", "dingniu", "shengji")
# Words that belong to one game; the core must not speak them.
GAME_TERMS = re.compile(r"刺|掀|扣|够|牛|喜|亮子|lanzhou|kanniutui|顶牛|算帐|牌九|双升|升级|"
                        r"拖拉机|zhengzhou|tractor|kitty|dingniu|shengji|xianniu\.")


def _modules(package: str) -> dict[str, Path]:
    base = ROOT / package
    out = {}
    for path in base.rglob("*.py"):
        rel = path.relative_to(ROOT).with_suffix("")
        parts = list(rel.parts)
        if parts[-1] == "__init__":
            parts = parts[:-1]
        out[".".join(parts)] = path
    return out


def _imports(name: str, path: Path) -> set[str]:
    """Absolute names of the modules ``name`` imports (top level and inside functions)."""
    is_pkg = path.name == "__init__.py"
    pkg = name.split(".") if is_pkg else name.split(".")[:-1]
    found = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            found.update(a.name for a in node.names)
        elif isinstance(node, ast.ImportFrom):
            base = pkg[:len(pkg) - node.level + 1] if node.level else []
            mod = ".".join(base + ([node.module] if node.module else []))
            found.add(mod)
            found.update(f"{mod}.{a.name}" for a in node.names)
    return found


MODULES = {**_modules("analyzer"), **_modules("kernels")}
IMPORTS = {m: {i for i in _imports(m, p) if i in MODULES} for m, p in MODULES.items()}


def test_kernels_import_nothing_from_analyzer():
    bad = {m: sorted(i for i in _imports(m, p) if i.split(".")[0] == "analyzer")
           for m, p in MODULES.items() if m.startswith("kernels")}
    assert {m: v for m, v in bad.items() if v} == {}


def test_core_imports_no_game_and_names_no_game_term():
    for m, path in MODULES.items():
        if not m.startswith("analyzer.core"):
            continue
        games = [i for i in _imports(m, path)
                 if any(i.startswith(f"{p}.{g}") for p in ("analyzer", "kernels") for g in GAMES)]
        assert games == [], f"{m} imports {games}"
        hits = GAME_TERMS.findall(path.read_text(encoding="utf-8"))
        assert hits == [], f"{m} names {sorted(set(hits))}"


def test_the_term_check_has_teeth():
    assert GAME_TERMS.findall("the 掀 decision under lanzhou") == ["掀", "lanzhou"]


@pytest.mark.parametrize("game", GAMES)
def test_a_game_imports_no_other_game(game):
    others = [g for g in GAMES if g != game]
    for m, deps in IMPORTS.items():
        if m.startswith((f"analyzer.{game}", f"kernels.{game}")):
            bad = [d for d in deps if any(d.startswith((f"analyzer.{o}", f"kernels.{o}"))
                                          for o in others)]
            assert bad == [], f"{m} imports {bad}"


def _jitted(path: Path) -> list[str]:
    """Functions of ``path`` under a Numba decorator (``njit``, ``jit``, ``numba.njit`` …)."""
    out = []
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
            for d in node.decorator_list:
                target = d.func if isinstance(d, ast.Call) else d
                name = target.attr if isinstance(target, ast.Attribute) else \
                    getattr(target, "id", "")
                if name in ("njit", "jit", "vectorize", "guvectorize", "cfunc"):
                    out.append(node.name)
    return out


def test_the_hot_path_lives_in_kernels():
    """Compiled code sits in ``kernels/``; ``analyzer`` checks input and calls it."""
    found = {m: _jitted(p) for m, p in MODULES.items() if m.startswith("analyzer")}
    assert {m: f for m, f in found.items() if f} == {}


def test_the_jit_check_has_teeth(tmp_path):
    src = tmp_path / "x.py"
    src.write_text("from numba import njit\nimport numba\n@njit(cache=True)\ndef a(x):\n"
                   "    return x\n@numba.njit\ndef b(x):\n    return x\ndef c(x):\n"
                   "    return x\n", encoding="utf-8")
    assert _jitted(src) == ["a", "b"]


def test_report_machinery_imports_no_game():
    for m, deps in IMPORTS.items():
        if m.startswith("analyzer.report"):
            bad = [d for d in deps if any(d.startswith(f"analyzer.{g}") for g in GAMES)]
            assert bad == [], f"{m} imports {bad}"


def _top_level_imports(name: str, path: Path) -> set[str]:
    """Modules imported when ``name`` is imported (not those imported inside functions)."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    top = ast.Module(body=[n for n in tree.body if isinstance(n, (ast.Import, ast.ImportFrom))],
                     type_ignores=[])
    tmp = {}
    is_pkg = path.name == "__init__.py"
    pkg = name.split(".") if is_pkg else name.split(".")[:-1]
    for node in top.body:
        if isinstance(node, ast.Import):
            tmp.update({a.name: 1 for a in node.names})
        else:
            base = pkg[:len(pkg) - node.level + 1] if node.level else []
            mod = ".".join(base + ([node.module] if node.module else []))
            tmp[mod] = 1
            tmp.update({f"{mod}.{a.name}": 1 for a in node.names})
    return {m for m in tmp if m in MODULES}


def import_cycles(graph: dict[str, set[str]]) -> list[list[str]]:
    """Every cycle a depth-first walk of ``graph`` (module -> modules it imports) meets."""
    state: dict[str, int] = {}
    cycles = []

    def visit(m: str, stack: list[str]) -> None:
        state[m] = 1
        for d in graph[m]:
            # a package's __init__ is imported before its modules: not a cycle through it
            if m.startswith(d + "."):
                continue
            if state.get(d) == 1:
                cycles.append(stack[stack.index(d):] + [d])
            elif d not in state:
                visit(d, stack + [d])
        state[m] = 2

    for m in sorted(graph):
        if m not in state:
            visit(m, [m])
    return cycles


def test_no_import_cycle():
    """No module imports itself back through others, counting imports inside functions and
    under TYPE_CHECKING: a cycle hidden in a function is still a cycle of the design."""
    graph = {m: deps - {m} for m, deps in IMPORTS.items()}
    assert import_cycles(graph) == []


def test_the_cycle_check_has_teeth():
    graph = {"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}
    assert import_cycles(graph) == [["a", "b", "c", "a"]]
    assert import_cycles({"p": set(), "p.m": {"p"}}) == []  # a package and its module


def test_every_data_file_of_the_packages_is_installed():
    """A file the code reads beside its modules (fonts, tuned weights) must be package data,
    or an installed copy runs without it."""
    import fnmatch
    import tomllib

    root = Path(__file__).resolve().parents[2]
    data = tomllib.loads((root / "pyproject.toml").read_text())
    patterns = data["tool"]["setuptools"]["package-data"]
    missing = []
    for top in ("analyzer", "kernels"):
        for f in (root / top).rglob("*"):
            if not f.is_file() or f.suffix in (".py", ".pyc") or "__pycache__" in f.parts \
                    or f.suffix in (".nbi", ".nbc"):
                continue
            package = ".".join(f.parent.relative_to(root).parts)
            if not any(fnmatch.fnmatch(f.name, p) for p in patterns.get(package, [])):
                missing.append(str(f.relative_to(root)))
    assert missing == [], f"not package data: {missing}"


def test_test_files_have_distinct_names():
    """The test folders are not packages, so pytest imports each test file by its bare name:
    two files of one name in different folders stop the whole suite at collection."""
    names: dict[str, list[str]] = {}
    for f in (ROOT / "tests").rglob("test_*.py"):
        names.setdefault(f.name, []).append(str(f.relative_to(ROOT)))
    assert {n: p for n, p in names.items() if len(p) > 1} == {}


MAX_KERNEL_ARGS = 8


def _wide_kernel_functions(path: Path) -> list[str]:
    """Functions of ``path`` with more than MAX_KERNEL_ARGS parameters and no reason written
    beside them (a comment on the ``def`` line or the line above saying why)."""
    lines = path.read_text(encoding="utf-8").splitlines()
    out = []
    for node in ast.walk(ast.parse("\n".join(lines))):
        if isinstance(node, ast.FunctionDef):
            n = len(node.args.args) + len(node.args.kwonlyargs)
            if n <= MAX_KERNEL_ARGS:
                continue
            first = node.decorator_list[0].lineno if node.decorator_list else node.lineno
            body = node.body[1:] if ast.get_docstring(node) is not None and len(node.body) > 1 \
                else node.body
            near = lines[max(0, first - 2):body[0].lineno - 1]  # the def, docstring, comments
            if not any("#" in ln for ln in near):
                out.append(f"{node.name} ({n})")
    return out


def test_no_kernel_function_takes_more_than_eight_parameters_without_a_reason():
    """Kernels take their arrays in bundles (rules, policies, scratch as tuples); a wider
    function says why beside its ``def``."""
    wide = {m: _wide_kernel_functions(p) for m, p in MODULES.items() if m.startswith("kernels")}
    assert {m: f for m, f in wide.items() if f} == {}


def test_the_parameter_check_has_teeth(tmp_path):
    src = tmp_path / "k.py"
    src.write_text("def a(p1, p2, p3, p4, p5, p6, p7, p8, p9):\n    pass\n\n"
                   "# nine: the hot loop's own counters\ndef b(p1, p2, p3, p4, p5, p6, p7, p8, p9):\n"
                   "    pass\n\ndef c(p1, p2):\n    pass\n", encoding="utf-8")
    assert _wide_kernel_functions(src) == ["a (9)"]
