"""Schema-driven fuzzing of the whole HTTP API (schemathesis, from the app's OpenAPI document).

Every operation of ``/openapi.json`` gets requests generated from its schema, valid ones and
invalid ones (wrong types, out-of-range numbers, missing fields, odd strings including NUL and
lone surrogates), sent to the real server (uvicorn) on the real database, with a fixed
Hypothesis seed so a CI run is repeatable. Whatever the input, the answer must not be a 5xx,
and every error must be a JSON body ``{"error", "message"}``; a 2xx must match the documented
response schema.
"""

from __future__ import annotations

import pytest
import schemathesis
from hypothesis import HealthCheck, seed, settings
from schemathesis import GenerationMode

from workbench.notes.service.app import create_app
from workbench.notes.service.auth import ADMIN_OWNER, Principal, TokenRegistry
from workbench.notes.service.services import start_services
from workbench.notes.service.serving import ServerThread
from workbench.notes.service.settings import ServiceSettings
from workbench.notes.store import NoteInput, import_notes

pytest_plugins = ["notes_fixtures"]
pytestmark = pytest.mark.db

USER, ADMIN = "fuzz-user-token-0123456789", "fuzz-admin-token-0123456789"
SEED = 20261123
EXAMPLES = 25  # per operation and generation mode

# the document is built without a database (no services are started at import)
schema = schemathesis.openapi.from_dict(create_app().openapi())
schema.config.generation.update(
    modes=[GenerationMode.POSITIVE, GenerationMode.NEGATIVE], max_examples=EXAMPLES
)


@pytest.fixture(scope="module")
def fuzz_server(module_db_url: str, minilm):
    import psycopg

    with psycopg.connect(module_db_url, autocommit=True) as conn:
        import_notes(
            conn,
            "fuzz",
            [NoteInput(f"Note {i}", f"oil trap riser frost coil {i}", f"n{i}") for i in range(20)],
            provider=minilm,
        )
    tokens = TokenRegistry(
        [(USER, Principal("fuzz"), "t"), (ADMIN, Principal(ADMIN_OWNER, admin=True), "t")]
    )
    settings_ = ServiceSettings(database_url=module_db_url, db_wait_s=10, max_body_bytes=1 << 20)
    services = start_services(settings_, tokens, provider=minilm)
    with ServerThread(create_app(services)) as srv:
        yield srv


@pytest.fixture(scope="module")
def base_url(fuzz_server: ServerThread) -> str:
    return fuzz_server.url


@schema.parametrize()
@seed(SEED)
@settings(
    max_examples=EXAMPLES,
    deadline=None,
    database=None,
    suppress_health_check=list(HealthCheck),
)
def test_service_fuzz_no_5xx_and_json_errors(case, base_url: str) -> None:
    token = ADMIN if case.path.startswith(("/api/admin", "/api/notes/reindex")) else USER
    headers = dict(case.headers or {})
    # mostly authenticated; the generated Authorization (if any) is kept one time in five
    if "Authorization" not in headers or hash(str(case.query)) % 5:
        headers["Authorization"] = f"Bearer {token}"
    response = case.call(base_url=base_url, headers=headers, timeout=60)
    status = response.status_code
    assert status < 500, f"{case.method} {case.formatted_path}: {status} {response.text[:500]}"
    if status >= 400:
        content_type = response.headers.get("content-type") or response.headers.get("Content-Type")
        content_type = content_type[0] if isinstance(content_type, list) else content_type
        assert content_type, response.text
        assert content_type.startswith("application/json"), response.text
        body = response.json()
        assert isinstance(body.get("error"), str), body
        assert isinstance(body.get("message"), str), body
    else:
        case.validate_response(response, checks=[schemathesis.checks.response_schema_conformance])
