"""Kernels compiled without reference counting (``_nrt=False``) reach no allocation.

Numba compiles a kernel first reached from an ``_nrt=False`` caller without reference
counting too, unless it asks for the counts itself (``_nrt=True``), and an allocation there
fails to compile. Whether a kernel is first reached so depends on which command an empty
cache compiles first (``xianniu shengji advise`` at a follow was, while the 双升 search did
not ask for the counts), so no run of the suite shows it reliably: this reads the source
instead. Every function such a kernel calls, directly or through others, within
``kernels``, up to one that asks for the counts, must allocate no array, list, dict or set.
"""

from __future__ import annotations

import ast
from pathlib import Path

KERNELS = Path(__file__).resolve().parents[2] / "kernels"
NUMPY_ALLOCATORS = frozenset({
    "array", "arange", "concatenate", "copy", "empty", "empty_like", "full", "full_like",
    "ones", "ones_like", "stack", "zeros", "zeros_like",
})
ALLOCATING_NODES = (ast.List, ast.ListComp, ast.Dict, ast.DictComp, ast.Set, ast.SetComp)


def _module_name(path: Path) -> str:
    parts = path.relative_to(KERNELS.parent).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def _resolve(module: str, level: int, name: str | None, is_package: bool) -> str:
    base = module.split(".") if is_package else module.split(".")[:-1]
    base = base[:len(base) - (level - 1)] if level > 1 else base
    return ".".join(base + ([name] if name else []))


class _Module:
    """A kernels module's functions, the names it imports and the functions it calls."""

    def __init__(self, path: Path):
        self.name = _module_name(path)
        tree = ast.parse(path.read_text(encoding="utf-8"))
        package = path.name == "__init__.py"
        self.functions = {n.name: n for n in tree.body if isinstance(n, ast.FunctionDef)}
        self.imports: dict[str, tuple[str, str]] = {}
        for node in tree.body:
            if isinstance(node, ast.ImportFrom) and node.level > 0:
                source = _resolve(self.name, node.level, node.module, package)
                for alias in node.names:
                    self.imports[alias.asname or alias.name] = (source, alias.name)

    def target(self, name: str) -> tuple[str, str] | None:
        """The (module, function) a call of ``name`` (``f`` or ``module_alias.f``) reaches."""
        if "." in name:  # from . import policies as kp; kp.f()
            alias, attr = name.split(".", 1)
            source = self.imports.get(alias)
            return (f"{source[0]}.{source[1]}", attr) if source else None
        if name in self.functions:
            return self.name, name
        return self.imports.get(name)


def _modules() -> dict[str, _Module]:
    mods = [_Module(p) for p in sorted(KERNELS.rglob("*.py"))]
    return {m.name: m for m in mods}


BUILDS = {"njit_uncounted": False, "njit_counted": True}  # kernels.jit


def _nrt(fn: ast.FunctionDef) -> bool | None:
    """The ``_nrt`` its decorator gives (``kernels.jit``'s builds, or ``njit(_nrt=...)``),
    or None when it gives none."""
    for dec in fn.decorator_list:
        if isinstance(dec, ast.Name) and dec.id in BUILDS:
            return BUILDS[dec.id]
        if isinstance(dec, ast.Call):
            for kw in dec.keywords:
                if kw.arg == "_nrt" and isinstance(kw.value, ast.Constant):
                    return bool(kw.value.value)
    return None


def _jitted(fn: ast.FunctionDef) -> bool:
    """Decorated ``@njit`` or one of ``kernels.jit``'s builds (an ``@intrinsic``'s body runs
    in Python, at compile time)."""
    for dec in fn.decorator_list:
        target = dec.func if isinstance(dec, ast.Call) else dec
        if isinstance(target, ast.Name) and (target.id == "njit" or target.id in BUILDS):
            return True
    return False


def _nrt_off(fn: ast.FunctionDef) -> bool:
    return _nrt(fn) is False


def _allocation(fn: ast.FunctionDef) -> str | None:
    """What ``fn`` allocates itself (the first found), or None."""
    for node in ast.walk(fn):
        if isinstance(node, ALLOCATING_NODES):
            return f"a {type(node).__name__.lower()} at line {node.lineno}"
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute):
            f = node.func
            if isinstance(f.value, ast.Name) and f.value.id == "np" and f.attr in NUMPY_ALLOCATORS:
                return f"np.{f.attr} at line {node.lineno}"
            if f.attr == "copy":
                return f".copy() at line {node.lineno}"
    return None


def _callees(fn: ast.FunctionDef) -> list[str]:
    names = []
    for n in ast.walk(fn):
        if isinstance(n, ast.Call) and isinstance(n.func, ast.Name):
            names.append(n.func.id)
        elif (isinstance(n, ast.Call) and isinstance(n.func, ast.Attribute)
              and isinstance(n.func.value, ast.Name) and n.func.value.id != "np"):
            names.append(f"{n.func.value.id}.{n.func.attr}")
    return names


def allocating_paths() -> list[str]:
    """For each ``_nrt=False`` kernel that reaches an allocation: the call path to it."""
    mods = _modules()
    memo: dict[tuple[str, str], list[str] | None] = {}

    def reach(key: tuple[str, str], seen: frozenset) -> list[str] | None:
        if key in memo:
            return memo[key]
        mod = mods.get(key[0])
        if mod is None:  # a module outside kernels (numba, numpy)
            return None
        fn = mod.functions.get(key[1])
        if fn is None or not _jitted(fn) or key in seen or (seen and _nrt(fn) is True):
            return None  # a kernel that asks for the counts is compiled with them
        found: list[str] | None = None
        what = _allocation(fn)
        if what is not None:
            found = [f"{key[0]}.{key[1]} ({what})"]
        else:
            for callee in _callees(fn):
                target = mod.target(callee)
                below = reach(target, seen | {key}) if target else None
                if below is not None:
                    found = [f"{key[0]}.{key[1]}", *below]
                    break
        memo[key] = found
        return found

    bad = []
    for mod in mods.values():
        for name, fn in mod.functions.items():
            if _nrt_off(fn):
                path = reach((mod.name, name), frozenset())
                if path is not None:
                    bad.append(" -> ".join(path))
    return bad


def test_the_checker_sees_kernels_without_reference_counting():
    # the check below is empty if the decorators or the call graph are misread
    mods = _modules()
    off = [f"{m.name}.{n}" for m in mods.values() for n, f in m.functions.items() if _nrt_off(f)]
    assert "kernels.shengji.hand._follow" in off
    assert "kernels.xianniu.choice.choose" in off
    hand = mods["kernels.shengji.hand"]
    assert hand.target("search_choose") == ("kernels.shengji.search", "search_choose")
    assert _allocation(hand.functions["new_scratch"]) is not None
    assert _nrt(mods["kernels.shengji.pimc"].functions["pimc_choose"]) is True
    assert _nrt_off(mods["kernels.shengji.search"].functions["search_choose"])
    learned = mods["kernels.xianniu.learned"]
    assert any(learned.target(c) and learned.target(c)[0] == "kernels.xianniu.policies"
               for f in learned.functions.values() for c in _callees(f))


def test_no_kernel_without_reference_counting_reaches_an_allocation():
    assert allocating_paths() == []
