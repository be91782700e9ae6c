"""Where and how each submission's kernel runs: sealed off from the course files and from the other submissions.

Two modes, chosen by ``detect()`` (``tinygrad-edu grade --sandbox``):

* **sealed** (Linux, when the grader is root or unprivileged user namespaces are allowed, as on most
  distributions): the kernel gets namespaces of its own (mount, PID, network, IPC) and a root file system
  made of the system folders, Python and the library, all read-only, plus its private folder and a
  private ``/tmp``. The solutions, the other submissions and the grader's outputs are not in it at all,
  and the library cannot be written. When the grader is root, the kernel also runs as an unprivileged
  user of its own (one user id per job slot). Its processes live in its PID namespace and all end with it.
* **basic** (elsewhere: macOS, containers that forbid namespaces, or on request): the kernel runs in a
  private folder with a private copy of the library, with the same limits; as an unprivileged user of its
  own when the grader is root (then files that are not world-readable stay out of reach), and otherwise as
  the grader's own user, which can read and write whatever the grader can. On Linux its processes are
  still all ended (a child subreaper); elsewhere only its process group is.

In both modes the grader reads the solutions and the submissions before any kernel starts and grades from
that copy, checks after each kernel that no course file changed (and puts back, and reports, any that
did), and writes its outputs only when every kernel and every process they started are gone.

Limits per kernel (``Limits``): address space (``RLIMIT_AS``), CPU time, file size, processes (for the
kernel's own user id), a time per cell and a time per submission; output is capped by the grader.
"""

from __future__ import annotations

import contextlib
import hashlib
import json
import os
import pwd
import queue
import shutil
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import tinygrad_edu

LIBRARY = Path(tinygrad_edu.__file__).resolve().parent
# Read once, when grading starts: a kernel cannot change the launcher the later kernels start with.
LAUNCHER = (Path(__file__).parent / "_launch.py").read_text(encoding="utf-8")
UID_BASE = 2_000_000_000  # kernel user ids when the grader is root: UID_BASE + job slot, ids no account uses
SYSTEM = ("/usr", "/bin", "/sbin", "/lib", "/lib32", "/lib64", "/libx32", "/etc")
KEPT_ENV = ("LANG", "LANGUAGE", "TZ", "NO_COLOR", "OPENBLAS_CORETYPE", "OPENBLAS_L2_SIZE")


@dataclass(frozen=True)
class Limits:
    """What one submission's kernel may use."""

    memory_mb: int = 4096  # address space: numpy, IPython and the library take about 1 GB of it
    cell_seconds: float = 30
    submission_seconds: float = 600
    file_mb: int = 256  # largest file the kernel may write
    tmp_mb: int = 256  # its /tmp (sealed mode)
    processes: int = 256  # for its own user id (when the grader is root)

    def rlimits(self, own_user: bool) -> dict[str, tuple[int, int]]:
        cpu = int(self.submission_seconds) + 1
        limits = {"RLIMIT_AS": (self.memory_mb * 2**20,) * 2, "RLIMIT_CPU": (cpu, cpu + 5),
                  "RLIMIT_FSIZE": (self.file_mb * 2**20,) * 2, "RLIMIT_CORE": (0, 0)}
        if own_user:
            limits["RLIMIT_NPROC"] = (self.processes,) * 2
        return limits


@dataclass(frozen=True)
class Isolation:
    """How kernels are sealed off on this machine, and what that guarantees."""

    mode: str  # "sealed" or "basic"
    root: bool  # the grader runs as root: kernels run as unprivileged users of their own

    def describe(self) -> str:
        who = "as an unprivileged user of its own" if self.root else "as your user"
        if self.mode == "sealed":
            return (f"sealed: each kernel in namespaces of its own, {who}, seeing only the system, Python and the "
                    "library (read-only) and its private folder; no network")
        reach = ("it cannot read files that are not world-readable" if self.root else
                 "it can read and write what you can: course files it changes are put back and reported")
        return f"basic: each kernel in a private folder with a copy of the library, {who} ({reach})"

    def as_dict(self) -> dict[str, Any]:
        return {"mode": self.mode, "root": self.root, "description": self.describe()}


class SandboxUnavailable(RuntimeError):  # noqa: N818  (a condition of the machine)
    """``--sandbox sealed`` was asked for where namespaces cannot be made."""


def detect(requested: str = "auto") -> Isolation:
    """The isolation to grade with: ``sealed`` where it works (tried once), else ``basic``."""
    root = hasattr(os, "geteuid") and os.geteuid() == 0
    if requested == "basic":
        return Isolation("basic", root)
    works = sys.platform.startswith("linux") and subprocess.run(
        [sys.executable, "-I", "-S", "-c", LAUNCHER, "probe"], stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL, timeout=30).returncode == 0
    if works:
        return Isolation("sealed", root)
    if requested == "sealed":
        raise SandboxUnavailable("sealed grading needs Linux namespaces, which this machine does not allow here "
                                 "(run as root, allow unprivileged user namespaces, or use --sandbox basic)")
    return Isolation("basic", root)


# -- the course files: read once, checked after each kernel, put back if changed ----------------------------
@dataclass
class _Kept:
    stat: tuple
    data: bytes


def _identity(path: Path) -> tuple | None:
    try:
        s = path.lstat()
    except FileNotFoundError:
        return None
    return (s.st_mode, s.st_size, s.st_mtime_ns, s.st_ctime_ns, s.st_ino)  # ctime: any write changes it


@dataclass
class Watched:
    """Files (and folders of files) that no kernel may change: kept in memory, compared, put back."""

    files: dict[Path, _Kept] = field(default_factory=dict)
    folders: list[Path] = field(default_factory=list)

    def add(self, path: Path) -> None:
        path = Path(path).absolute()
        if path.is_dir():
            self.folders.append(path)
            for p in self._listing(path):
                self._keep(p)
        elif path.is_file():
            self._keep(path)

    def _keep(self, path: Path) -> None:
        with contextlib.suppress(OSError):
            self.files[path] = _Kept(_identity(path), path.read_bytes())

    @staticmethod
    def _listing(folder: Path) -> list[Path]:
        """The files of a folder (compiled .pyc files too: a planted one would be imported instead of its source)."""
        return [p for p in sorted(folder.rglob("*")) if p.is_file()]

    def data(self, path: Path) -> bytes:
        return self.files[Path(path).absolute()].data

    def changed(self, restore: bool = True) -> list[str]:
        """The watched files that changed (and new files in watched folders); with ``restore``, undone."""
        found = []
        for path, kept in self.files.items():
            now = _identity(path)
            if now == kept.stat:
                continue
            try:
                same = now is not None and path.is_file() and not path.is_symlink() and \
                    hashlib.sha256(path.read_bytes()).digest() == hashlib.sha256(kept.data).digest()
            except OSError:
                same = False
            if same:
                kept.stat = now
                continue
            found.append(f"{path} was changed" if now else f"{path} was deleted")
            if restore:
                _write_back(path, kept.data)
                kept.stat = _identity(path)
        for folder in self.folders:
            for path in self._listing(folder):
                if path not in self.files:
                    found.append(f"{path} was added")
                    if restore:
                        with contextlib.suppress(OSError):
                            path.unlink()
        return found


def _write_back(path: Path, data: bytes) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    if path.is_symlink() or path.is_dir():
        if path.is_dir() and not path.is_symlink():
            shutil.rmtree(path)
        else:
            path.unlink()
    temporary = path.with_name(f".{path.name}.tinygrad-edu-restore")
    temporary.write_bytes(data)
    os.replace(temporary, path)


# -- one grading run --------------------------------------------------------------------------------------------
def _nested(path: str, others: list[str]) -> bool:
    return any(path != o and path.startswith(o.rstrip("/") + "/") for o in others)


class Run:
    """The private folder of one grading run, its job slots, and what each kernel may see."""

    def __init__(self, isolation: Isolation, limits: Limits, jobs: int, hidden: list[Path],
                 library: dict[Path, bytes]) -> None:
        self.isolation, self.limits, self.library = isolation, limits, library
        self.folder = Path(tempfile.mkdtemp(prefix="tinygrad-edu-grade-"))
        if isolation.root:  # kernel users must cross it to reach their own folder, but not list it
            self.folder.chmod(0o711)
        self.slots: queue.Queue[int] = queue.Queue()
        for slot in range(jobs):
            self.slots.put(slot)
        self.hidden = sorted({str(Path(p).absolute()) for p in hidden})
        self.python_path = str(LIBRARY.parent)
        try:
            self.read_only = self._read_only() if isolation.mode == "sealed" else []
            if isolation.mode == "basic" and isolation.root:
                self._check_kernel_user_can_run_python()
        except BaseException:
            self.close()
            raise

    def _check_kernel_user_can_run_python(self) -> None:
        """In basic mode as root, kernels run as an unprivileged user: it must be able to run this Python."""
        done = subprocess.run([sys.executable, "-c", "import ipykernel, numpy"], user=UID_BASE, group=_nobody_group(),
                              extra_groups=[], cwd="/", capture_output=True, text=True,
                              env={"PATH": os.environ.get("PATH", os.defpath)})
        if done.returncode:
            reason = (done.stderr.strip().splitlines() or ["it could not start"])[-1]
            raise SandboxUnavailable(
                f"in basic mode the kernels run as an unprivileged user, who cannot run {sys.executable} ({reason}): "
                "make Python and its packages readable by other users, or grade where sealed mode works")

    def _read_only(self) -> list[str]:
        """What the kernel's Python needs: the system, the interpreter and its sys.path, the library."""
        probe = subprocess.run(
            [sys.executable, "-c", "import json, sys; print(json.dumps(sys.path))"], capture_output=True, text=True,
            env={"PYTHONPATH": self.python_path, "PATH": os.environ.get("PATH", os.defpath)}, cwd=self.folder,
            check=True)
        paths = [*SYSTEM, sys.prefix, sys.base_prefix, sys.exec_prefix, sys.base_exec_prefix,
                 os.path.dirname(sys.executable), os.path.dirname(os.path.realpath(sys.executable)), str(LIBRARY)]
        paths += [p for p in json.loads(probe.stdout) if p and os.path.isdir(p)
                  and os.path.abspath(p) not in (str(self.folder), self.python_path)]
        paths = sorted({os.path.abspath(p) for p in paths if os.path.lexists(p)})
        return [p for p in paths if not _nested(p, paths) and not p.startswith(str(self.folder))]

    @contextlib.contextmanager
    def kernel(self, submission_name: str, submission: bytes) -> Iterator[Kernel]:
        """A private folder and a kernel manager for one submission; on exit, everything it started is gone."""
        slot = self.slots.get()
        try:
            kernel = Kernel(self, slot, submission_name, submission)
            try:
                yield kernel
            finally:
                kernel.finish()
        finally:
            self.slots.put(slot)

    def close(self) -> None:
        _remove(self.folder)


def _nobody_group() -> int:
    try:
        return pwd.getpwnam("nobody").pw_gid
    except KeyError:
        return 65534


class Kernel:
    """One kernel's private folder, launch configuration and kernel manager."""

    def __init__(self, run: Run, slot: int, submission_name: str, submission: bytes) -> None:
        self.run = run
        isolation, limits = run.isolation, run.limits
        self.folder = Path(tempfile.mkdtemp(prefix="kernel-", dir=run.folder))
        self.home = self.folder / "home"
        self.home.mkdir(mode=0o700)
        (self.home / "tmp").mkdir()
        (self.home / Path(submission_name).name).write_bytes(submission)  # its own copy, to read if it wants
        python_path = run.python_path
        if isolation.mode == "basic":  # a private copy of the library (as read when grading began), read-only
            python_path = str(self.folder / "lib")
            copy = self.folder / "lib" / LIBRARY.name
            for relative, data in run.library.items():
                (copy / relative).parent.mkdir(parents=True, exist_ok=True)
                (copy / relative).write_bytes(data)
                (copy / relative).chmod(0o444)
            for folder, _dirs, _files in os.walk(self.folder / "lib"):
                os.chmod(folder, 0o555)
            if isolation.root:
                self.folder.chmod(0o711)
        uid = UID_BASE + slot if isolation.root else None
        env = {k: v for k, v in os.environ.items() if k in KEPT_ENV or k.startswith("LC_")}
        env.update(
            PATH=os.pathsep.join([os.path.dirname(sys.executable), "/usr/local/bin", "/usr/bin", "/bin"]),
            HOME=str(self.home), USER="learner", LOGNAME="learner", PYTHONPATH=python_path, PYTHONDONTWRITEBYTECODE="1",
            TMPDIR="/tmp" if isolation.mode == "sealed" else str(self.home / "tmp"),
            IPYTHONDIR=str(self.home / ".ipython"), MPLCONFIGDIR=str(self.home / ".matplotlib"),
            JUPYTER_CONFIG_DIR=str(self.home / ".jupyter"), JUPYTER_DATA_DIR=str(self.home / ".jupyter-data"),
            JUPYTER_RUNTIME_DIR=str(self.home / ".jupyter-runtime"), XDG_CACHE_HOME=str(self.home / ".cache"),
            XDG_CONFIG_HOME=str(self.home / ".config"), PYDEVD_DISABLE_FILE_VALIDATION="1",
            OPENBLAS_NUM_THREADS="1", OMP_NUM_THREADS="1", MKL_NUM_THREADS="1")
        env.setdefault("LANG", "C.UTF-8")
        self.pid_file = self.folder / "supervisor.pid"
        self.error_file = self.folder / "launch-errors.txt"
        config = {
            "mode": isolation.mode, "home": str(self.home), "env": env, "pid_file": str(self.pid_file),
            "error_file": str(self.error_file), "grader_pid": os.getpid(),
            "limits": limits.rlimits(own_user=uid is not None), "deadline": limits.submission_seconds + 30,
            "uid": uid, "gid": _nobody_group(), "owner": uid, "drop_capabilities": True,
            "newroot": str(self.folder / "root"), "read_only": run.read_only, "writable": [str(self.home)],
            "hidden": run.hidden, "tmp_megabytes": limits.tmp_mb,
        }
        (self.folder / "root").mkdir()
        self.config = self.folder / "launch.json"
        descriptor = os.open(self.config, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
        with os.fdopen(descriptor, "w") as f:
            json.dump(config, f)
        self.argv = [sys.executable, "-I", "-S", "-c", LAUNCHER, str(self.config), "--",
                     sys.executable, "-m", "ipykernel_launcher", "-f", "{connection_file}"]

    def manager(self) -> Any:
        """A Jupyter kernel manager that starts this kernel through the launcher."""
        from jupyter_client.kernelspec import KernelSpec, KernelSpecManager
        from jupyter_client.manager import AsyncKernelManager

        argv = self.argv

        class Launcher(KernelSpecManager):
            def get_kernel_spec(self, kernel_name: str) -> KernelSpec:
                return KernelSpec(argv=argv, display_name="Python 3 (graded)", language="python",
                                  interrupt_mode="signal", env={}, resource_dir=str(LIBRARY))

        sealed = self.run.isolation.mode == "sealed"
        return AsyncKernelManager(kernel_name="python3", kernel_spec_manager=Launcher(),
                                  connection_file=str(self.home / "kernel.json"),
                                  transport="ipc" if sealed else "tcp")

    def errors(self) -> str:
        """What the launcher reported (why a kernel did not start), if anything."""
        try:
            return self.error_file.read_text().strip()
        except OSError:
            return ""

    def finish(self) -> None:
        """Wait until the kernel's supervisor, and with it every process the kernel started, is gone."""
        try:
            supervisor = int(self.pid_file.read_text())
        except (OSError, ValueError):
            supervisor = None
        if supervisor is not None:
            deadline = time.monotonic() + 10
            while _alive(supervisor):
                if time.monotonic() > deadline:
                    with contextlib.suppress(OSError):
                        os.kill(supervisor, 9)
                    break
                time.sleep(0.01)
        _remove(self.folder)


def _remove(folder: Path) -> None:
    """Delete a folder the grader made, read-only parts (the library's copy) included."""
    for parent, dirs, _files in os.walk(folder):
        for name in dirs:
            with contextlib.suppress(OSError):
                os.chmod(os.path.join(parent, name), 0o700)
    shutil.rmtree(folder, ignore_errors=True)


def set_dumpable(dumpable: bool) -> bool:
    """Make this process (not) dumpable (Linux): when not, processes of the same user cannot attach to it or read
    its /proc files. Returns whether it could."""
    if not sys.platform.startswith("linux"):
        return False
    import ctypes

    return ctypes.CDLL(None).prctl(4, ctypes.c_ulong(int(dumpable)), 0, 0, 0) == 0  # PR_SET_DUMPABLE


def _alive(pid: int) -> bool:
    """Is ``pid`` a running process (a zombie counts as gone)?"""
    try:
        with open(f"/proc/{pid}/stat", "rb") as stat:
            return stat.read().rsplit(b")", 1)[1].split()[0] != b"Z"
    except FileNotFoundError:
        return False
    except OSError:
        try:
            os.kill(pid, 0)
        except ProcessLookupError:
            return False
        except PermissionError:
            return True
        return True
