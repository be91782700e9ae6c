"""The lessons in a real browser: JupyterLab on a free local port, driven in headless Chromium by Playwright.

``make test-browser`` runs these tests (``make test`` does not: they need Chromium, and take a minute or two).
They open the notebooks as a learner's fresh clone has them: copied into an empty folder, seen by a JupyterLab
whose configuration, data (so its list of trusted notebooks), settings and workspaces folders are new and empty,
so no notebook is trusted. The environment's own settings override (``make venv``: widget state saved with the
notebook, no news fetched) applies, as it does for a learner.

Everything started here is stopped at the end: the server (with its kernels, killed as a process group if it does
not stop when asked) and the browser. For each failing test a screenshot is saved, and its path printed.

Chromium is Debian's (``make chromium``), found as ``chromium`` on the PATH or given by ``CHROMIUM=/path``;
Playwright drives it (``executable_path``): no browser is ever downloaded.
"""

from __future__ import annotations

import contextlib
import json
import os
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time
import urllib.request
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest

ROOT = Path(__file__).resolve().parents[2]
# Headless in a container, as root, on a machine whose network reaches nothing but local addresses: no sandbox (it
# needs user namespaces), no GPU, and none of the background connections Chromium would make.
CHROMIUM_FLAGS = ["--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
                  "--disable-background-networking", "--disable-component-update", "--disable-sync"]
SCREENSHOTS: list[str] = []


@dataclass
class Lab:
    """A running JupyterLab: its address, token, the folder it serves (a copy of the course) and its environment."""

    url: str
    token: str
    root: Path
    env: dict[str, str]

    def api(self, method: str, path: str) -> Any:
        request = urllib.request.Request(f"{self.url}/api/{path}", method=method,
                                         headers={"Authorization": f"token {self.token}"})
        with urllib.request.urlopen(request, timeout=30) as response:
            body = response.read()
        return json.loads(body) if body else None

    def shut_down_kernels(self) -> None:
        """End every kernel (each notebook opened starts one): two cores do not run thirteen at once."""
        for session in self.api("GET", "sessions"):
            self.api("DELETE", f"sessions/{session['id']}")

    def trust(self, path: str) -> None:
        """``jupyter trust`` for this server (its data folder), as ``make lab`` does."""
        subprocess.run([str(Path(sys.executable).parent / "jupyter"), "trust", str(self.root / path)],
                       env=self.env, check=True, stdout=subprocess.DEVNULL)


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


@pytest.fixture(scope="session")
def lab() -> Iterator[Lab]:
    home = Path(tempfile.mkdtemp(prefix="tinygrad_edu_browser_"))
    root = home / "course"
    for folder in ("notebooks", "exercises"):
        shutil.copytree(ROOT / folder, root / folder)
    env = dict(os.environ, JUPYTER_CONFIG_DIR=str(home / "config"), JUPYTER_DATA_DIR=str(home / "data"),
               JUPYTER_RUNTIME_DIR=str(home / "runtime"), JUPYTERLAB_SETTINGS_DIR=str(home / "settings"),
               JUPYTERLAB_WORKSPACES_DIR=str(home / "workspaces"), IPYTHONDIR=str(home / "ipython"))
    # JupyterLab 4 renders only the cells in view: the tests look at every output, so it renders them all; a
    # closed notebook's kernel is shut down (two cores do not run thirteen); nothing is saved but when asked.
    for plugin, settings in [("notebook-extension/tracker", {"windowingMode": "none", "kernelShutdown": True}),
                             ("docmanager-extension/plugin", {"autosave": False})]:
        path = home / "settings" / "@jupyterlab" / f"{plugin}.jupyterlab-settings"
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(json.dumps(settings))
    port, token = free_port(), os.urandom(16).hex()
    command = [str(Path(sys.executable).parent / "jupyter"), "lab", "--no-browser", "--ServerApp.ip=127.0.0.1",
               f"--ServerApp.port={port}", "--ServerApp.port_retries=0", f"--IdentityProvider.token={token}",
               f"--ServerApp.root_dir={root}", "--LabApp.expose_app_in_browser=True"]
    if os.geteuid() == 0:
        command.append("--allow-root")
    log = (home / "server.log").open("w")
    server = subprocess.Popen(command, env=env, stdout=log, stderr=subprocess.STDOUT, start_new_session=True)
    lab = Lab(f"http://127.0.0.1:{port}", token, root, env)
    try:
        deadline = time.monotonic() + 60
        while True:
            try:
                lab.api("GET", "status")
                break
            except OSError:
                if server.poll() is not None or time.monotonic() > deadline:
                    raise RuntimeError(f"JupyterLab did not start: see {home / 'server.log'}") from None
                time.sleep(0.2)
        yield lab
    finally:
        with contextlib.suppress(OSError):  # (the server did not start, or died: nothing to ask)
            lab.shut_down_kernels()
        server.send_signal(signal.SIGTERM)  # the server also ends any kernel left on its way out
        try:
            server.wait(20)
        except subprocess.TimeoutExpired:
            os.killpg(server.pid, signal.SIGKILL)
            server.wait()
        log.close()
        shutil.rmtree(home, ignore_errors=True)


def chromium_path() -> str:
    path = os.environ.get("CHROMIUM") or shutil.which("chromium") or shutil.which("chromium-browser")
    if not path:
        pytest.fail("Chromium is not installed: run `make chromium` (Debian's package chromium), or set CHROMIUM to "
                    "a Chromium executable.", pytrace=False)
    return path


@pytest.fixture(scope="session")
def browser() -> Iterator[Any]:
    try:
        from playwright.sync_api import sync_playwright
    except ImportError:
        pytest.fail("Playwright is not installed: run `make venv` (it is a dev dependency).", pytrace=False)
    with sync_playwright() as playwright:
        # launch() gives the browser a new, empty profile (user data dir) of its own, deleted at close
        browser = playwright.chromium.launch(executable_path=chromium_path(), args=CHROMIUM_FLAGS)
        try:
            yield browser
        finally:
            browser.close()


@pytest.fixture(scope="session")
def browser_page(browser: Any) -> Iterator[Any]:
    context = browser.new_context(viewport={"width": 1400, "height": 1000})
    page = context.new_page()
    page.set_default_timeout(60_000)
    try:
        yield page
    finally:
        context.close()


@pytest.fixture
def page(browser_page: Any, lab: Lab) -> Iterator[Any]:
    """The browser's page, JupyterLab loaded once for all the tests; each test starts with no document open and
    ends with no kernel running."""
    page = browser_page
    if page.evaluate("() => window.jupyterapp === undefined"):
        page.goto(f"{lab.url}/lab?reset&token={lab.token}")
        page.wait_for_function("() => window.jupyterapp !== undefined")
        page.evaluate("() => window.jupyterapp.started")
    page.evaluate("() => Array.from(window.jupyterapp.shell.widgets('main')).forEach(w => w.dispose())")
    try:
        yield page
    finally:
        lab.shut_down_kernels()


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_makereport(item: pytest.Item, call: Any) -> Iterator[None]:
    outcome = yield
    report = outcome.get_result()
    page = item.funcargs.get("page") if hasattr(item, "funcargs") else None
    if report.when == "call" and report.failed and page is not None:
        path = Path(tempfile.gettempdir()) / f"tinygrad_edu_browser_{item.name}.png".replace("/", "_")
        try:
            page.screenshot(path=str(path), full_page=True)
        except Exception as error:  # (the page may be gone): say so, keep the test's own failure
            report.sections.append(("screenshot", f"no screenshot: {error}"))
        else:
            SCREENSHOTS.append(f"{item.nodeid}: {path}")
            report.sections.append(("screenshot", str(path)))


def pytest_terminal_summary(terminalreporter: Any) -> None:
    if SCREENSHOTS:
        terminalreporter.section("screenshots of the failures")
        for line in SCREENSHOTS:
            terminalreporter.write_line(line)
