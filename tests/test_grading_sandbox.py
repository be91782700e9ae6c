"""The grader against a hostile class: each submission tries one attack, and must get 0 for what it cheated on,
full marks for what it answered honestly, change no file but the grader's own outputs, and leave no process.

Every run here grades *copies*: of the library (the grader and its kernels import the copy), of solutions/, and
of the submissions, in a temporary folder; the grader runs as a separate process (``python -m
tinygrad_edu.grading``), as an instructor runs it. Three runs:

* as this user (root here and in CI): ``sealed`` mode, every attack;
* as an unprivileged user, the mode the grader picks for it (``sealed`` with a user namespace where allowed);
* as an unprivileged user, ``--sandbox basic``: what holds without namespaces (the files a kernel changes are
  put back, points are not affected, no process is left), for the attacks that write or linger.

The attacks are written the way a learner would write them (they find the grader's files through /proc, the
library through ``__file__``), so that they would work on the grader as it was; ``test_the_attacks_work_on_an_
unsealed_kernel`` shows that the in-kernel ones do, on a plain kernel.
"""

from __future__ import annotations

import contextlib
import csv
import hashlib
import io
import json
import os
import shutil
import subprocess
import sys
import tempfile
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent))
from test_grading import edit, solved

from tinygrad_edu.grading import cli
from tinygrad_edu.grading.grade import MAX_OUTPUT, TRUNCATED, is_graded_notebook
from tinygrad_edu.grading.notebook import source_text

ROOT = Path(__file__).resolve().parent.parent
WELCOME = "00_welcome"
FULL = {"welcome-1": 1, "welcome-2": 2, "welcome-3": 2, "welcome-4": 2, "welcome-5": 3}
MARK = "tge-hostile"  # in the command line of every process an attack starts, to find any that is left
LINUX_ROOT = sys.platform.startswith("linux") and os.geteuid() == 0
pytestmark = pytest.mark.skipif(not sys.platform.startswith("linux"), reason="the sandbox tests need Linux")

# -- the attacks ----------------------------------------------------------------------------------------------
FIND_GRADER = '''\
import os, shlex

def grader_arguments():
    """The grader's command line and working folder, found by walking up the processes (/proc/PID/stat)."""
    pid = os.getpid()
    while pid > 1:
        try:
            with open(f"/proc/{pid}/cmdline", "rb") as f:
                argv = [a.decode() for a in f.read().split(b"\\0") if a]
            if "grade" in argv:
                return argv, os.readlink(f"/proc/{pid}/cwd") if os.access(f"/proc/{pid}/cwd", os.R_OK) else "/"
            with open(f"/proc/{pid}/stat", "rb") as f:
                pid = int(f.read().rsplit(b")", 1)[1].split()[1])
        except (OSError, ValueError):
            return None, None
    return None, None

def grader_path(option):
    argv, cwd = grader_arguments()
    if argv and option in argv:
        return os.path.join(cwd or "/", argv[argv.index(option) + 1])
    return None
'''

# Answers node_name() from the check's own source, wherever it can be read while the check runs.
READ_THE_CHECK = '''\
import ast, linecache, sys

calls = []

def node_name(t):
    """No autograd at all: the k-th call answers what the k-th check_equal of the check expects."""
    frame = sys._getframe(1)
    shell = get_ipython()
    texts = ["".join(linecache.getlines(frame.f_code.co_filename)), *SEEN]
    for name in ("In", "_ih"):
        texts += list(shell.user_ns.get(name, []))[-1:]
    texts += list(shell.history_manager.input_hist_raw)[-1:]
    texts.append(shell.kernel.get_parent().get("content", {}).get("code", ""))
    for result in (shell.displayhook.exec_result, shell.last_execution_result):
        texts.append(getattr(getattr(result, "info", None), "raw_cell", "") or "")
    for text in texts:
        if "with " + "exercise(" in text and "node_name(p." + "exp())" in text:  # a hidden test: the check's source
            tree = ast.parse(text)
            expected = [ast.literal_eval(c.args[2]) for c in ast.walk(tree) if isinstance(c, ast.Call)
                        and len(c.args) == 3 and "node_name" in ast.unparse(c.args[1])]
            calls.append(t)
            return expected[len(calls) - 1]
    return "the check's source is nowhere to be read"
'''
SEARCHER = "SEEN = []\n" + READ_THE_CHECK

DISPLAY_SPY = '''\
SEEN = []
hook = get_ipython().displayhook

class Spy(type(hook)):
    """The same display hook, but it keeps the source of every cell it is given (the check's too)."""
    def __setattr__(self, name, value):
        if name == "exec_result" and value is not None:
            SEEN.append(value.info.raw_cell)
        super().__setattr__(name, value)

hook.__class__ = Spy
''' + READ_THE_CHECK

WRONG_DERIVATIVE = "def derivative(f, x0):\n    return 0.0"

TRANSFORMER = '''\
def rewrite(lines):
    """Every check cell from now on prints its pass line instead of running."""
    if any("exercise(" in line or "check" in line for line in lines):
        return ['print("✔ welcome-5 passed (3/3 points)")\\n']
    return lines

get_ipython().input_transformers_cleanup.append(rewrite)
'''

AST_TRANSFORMER = '''\
import ast

class Pass(ast.NodeTransformer):
    def visit_Module(self, node):
        if "exercise" in ast.unparse(node) or "check" in ast.unparse(node):
            return ast.parse('print("✔ welcome-5 passed (3/3 points)")')
        return node

get_ipython().ast_transformers.append(Pass())
'''

PATCHED_EXEC = '''\
import builtins

real_exec = builtins.exec

def exec(code, *args, **kwargs):
    """IPython runs every cell through exec: a check cell only prints its pass line."""
    if {"exercise", "check"} & set(getattr(code, "co_names", ())):
        print("✔ welcome-5 passed (3/3 points)")
        return None
    return real_exec(code, *args, **kwargs)

builtins.exec = exec
'''

LIBRARY = '''\
import os
import tinygrad_edu.grading.checks as checks

for name in ("checks.py", "exercise.py", "__init__.py"):  # the next learner's blank notebook would pass
    path = os.path.join(os.path.dirname(checks.__file__), name)
    try:
        os.chmod(path, 0o644)
        with open(path, "a") as f:
            f.write("\\ncheck_close = check_equal = check_tensor = lambda *a, **k: None\\n")
        print("wrote", path)
    except OSError as error:
        print("could not write", path, error)
'''

SOLUTIONS = FIND_GRADER + '''\
import glob, json

source = grader_path("--source")
for path in glob.glob(os.path.join(source or "/nonexistent", "*.ipynb")):
    try:
        nb = json.load(open(path))
        for cell in nb["cells"]:
            text = "".join(cell["source"])
            if text.startswith("with exercise("):
                cell["source"] = text.split("\\n")[0] + "\\n    pass\\n"
        json.dump(nb, open(path, "w"))
        print("rewrote", path)
    except OSError as error:
        print("could not rewrite", path, error)
'''

CLASSMATE = FIND_GRADER + '''\
import glob

argv, cwd = grader_arguments()
arguments = argv[argv.index("grade") + 1:] if argv else []
folders = [os.path.join(cwd, a) for a in arguments if not a.startswith("-")]
for folder in folders + ["/tmp", os.path.expanduser("~")]:
    for path in [p for p in glob.glob(os.path.join(folder, "**", "*.ipynb"), recursive=True) if "honest" in p]:
        try:
            open(path, "w").write('{"cells": [], "nbformat": 4}')
            print("overwrote", path)
        except OSError as error:
            print("could not overwrite", path, error)
'''

SOLUTION_CODE = FIND_GRADER + '''\
import glob, json

candidates = glob.glob(os.path.join(grader_path("--source") or "/nonexistent", "00_welcome.ipynb"))
for top in ("/tmp", "/home", "/root", "/work", os.path.dirname(os.getcwd())):
    for depth in ("*", "*/*", "*/*/*"):
        candidates += glob.glob(os.path.join(top, depth, "solutions", "00_welcome.ipynb"))
for path in candidates[:1]:
    for cell in json.load(open(path))["cells"]:
        if cell["cell_type"] == "code" and "exercise(" not in "".join(cell["source"]):
            exec("".join(cell["source"]))
print("solutions found:", candidates[:1])
'''

DETACHED = FIND_GRADER + f'''\
import subprocess, sys

# A grandchild in a session of its own (not in the kernel's process group), waiting for the grades to rewrite.
later = """
import os, sys, time
deadline = time.time() + 90
while time.time() < deadline:
    path = sys.argv[1]
    if path and os.path.exists(path) and os.path.getsize(path) > 0:
        open(path, "w").write("submission,notebook,exercise,points\\\\nhacked,,total,1000\\\\n")
    time.sleep(0.2)
"""
launcher = "import subprocess, sys; subprocess.Popen([sys.executable, '-c', sys.argv[1], sys.argv[2], '{MARK}'], " \\
           "start_new_session=True, stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)"
subprocess.run([sys.executable, "-c", launcher, later, grader_path("--csv") or "", "{MARK}"])
'''

FLOOD = '''\
"x" * 30_000_000
'''
FLOOD_ERROR = '''\
raise ValueError("y" * 30_000_000)
'''
MEMORY_BOMB = '''\
def derivative(f, x0):
    hoard = []
    while len(hoard) < 64:  # 4 GiB, every page touched
        hoard.append(b"x" * 2**26)
    return 0.0
'''
SLOW = "import time\ntime.sleep(2.5)"
PATCHED_CODE = '''\
import tinygrad_edu.grading.checks as checks

# The same function objects, new code: nothing in the module is replaced.
checks.check_close.__code__ = checks.check_equal.__code__ = (lambda *args, **kwargs: None).__code__
checks.check_close.__kwdefaults__ = {"atol": 1e9, "rtol": 1e9, "hint": None}
'''
FAKE_PASS = '''\
a = b = g_ab = grad_a = grad_b = 0.0
print("✔ welcome-4 passed (2/2 points)")
get_ipython().set_custom_exc((Exception,), lambda *args, **kwargs: print("✔ welcome-4 passed (2/2 points)"))
'''
PATCHED_HELPERS = '''\
import tinygrad_edu.grading as g

g.check_close = g.checks.check_close = check_close = check_equal = g.check_equal = lambda *args, **kwargs: None
'''


def welcome(exercise: dict, solution: dict, *changes: tuple) -> dict:
    """The welcome notebook solved honestly, then changed: ``(cell id, source)`` replaces a cell, ``(cell id,)``
    deletes it, ``(cell id, None, code)`` inserts a code cell before it."""
    nb = solved(exercise, solution)
    for change in changes:
        nb = edit(nb, *change)
    return nb


def hostile_class(folder: Path) -> dict[str, tuple[Path, dict, str]]:
    """name -> (path, expected points per part, what the attack is)."""
    exercise = json.loads((ROOT / "exercises" / f"{WELCOME}.ipynb").read_text())
    solution = json.loads((ROOT / "solutions" / f"{WELCOME}.ipynb").read_text())
    zero = dict.fromkeys(FULL, 0)
    after = {**FULL, "welcome-4": 0, "welcome-5": 0}

    def cheat_on_the_last_check(code: str, what: str) -> tuple[dict, dict, str]:
        """A wrong last answer, and ``code`` run just before its check, to make it pass anyway."""
        nb = welcome(exercise, solution, ("welcome-5-answer", WRONG_DERIVATIVE), ("welcome-5-check", None, code))
        return nb, {**FULL, "welcome-5": 0}, what

    cases: dict[str, tuple[dict, dict, str]] = {
        "honest": (welcome(exercise, solution), FULL, "an honest submission"),
        "searcher": (welcome(exercise, solution, ("welcome-3-answer", SEARCHER)), {**FULL, "welcome-3": 0},
                     "reads the check's source (linecache, In/_ih, history, kernel message, display hook)"),
        "display_spy": (welcome(exercise, solution, ("welcome-3-answer", DISPLAY_SPY)), {**FULL, "welcome-3": 0},
                        "a display hook that keeps every cell's source"),
        "transformer": cheat_on_the_last_check(TRANSFORMER, "an input transformer rewrites checks into pass lines"),
        "ast_transformer": cheat_on_the_last_check(AST_TRANSFORMER, "an AST transformer rewrites checks"),
        "patched_exec": cheat_on_the_last_check(PATCHED_EXEC, "builtins.exec patched to print pass lines"),
        "aa_library": (welcome(exercise, solution, ("welcome-1-answer", None, LIBRARY)), FULL,
                       "appends to the installed checks"),
        "ab_solutions": (welcome(exercise, solution, ("welcome-1-answer", None, SOLUTIONS)), FULL,
                         "rewrites solutions/ found through /proc"),
        "ac_classmate": (welcome(exercise, solution, ("welcome-1-answer", None, CLASSMATE)), FULL,
                         "overwrites a classmate's submission"),
        "solution_code": (welcome(exercise, exercise, ("welcome-1-answer", None, SOLUTION_CODE)), zero,
                          "runs the solutions' code to answer"),
        "detached": (welcome(exercise, solution, ("welcome-1-answer", None, DETACHED)), FULL,
                     "a detached process rewrites the grades after the grader wrote them"),
        "flood": (welcome(exercise, solution, ("welcome-1-answer", None, FLOOD),
                          ("welcome-1-answer", None, FLOOD_ERROR)), FULL,
                  "30 M characters as a result and as a traceback"),
        "slow": (welcome(exercise, solution, *[("welcome-4-answer", None, SLOW)] * 8), after,
                 "cells that each stay under the cell time limit, 20 s in all"),
        "memory": (welcome(exercise, solution, ("welcome-5-answer", MEMORY_BOMB)), {**FULL, "welcome-5": 0},
                   "allocates 4 GiB in the function a check calls"),
        "loop": (welcome(exercise, solution, ("welcome-2-answer", "while True:\n    pass")), {**FULL, "welcome-2": 0},
                 "an endless loop"),
        "exit": (welcome(exercise, solution, ("welcome-2-answer", "import sys\n\nsys.exit('no')")),
                 {**FULL, "welcome-2": 0}, "sys.exit in an answer"),
        "dead": (welcome(exercise, solution, ("welcome-4-answer", "import os\n\nos._exit(1)")), after,
                 "os._exit kills the kernel"),
        "exception": (welcome(exercise, solution, ("welcome-2-answer", "raise ValueError('oops')")),
                      {**FULL, "welcome-2": 0}, "an answer that raises"),
        "edits": (welcome(exercise, solution, ("welcome-3-answer", "def node_name(t):\n    return 'MulBackward0'"),
                          ("welcome-3-check", 'with exercise("welcome-3", points=2):\n    pass'),
                          ("welcome-4-answer", "g_ab = grad_a = grad_b = 0.0"), ("welcome-4-check",)),
                  {**FULL, "welcome-3": 0, "welcome-4": 0}, "an edited and a deleted check cell"),
        "helpers": cheat_on_the_last_check(PATCHED_HELPERS, "the check functions patched"),
        "patched_code": cheat_on_the_last_check(PATCHED_CODE, "the check functions given new code, in place"),
        "fake_pass": (welcome(exercise, solution, ("welcome-4-answer", FAKE_PASS)), {**FULL, "welcome-4": 0},
                      "pass lines printed by the answer and by a custom exception handler"),
        "zz_blank": (exercise, zero, "a blank notebook, graded after the attacks on the library and solutions"),
    }
    found = {}
    for name, (nb, expected, what) in cases.items():
        path = folder / name / f"{WELCOME}.ipynb"
        path.parent.mkdir(parents=True)
        path.write_text(json.dumps(nb))
        found[name] = (path, expected, what)
    # --save into the submissions folder, next to a submission that is named like a graded copy
    for name in ("x", "x.graded"):
        (folder / f"{name}.ipynb").write_text(json.dumps(welcome(exercise, solution)))
        found[f"collide_{name}"] = (folder / f"{name}.ipynb", FULL, "a file name the graded copy of x would take")
    # a 05 notebook saved under the name of 00
    leaf = solved(json.loads((ROOT / "exercises" / "05_leaf_tensors.ipynb").read_text()),
                  json.loads((ROOT / "solutions" / "05_leaf_tensors.ipynb").read_text()))
    (folder / "mixup").mkdir()
    (folder / "mixup" / f"{WELCOME}.ipynb").write_text(json.dumps(leaf))
    found["mixup"] = (folder / "mixup" / f"{WELCOME}.ipynb", None, "a 05 notebook named 00_welcome.ipynb")
    return found


# -- running the grader on copies ---------------------------------------------------------------------------
def fingerprint(folder: Path) -> dict[str, str]:
    return {str(p.relative_to(folder)): hashlib.sha256(p.read_bytes()).hexdigest()
            for p in sorted(folder.rglob("*")) if p.is_file() and "__pycache__" not in p.parts}


def leftover_processes(marker: str) -> list[str]:
    """Command lines of live processes that mention ``marker``."""
    found = []
    for entry in os.listdir("/proc"):
        if entry.isdigit() and int(entry) != os.getpid():
            try:
                cmdline = Path(f"/proc/{entry}/cmdline").read_bytes().replace(b"\0", b" ").decode(errors="replace")
                state = Path(f"/proc/{entry}/stat").read_bytes().rsplit(b")", 1)[1].split()[0]
            except OSError:
                continue
            if marker in cmdline and state != b"Z":
                found.append(f"{entry}: {cmdline[:200]}")
    return found


# Run as an unprivileged user: in a private mount namespace, the folders on the way to this Python that only root
# may enter (pyenv under /root, here) are made passable, then the user's ids are taken and the grader started.
AS_USER = r'''
import ctypes, json, os, sys
sys.path.insert(0, os.environ["TGE_LAUNCH_DIR"])
import _launch
uid, gid, cwd, argv, env = json.loads(sys.argv[1])
_launch.unshare(_launch.CLONE_NEWNS)
_launch.mount(None, "/", None, _launch.MS_REC | _launch.MS_PRIVATE)
keep = os.environ["TGE_KEEP"]
for i, (folder, child) in enumerate(json.loads(os.environ["TGE_OPEN"])):
    saved = os.path.join(keep, str(i))
    os.makedirs(saved)
    _launch.mount(os.path.join(folder, child), saved, None, _launch.MS_BIND | _launch.MS_REC)
    _launch.mount("tmpfs", folder, "tmpfs", 0, "mode=0755")
    os.makedirs(os.path.join(folder, child))
    _launch.mount(saved, os.path.join(folder, child), None, _launch.MS_BIND | _launch.MS_REC)
os.setgroups([])
os.setresgid(gid, gid, gid)
os.setresuid(uid, uid, uid)
os.chdir(cwd)
os.execve(argv[0], argv, env)
'''
NOBODY = 65534


def _closed_folders() -> list[tuple[str, str]]:
    """(folder, child) for each folder on the way to this Python that others may not enter."""
    found = []
    for target in {os.path.realpath(sys.executable), sys.prefix, sys.base_prefix}:
        parts = Path(target).parts
        for i in range(1, len(parts) - 1):
            folder = Path(*parts[:i + 1])
            if not os.stat(folder).st_mode & 0o001 and (str(folder), parts[i + 1]) not in found:
                found.append((str(folder), parts[i + 1]))
    return found


class Course:
    """A temporary copy of the library, solutions/ and a class of submissions, and a grader run over it."""

    def __init__(self, names: list[str] | None = None, owner: int | None = None) -> None:
        self.root = Path(tempfile.mkdtemp(prefix="tge-course-"))
        self.root.chmod(0o755)
        shutil.copytree(ROOT / "tinygrad_edu", self.root / "lib" / "tinygrad_edu",
                        ignore=shutil.ignore_patterns("__pycache__"))
        (self.root / "solutions").mkdir()
        for name in (WELCOME, "05_leaf_tensors"):
            shutil.copy(ROOT / "solutions" / f"{name}.ipynb", self.root / "solutions")
        self.submissions = hostile_class(self.root / "class")
        if names is not None:
            for name in set(self.submissions) - set(names):
                path = self.submissions.pop(name)[0]
                path.unlink()
                with contextlib.suppress(OSError):
                    path.parent.rmdir()
        for folder in ("out", "tmp", "home"):
            (self.root / folder).mkdir()
        self.owner = owner
        if owner is not None:  # the instructor's course: theirs to read and write
            for path in [self.root, *self.root.rglob("*")]:
                os.chown(path, owner, owner)
        self.before = fingerprint(self.root)

    def grade(self, *options: str, timeout: float = 4, submission_timeout: float = 15) -> dict:
        out = self.root / "out"
        argv = [sys.executable, "-m", "tinygrad_edu.grading", "grade", str(self.root / "class"), "--source",
                str(self.root / "solutions"), "--jobs", "2", "--timeout", str(timeout), "--submission-timeout",
                str(submission_timeout), "--memory", "1536", "--csv", str(out / "grades.csv"), "--json",
                str(out / "grades.json"), "--save", str(self.root / "class"), "--quiet", *options]
        env = {"PATH": os.environ.get("PATH", os.defpath), "PYTHONPATH": str(self.root / "lib"),
               "TMPDIR": str(self.root / "tmp"), "HOME": str(self.root / "home"), "NO_COLOR": "1",
               **{k: v for k, v in os.environ.items() if k.startswith(("OPENBLAS", "LANG", "LC_"))}}
        if self.owner is None:
            done = subprocess.run(argv, cwd=self.root, env=env, capture_output=True, text=True, timeout=600)
        else:
            keep = tempfile.mkdtemp(prefix="tge-keep-")
            helper = {**env, "TGE_LAUNCH_DIR": str(ROOT / "tinygrad_edu" / "grading"), "TGE_KEEP": keep,
                      "TGE_OPEN": json.dumps(_closed_folders())}
            done = subprocess.run([sys.executable, "-c", AS_USER,
                                   json.dumps([self.owner, self.owner, str(self.root), argv, env])],
                                  env=helper, capture_output=True, text=True, timeout=600)
            shutil.rmtree(keep, ignore_errors=True)
        assert done.returncode == 0, done.stderr
        data = json.loads((out / "grades.json").read_text())
        self.results = {name: next(s for s in data["submissions"] if s["submission"] == str(path))
                        for name, (path, _, _) in self.submissions.items()}
        self.isolation = data["isolation"]
        self.changed = {k for k in set(self.before) | set(fingerprint(self.root))
                        if self.before.get(k) != fingerprint(self.root).get(k)}
        return data

    def points(self, name: str) -> dict[str, float]:
        return {e["exercise"]: e["points"] for e in self.results[name]["exercises"]}

    def close(self) -> None:
        shutil.rmtree(self.root, ignore_errors=True)


def grader_outputs(changed: set[str]) -> set[str]:
    """What the grader may write: its CSV and JSON, and graded notebooks (named by it) in the submissions folder."""
    return {c for c in changed if c.startswith("out/") or (c.startswith("class/") and c.endswith(".graded.ipynb")
            and c.count("/") == 1)}


@pytest.fixture(scope="module")
def sealed() -> Course:
    course = Course()
    course.grade()
    yield course
    if not os.environ.get("TGE_KEEP_COURSE"):
        course.close()


# -- as root (here and in CI): sealed -----------------------------------------------------------------------
@pytest.mark.skipif(not LINUX_ROOT, reason="this run is the grader as root")
def test_as_root_every_kernel_is_sealed_and_runs_as_another_user(sealed: Course) -> None:
    assert sealed.isolation["mode"] == "sealed" and sealed.isolation["root"]


@pytest.mark.skipif(not LINUX_ROOT, reason="this run is the grader as root")
def test_every_attack_scores_zero_on_what_it_cheated_and_full_marks_on_the_rest(sealed: Course) -> None:
    wrong = {}
    for name, (_, expected, what) in sealed.submissions.items():
        if expected is not None and sealed.points(name) != expected:
            wrong[name] = (what, sealed.points(name), expected, sealed.results[name]["notes"])
    assert not wrong, wrong


@pytest.mark.skipif(not LINUX_ROOT, reason="this run is the grader as root")
def test_no_file_changes_but_the_graders_own_outputs_and_no_process_is_left(sealed: Course) -> None:
    assert sealed.changed == grader_outputs(sealed.changed), sealed.changed - grader_outputs(sealed.changed)
    assert not any("were put back" in note for r in sealed.results.values() for note in r["notes"])
    assert leftover_processes(MARK) == [] and leftover_processes(str(sealed.root)) == []
    rows = list(csv.DictReader((sealed.root / "out" / "grades.csv").open()))  # what the grader wrote, still
    totals = {r["submission"]: float(r["points"]) for r in rows if r["exercise"] == "total"}
    assert totals == {s["submission"]: s["points"] for s in sealed.results.values()}


@pytest.mark.skipif(not LINUX_ROOT, reason="this run is the grader as root")
def test_the_attacks_on_files_found_nothing_to_write(sealed: Course) -> None:
    saved = {name: json.loads(Path(r["saved"]).read_text()) for name, r in sealed.results.items() if r["saved"]}

    def printed(name: str) -> str:
        return "".join(source_text(o.get("text", "")) for c in saved[name]["cells"] for o in c.get("outputs", []))

    assert "could not write" in printed("aa_library") and "wrote" not in printed("aa_library").replace("could not", "")
    assert "rewrote" not in printed("ab_solutions") and "overwrote" not in printed("ac_classmate")
    assert "solutions found: []" in printed("solution_code")
    assert sealed.points("zz_blank") == dict.fromkeys(FULL, 0)  # graded after the attacks: still 0


@pytest.mark.skipif(not LINUX_ROOT, reason="this run is the grader as root")
def test_every_kind_of_output_is_capped(sealed: Course) -> None:
    saved = json.loads(Path(sealed.results["flood"]["saved"]).read_text())
    sizes = []
    for cell in saved["cells"]:
        text = json.dumps(cell.get("outputs", []))
        sizes.append(len(text))
        if "x" * 1000 in text or "y" * 1000 in text:
            assert TRUNCATED.strip() in text or "[the grader cut the rest" in text or len(text) < 20_000
    assert max(sizes) < MAX_OUTPUT * 1.1
    assert any(o.get("output_type") == "execute_result" for c in saved["cells"] for o in c.get("outputs", []))
    assert Path(sealed.results["flood"]["saved"]).stat().st_size < 3 * MAX_OUTPUT


@pytest.mark.skipif(not LINUX_ROOT, reason="this run is the grader as root")
def test_time_and_memory_limits(sealed: Course) -> None:
    assert any("time limit (15 s) ran out" in n for n in sealed.results["slow"]["notes"])
    assert sealed.results["slow"]["seconds"] < 15 + 10
    memory = {e["exercise"]: e for e in sealed.results["memory"]["exercises"]}["welcome-5"]
    assert "MemoryError" in memory["report"], memory


@pytest.mark.skipif(not LINUX_ROOT, reason="this run is the grader as root")
def test_save_never_overwrites_a_file_the_grader_did_not_write(sealed: Course) -> None:
    x, graded = sealed.results["collide_x"], sealed.results["collide_x.graded"]
    assert x["saved"] == str(sealed.root / "class" / "x-2.graded.ipynb")  # x.graded.ipynb is a submission
    assert graded["saved"] == str(sealed.root / "class" / "x.graded.graded.ipynb")
    assert "class/x.graded.ipynb" not in sealed.changed
    assert all(is_graded_notebook(Path(r["saved"])) for r in sealed.results.values() if r["saved"])


@pytest.mark.skipif(not LINUX_ROOT, reason="this run is the grader as root")
def test_a_notebook_is_graded_by_its_metadata_and_a_mismatch_is_reported(sealed: Course) -> None:
    mixup = sealed.results["mixup"]
    assert mixup["notebook"] == "05_leaf_tensors" and mixup["points"] == mixup["max_points"] == 15
    assert mixup["file_name_says"] == WELCOME
    assert "its metadata says it is 05_leaf_tensors but its file name says 00_welcome" in mixup["notes"][0]


@pytest.mark.skipif(not LINUX_ROOT, reason="this run is the grader as root")
def test_a_second_run_skips_and_replaces_the_graded_notebooks_it_wrote(sealed: Course) -> None:
    saved = sorted(p.name for p in (sealed.root / "class").glob("*.graded.ipynb") if is_graded_notebook(p))
    assert "x-2.graded.ipynb" in saved and "x.graded.ipynb" not in saved
    from tinygrad_edu.grading.grade import collect

    assert not any(is_graded_notebook(p) for p, _ in collect([sealed.root / "class"]))


# -- as an unprivileged user --------------------------------------------------------------------------------
NON_ROOT = ["honest", "searcher", "aa_library", "ab_solutions", "ac_classmate", "detached", "zz_blank"]


@pytest.fixture(scope="module", params=["auto", "basic"])
def unprivileged(request: pytest.FixtureRequest) -> Course:
    if not LINUX_ROOT:
        pytest.skip("running the grader as another user needs root")
    course = Course(NON_ROOT, owner=NOBODY)
    course.grade("--sandbox", request.param)
    course.requested = request.param
    yield course
    course.close()


def test_as_another_user_the_attacks_get_no_points_and_leave_nothing_behind(unprivileged: Course) -> None:
    assert not unprivileged.isolation["root"]
    if unprivileged.requested == "basic":
        assert unprivileged.isolation["mode"] == "basic"
    for name in NON_ROOT:
        assert unprivileged.points(name) == unprivileged.submissions[name][1], (name, unprivileged.results[name])
    # Sealed, the attacks cannot reach the files; basic, they can (the kernel is this user), and the grader puts
    # back what they changed, grades what was handed in, and says so.
    assert unprivileged.changed == grader_outputs(unprivileged.changed)
    notes = [n for r in unprivileged.results.values() for n in r["notes"]]
    if unprivileged.isolation["mode"] == "basic":
        assert any("were put back" in n and "solutions" in n for n in notes), notes
        assert any("were put back" in n and "honest" in n for n in notes), notes
    else:
        assert not any("were put back" in n for n in notes)
    assert leftover_processes(MARK) == [] and leftover_processes(str(unprivileged.root)) == []


# -- the attacks are real ---------------------------------------------------------------------------------
def test_the_attacks_work_on_an_unsealed_kernel() -> None:
    """Run with the original check cells as plain cells (as the grader used to), each attack passes a check
    its answer does not deserve: the tests above would not catch anything if they did not."""
    import nbformat
    from nbclient import NotebookClient

    exercise = json.loads((ROOT / "exercises" / f"{WELCOME}.ipynb").read_text())
    solution = json.loads((ROOT / "solutions" / f"{WELCOME}.ipynb").read_text())
    checks = {c["id"]: "".join(c["source"]) for c in solution["cells"] if c["id"].endswith("-check")}
    attacks = {"welcome-3": SEARCHER, "welcome-5": TRANSFORMER}
    attacks_before = {"display_spy": ("welcome-3", DISPLAY_SPY), "ast": ("welcome-5", WRONG_DERIVATIVE + "\n" +
                                                                       AST_TRANSFORMER),
                      "exec": ("welcome-5", WRONG_DERIVATIVE + "\n" + PATCHED_EXEC)}

    def run(grade_id: str, attack: str) -> str:
        cells = [nbformat.v4.new_code_cell("".join(exercise["cells"][1]["source"])),
                 nbformat.v4.new_code_cell(attack + ("\n" + WRONG_DERIVATIVE if grade_id == "welcome-5" and
                                                     "def derivative" not in attack else "")),
                 nbformat.v4.new_code_cell(checks[f"{grade_id}-check"])]
        nb = nbformat.v4.new_notebook(cells=cells)
        with tempfile.TemporaryDirectory() as cwd:
            NotebookClient(nb, timeout=60, allow_errors=True, resources={"metadata": {"path": cwd}}).execute()
        return "".join(o.get("text", "") for o in nb.cells[2].outputs)

    jobs = [*attacks.items(), *attacks_before.values()]
    with ThreadPoolExecutor(max_workers=2) as pool:
        printed = list(pool.map(lambda job: run(*job), jobs))
    for (grade_id, _), text in zip(jobs, printed):
        assert f"✔ {grade_id} passed" in text, (grade_id, text)


# -- output paths -------------------------------------------------------------------------------------------
def test_an_output_path_is_refused_when_it_would_overwrite_what_the_grader_did_not_write(
        tmp_path: Path, capsys: pytest.CaptureFixture) -> None:
    submission = tmp_path / "class" / "a.ipynb"
    submission.parent.mkdir()
    submission.write_text("{}")
    notes = tmp_path / "notes.csv"
    notes.write_text("my own notes\n")
    source = ["--source", str(ROOT / "solutions")]
    for args, message in [
        (["--csv", str(notes)], "exists and was not written by tinygrad-edu grade"),
        (["--json", str(submission)], "is one of the submissions"),
        (["--save", str(ROOT / "solutions")], "is inside the solutions folder"),
        (["--save", str(notes)], "is a file, not a folder"),
    ]:
        assert cli.main(["grade", str(submission.parent), *source, *args]) == 2
        assert message in capsys.readouterr().err
    assert notes.read_text() == "my own notes\n" and submission.read_text() == "{}"
    from tinygrad_edu.grading.report import is_ours, to_csv, to_json

    ours = tmp_path / "grades.csv"
    ours.write_text(to_csv([]))
    assert is_ours(ours, "csv") and not is_ours(notes, "csv")
    (tmp_path / "grades.json").write_text(to_json([]))
    assert is_ours(tmp_path / "grades.json", "json")


def test_sealed_mode_is_refused_where_it_cannot_be_made(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    from tinygrad_edu.grading import sandbox

    monkeypatch.setattr(sandbox, "LAUNCHER", "import sys; sys.exit(1)")
    with pytest.raises(sandbox.SandboxUnavailable, match="needs Linux namespaces"):
        sandbox.detect("sealed")
    assert sandbox.detect("auto").mode == "basic"
    out = io.StringIO()
    with contextlib.redirect_stderr(out):
        assert cli.main(["grade", str(ROOT / "exercises" / f"{WELCOME}.ipynb"), "--sandbox", "sealed",
                         "--source", str(ROOT / "solutions")]) == 2
    assert "needs Linux namespaces" in out.getvalue()
