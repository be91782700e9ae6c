"""Start one kernel sealed off, and end it with every process it started (run by the grader, not imported).

The grader runs this file's source as ``python -I -c <source> CONFIG -- KERNEL ARGV...`` (standard library
only, so that nothing a submission can write is imported before the kernel is sealed). ``CONFIG`` is a JSON
file only the grader can read: which mode, the kernel's private folder, its limits and environment.

Three processes::

    launcher (what Jupyter started and signals)
      └── supervisor (its own session: Jupyter's kill of the launcher's group does not reach it)
            └── kernel (ipykernel, with limits, as an unprivileged user when the grader is root)

* The **launcher** passes an interrupt on to the kernel; on terminate, or when the grader dies
  (``PR_SET_PDEATHSIG``), the supervisor ends everything.
* The **supervisor** ends when the kernel does, when the launcher dies (``PR_SET_PDEATHSIG``) or at the
  submission's deadline, and takes every process the kernel started with it: in ``sealed`` mode it is
  process 1 of a new PID namespace (its end kills the namespace); in ``basic`` mode it is a child
  subreaper (``PR_SET_CHILD_SUBREAPER``: a detached grandchild is re-parented to it, not to init) and
  kills its descendants one by one.
* In ``sealed`` mode the kernel sees a new root file system: the system folders, Python and the
  library read-only, its private folder writable, a private ``/tmp`` and ``/proc``, and nothing else
  (``pivot_root``, so not even a process that gains privileges in a user namespace of its own can
  climb back out). It has no network (a network namespace of its own; the grader talks to it
  through Unix sockets in its folder).
"""

from __future__ import annotations

import contextlib
import ctypes
import json
import os
import resource
import signal
import sys
import time
from collections.abc import Callable

CLONE_NEWNS, CLONE_NEWUSER, CLONE_NEWPID, CLONE_NEWNET, CLONE_NEWIPC = \
    0x00020000, 0x10000000, 0x20000000, 0x40000000, 0x08000000
MS_RDONLY, MS_NOSUID, MS_NODEV, MS_NOEXEC, MS_REMOUNT, MS_BIND, MS_REC, MS_PRIVATE = \
    1, 2, 4, 8, 32, 4096, 16384, 1 << 18
MS_NOATIME, MS_NODIRATIME, MS_RELATIME, MS_STRICTATIME = 1024, 2048, 1 << 21, 1 << 24
MNT_DETACH = 2
PR_SET_PDEATHSIG, PR_SET_DUMPABLE, PR_CAPBSET_DROP, PR_SET_CHILD_SUBREAPER, PR_SET_NO_NEW_PRIVS = 1, 4, 24, 36, 38
SYS_PIVOT_ROOT = {"x86_64": 155, "amd64": 155, "aarch64": 41, "arm64": 41, "riscv64": 41, "ppc64le": 203,
                  "s390x": 217}
# Mount options as /proc/self/mountinfo spells them: a remount must keep them (in a user namespace they are locked).
OPTION_FLAGS = {"nosuid": MS_NOSUID, "nodev": MS_NODEV, "noexec": MS_NOEXEC, "noatime": MS_NOATIME,
                "nodiratime": MS_NODIRATIME, "relatime": MS_RELATIME, "strictatime": MS_STRICTATIME}
DEVICES = ("null", "zero", "full", "random", "urandom")

_libc = ctypes.CDLL(None, use_errno=True) if sys.platform.startswith("linux") else None


def _check(result: int, what: str) -> int:
    if result == -1:
        errno = ctypes.get_errno()
        raise OSError(errno, f"{what}: {os.strerror(errno)}")
    return result


def prctl(option: int, value: int) -> None:
    _check(_libc.prctl(option, ctypes.c_ulong(value), 0, 0, 0), f"prctl({option})")


def _bytes(text: str | None) -> bytes | None:
    return None if text is None else text.encode()


def mount(source: str | None, target: str, fstype: str | None, flags: int, data: str | None = None) -> None:
    _check(_libc.mount(_bytes(source), _bytes(target), _bytes(fstype), ctypes.c_ulong(flags), _bytes(data)),
           f"mount {target}")


def unshare(flags: int) -> None:
    _check(_libc.unshare(flags), "unshare")


def pivot_root(new: str, old: str) -> None:
    _check(_libc.syscall(SYS_PIVOT_ROOT[os.uname().machine.lower()], new.encode(), old.encode()), "pivot_root")


# -- the sealed file system (run by the supervisor, process 1 of the new PID namespace) ---------------------
def _mounts_under(prefix: str) -> list[tuple[str, set[str]]]:
    """(mount point, its options) for every mount at or below ``prefix``, outermost first."""
    found = []
    with open("/proc/self/mountinfo") as lines:
        for line in lines:
            fields = line.split()
            point = fields[4].encode().decode("unicode_escape")
            if point == prefix or point.startswith(prefix.rstrip("/") + "/"):
                found.append((point, set(fields[5].split(","))))
    return found


def _remount_read_only(point: str, options: set[str]) -> None:
    flags = MS_BIND | MS_REMOUNT | MS_RDONLY
    for name, flag in OPTION_FLAGS.items():
        if name in options:
            flags |= flag
    mount(None, point, None, flags)


def _make_path(root: str, path: str, is_dir: bool, ours: set[int]) -> str:
    """Create ``root + path`` (a folder, or an empty file) as a mount point: only ever on a tmpfs of ours
    (``ours``: their device numbers), never inside a folder bound from the system (that would create it there)."""
    target = root + path
    existing = target
    while not os.path.lexists(existing):
        existing = os.path.dirname(existing)
    if existing != target and os.lstat(existing).st_dev not in ours:
        raise OSError(f"{path} lies inside a folder bound from the system: it cannot be mounted on")
    if is_dir:
        os.makedirs(target, exist_ok=True)
    else:
        os.makedirs(os.path.dirname(target), exist_ok=True)
        if not os.path.exists(target):
            open(target, "w").close()
    return target


def seal_file_system(config: dict) -> None:
    """Build the kernel's root file system in ``config["newroot"]`` and move into it."""
    root = config["newroot"]
    unshare(CLONE_NEWNS)  # a mount namespace of the supervisor's own: pivot_root moves every process in it
    mount(None, "/", None, MS_REC | MS_PRIVATE)  # nothing mounted here shows outside, nor the reverse
    mount("tmpfs", root, "tmpfs", MS_NOSUID | MS_NODEV, "size=16m,mode=0755")
    ours = {os.stat(root).st_dev}
    size = f"size={config['tmp_megabytes']}m"
    for path in ("/tmp", "/dev/shm"):
        target = _make_path(root, path, True, ours)
        mount("tmpfs", target, "tmpfs", MS_NOSUID | MS_NODEV, f"{size},mode=1777")
        ours.add(os.stat(target).st_dev)
    read_only = []
    for path in config["read_only"]:
        if os.path.islink(path) and os.path.dirname(path) == "/":  # /bin -> usr/bin on merged-/usr systems
            os.symlink(os.readlink(path), root + path)
        elif os.path.exists(path):
            target = _make_path(root, path, os.path.isdir(path), ours)
            mount(path, target, None, MS_BIND | MS_REC)
            read_only.append(target)
    for path in config["writable"]:
        mount(path, _make_path(root, path, True, ours), None, MS_BIND | MS_REC)
    for target in read_only:
        for point, options in _mounts_under(target):
            _remount_read_only(point, options)
    for path in config["hidden"]:  # course files inside a folder the kernel needs: covered with nothing
        target = root + path
        if os.path.isdir(target) and not os.path.islink(target):
            mount("tmpfs", target, "tmpfs", MS_RDONLY | MS_NOSUID | MS_NODEV | MS_NOEXEC, "size=4k,mode=0555")
        elif os.path.exists(target):
            mount("/dev/null", target, None, MS_BIND)
    for name in DEVICES:
        mount(f"/dev/{name}", _make_path(root, f"/dev/{name}", False, ours), None, MS_BIND)
    for name, where in (("fd", "/proc/self/fd"), ("stdin", "/proc/self/fd/0"), ("stdout", "/proc/self/fd/1"),
                        ("stderr", "/proc/self/fd/2")):
        os.symlink(where, f"{root}/dev/{name}")
    mount("proc", _make_path(root, "/proc", True, ours), "proc", MS_NOSUID | MS_NODEV | MS_NOEXEC)
    os.makedirs(root + "/.old_root")
    pivot_root(root, root + "/.old_root")
    os.chdir("/")
    _check(_libc.umount2(b"/.old_root", MNT_DETACH), "umount old root")
    os.rmdir("/.old_root")
    mount(None, "/", None, MS_BIND | MS_REMOUNT | MS_RDONLY | MS_NOSUID | MS_NODEV)


# -- the kernel process -------------------------------------------------------------------------------------
def exec_kernel(config: dict, argv: list[str]) -> None:
    """Become the kernel: limits, an unprivileged user, no way to gain privileges, then exec. Never returns."""
    for sig in (signal.SIGINT, signal.SIGTERM, signal.SIGALRM, signal.SIGCHLD, signal.SIGPIPE):
        signal.signal(sig, signal.SIG_DFL)
    os.setpgid(0, 0)
    for name, (soft, hard) in config["limits"].items():
        try:
            resource.setrlimit(getattr(resource, name), (soft, hard))
        except (AttributeError, ValueError, OSError):
            if _libc is not None:  # on Linux every limit holds; elsewhere (macOS has no RLIMIT_AS) what can
                raise
    if _libc is not None:
        if config["drop_capabilities"]:
            for capability in range(64):  # no capability survives the exec, even for uid 0 in a user namespace
                if _libc.prctl(PR_CAPBSET_DROP, ctypes.c_ulong(capability), 0, 0, 0) == -1:
                    break
        if config.get("uid") is not None:
            os.setgroups([])
            os.setresgid(config["gid"], config["gid"], config["gid"])
            os.setresuid(config["uid"], config["uid"], config["uid"])
        prctl(PR_SET_NO_NEW_PRIVS, 1)
    elif config.get("uid") is not None:
        os.setgroups([])
        os.setgid(config["gid"])
        os.setuid(config["uid"])
    os.chdir(config["home"])
    os.umask(0o077)
    os.execve(argv[0], argv, config["env"])


# -- the supervisor -----------------------------------------------------------------------------------------
def _children() -> dict[int, list[int]]:
    """Every process's children, read from /proc/*/stat (/proc/PID/task/TID/children is not always there)."""
    parents: dict[int, list[int]] = {}
    for entry in os.listdir("/proc"):
        if entry.isdigit():
            try:
                with open(f"/proc/{entry}/stat", "rb") as stat:
                    ppid = int(stat.read().rsplit(b")", 1)[1].split()[1])
            except (OSError, ValueError, IndexError):
                continue
            parents.setdefault(ppid, []).append(int(entry))
    return parents


def _descendants(ancestor: int) -> list[int]:
    """Every process below ``ancestor`` (Linux: read from /proc)."""
    parents = _children()
    found, todo = [], [ancestor]
    while todo:
        for child in parents.get(todo.pop(), []):
            found.append(child)
            todo.append(child)
    return found


def _reap() -> None:
    while True:
        try:
            pid, _ = os.waitpid(-1, os.WNOHANG)
        except ChildProcessError:
            return
        if pid == 0:
            return


def end_descendants(kernel: int) -> None:
    """Kill every process below this one (``basic`` mode), however it detached."""
    linux = _libc is not None and os.path.isdir("/proc/self/task")
    for _ in range(200):
        left = _descendants(os.getpid()) if linux else [-kernel]  # without /proc: the kernel's process group
        for pid in left:
            with contextlib.suppress(ProcessLookupError, PermissionError):
                os.kill(pid, signal.SIGKILL)
        time.sleep(0.005)
        _reap()
        if left == [-kernel] or not left:
            return


class Stop(Exception):  # noqa: N818  (not an error: the signal to stop)
    """Raised by the supervisor's signal handlers: end the kernel now."""


def _stop(_sig: int, _frame: object) -> None:
    raise Stop


def supervise(config: dict, argv: list[str]) -> None:
    """Process 1 of the sandbox (or a subreaper): start the kernel, wait for its end, then end the rest."""
    os.setsid()
    sealed = config["mode"] == "sealed"
    if _libc is not None:
        prctl(PR_SET_PDEATHSIG, signal.SIGTERM)  # the launcher died (killed with its group): end everything
        prctl(PR_SET_DUMPABLE, 0)
        if not sealed:
            prctl(PR_SET_CHILD_SUBREAPER, 1)
    if sealed:
        seal_file_system(config)
    for sig in (signal.SIGTERM, signal.SIGALRM, signal.SIGHUP):
        signal.signal(sig, _stop)
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    kernel = _spawn(exec_kernel, (config, argv), "the kernel could not be started", 127)
    signal.alarm(max(1, int(config["deadline"])))
    status = 0
    try:
        while True:
            pid, code = os.waitpid(-1, 0)  # orphans are re-parented to us: reap them as they come
            if pid == kernel:
                status = os.waitstatus_to_exitcode(code)
                break
    except (Stop, ChildProcessError):
        pass
    if not sealed:
        end_descendants(kernel)
    os._exit(status if status >= 0 else 128 - status)  # as process 1 of the namespace: the kernel ends the rest


_errors = 2  # where the supervisor and the kernel (before its exec) report what went wrong: a file of the grader's


def _spawn(become: Callable[..., None], args: tuple, failure: str, code: int) -> int:
    """Fork; the child becomes ``become(*args)`` (which never returns), or reports why not and exits ``code``."""
    child = os.fork()
    if child == 0:
        try:
            become(*args)
        finally:
            _report(failure)
            os._exit(code)
    return child


def _report(what: str) -> None:
    import traceback

    error = sys.exc_info()[1]
    if error is not None and not isinstance(error, SystemExit):
        os.write(_errors, f"{what}: {''.join(traceback.format_exception_only(error)).strip()}\n".encode())


# -- the launcher -------------------------------------------------------------------------------------------
def enter_namespaces(config: dict) -> None:
    """New user (when not root), PID, network and IPC namespaces for the supervisor to come (which makes its
    own mount namespace: the launcher keeps seeing the system's /proc, to find the kernel's process)."""
    uid, gid = os.getuid(), os.getgid()
    flags = CLONE_NEWPID | CLONE_NEWNET | CLONE_NEWIPC
    unshare(flags | (CLONE_NEWUSER if uid != 0 else 0))
    if uid != 0:
        for name, text in (("setgroups", "deny"), ("uid_map", f"0 {uid} 1"), ("gid_map", f"0 {gid} 1")):
            with open(f"/proc/self/{name}", "w") as f:
                f.write(text)


def launch(config_path: str, argv: list[str]) -> int:
    with open(config_path) as f:
        config = json.load(f)
    if _libc is not None:  # the grader's thread that started us ended (the grader died): end everything
        prctl(PR_SET_PDEATHSIG, signal.SIGTERM)
        if os.getppid() != config["grader_pid"]:
            return 1
    if config["mode"] == "sealed":
        enter_namespaces(config)
    if config.get("owner") is not None:  # the grader is root: the kernel's folder becomes the kernel user's
        for folder, _dirs, files in os.walk(config["home"]):
            for name in [folder, *(os.path.join(folder, f) for f in files)]:
                os.chown(name, config["owner"], config["gid"])
    global _errors
    _errors = os.open(config["error_file"], os.O_WRONLY | os.O_CREAT | os.O_APPEND, 0o600)  # closed on exec
    supervisor = _spawn(supervise, (config, argv), "the sandbox could not be set up", 126)
    with open(config["pid_file"], "w") as f:
        f.write(str(supervisor))
    if _libc is not None:
        prctl(PR_SET_DUMPABLE, 0)

    def forward(sig: int, _frame: object) -> None:
        """An interrupt is for the kernel; terminate or hang-up: the supervisor ends everything."""
        if sig == signal.SIGINT:
            kernel = _first_child(supervisor)
            if kernel:
                os.kill(kernel, signal.SIGINT)
        else:
            os.kill(supervisor, signal.SIGTERM)

    for sig in (signal.SIGINT, signal.SIGTERM, signal.SIGHUP):
        signal.signal(sig, forward)
    try:
        _, code = os.waitpid(supervisor, 0)  # resumed after each signal (PEP 475)
    except ChildProcessError:
        return 0
    return os.waitstatus_to_exitcode(code) % 256


def _first_child(pid: int) -> int | None:
    children = _children().get(pid)
    return min(children) if children else None


def probe() -> int:
    """Exit 0 when sealed mode works here: namespaces, mounts, pivot_root (tried in a throwaway child)."""
    import tempfile

    if _libc is None or os.uname().machine.lower() not in SYS_PIVOT_ROOT:
        return 1
    folder = tempfile.mkdtemp(prefix="tinygrad-edu-probe-")
    try:
        child = os.fork()
        if child == 0:
            try:
                enter_namespaces({})
                if os.fork() == 0:
                    unshare(CLONE_NEWNS)
                    mount(None, "/", None, MS_REC | MS_PRIVATE)
                    mount("tmpfs", folder, "tmpfs", 0, "size=1m")
                    os.makedirs(folder + "/proc")
                    mount("proc", folder + "/proc", "proc", MS_NOSUID | MS_NODEV | MS_NOEXEC)
                    os.makedirs(folder + "/old")
                    pivot_root(folder, folder + "/old")
                    os._exit(0)
                _, code = os.wait()
                os._exit(os.waitstatus_to_exitcode(code))
            except BaseException:
                os._exit(1)
        _, code = os.waitpid(child, 0)
        return os.waitstatus_to_exitcode(code)
    finally:
        os.rmdir(folder)


if __name__ == "__main__":
    if sys.argv[1:] == ["probe"]:
        sys.exit(probe())
    split = sys.argv.index("--")
    sys.exit(launch(sys.argv[1], sys.argv[split + 1:]))
