"""The table answers only its own loopback address and its own pages' writes (DNS rebinding
and cross-site requests are refused), in the app and through a real server."""

from __future__ import annotations

import threading
import time

import httpx2 as httpx
import pytest
from starlette.testclient import TestClient

from analyzer.web.app import make_app
from analyzer.web.guard import LOOPBACK, host_name, refusal
from analyzer.web.server import free_port


class _Session:
    finished, version = False, 0

    def view(self):
        return {"hand": "mine"}


class _Game:
    """The least a game gives the machinery: enough to make and view a game."""

    name = "fake"
    strings: dict = {"zh": {}, "en": {}}
    options: dict = {}
    queries: dict = {}

    def __init__(self, tmp_path):
        self.static_dir = tmp_path

    def new_game(self, options):
        return _Session()

    def review_record(self, record):
        return {}

    def warmup(self):
        pass


@pytest.fixture
def client(tmp_path):
    with TestClient(make_app(_Game(tmp_path)), base_url="http://127.0.0.1:8123") as c:
        yield c


@pytest.mark.parametrize("host", ["127.0.0.1:8123", "localhost:8123", "[::1]:8123",
                                  "LOCALHOST", "127.0.0.1"])
def test_loopback_hosts_are_served(client, host):
    r = client.get("/api/info", headers={"Host": host})
    assert r.status_code == 200 and r.json()["game"] == "fake"


@pytest.mark.parametrize("host", ["evil.example", "evil.example:8123", "127.0.0.1.evil.example",
                                  "localhost.evil.example:8123", "10.0.0.5:8123", ""])
def test_other_host_names_are_refused(client, host):
    r = client.get("/api/info", headers={"Host": host})
    assert r.status_code == 403
    assert "answers only at" in r.json()["error"]
    assert client.get("/", headers={"Host": host}).status_code == 403


def test_writes_from_another_site_are_refused_and_change_nothing(client):
    for headers in ({"Origin": "http://evil.example"}, {"Origin": "null"},
                    {"Origin": "http://127.0.0.1.evil.example:8123"},
                    {"Sec-Fetch-Site": "cross-site"}, {"Sec-Fetch-Site": "same-site"}):
        r = client.post("/api/games", json={}, headers=headers)
        assert r.status_code == 403, headers
        assert "refused" in r.json()["error"]
    assert len(client.app.state.sessions) == 0
    for headers in ({"Origin": "http://127.0.0.1:8123"}, {"Origin": "http://localhost:9"},
                    {"Sec-Fetch-Site": "same-origin"}, {}):
        assert client.post("/api/games", json={}, headers=headers).status_code == 200
    assert len(client.app.state.sessions) == 4


def test_a_read_from_another_page_is_still_only_a_read(client):
    # a cross-site GET cannot be stopped by the server, but it reads no hidden state: the
    # browser withholds the answer from the other page (no CORS header is ever sent)
    r = client.get("/api/info", headers={"Origin": "http://evil.example"})
    assert r.status_code == 200 and "access-control-allow-origin" not in r.headers


def test_the_rules_in_words():
    assert host_name("LocalHost:8080") == "localhost" and host_name("[::1]:80") == "::1"
    assert refusal({"host": "127.0.0.1:1"}, "POST", LOOPBACK) is None
    assert "cross-origin" in refusal({"host": "127.0.0.1:1", "origin": "https://a.b"}, "POST",
                                     LOOPBACK)
    assert refusal({"host": "127.0.0.1:1", "origin": "https://a.b"}, "GET", LOOPBACK) is None


def test_a_real_server_refuses_a_rebound_host_name(tmp_path):
    import uvicorn

    port = free_port()
    server = uvicorn.Server(uvicorn.Config(make_app(_Game(tmp_path)), host="127.0.0.1",
                                           port=port, log_level="warning"))
    thread = threading.Thread(target=server.run, daemon=True)
    thread.start()
    try:
        deadline = time.monotonic() + 30
        while not server.started:
            assert time.monotonic() < deadline, "the server did not start"
            time.sleep(0.05)
        url = f"http://127.0.0.1:{port}/api/info"
        assert httpx.get(url).status_code == 200
        r = httpx.get(url, headers={"Host": "evil.example"})
        assert r.status_code == 403 and "answers only at" in r.json()["error"]
        r = httpx.post(f"http://127.0.0.1:{port}/api/games", json={},
                       headers={"Origin": "http://evil.example"})
        assert r.status_code == 403
    finally:
        server.should_exit = True
        thread.join(10)
