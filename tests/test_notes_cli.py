"""``workbench notes ...`` end to end: real database, real model, exit codes."""

from __future__ import annotations

import json
from pathlib import Path

import psycopg
import pytest

from workbench.cli.main import EXIT_BAD_INPUT, EXIT_FAILED, EXIT_OK, main
from workbench.notes.maintenance import REINDEX_LOCK_KEY
from workbench.notes.migrations import available_migrations

pytest_plugins = ["notes_fixtures"]

pytestmark = pytest.mark.db


@pytest.fixture
def cli_db(fresh_db_url: str, monkeypatch: pytest.MonkeyPatch):
    # each command builds the provider the environment describes (the local model)
    monkeypatch.setenv("DATABASE_URL", fresh_db_url)
    monkeypatch.delenv("WORKBENCH_EMBEDDING_PROVIDER", raising=False)
    return fresh_db_url


def test_notes_cli_workflow(
    cli_db: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    corpus = tmp_path / "corpus.jsonl"
    corpus.write_text(
        "\n".join(
            json.dumps(d)
            for d in [
                {
                    "_id": "a",
                    "title": "Suction line insulation",
                    "text": "Insulate the suction line to avoid sweating.",
                },
                {
                    "_id": "b",
                    "title": "Head pressure",
                    "text": "Floating head pressure saves energy in winter.",
                },
            ]
        ),
        encoding="utf-8",
    )
    assert main(["notes", "search", "x"]) == EXIT_BAD_INPUT
    assert "run 'workbench notes migrate'" in capsys.readouterr().err
    assert main(["notes", "migrate", "--to", "20260512120000"]) == EXIT_OK
    assert "migrated 20260512120000" in capsys.readouterr().out
    assert main(["notes", "migrate"]) == EXIT_OK
    assert main(["notes", "migrate", "--status"]) == EXIT_OK
    assert capsys.readouterr().out.count("applied") == len(available_migrations())
    assert main(["notes", "import", str(corpus), "--owner", "alice", "-q"]) == EXIT_OK
    assert "2 notes: 2 new, 0 updated, 0 unchanged; 2 embedded" in capsys.readouterr().out
    assert (
        main(
            [
                "notes",
                "add",
                "--owner",
                "alice",
                "--title",
                "Defrost",
                "--content",
                "Hot gas defrost",
            ]
        )
        == EXIT_OK
    )
    new_id = capsys.readouterr().out.strip()
    assert (
        main(["notes", "search", "winter energy head pressure", "--owner", "alice", "--json"])
        == EXIT_OK
    )
    hits = json.loads(capsys.readouterr().out)
    assert hits[0]["external_id"] == "b"
    assert set(hits[0]) >= {
        "score",
        "keyword_rank",
        "semantic_rank",
        "snippet",
    }
    assert main(["notes", "search", "defrost", "--owner", "bob"]) == EXIT_OK
    assert "no notes found" in capsys.readouterr().out
    assert main(["notes", "show", new_id, "--owner", "bob"]) == EXIT_BAD_INPUT
    assert f"note '{new_id}' not found" in capsys.readouterr().err
    assert (
        main(
            [
                "notes",
                "update",
                new_id,
                "--owner",
                "alice",
                "--content",
                "Hot gas defrost every 6 h",
            ]
        )
        == EXIT_OK
    )
    assert main(["notes", "show", new_id]) == EXIT_OK
    assert (
        json.loads(capsys.readouterr().out.split("\n", 1)[1])["content"]
        == "Hot gas defrost every 6 h"
    )
    assert main(["notes", "validate"]) == EXIT_OK
    assert capsys.readouterr().out.strip().endswith("ok")
    with psycopg.connect(cli_db, autocommit=True) as conn:
        conn.execute("UPDATE \"Note\" SET content = 'edited' WHERE id = %s", (new_id,))
    assert main(["notes", "validate", "--json"]) == EXIT_FAILED
    report = json.loads(capsys.readouterr().out)
    assert report["counts"]["stale_hash"] == 1
    assert report["ids"]["stale_hash"] == [new_id]
    assert main(["notes", "reindex", "-q"]) == EXIT_OK
    assert "3 notes: 1 embedded in 1 batches, 2 current" in capsys.readouterr().out
    assert main(["notes", "delete", new_id, "--owner", "alice"]) == EXIT_OK
    assert main(["notes", "migrate", "--down"]) == EXIT_OK
    assert f"undone {available_migrations()[-1].id}" in capsys.readouterr().out


def test_notes_cli_bad_input_exit_2(
    cli_db: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["notes", "migrate"]) == EXIT_OK
    bad = tmp_path / "bad.jsonl"
    bad.write_text(
        '{"_id": "1", "title": "t", "text": "x"}\n{"_id": 2, "title": 5, "text": null}\nnot json\n'
    )
    assert main(["notes", "import", str(bad), "--owner", "alice"]) == EXIT_BAD_INPUT
    assert "bad.jsonl:3: not valid JSON" in capsys.readouterr().err
    assert (
        main(["notes", "import", str(tmp_path / "missing.csv"), "--owner", "a"]) == EXIT_BAD_INPUT
    )
    assert main(["notes", "migrate", "--to", "1999"]) == EXIT_BAD_INPUT
    assert "unknown migration id '1999'" in capsys.readouterr().err
    assert main(["notes", "search", " "]) == EXIT_BAD_INPUT
    assert "query is empty" in capsys.readouterr().err


def test_notes_db_commands_manage_an_embedded_server(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.delenv("DATABASE_URL", raising=False)
    monkeypatch.setenv("WORKBENCH_HOME", str(tmp_path / "home"))
    assert main(["notes", "db", "status"]) == EXIT_FAILED
    assert "not initialised" in capsys.readouterr().out
    assert main(["notes", "db", "url"]) == EXIT_BAD_INPUT
    try:
        assert main(["notes", "db", "start"]) == EXIT_OK
        url = capsys.readouterr().out.strip()
        assert url.startswith("postgresql://")
        assert "host=" in url
        assert main(["notes", "db", "url"]) == EXIT_OK
        assert capsys.readouterr().out.strip() == url
        with psycopg.connect(url) as conn:  # psycopg accepts the printed URL; a Unix socket only
            assert conn.execute("SHOW server_version_num").fetchone()[0].startswith("16")
            assert conn.execute("SHOW listen_addresses").fetchone()[0] == ""
            assert conn.execute("SHOW shared_buffers").fetchone()[0] == "1GB"
            conn.execute("CREATE EXTENSION IF NOT EXISTS vector")
            assert (
                conn.execute("SELECT extversion FROM pg_extension WHERE extname = 'vector'")
                .fetchone()[0]
                .startswith("0.8")
            )
        assert main(["notes", "db", "status"]) == EXIT_OK
        assert "running" in capsys.readouterr().out
        monkeypatch.setenv("WORKBENCH_PG_SHARED_BUFFERS", "lots")
        assert main(["notes", "db", "start"]) == EXIT_BAD_INPUT
        assert "WORKBENCH_PG_SHARED_BUFFERS='lots': expected a size" in capsys.readouterr().err
        monkeypatch.delenv("WORKBENCH_PG_SHARED_BUFFERS")
    finally:
        assert main(["notes", "db", "stop"]) == EXIT_OK
    assert "stopped" in capsys.readouterr().out
    assert main(["notes", "db", "status"]) == EXIT_FAILED
    assert ": stopped" in capsys.readouterr().out


def test_notes_cli_reindex_shares_the_lock_with_the_api(
    cli_db: str, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["notes", "migrate"]) == EXIT_OK
    with psycopg.connect(cli_db, autocommit=True) as other:
        # what an API reindex job holds while it runs
        assert other.execute("SELECT pg_try_advisory_lock(%s)", (REINDEX_LOCK_KEY,)).fetchone()[0]
        assert main(["notes", "reindex", "-q"]) == EXIT_BAD_INPUT
        assert "a reindex is already running on this database" in capsys.readouterr().err
    assert main(["notes", "reindex", "-q"]) == EXIT_OK
    assert "0 notes" in capsys.readouterr().out
