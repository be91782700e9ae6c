"""What the grader runs inside each kernel: Python and IPython put back as they were before each check
cell, and the check cells run from code that the learner's cells never see as text.

The grader sends two kinds of cells of its own (see ``grade.py``):

* **start** (first, before any cell of the learner): imports the checks and the library, takes a
  snapshot of what a learner's cell could change to cheat (builtins; the functions and classes of every
  module loaded, and the code and defaults of those functions; ``sys`` hooks; IPython's input and AST
  transformers, display hook, event callbacks, custom exception handler and compiler), refuses audit
  hooks from then on (its own audit hook notes which functions get new code), and receives the key the
  checks will come encrypted with.
* **check** (in place of each check cell): puts every change to that snapshot back, stops threads the
  learner started, resets trace and profile functions, signal handlers and timers, rebinds the check
  functions and the modules the notebook imported, then decrypts the check cell (hidden tests
  included) and compiles it. Its source reaches the kernel only encrypted, so no input transformer,
  event callback, display hook or history sees it as text, and it is not put in ``linecache``.
  Then it runs the compiled check in the learner's namespace, and compares the snapshot again. If
  the code under test changed any of it while the check ran (a patched ``numpy.allclose``, a check
  function rebound, a trace function), the check counts as failed (``CheckTampered``). Otherwise it
  prints the check's one-time token, which the grader requires next to the pass line: a cell that
  only prints ``✔ ... passed`` does not pass.

This is best effort, and says so in the README: code written against this module itself (finding its
key or its compiled check through ``gc``, the stack or ``ctypes``) can still defeat it, since it runs
in the same process. The process-level sandbox (``_launch.py``) is what holds against that.
"""

from __future__ import annotations

import base64
import builtins
import contextlib
import functools
import gc
import hashlib
import hmac
import json
import linecache
import os
import signal
import sys
import threading
import types
from typing import Any

DESCRIPTORS = (classmethod, staticmethod, property, types.ModuleType)
METHODS = (types.FunctionType, types.MethodType, types.BuiltinFunctionType, functools.partial)
DATA_MODULES = ("math", "cmath", "numpy")  # constants there (math.e, numpy.pi) are restored too
TRUSTED_CALLBACKS = ("IPython", "ipykernel", "matplotlib", "matplotlib_inline", "ipywidgets")
EVENT_HOOKS_BEFORE = ("pre_execute", "pre_run_cell")
HEAPTYPE = 1 << 9


# -- encryption: a SHA-256 keystream and an HMAC, enough to keep the check out of sight of generic hooks ------
def _stream(key: bytes, nonce: bytes, size: int) -> bytes:
    blocks = (hashlib.sha256(key + nonce + i.to_bytes(8, "big")).digest() for i in range(size // 32 + 1))
    return b"".join(blocks)[:size]


def seal(key: bytes, payload: dict) -> str:
    """Encrypt a JSON payload for ``open_sealed`` (the grader's side)."""
    data = json.dumps(payload).encode()
    nonce = os.urandom(16)
    body = bytes(a ^ b for a, b in zip(data, _stream(key, nonce, len(data))))
    tag = hmac.new(key, nonce + body, hashlib.sha256).digest()
    return base64.b64encode(tag + nonce + body).decode()


def open_sealed(key: bytes, text: str) -> dict:
    raw = base64.b64decode(text)
    tag, nonce, body = raw[:32], raw[32:48], raw[48:]
    if not hmac.compare_digest(tag, hmac.new(key, nonce + body, hashlib.sha256).digest()):
        raise ValueError("the grader's message was altered on its way into the kernel")
    return json.loads(bytes(a ^ b for a, b in zip(body, _stream(key, nonce, len(body)))))


# -- the snapshot ---------------------------------------------------------------------------------------------
def _is_code(value: Any) -> bool:
    """Functions, classes, modules, descriptors: what a cheat replaces (data is left to the learner)."""
    return callable(value) or isinstance(value, DESCRIPTORS)


def _same(now: Any, then: Any) -> bool:
    """The same object, or the same bound method made again (ipykernel rebinds ``input`` for each request)."""
    return now is then or (type(now) is type(then) is types.MethodType and now == then)  # compares __self__ by identity


def _ours(value: Any) -> bool:
    """A function of IPython or the kernel's own (IPython swaps ``sys.stdout.write`` for each cell it runs)."""
    function = getattr(value, "__func__", value)
    return (getattr(function, "__module__", None) or "").split(".")[0] in TRUSTED_CALLBACKS


def _code_of(function: types.FunctionType) -> tuple:
    """What can be patched inside a function without replacing it."""
    return function, function.__code__, function.__defaults__, function.__kwdefaults__


class Snapshot:
    """Everything a learner's cell could change to fool a check, as it was before the first cell ran."""

    def __init__(self, shell: Any) -> None:
        self.shell = shell
        self.builtins = dict(vars(builtins))
        self.modules: list[tuple[types.ModuleType, dict, frozenset]] = []
        self.classes: list[tuple[type, dict, int]] = []
        self.functions: list[tuple] = []
        self.touched: list = []  # functions whose code or defaults were set since (the audit hook's record)
        self.sys_modules = dict(sys.modules)
        seen: set[int] = set()
        for name, module in list(sys.modules.items()):
            if not isinstance(module, types.ModuleType) or name == "__main__":
                continue
            data = name.split(".")[0] in DATA_MODULES and "." not in name
            kept = {}
            for key, value in list(vars(module).items()):
                if _is_code(value) or (data and isinstance(value, (int, float, complex, str))):
                    kept[key] = value
                if isinstance(value, types.FunctionType) and id(value) not in seen:
                    seen.add(id(value))
                    self.functions.append(_code_of(value))
                if isinstance(value, type) and value.__module__ == name and value.__flags__ & HEAPTYPE \
                        and id(value) not in seen:
                    seen.add(id(value))
                    self.classes.append((value, self._methods(value), len(vars(value))))
            self.modules.append((module, kept, frozenset(vars(module))))
        for _cls, methods, _size in self.classes:
            for value in methods.values():
                function = getattr(value, "__func__", value)
                if isinstance(function, types.FunctionType) and id(function) not in seen:
                    seen.add(id(function))
                    self.functions.append(_code_of(function))
        self.function_index = {id(entry[0]): entry for entry in self.functions}
        self.sys = {k: getattr(sys, k) for k in ("displayhook", "excepthook", "breakpointhook", "unraisablehook",
                                                 "stdout", "stderr", "stdin")}
        self.lists = self._lists()
        self.list_contents = {k: list(v) for k, v in self.lists.items()}
        self.instances = self._instances()
        self.instance_classes = {id(obj): type(obj) for obj in self.instances}
        self.instance_methods = {id(obj): self._instance_methods(obj) for obj in self.instances}
        self.traits = {k: getattr(shell, k) for k in ("displayhook", "display_pub", "compile", "ast_node_interactivity",
                                                       "input_transformer_manager", "autoawait", "loop_runner")
                       if hasattr(shell, k)}
        self.custom = (shell.custom_exceptions, shell.CustomTB)
        self.recursion = sys.getrecursionlimit()
        self.signals = {s: signal.getsignal(s) for s in signal.valid_signals() if signal.getsignal(s) is not None}
        self.threads = set(threading.enumerate())
        self.cwd = os.getcwd()

    @staticmethod
    def _methods(cls: type) -> dict:
        return {k: v for k, v in vars(cls).items() if _is_code(v)}

    @staticmethod
    def _instance_methods(obj: Any) -> dict:
        """The functions set on an instance (a monkeypatched method), but not IPython's own."""
        return {k: v for k, v in getattr(obj, "__dict__", {}).items() if isinstance(v, METHODS) and not _ours(v)}

    def _lists(self) -> dict[str, list]:
        shell = self.shell
        found = {"sys.meta_path": sys.meta_path, "sys.path_hooks": sys.path_hooks, "gc.callbacks": gc.callbacks,
                 "ast_transformers": shell.ast_transformers,
                 "input_transformers_cleanup": shell.input_transformers_cleanup,
                 "input_transformers_post": shell.input_transformers_post}
        manager = shell.input_transformer_manager
        for name in ("cleanup_transforms", "line_transforms", "token_transformers"):
            found[f"input_transformer_manager.{name}"] = getattr(manager, name)
        for event, callbacks in shell.events.callbacks.items():
            found[f"events.{event}"] = callbacks
        return found

    def _instances(self) -> list:
        shell = self.shell
        objects = [shell, getattr(shell, "kernel", None), shell.displayhook, shell.display_pub, shell.compile,
                   shell.input_transformer_manager, shell.events, sys.stdout, sys.stderr]
        kernel = getattr(shell, "kernel", None)
        if kernel is not None:
            objects.append(getattr(kernel, "session", None))
        return [o for o in objects if o is not None]

    # -- what changed, and putting it back ----------------------------------------------------------------
    def changes(self, restore: bool) -> list[str]:
        """What differs from the snapshot (the learner's doing); with ``restore``, put it back."""
        found: list[str] = []
        shadowing = set(self.builtins)
        now = vars(builtins)
        for key, value in self.builtins.items():
            if not _same(now.get(key, self), value):
                found.append(f"builtins.{key}")
                if restore:
                    now[key] = value
        for key in [k for k in now if k not in self.builtins]:
            found.append(f"builtins.{key} (added)")
            if restore:
                del now[key]
        missing = self
        for module, kept, keys in self.modules:
            names = vars(module)
            get = names.get
            for key, value in kept.items():
                current = get(key, missing)
                if current is not value and not _same(current, value):
                    found.append(f"{module.__name__}.{key}")
                    if restore:
                        names[key] = value
            if len(names) != len(keys):
                for key in shadowing.intersection(names).difference(keys):  # an added `exec` shadowing the builtin
                    found.append(f"{module.__name__}.{key} (added)")
                    if restore:
                        del names[key]
        for name, module in self.sys_modules.items():
            if sys.modules.get(name, module) is not module:
                found.append(f"sys.modules[{name!r}]")
                if restore:
                    sys.modules[name] = module
        for cls, methods, size in self.classes:
            current = vars(cls)
            get = current.get
            for key, value in methods.items():
                if get(key, missing) is not value:
                    found.append(f"{cls.__module__}.{cls.__qualname__}.{key}")
                    if restore:
                        type.__setattr__(cls, key, value)
            if len(current) != size:
                for key in [k for k, v in current.items() if k not in methods and _is_code(v)]:
                    found.append(f"{cls.__module__}.{cls.__qualname__}.{key} (added)")
                    if restore:
                        type.__delattr__(cls, key)
        touched, self.touched[:] = self.touched[:], []
        entries = {id(f): self.function_index[id(f)] for f in touched if id(f) in self.function_index}
        for function, code, defaults, kwdefaults in entries.values():
            if function.__code__ is not code or function.__defaults__ is not defaults or \
                    function.__kwdefaults__ is not kwdefaults:
                found.append(f"the code of {function.__module__}.{function.__qualname__}")
                if restore:
                    function.__code__, function.__defaults__, function.__kwdefaults__ = code, defaults, kwdefaults
        for key, value in self.sys.items():
            if not _same(getattr(sys, key), value):
                found.append(f"sys.{key}")
                if restore:
                    setattr(sys, key, value)
        for name, items in self.list_contents.items():
            current = self.lists[name]
            if name.startswith("events.") and name[7:] not in EVENT_HOOKS_BEFORE:
                items = items + [f for f in current if f not in items and _trusted(f)]
            if current != items:
                found.append(name)
                if restore:
                    current[:] = items
        for obj in self.instances:
            if type(obj) is not self.instance_classes[id(obj)]:  # obj.__class__ = a subclass that spies on it
                found.append(f"the class of {self.instance_classes[id(obj)].__name__}")
                if restore:
                    obj.__class__ = self.instance_classes[id(obj)]
            kept = self.instance_methods[id(obj)]
            current = self._instance_methods(obj)
            for key in set(kept) | set(current):
                if not _same(current.get(key), kept.get(key)):
                    found.append(f"{type(obj).__name__}.{key}")
                    if restore:
                        if key in kept:
                            obj.__dict__[key] = kept[key]
                        else:
                            del obj.__dict__[key]
        for key, value in self.traits.items():
            if not _same(getattr(self.shell, key), value):
                found.append(f"shell.{key}")
                if restore:
                    setattr(self.shell, key, value)
        if (self.shell.custom_exceptions, self.shell.CustomTB) != self.custom:
            found.append("shell.set_custom_exc")
            if restore:
                self.shell.custom_exceptions, self.shell.CustomTB = self.custom
        if self.shell.user_ns.get("__builtins__") is not builtins:
            found.append("__builtins__")
            if restore:
                self.shell.user_ns["__builtins__"] = builtins
        if sys.gettrace() is not None or sys.getprofile() is not None:
            found.append("sys.settrace / sys.setprofile")
            if restore:
                sys.settrace(None)
                sys.setprofile(None)
        for hook in ("_trace_hook", "_profile_hook"):
            if getattr(threading, hook, None) is not None:
                found.append(f"threading.{hook}")
                if restore:
                    setattr(threading, hook, None)
        monitoring = getattr(sys, "monitoring", None)
        if monitoring is not None:  # Python 3.12+: a tool that watches every line the check runs
            for tool in range(6):
                if monitoring.get_tool(tool) is not None:
                    found.append(f"sys.monitoring tool {tool}")
                    if restore:
                        monitoring.set_events(tool, 0)
                        monitoring.free_tool_id(tool)
        return found

    def settle(self) -> None:
        """What is put back but not held against the code under test: threads, signals, timers, limits."""
        for thread in threading.enumerate():
            if thread not in self.threads and thread is not threading.current_thread() and thread.ident:
                import ctypes

                ctypes.pythonapi.PyThreadState_SetAsyncExc(ctypes.c_ulong(thread.ident), ctypes.py_object(SystemExit))
        for which in (signal.ITIMER_REAL, signal.ITIMER_VIRTUAL, signal.ITIMER_PROF):
            signal.setitimer(which, 0)
        for sig, handler in self.signals.items():
            if signal.getsignal(sig) is not handler:
                with contextlib.suppress(OSError, ValueError, TypeError):
                    signal.signal(sig, handler)
        if sys.getrecursionlimit() != self.recursion:
            sys.setrecursionlimit(self.recursion)
        if os.getcwd() != self.cwd:
            os.chdir(self.cwd)
        gc.enable()
        for name in ("last_type", "last_value", "last_traceback", "last_exc"):
            if hasattr(sys, name):
                delattr(sys, name)


def _trusted(callback: Any) -> bool:
    module = getattr(callback, "__module__", None) or getattr(getattr(callback, "__func__", None), "__module__", "")
    return (module or "").split(".")[0] in TRUSTED_CALLBACKS


class CheckNotPrepared(Exception):  # noqa: N818
    """The grader's check could not be decrypted or compiled in the kernel (altered on its way in)."""

    def _render_traceback_(self) -> list[str]:
        return [f"the grader could not prepare this check: {self}"]


class CheckTampered(Exception):  # noqa: N818  (a verdict, as ExerciseFailed)
    """The code under test changed the checks' world while a check ran: the check cannot be trusted."""

    def __init__(self, grade_id: str, changes: list[str]) -> None:
        shown = ", ".join(changes[:5]) + (f" and {len(changes) - 5} more" if len(changes) > 5 else "")
        super().__init__(f"✘ {grade_id} failed: while this check ran, the code it called changed {shown}; "
                         "the check's result cannot be trusted")

    def _render_traceback_(self) -> list[str]:
        return [str(self)]


# -- what the grader's cells call -----------------------------------------------------------------------------
def start(key_hex: str, name: str) -> None:
    """The grader's first cell: take the snapshot, refuse audit hooks, keep the key, then hide the key."""
    import tinygrad_edu.grading
    import tinygrad_edu.grading.checks

    shell = get_ipython()  # noqa: F821  (IPython's builtin, in the kernel)
    key = bytes.fromhex(key_hex)
    grading = tinygrad_edu.grading
    if sys.platform.startswith("linux"):
        import ctypes

        # Not dumpable: a process the learner starts cannot attach to this one (ptrace) or read its memory.
        ctypes.CDLL(None).prctl(4, ctypes.c_ulong(0), 0, 0, 0)

    snapshot = Snapshot(shell)
    touched = snapshot.touched

    def audit(event: str, args: tuple) -> None:
        """Refuse other audit hooks (one would see every check compiled); note every function whose code or
        defaults are set (cheaper than reading ``__code__`` of each function before each check)."""
        if event == "object.__setattr__" and args[1] in ("__code__", "__defaults__", "__kwdefaults__"):
            touched.append(args[0])
        elif event == "sys.addaudithook":
            raise RuntimeError("the grader does not allow audit hooks")

    sys.addaudithook(audit)
    pristine_exec, pristine_compile, pristine_print = builtins.exec, builtins.compile, builtins.print
    exported = {n: getattr(grading, n) for n in grading.__all__}

    def rebind(names: list) -> dict:
        """The names the check cells read from the notebook's imports and from the checks, as imported."""
        bound = dict(exported)
        for alias, module, attribute in names:
            found = snapshot.sys_modules.get(module)
            if found is None:
                import importlib

                found = importlib.import_module(module)
            bound[alias] = found if attribute is None else getattr(found, attribute)
        return bound

    def check(sealed: str) -> None:
        """Put everything back, decrypt and compile the check, run it, compare again, print the token."""
        snapshot.changes(restore=True)
        snapshot.settle()
        try:
            payload = open_sealed(key, sealed)
            names = rebind(payload["rebind"])
            code = pristine_compile(payload["source"], f"<check {payload['grade_id']}>", "exec", dont_inherit=True)
        except Exception as error:
            raise CheckNotPrepared(f"{type(error).__name__}: {error}") from None
        shell.user_ns.update(names)
        del payload["source"], sealed
        error = None
        try:
            pristine_exec(code, shell.user_ns)
        except BaseException as raised:  # judged below, then raised again
            error = raised
        changed = snapshot.changes(restore=True)
        changed += [f"the name {n}" for n, v in names.items() if shell.user_ns.get(n) is not v]
        snapshot.settle()
        if changed:
            raise CheckTampered(payload["grade_id"], changed) from None
        if error is not None:
            raise error
        pristine_print(payload["token"], file=snapshot.sys["stdout"], flush=True)

    _classes.append(type(name, (), {"check": staticmethod(check)}))
    _forget_cell(shell, key_hex)


_classes: list = []  # the class the grader's cells find by name (object.__subclasses__ only holds weak references)


def _forget_cell(shell: Any, secret: str) -> None:
    """Remove the text of the cell running now (it holds the key) from where IPython and the kernel keep it."""
    for name in [n for n, entry in linecache.cache.items() if secret in "".join(entry[2] or [])]:
        del linecache.cache[name]
    result = getattr(shell.displayhook, "exec_result", None)
    if result is not None:
        result.info.raw_cell = result.info.transformed_cell = ""
    kernel = getattr(shell, "kernel", None)
    if kernel is not None:
        parent = kernel.get_parent()
        if isinstance(parent, dict) and isinstance(parent.get("content"), dict):
            parent["content"]["code"] = ""
