"""Bad bytes on the wire: every malformed request gets a 4xx with a JSON body, never a 5xx.

Schemathesis (tests/test_service_fuzz.py) sends what the OpenAPI document describes; these are
the requests it does not: bytes that are not UTF-8, JSON that does not parse or nests too deep,
numbers JSON allows and Python does not like, broken percent-encoding, odd content types.
"""

from __future__ import annotations

import httpx
import pytest
from test_service_hardening import ALICE, auth, client, server  # noqa: F401

pytest_plugins = ["notes_fixtures"]
pytestmark = pytest.mark.db

JSON = {**auth(ALICE), "content-type": "application/json"}

BODIES = [
    pytest.param(b'{"title": "caf\xe9"}', id="latin-1 byte"),
    pytest.param(b'{"title": "\xff\xfe\x00t"}', id="utf-16 bom"),
    pytest.param(b"\xc3\x28", id="broken utf-8 sequence"),
    pytest.param(b'{"title": "t", "content": ', id="truncated json"),
    pytest.param(b'{"title": "t",}', id="trailing comma"),
    pytest.param(b"[" * 100_000 + b"]" * 100_000, id="deep nesting"),
    pytest.param(b'{"title": "t", "content": "c", "limit": 1e999}', id="infinite number"),
    pytest.param(b'{"title": NaN}', id="NaN"),
    pytest.param(b'{"title": 1' + b"0" * 5000 + b"}", id="5000-digit integer"),
    pytest.param(b"", id="empty body"),
    pytest.param(b"null", id="null"),
    pytest.param(b'"just a string"', id="string"),
    pytest.param(b'{"title": "t", "title": "u", "content": "\\ud83d"}', id="lone high surrogate"),
]


@pytest.mark.parametrize("raw", BODIES)
@pytest.mark.parametrize(
    ("method", "path"),
    [
        ("POST", "/api/notes"),
        ("PUT", "/api/notes/some-id"),
        ("POST", "/api/notes/search"),
        ("POST", "/api/notes/import"),
    ],
)
def test_bad_bodies_are_4xx_json(client: httpx.Client, method, path, raw) -> None:  # noqa: F811
    r = client.request(method, path, content=raw, headers=JSON)
    assert 400 <= r.status_code < 500, (r.status_code, r.text[:300])
    assert r.headers["content-type"].startswith("application/json")
    body = r.json()
    assert body["error"]
    assert body["message"]


@pytest.mark.parametrize(
    "path",
    [
        "/api/notes/%ff",
        "/api/notes/%c3%28",
        "/api/notes/%",
        "/api/notes/%zz",
        "/api/notes/" + "a" * 10_000,
        "/api/notes?limit=%ff",
        "/api/notes?limit=1e999",
        "/api/notes?offset=-1",
        "/api/notes/%ff/scenario",
    ],
)
def test_bad_paths_and_queries_are_4xx_json(client: httpx.Client, path) -> None:  # noqa: F811
    r = client.get(path, headers=auth(ALICE))
    assert 400 <= r.status_code < 500, (r.status_code, r.text[:300])
    assert r.headers["content-type"].startswith("application/json")
    assert r.json()["error"]


@pytest.mark.parametrize(
    "content_type",
    ["text/plain", "application/x-www-form-urlencoded", "multipart/form-data; boundary=x", "%%%"],
)
def test_other_content_types_are_4xx_json(client: httpx.Client, content_type) -> None:  # noqa: F811
    r = client.post(
        "/api/notes/search",
        content=b'{"query": "frost"}',
        headers={**auth(ALICE), "content-type": content_type},
    )
    assert 400 <= r.status_code < 500 or r.status_code == 200, (r.status_code, r.text[:300])
    assert r.headers["content-type"].startswith("application/json")
