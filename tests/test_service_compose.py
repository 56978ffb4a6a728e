"""Structure of docker-compose.yml, the Dockerfile and .dockerignore (no Docker engine here).

The compose commands are parsed with the real ``workbench`` argument parser, so a renamed
option breaks this test rather than the containers.
"""

from __future__ import annotations

import re
import shlex
from pathlib import Path

import pytest
import yaml

from workbench.cli.main import build_parser

REPO = Path(__file__).resolve().parents[1]


@pytest.fixture(scope="module")
def compose() -> dict:
    return yaml.safe_load((REPO / "docker-compose.yml").read_text())


def _port_pairs(service: dict) -> set[tuple[int, int]]:
    pairs = set()
    for entry in service.get("ports", []):
        host, _, container = str(entry).rpartition(":")
        pairs.add((int(host), int(container)))
    return pairs


def test_service_compose_db(compose: dict) -> None:
    db = compose["services"]["db"]
    assert db["image"] == "pgvector/pgvector:pg16"
    assert _port_pairs(db) == {(5433, 5432)}
    volume, _, target = db["volumes"][0].partition(":")
    assert volume in compose["volumes"]
    assert target == "/var/lib/postgresql/data"
    test = db["healthcheck"]["test"]
    assert test[0] == "CMD-SHELL"
    assert "pg_isready" in test[1]
    user, database = db["environment"]["POSTGRES_USER"], db["environment"]["POSTGRES_DB"]
    assert f"-U {user}" in test[1]
    assert f"-d {database}" in test[1]


@pytest.mark.parametrize(("name", "port"), [("api", 3000), ("tools", 3001)])
def test_service_compose_app_waits_for_healthy_db(compose: dict, name: str, port: int) -> None:
    svc = compose["services"][name]
    assert svc["depends_on"] == {"db": {"condition": "service_healthy"}}
    assert _port_pairs(svc) == {(port, port)}
    db_env = compose["services"]["db"]["environment"]
    url = svc["environment"]["DATABASE_URL"]
    assert f"@db:5432/{db_env['POSTGRES_DB']}" in url
    assert url.startswith("postgresql://postgres:")
    command = svc["command"]
    assert command[:2] == ["workbench", "serve" if name == "api" else "tools"]
    args = build_parser().parse_args(command[1:])
    assert args.host == "0.0.0.0"
    assert args.port == port
    assert f":{port}/" in " ".join(svc["healthcheck"]["test"])


def test_service_compose_jupyter_and_ollama(compose: dict) -> None:
    jupyter = compose["services"]["jupyter"]
    assert _port_pairs(jupyter) == {(8888, 8888)}
    assert jupyter["command"][:2] == ["jupyter", "lab"]
    assert "--port=8888" in jupyter["command"]
    ollama = compose["services"]["ollama"]
    assert _port_pairs(ollama) == {(11434, 11434)}
    assert ollama["profiles"] == ["ollama"]
    assert ollama["image"].startswith("ollama/ollama")
    # every service but ollama runs by default
    assert [n for n, s in compose["services"].items() if s.get("profiles")] == ["ollama"]
    for name in ("api", "tools", "jupyter"):
        assert compose["services"][name]["build"] == "."


def test_service_dockerfile() -> None:
    text = (REPO / "Dockerfile").read_text()
    lines = [
        line.strip() for line in text.splitlines() if line.strip() and not line.startswith("#")
    ]
    assert lines[0].startswith("FROM python:3.11")
    install = next(line for line in lines if line.startswith("RUN pip install"))
    extras = shlex.split(install)[-1]
    assert extras.startswith(".[")
    assert {"serve", "notebooks"} <= set(extras[2:-1].split(","))
    expose = next(line for line in lines if line.startswith("EXPOSE")).split()[1:]
    assert {"3000", "3001", "8888"} <= set(expose)
    assert any(line.startswith("USER ") and "root" not in line for line in lines)
    ignored = (REPO / ".dockerignore").read_text().split()
    assert {".git", ".venv", "output"} <= set(ignored)


def _compose_env(service: dict, **overrides: str) -> dict[str, str]:
    """The service's environment as compose resolves it with ``overrides`` set in ``.env``."""
    out = {}
    for name, value in service["environment"].items():
        match = re.fullmatch(r"\$\{(\w+):-(.*)\}", str(value))
        out[name] = overrides.get(match[1], match[2]) if match else str(value)
    return out


@pytest.mark.parametrize(
    ("provider", "url"),
    [("openai", "https://api.openai.com/v1"), ("ollama", "http://ollama:11434")],
)
def test_service_compose_sends_each_provider_to_its_server(
    compose: dict, provider: str, url: str
) -> None:
    from workbench.notes.embeddings import provider_from_env

    for name in ("api", "tools", "jupyter"):
        env = _compose_env(compose["services"][name], WORKBENCH_EMBEDDING_PROVIDER=provider)
        built = provider_from_env(env)
        try:
            assert built.base_url == url, name
        finally:
            built.close()
    # an explicit base URL still wins (e.g. Ollama's OpenAI-compatible endpoint)
    env = _compose_env(
        compose["services"]["api"],
        WORKBENCH_EMBEDDING_PROVIDER="openai",
        WORKBENCH_EMBEDDING_BASE_URL="http://ollama:11434/v1",
    )
    assert provider_from_env(env).base_url == "http://ollama:11434/v1"
