"""Tokens and settings of the service: parsing, files, the first-start token, clear errors."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from workbench.errors import NoteStoreError
from workbench.notes.service.auth import (
    ADMIN_OWNER,
    LOCAL_OWNER,
    Principal,
    TokenRegistry,
    bearer_token,
    load_tokens,
    parse_api_tokens,
    read_tokens_file,
)
from workbench.notes.service.settings import ServiceSettings


def test_service_parse_api_tokens() -> None:
    assert parse_api_tokens(" t1:alice , t2:bob ,") == [("t1", "alice"), ("t2", "bob")]


@pytest.mark.parametrize(
    ("value", "words"),
    [
        ("t1:alice,t2", ["entry 2", "TOKEN:OWNER"]),
        ("t1:", ["entry 1", "owner is empty"]),
        (":alice", ["entry 1", "non-empty"]),
    ],
)
def test_service_parse_api_tokens_errors(value: str, words: list[str]) -> None:
    with pytest.raises(NoteStoreError) as info:
        parse_api_tokens(value)
    for word in words:
        assert word in str(info.value)


def test_service_registry_lookup_and_conflict() -> None:
    reg = TokenRegistry([("a", Principal("alice"), "env"), ("a", Principal("alice"), "file")])
    assert reg.lookup("a") == Principal("alice")
    assert len(reg) == 1
    assert reg.lookup("b") is None
    assert reg.lookup("") is None
    assert reg.lookup(None) is None
    with pytest.raises(NoteStoreError, match="already given to owner 'alice'"):
        reg.add("a", Principal("bob"), "tokens.json")


def test_service_load_tokens_from_env(tmp_path: Path) -> None:
    env = {"WORKBENCH_API_TOKENS": "ta:alice,tb:bob", "WORKBENCH_ADMIN_TOKEN": "tz"}
    loaded = load_tokens(env, home=tmp_path)
    assert loaded.registry.lookup("tb") == Principal("bob")
    assert loaded.registry.lookup("tz") == Principal(ADMIN_OWNER, admin=True)
    assert loaded.created_token is None
    assert not (tmp_path / "tokens.json").exists()


def test_service_first_start_creates_one_token(tmp_path: Path) -> None:
    with pytest.raises(NoteStoreError, match="no API token configured"):
        load_tokens({}, home=tmp_path)
    first = load_tokens({}, home=tmp_path, create=True)
    file = tmp_path / "tokens.json"
    assert first.created_token
    assert first.created_file == file
    assert file.stat().st_mode & 0o777 == 0o600
    assert first.registry.lookup(first.created_token) == Principal(LOCAL_OWNER, admin=True)
    second = load_tokens({}, home=tmp_path, create=True)
    assert second.created_token is None
    assert second.registry.lookup(first.created_token) == Principal(LOCAL_OWNER, admin=True)
    assert list(tmp_path.iterdir()) == [file]  # no temporary file left


def test_service_tokens_file(tmp_path: Path) -> None:
    file = tmp_path / "t.json"
    file.write_text(json.dumps({"tokens": [{"token": "k1", "owner": "ops", "admin": True}]}))
    loaded = load_tokens({"WORKBENCH_TOKENS_FILE": str(file)}, home=tmp_path)
    assert loaded.registry.lookup("k1") == Principal("ops", admin=True)
    with pytest.raises(NoteStoreError, match="no such file"):
        load_tokens({"WORKBENCH_TOKENS_FILE": str(tmp_path / "missing.json")})


@pytest.mark.parametrize(
    ("doc", "words"),
    [
        ("{", ["not valid JSON"]),
        ('{"tokens": {}}', ["'tokens' list"]),
        ('{"tokens": [{"token": "k", "owner": 3}]}', ["tokens[0].owner", "string"]),
        ('{"tokens": [{"token": "k", "owner": "a"}, {"owner": "b"}]}', ["tokens[1].token"]),
        ('{"tokens": [{"token": "k", "owner": "a", "admin": "yes"}]}', ["tokens[0].admin"]),
        ('{"tokens": [{"token": "a b", "owner": "a"}]}', ["tokens[0].token", "whitespace"]),
    ],
)
def test_service_tokens_file_errors(tmp_path: Path, doc: str, words: list[str]) -> None:
    file = tmp_path / "tokens.json"
    file.write_text(doc)
    with pytest.raises(NoteStoreError) as info:
        read_tokens_file(file)
    assert str(file) in str(info.value)
    for word in words:
        assert word in str(info.value)


def test_service_bearer_token_header() -> None:
    assert bearer_token("Bearer abc") == "abc"
    assert bearer_token("bearer  abc ") == "abc"
    assert bearer_token("Basic abc") is None
    assert bearer_token("Bearer") is None
    assert bearer_token(None) is None


def test_service_settings_from_env() -> None:
    s = ServiceSettings.from_env({"WORKBENCH_DB_WAIT_S": "5", "WORKBENCH_MIGRATE_ON_START": "no"})
    assert s.db_wait_s == 5.0
    assert s.migrate_on_start is False
    assert s.pool_size == 8
    with pytest.raises(NoteStoreError, match="WORKBENCH_DB_POOL_SIZE='x' is not a number"):
        ServiceSettings.from_env({"WORKBENCH_DB_POOL_SIZE": "x"})
    with pytest.raises(NoteStoreError, match="WORKBENCH_REINDEX_BATCH_SIZE='0' must be at least 1"):
        ServiceSettings.from_env({"WORKBENCH_REINDEX_BATCH_SIZE": "0"})
    with pytest.raises(NoteStoreError, match="WORKBENCH_MIGRATE_ON_START"):
        ServiceSettings.from_env({"WORKBENCH_MIGRATE_ON_START": "maybe"})
