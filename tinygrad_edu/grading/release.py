"""Release: write ``exercises/`` from ``solutions/``, or check that it is up to date.

``release(source, dest)`` turns every ``*.ipynb`` of ``source`` into the learners' notebook of the same
name in ``dest`` (``notebook.py`` says how). ``release(source, dest, check=True)`` writes nothing and
returns what is stale: the proof, in the tests, that ``exercises/`` is exactly what release makes.
"""

from __future__ import annotations

from pathlib import Path

from . import notebook


def solution_paths(source: Path) -> list[Path]:
    """The solution notebooks of a folder, in name order (checkpoint copies left out)."""
    return sorted(p for p in Path(source).glob("*.ipynb") if not p.name.startswith("."))


def released_text(path: Path) -> str:
    """The released notebook of one solution notebook, as the exact text release writes."""
    path = Path(path)
    parsed = notebook.parse(notebook.read(path), f"{path.parent.name}/{path.name}")
    return notebook.dumps(parsed.released(f"{path.parent.name}/{path.name}"))


def release(source: Path, dest: Path, check: bool = False) -> list[str]:
    """Release every solution notebook of ``source`` into ``dest``; with ``check``, only compare.

    Returns one line per problem (with ``check``: stale, missing or unexpected files; without: files
    in ``dest`` that have no source, which release leaves for you to delete). Raises
    ``notebook.FormatError`` when a solution notebook breaks the format.
    """
    source, dest = Path(source), Path(dest)
    if not source.is_dir():
        raise FileNotFoundError(f"no folder of solution notebooks at {source}")
    wanted = {dest / p.name: released_text(p) for p in solution_paths(source)}
    problems = []
    for path, text in wanted.items():
        if check:
            if not path.exists():
                problems.append(f"{path}: missing (run release)")
            elif path.read_text(encoding="utf-8") != text:
                problems.append(f"{path}: stale, it differs from what release makes of {source / path.name}")
        elif not path.exists() or path.read_text(encoding="utf-8") != text:
            dest.mkdir(parents=True, exist_ok=True)
            path.write_text(text, encoding="utf-8", newline="\n")
    extra = sorted(set(dest.glob("*.ipynb")) - set(wanted)) if dest.is_dir() else []
    problems += [f"{path}: has no source in {source}/ (delete it, or add its solution notebook)" for path in extra]
    return problems
