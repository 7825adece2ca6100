"""The pictures' common start: an app of ``xianniu serve`` on 127.0.0.1 and a page of
headless Chromium (``chromium`` on the PATH, or ``CHROMIUM``) to draw it in."""

from __future__ import annotations

import os
import shutil
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

from analyzer.web.server import in_background


@contextmanager
def served_page(app: Any, height: int, timeout_ms: int) -> Iterator[tuple[str, Any]]:
    """``app`` served in the background, and a 1280-pixel-wide page: (its URL, the page)."""
    from playwright.sync_api import sync_playwright

    chromium = os.environ.get("CHROMIUM") or shutil.which("chromium")
    with in_background(app) as url, sync_playwright() as p:
        browser = p.chromium.launch(executable_path=chromium,
                                    args=["--no-sandbox", "--disable-gpu"])
        page = browser.new_context(viewport={"width": 1280, "height": height}).new_page()
        page.set_default_timeout(timeout_ms)
        yield url, page
        browser.close()
