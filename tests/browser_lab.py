"""A JupyterLab server and a headless Chromium for the browser tests.

:class:`JupyterLab` starts ``jupyter lab`` (this interpreter's) on a free loopback port with a
random token, in a temporary root holding copies of the notebooks (so a run never writes into
the checkout), with its own config, settings, workspace and runtime folders. The notebook
setting ``windowingMode: none`` keeps every cell in the page. :class:`LabPage` drives one
notebook the way a person does: the **Run > Run All Cells** menu, widgets clicked and typed
into, the log console opened from the **View** menu's command.

Chromium is Debian's (``/usr/bin/chromium``) driven by the Playwright pip package; Playwright's
own browser download is not used.
"""

from __future__ import annotations

import contextlib
import io
import json
import os
import re
import shutil
import signal
import socket
import subprocess
import sys
import time
import urllib.request
from pathlib import Path
from typing import Any

__all__ = ["CHROMIUM", "CHROMIUM_ARGS", "FormTyping", "JupyterLab", "LabPage", "free_port", "ink"]

CHROMIUM = "/usr/bin/chromium"
CHROMIUM_ARGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
]

_IDLE = """() => {
  const nb = window.jupyterapp && window.jupyterapp.shell.currentWidget;
  const kernel = nb && nb.sessionContext && nb.sessionContext.session
    && nb.sessionContext.session.kernel;
  if (!kernel || kernel.status !== 'idle') return false;
  return ![...document.querySelectorAll('.jp-CodeCell .jp-InputArea-prompt')]
    .some(p => p.textContent.includes('*'));
}"""
"""The kernel is idle and no cell is queued or running."""


_MODEL_ERRORS = """() => {
  const nb = window.jupyterapp && window.jupyterapp.shell.currentWidget;
  if (!nb || !nb.content || !nb.content.widgets) return ["no notebook in view"];
  return nb.content.widgets.filter(c => c.model.type === 'code').flatMap(
    c => c.model.outputs.toJSON().filter(o => o.output_type === 'error')
      .map(o => `${o.ename}: ${o.evalue}`));
}"""
"""Every error output of the notebook's cells, from the notebook's model."""


_RAN = """() => {
  const nb = window.jupyterapp && window.jupyterapp.shell.currentWidget;
  const kernel = nb && nb.sessionContext && nb.sessionContext.session
    && nb.sessionContext.session.kernel;
  if (!kernel || kernel.status !== 'idle') return false;
  const prompts = [...document.querySelectorAll('.jp-CodeCell .jp-InputArea-prompt')];
  if (prompts.some(p => p.textContent.includes('*'))) return false;
  // an error output in the notebook's model (JupyterLab renders it as stderr, so the DOM
  // cannot tell it from a warning; a one-line error has no "Traceback" either)
  const failed = nb.content.widgets.some(c => c.model.type === 'code'
    && c.model.outputs.toJSON().some(o => o.output_type === 'error'));
  return failed || prompts.every(p => /\\[\\d+\\]/.test(p.textContent));
}"""
"""Every code cell has run, or one raised (Run All stops there)."""


_TEXT_BOX = """(cell, text) => {
  const content = cell.querySelector('.cm-content');
  const walker = document.createTreeWalker(content, NodeFilter.SHOW_TEXT);
  for (let node = walker.nextNode(); node; node = walker.nextNode()) {
    const at = node.textContent.indexOf(text);
    if (at < 0) continue;
    const range = document.createRange();
    range.setStart(node, at);
    range.setEnd(node, at + text.length);
    const r = range.getBoundingClientRect();
    return {left: r.left, right: r.right, top: r.top, height: r.height};
  }
  return null;
}"""
"""Where a text is on screen inside a cell's editor (one text node: a token of the line)."""


def free_port() -> int:
    """A free TCP port on 127.0.0.1."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def ink(png: bytes) -> float:
    """Share of the pixels of a PNG that are not (near) white."""
    import numpy as np
    from matplotlib.image import imread

    img = imread(io.BytesIO(png), format="png")[..., :3]
    return float(np.mean(np.any(img < 0.9, axis=-1)))


class JupyterLab:
    """A JupyterLab server on a free loopback port, serving copies of ``notebooks``.

    Parameters
    ----------
    root : Path
        Empty folder: the server's root (the notebooks are copied here).
    notebooks : list of Path
        Notebooks to serve.
    env : dict, optional
        Extra environment of the server and its kernels (``DATABASE_URL``, say).
    """

    def __init__(self, root: Path, notebooks: list[Path], env: dict[str, str] | None = None):
        self.root = root
        for nb in notebooks:
            shutil.copy(nb, root / nb.name)
        state = root / ".lab"
        settings = state / "settings" / "@jupyterlab" / "notebook-extension"
        settings.mkdir(parents=True)
        (settings / "tracker.jupyterlab-settings").write_text(json.dumps({"windowingMode": "none"}))
        labconfig = state / "config" / "labconfig"
        labconfig.mkdir(parents=True)
        (labconfig / "page_config.json").write_text(
            json.dumps(
                {"disabledExtensions": {"@jupyterlab/apputils-extension:announcements": True}}
            )
        )
        self.port = free_port()
        self.token = os.urandom(16).hex()
        self.url = f"http://127.0.0.1:{self.port}"
        bin_dir = str(Path(sys.executable).parent)
        self.env = {
            **os.environ,
            "PATH": bin_dir + os.pathsep + os.environ.get("PATH", ""),
            "JUPYTER_CONFIG_DIR": str(state / "config"),
            "JUPYTERLAB_SETTINGS_DIR": str(state / "settings"),
            "JUPYTERLAB_WORKSPACES_DIR": str(state / "workspaces"),
            "JUPYTER_RUNTIME_DIR": str(state / "runtime"),
            "HF_HUB_OFFLINE": "1",
            **(env or {}),
        }
        self.log_path = state / "lab.log"
        self.process: subprocess.Popen[bytes] | None = None
        self.pages = 0

    def start(self, timeout_s: float = 90.0) -> JupyterLab:
        """Start the server and wait until its API answers."""
        log = open(self.log_path, "wb")  # noqa: SIM115 - the server writes it until stop()
        self.process = subprocess.Popen(
            [
                sys.executable,
                "-m",
                "jupyterlab",
                "--no-browser",
                "--allow-root",
                "--ServerApp.ip=127.0.0.1",
                f"--ServerApp.port={self.port}",
                "--ServerApp.port_retries=0",
                f"--IdentityProvider.token={self.token}",
                f"--ServerApp.root_dir={self.root}",
                "--LabApp.expose_app_in_browser=True",
                "--LabApp.news_url=",
            ],
            cwd=self.root,
            env=self.env,
            stdout=log,
            stderr=subprocess.STDOUT,
            start_new_session=True,
        )
        deadline = time.monotonic() + timeout_s
        while time.monotonic() < deadline:
            if self.process.poll() is not None:
                raise RuntimeError(f"jupyter lab exited: {self.log()[-2000:]}")
            try:
                self.api("GET", "/api/status")
                return self
            except OSError:
                time.sleep(0.3)
        raise RuntimeError(f"jupyter lab did not answer in {timeout_s} s: {self.log()[-2000:]}")

    def log(self) -> str:
        """The server's log so far."""
        return self.log_path.read_text(errors="replace") if self.log_path.exists() else ""

    def api(self, method: str, path: str) -> Any:
        """Call the server's REST API; the decoded JSON answer (None when empty)."""
        request = urllib.request.Request(
            f"{self.url}{path}", method=method, headers={"Authorization": f"token {self.token}"}
        )
        with urllib.request.urlopen(request, timeout=10) as answer:
            body = answer.read()
        return json.loads(body) if body else None

    def shutdown_kernels(self) -> None:
        """Stop every kernel (between notebooks: each holds a solver or an embedding model)."""
        for session in self.api("GET", "/api/sessions") or []:
            self.api("DELETE", f"/api/sessions/{session['id']}")

    def stop(self) -> None:
        """Stop the kernels and the server (only the process group this object started)."""
        if self.process is None or self.process.poll() is not None:
            return
        with contextlib.suppress(OSError):  # the server may be gone already
            self.shutdown_kernels()
        os.killpg(self.process.pid, signal.SIGTERM)
        try:
            self.process.wait(timeout=20)
        except subprocess.TimeoutExpired:
            os.killpg(self.process.pid, signal.SIGKILL)
            self.process.wait(timeout=10)


class LabPage:
    """One notebook open in a browser page."""

    def __init__(self, page: Any, lab: JupyterLab, notebook: str) -> None:
        self.page = page
        self.lab = lab
        # a fresh workspace per page: the layout of the previous notebook is not restored
        lab.pages += 1
        page.goto(f"{lab.url}/lab/workspaces/p{lab.pages}/tree/{notebook}?reset&token={lab.token}")
        page.wait_for_selector(".jp-Notebook .jp-Cell", timeout=60_000)
        page.wait_for_function(
            """() => { const nb = window.jupyterapp && window.jupyterapp.shell.currentWidget;
              const s = nb && nb.sessionContext && nb.sessionContext.session;
              return s && s.kernel && s.kernel.status === 'idle'; }""",
            timeout=60_000,
        )

    def run_all(self, timeout_s: float = 240.0) -> None:
        """**Run > Run All Cells**, then wait until every code cell has run."""
        menu = self.page.locator(".lm-MenuBar-itemLabel", has_text=re.compile(r"^Run$"))
        menu.click()
        label = self.page.locator(".lm-Menu-itemLabel", has_text=re.compile(r"^Run All Cells$"))
        label.click()
        self.page.wait_for_timeout(500)
        self.page.wait_for_function(_RAN, timeout=timeout_s * 1000)

    def wait_idle(self, timeout_s: float = 60.0) -> None:
        """Wait until the kernel has handled what the page sent (widget messages included)."""
        self.page.wait_for_timeout(300)
        self.page.wait_for_function(_IDLE, timeout=timeout_s * 1000)

    def model_errors(self) -> list[str]:
        """The error outputs of the notebook's cells, ``ename: evalue`` (from its model)."""
        return list(self.page.evaluate(_MODEL_ERRORS))

    def cell_errors(self) -> list[str]:
        """Error outputs and tracebacks of the cells, and widgets that failed to render."""
        out = self.model_errors()
        text = self.page.locator(".jp-Notebook").inner_text()
        for marker in (
            "Traceback (most recent call last)",
            "Error displaying widget",
            "Error rendering",
            "Failed to load model class",
        ):
            if marker in text:
                out.append(marker)
        return out

    def code_cell(self, marker: str) -> Any:
        """The code cell whose source contains ``marker``."""
        return self.page.locator(
            ".jp-CodeCell", has=self.page.locator(".cm-content", has_text=marker)
        )

    def retype_in_cell(self, marker: str, old: str, new: str, delay_ms: int = 80) -> None:
        """Select ``old`` in a code cell with the mouse and type ``new`` over it, as a person does.

        A click just inside the first character, a shift-click just inside the last, then the
        keys one by one; the cell must then read ``new`` where ``old`` was.
        """
        cell = self.code_cell(marker)
        cell.locator(".cm-content").scroll_into_view_if_needed()
        box = cell.evaluate(_TEXT_BOX, old)
        assert box is not None, f"{old!r} is not in the cell {marker!r}"
        y = box["top"] + box["height"] / 2
        self.page.mouse.click(box["left"] + 1, y)
        self.page.keyboard.down("Shift")
        self.page.mouse.click(box["right"] - 1, y)
        self.page.keyboard.up("Shift")
        self.page.keyboard.type(new, delay=delay_ms)
        source = cell.locator(".cm-content").inner_text()
        assert new in source, source

    def chart_cells(self) -> list[Any]:
        """The code cells that draw a chart (their source calls ``plot_...``)."""
        cells = self.page.locator(".jp-CodeCell")
        return [
            cells.nth(i)
            for i in range(cells.count())
            if re.search(r"\bplot_\w+\(", cells.nth(i).locator(".cm-content").inner_text())
        ]

    def table_headers(self) -> list[str]:
        """The header texts of every table in the outputs."""
        return self.page.locator(".jp-OutputArea-output table th").all_inner_texts()

    def log_entries(self) -> list[str]:
        """Entries of JupyterLab's log console for this notebook (level warning and above)."""
        self.page.evaluate("window.jupyterapp.commands.execute('logconsole:open')")
        self.page.wait_for_selector(".jp-LogConsolePanel", timeout=10_000)
        self.page.wait_for_timeout(500)
        entries = self.page.locator(".jp-LogConsolePanel .jp-OutputArea-child")
        texts = []
        for i in range(entries.count()):
            level = entries.nth(i).locator("[data-log-level]").get_attribute("data-log-level")
            texts.append(f"{level}: {entries.nth(i).inner_text()[:300]}")
        return texts


_FOCUSED_FIELD = """() => {
  const f = document.activeElement && document.activeElement.closest('.wb-field');
  return f ? [...f.classList].find(c => c.startsWith('wb-field-')).slice(9) : null;
}"""
"""The key of the builder field holding the keyboard focus (None: focus is elsewhere)."""


class FormTyping:
    """Type into a scenario builder's fields the way a person does, checking as it goes.

    Every method clicks into the field and uses the keyboard only (End, Backspace, Control+A,
    Control+V, Tab). After the field is empty it checks, before the next key, that the form's
    rows are where they were and that the focus is still in the field; after Tab, that the box
    shows exactly the typed text. ``pause_ms`` is the pause after emptying (a person reading the
    status line), ``delay_ms`` the time between keys (0: as fast as the browser takes them).

    Parameters
    ----------
    lab : LabPage
        The notebook page.
    form : Locator
        The builder (``.wb-builder``).
    """

    def __init__(self, lab: LabPage, form: Any) -> None:
        self.lab = lab
        self.page = lab.page
        self.form = form
        self.page.context.grant_permissions(
            ["clipboard-read", "clipboard-write"], origin=lab.lab.url
        )

    def rows(self) -> list[str]:
        """The keys of the form's fields in the order shown (every section, open or not)."""
        return list(
            self.form.locator(".wb-field").evaluate_all(
                "els => els.map(e => [...e.classList].find(c => c.startsWith('wb-field-')))"
            )
        )

    def section(self, title: str) -> Any:
        """Open the accordion page whose title starts with ``title``; its content."""
        child = self.form.locator(".jupyter-widget-Accordion-child").filter(
            has=self.page.locator(".jupyter-widget-Collapse-header", has_text=title)
        )
        if "jupyter-widget-Collapse-open" not in (child.get_attribute("class") or ""):
            child.locator(".jupyter-widget-Collapse-header").click()
        child.locator(".jupyter-widget-Collapse-contents").wait_for(state="visible")
        return child

    def _input(self, where: Any, key: str) -> Any:
        return where.locator(f".wb-field-{key} input")

    def _check_typed(self, box: Any, key: str, text: str, rows: list[str]) -> None:
        self.page.keyboard.press("Tab")
        assert box.input_value() == text, f"{key}: the box shows {box.input_value()!r}"
        assert self.rows() == rows, f"{key}: rows moved"

    def retype(
        self, where: Any, key: str, text: str, *, pause_ms: int = 700, delay_ms: int = 60
    ) -> None:
        """Click, End, Backspace until empty, pause, type ``text``, Tab."""
        rows = self.rows()
        box = self._input(where, key)
        box.click()
        self.page.keyboard.press("End")
        for _ in range(len(box.input_value())):
            self.page.keyboard.press("Backspace", delay=delay_ms)
        self.page.wait_for_timeout(pause_ms)
        assert box.input_value() == "", f"{key}: not emptied"
        assert self.page.evaluate(_FOCUSED_FIELD) == key, f"{key}: focus left the emptied field"
        assert self.rows() == rows, f"{key}: rows moved when the field was emptied"
        self.page.keyboard.type(text, delay=delay_ms)
        assert self.page.evaluate(_FOCUSED_FIELD) == key, f"{key}: focus left while typing"
        self._check_typed(box, key, text, rows)

    def retype_input(
        self, box: Any, label: str, text: str, *, pause_ms: int = 700, delay_ms: int = 60
    ) -> None:
        """As :meth:`retype`, for any text box (the fluid, a composition row): ``box`` a locator.

        Checks that the box keeps the focus while emptied and while typed into, that the
        form's field rows and the composition editor's rows stay as they were, and that after
        Tab the box shows exactly ``text``.
        """
        rows, blend_rows = self.rows(), self.blend_rows()
        focused = "el => el === document.activeElement"
        box.click()
        self.page.keyboard.press("End")
        for _ in range(len(box.input_value())):
            self.page.keyboard.press("Backspace", delay=delay_ms)
        self.page.wait_for_timeout(pause_ms)
        assert box.input_value() == "", f"{label}: not emptied"
        assert box.evaluate(focused), f"{label}: focus left the emptied box"
        assert self.blend_rows() == blend_rows, f"{label}: composition rows changed when emptied"
        self.page.keyboard.type(text, delay=delay_ms)
        assert box.evaluate(focused), f"{label}: focus left while typing"
        self.page.keyboard.press("Tab")
        assert box.input_value() == text, f"{label}: the box shows {box.input_value()!r}"
        assert self.rows() == rows, f"{label}: rows moved"

    def blend_rows(self) -> int:
        """How many rows the composition editor shows."""
        return int(self.form.locator(".wb-blend-percent").count())

    def select_all_and_type(self, where: Any, key: str, text: str, *, delay_ms: int = 0) -> None:
        """Click, Control+A, type ``text`` over the selection, Tab."""
        rows = self.rows()
        box = self._input(where, key)
        box.click()
        self.page.keyboard.press("Control+A")
        self.page.keyboard.type(text, delay=delay_ms)
        self._check_typed(box, key, text, rows)

    def paste(self, where: Any, key: str, text: str) -> None:
        """Put ``text`` on the clipboard; click, Control+A, Control+V, Tab."""
        rows = self.rows()
        box = self._input(where, key)
        self.page.evaluate("t => navigator.clipboard.writeText(t)", text)
        box.click()
        self.page.keyboard.press("Control+A")
        self.page.keyboard.press("Control+V")
        self._check_typed(box, key, text, rows)

    def save(self, path: str) -> Any:
        """Type a path into **save as**, click **Save JSON**; the file's JSON (key order kept)."""
        self.lab.wait_idle()
        self.form.locator(".wb-save-path input").fill(path)
        self.form.locator(".wb-save").click()
        from playwright.sync_api import expect

        note = self.form.locator(".wb-save-note")
        expect(note).to_contain_text(re.compile(rf"(saved to .*{re.escape(path)}|not saved)"))
        assert "saved to" in note.inner_text(), note.inner_text()
        self.lab.wait_idle()
        return json.loads((self.lab.lab.root / path).read_text(encoding="utf-8"))
