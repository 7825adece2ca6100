"""Serve a web table on this machine only (127.0.0.1), and open it in the browser."""

from __future__ import annotations

import socket
import threading
import time
import webbrowser
from collections.abc import Callable, Iterator
from contextlib import contextmanager

HOST = "127.0.0.1"  # never another interface: the table holds no password


def free_port() -> int:
    """A port on 127.0.0.1 that nothing listens on now."""
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as s:
        s.bind((HOST, 0))
        return s.getsockname()[1]


def check_port(port: int) -> int:
    """``port`` if it is free on 127.0.0.1 (0: any free one); ValueError otherwise."""
    if not isinstance(port, int) or not 0 <= port <= 65535:
        raise ValueError(f"--port must be 0-65535, got {port!r}")
    if port == 0:
        return free_port()
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as s:
        try:
            s.bind((HOST, port))
        except OSError as e:
            raise ValueError(f"port {port} on {HOST} is taken ({e.strerror})") from None
    return port


def serve(app, port: int = 0, open_browser: bool = True,
          say: Callable[[str], None] = print, path: str = "/") -> None:
    """Run ``app`` on 127.0.0.1:``port`` until interrupted; say its address first (the
    page at ``path``, which the browser opens)."""
    import uvicorn

    port = check_port(port)
    game = getattr(app.state, "game", None)
    if game is not None:
        game.warmup()
    url = f"http://{HOST}:{port}{path}"
    config = uvicorn.Config(app, host=HOST, port=port, log_level="warning", access_log=False)
    server = uvicorn.Server(config)
    say(f"serving {url} (Ctrl-C to stop)")
    if open_browser:
        def opener() -> None:
            while not server.started and not server.should_exit:
                threading.Event().wait(0.05)
            if server.started:
                webbrowser.open(url)
        threading.Thread(target=opener, daemon=True).start()
    server.run()


@contextmanager
def in_background(app) -> Iterator[str]:
    """Serve ``app`` on a free 127.0.0.1 port in a thread (for tests and scripts that drive
    a page); yields the URL and stops the server on exit."""
    import uvicorn

    port = free_port()
    server = uvicorn.Server(uvicorn.Config(app, host=HOST, port=port, log_level="warning"))
    thread = threading.Thread(target=server.run, daemon=True)
    thread.start()
    deadline = time.monotonic() + 30
    while not server.started:
        if time.monotonic() > deadline or not thread.is_alive():
            raise RuntimeError("the server did not start")
        time.sleep(0.02)
    try:
        yield f"http://{HOST}:{port}"
    finally:
        server.should_exit = True
        thread.join(10)
