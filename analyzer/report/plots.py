"""Figure helpers for the report's sections: figures with their footers, style, PNG bytes.

Figures are :class:`matplotlib.figure.Figure` objects that no global registry keeps, drawn
with the Agg renderer, so nothing is left open. :func:`new_figure` gives every figure the
footer the report promises: its sample size, that intervals are 95% CIs, the seed and the
``xianniu report`` command that regenerates it. Sections build their figures inside
:func:`style` (the shipped CJK font and the report's look) and :func:`png` turns each into
a compact PNG.
"""

from __future__ import annotations

import contextlib
import io
from collections.abc import Iterator
from typing import TYPE_CHECKING

import matplotlib
import numpy as np
from matplotlib.figure import Figure

from .. import __version__
from . import fonts
from .labels import t

if TYPE_CHECKING:
    from .section import ReportSpec

DPI = 100
BLUE, RED, GREEN, ORANGE, GREY, DARK = ("#2f6db3", "#c8453a", "#4c9a2a", "#d08a1f", "#999999",
                                        "#333333")
FOOTER_MONO = "DejaVu Sans Mono"


def new_figure(spec: ReportSpec, title: str, n: str, *, width: float = 10.0,
               height: float = 4.8, ncols: int = 1, nrows: int = 1,
               **subplots) -> tuple[Figure, np.ndarray]:
    """A figure of ``nrows`` × ``ncols`` axes (flat array) under ``title``, its footer
    stating ``n``, the 95% CI, ``spec``'s seed and the command that regenerates it."""
    fig = Figure(figsize=(width, height), layout="constrained")
    engine = fig.get_layout_engine()
    assert engine is not None
    engine.set(rect=(0, 0.075, 1, 0.925))  # type: ignore[call-arg]  # constrained layout's
    # own keyword, room for the two footer lines
    axes = np.atleast_1d(fig.subplots(nrows, ncols, squeeze=False, **subplots)).ravel()
    fig.suptitle(title, fontsize=13)
    fig.text(0.01, 0.038, t("footer", spec.lang, n=n, seed=spec.seed), fontsize=7.5,
             color="0.3")
    fig.text(0.01, 0.01, spec.command(), fontsize=7.5, color="0.3", family=FOOTER_MONO)
    return fig, axes


def offsets(k: int, width: float = 0.8) -> tuple[np.ndarray, float]:
    """Centre offsets and bar width for ``k`` bars side by side in one slot of ``width``."""
    w = width / k
    return (np.arange(k) - (k - 1) / 2) * w, w


@contextlib.contextmanager
def style() -> Iterator[None]:
    """The report's look (its font, no top or right spine) while figures are built and
    saved."""
    family = fonts.register()
    with matplotlib.rc_context({"font.family": family, "axes.unicode_minus": True,
                                "axes.spines.top": False, "axes.spines.right": False,
                                "savefig.dpi": DPI}):
        yield


def compact_png(data: bytes, text: dict[str, str] | None = None) -> bytes:
    """The PNG with a 256-colour palette (a third of the size, no visible change) and
    ``text`` as PNG text chunks."""
    from PIL import Image, PngImagePlugin

    info = PngImagePlugin.PngInfo()
    for k, v in (text or {}).items():
        info.add_itxt(k, v)
    with Image.open(io.BytesIO(data)) as im:
        pal = im.convert("RGB").quantize(colors=256, method=Image.Quantize.MEDIANCUT)
    buf = io.BytesIO()
    pal.save(buf, format="png", optimize=True, pnginfo=info)
    return buf.getvalue()


def png(fig: Figure, description: str) -> bytes:
    """``fig`` as compact PNG bytes, naming the software and ``description`` inside."""
    buf = io.BytesIO()
    fig.savefig(buf, format="png", dpi=DPI)
    return compact_png(buf.getvalue(), {"Software": f"xianniu {__version__}",
                                        "Description": description})


__all__ = ["DPI", "compact_png", "new_figure", "offsets", "png", "style"]
