"""Starting the servers (issue 42, items 6 and 7).

6. A malformed ``DATABASE_URL`` stops every command with one line naming the setting, and no
   part of the URL (its password) in any message.
7. ``workbench serve`` and ``workbench tools`` started at the same moment on a fresh home both
   come up: the embedded server's start is serialised by a file lock.
"""

from __future__ import annotations

import os
import subprocess
import sys
import threading
import time
from pathlib import Path

import httpx
import pytest

from workbench.notes import db
from workbench.notes.service.serving import free_port

REPO = Path(__file__).resolve().parents[1]
SECRET = "s3cret-Pw"


def _env(**extra: str) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith("WORKBENCH_")}
    env.pop("DATABASE_URL", None)
    env["PYTHONPATH"] = str(REPO)
    env.update(extra)
    return env


@pytest.mark.parametrize(
    "url",
    [
        f"postgresql://u:{SECRET}@[::1/db",
        f"postgresql://u:{SECRET}@host/%zz",
        f"host=h password={SECRET} port",
        f"{SECRET} not a url",
    ],
)
@pytest.mark.parametrize(
    "command", [["serve", "--port", "1"], ["tools", "--port", "1"], ["notes", "search", "x"]]
)
def test_service_bad_database_url_never_shows_its_secret(
    tmp_path: Path, url: str, command: list[str]
) -> None:
    done = subprocess.run(
        [sys.executable, "-m", "workbench.cli.main", *command],
        env=_env(DATABASE_URL=url, WORKBENCH_HOME=str(tmp_path)),
        capture_output=True,
        text=True,
        timeout=120,
        cwd=REPO,
    )
    out = done.stdout + done.stderr
    assert done.returncode == 2, out
    assert "DATABASE_URL" in out
    assert SECRET not in out, out
    assert "Traceback" not in out


def test_service_start_lock_serialises_starts(tmp_path: Path) -> None:
    order: list[str] = []

    def hold(tag: str) -> None:
        with db._start_lock(tmp_path):
            order.append(f"{tag} in")
            time.sleep(0.3)
            order.append(f"{tag} out")

    threads = [threading.Thread(target=hold, args=(t,)) for t in ("a", "b")]
    for t in threads:
        t.start()
    for t in threads:
        t.join(10)
    assert len(order) == 4
    assert order[0][0] == order[1][0], order  # never interleaved
    assert order[2][0] == order[3][0], order


@pytest.mark.db
@pytest.mark.slow
def test_service_serve_and_tools_start_together_on_a_fresh_home(tmp_path: Path) -> None:
    home = tmp_path / "home"
    token = "start-lock-token-0123456789"
    env = _env(WORKBENCH_HOME=str(home), WORKBENCH_API_TOKENS=f"{token}:alice")
    ports = {"serve": free_port(), "tools": free_port()}
    procs = {
        name: subprocess.Popen(
            [
                *(sys.executable, "-m", "workbench.cli.main", name),
                *("--port", str(port), "--log-level", "warning"),
            ],
            env=env,
            cwd=REPO,
            stdout=subprocess.PIPE,
            stderr=subprocess.STDOUT,
            text=True,
        )
        for name, port in ports.items()
    }
    up: dict[str, bool] = {name: False for name in procs}
    try:
        for _ in range(600):  # at most about 5 minutes on a busy machine
            for name, proc in procs.items():
                if up[name]:
                    continue
                assert proc.poll() is None, f"{name} exited: {proc.communicate()[0]}"
                try:
                    r = httpx.get(f"http://127.0.0.1:{ports[name]}/healthz", timeout=2)
                    up[name] = r.status_code == 200
                except httpx.TransportError:
                    pass
            if all(up.values()):
                break
            time.sleep(0.5)
        assert all(up.values()), up
        r = httpx.post(
            f"http://127.0.0.1:{ports['serve']}/api/notes/search",
            params={"q": "frost"},
            headers={"Authorization": f"Bearer {token}"},
            timeout=30,
        )
        assert r.status_code == 200, r.text
    finally:
        for proc in procs.values():
            proc.terminate()
        for proc in procs.values():
            try:
                proc.wait(30)
            except subprocess.TimeoutExpired:
                proc.kill()
        db.stop_embedded(home)
