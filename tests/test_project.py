"""The project's own contract: declared dependencies agree, the quick start is two commands, CI runs
`make test`, the code is ruff clean, and the package is layered (lower layers never import higher ones)."""

from __future__ import annotations

import ast
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent


def _name(requirement: str) -> str:
    """``numpy>=1.24`` -> ``numpy`` (lower-case, as pip compares names)."""
    return re.split(r"[<>=!~ ;\[]", requirement.strip(), maxsplit=1)[0].lower().replace("_", "-")


def _pyproject_requirements() -> list[str]:
    try:
        import tomllib
    except ModuleNotFoundError:  # Python 3.10: read what pip installed from pyproject.toml instead
        from importlib.metadata import requires

        return [r.split(";")[0].strip() for r in requires("tinygrad_edu") or []]
    project = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]
    return project["dependencies"] + [r for extra in project["optional-dependencies"].values() for r in extra]


def _environment_pip_requirements() -> list[str]:
    """The entries of environment.yml's ``pip:`` list (a plain reading: no YAML library needed)."""
    lines = (ROOT / "environment.yml").read_text().splitlines()
    start = next(i for i, line in enumerate(lines) if line.strip() == "- pip:")
    indent = len(lines[start + 1]) - len(lines[start + 1].lstrip())
    entries = []
    for line in lines[start + 1:]:
        if not line.strip() or line.strip().startswith("#"):
            continue
        if len(line) - len(line.lstrip()) < indent:
            break
        entries.append(line.strip().removeprefix("- ").split("#")[0].strip())
    return [e for e in entries if e != "-e ."]


def test_environment_yml_and_pyproject_declare_the_same_dependencies() -> None:
    declared = sorted(_pyproject_requirements(), key=_name)
    conda = sorted(_environment_pip_requirements(), key=_name)
    assert [_name(r) for r in declared] == [_name(r) for r in conda]
    assert [r.replace(" ", "") for r in declared] == [r.replace(" ", "") for r in conda], "version bounds differ"
    text = (ROOT / "environment.yml").read_text()
    assert "- -e ." in text, "conda and Binder users need the package itself installed"
    assert re.search(r"^\s+- graphviz\s", text, re.M), "conda should bring the dot program (conda-forge graphviz)"


def test_readme_quick_start_is_the_two_make_commands() -> None:
    readme = (ROOT / "README.md").read_text()
    quick = readme.split("## Quick start", 1)[1].split("\n## ", 1)[0]
    commands = re.findall(r"^(?:\$ )?(make \w+)\s*$", quick, re.M)
    assert commands == ["make lab", "make test"]


def test_ci_runs_make_test_with_the_oracle() -> None:
    script = (ROOT / ".ci" / "run").read_text()
    assert "make test" in script and "torch==2.13.0" in script
    makefile = (ROOT / "Makefile").read_text()
    assert re.search(r"^lab:", makefile, re.M) and re.search(r"^test:", makefile, re.M)
    assert "--nbval" in makefile


@pytest.mark.skipif(shutil.which("ruff", path=str(Path(sys.executable).parent)) is None
                    and shutil.which("ruff") is None, reason="ruff is not installed")
def test_ruff_clean() -> None:
    ruff = shutil.which("ruff", path=str(Path(sys.executable).parent)) or shutil.which("ruff")
    result = subprocess.run([ruff, "check", "--no-cache", str(ROOT)], capture_output=True, text=True, cwd=ROOT)
    assert result.returncode == 0, result.stdout + result.stderr


# Bottom to top. A module may import (at module level) only from its own layer or the layers below:
# the Tensor knows no ops, the autograd machinery knows no particular op, nn and optim sit on top.
LAYERS = [
    {"_dtype", "_printing", "_mode", "_device"},
    {"_tensor", "autograd.grad_mode", "_serialization"},
    {"autograd.graph", "autograd.function", "autograd.engine", "autograd.gradcheck", "autograd"},
    {"ops", "_tensor_ops", "_creation", "_functions"},
    {"nn", "optim", "linalg"},
    {"viz", "teach", "grading"},  # for learners and instructors: drawing, plotting, checking and grading
]


def _layer(module: str) -> int:
    parts = module.split(".")
    for candidate in (".".join(parts[:2]), parts[0]):
        for i, members in enumerate(LAYERS):
            if candidate in members:
                return i
    raise AssertionError(f"module {module} is not placed in a layer of tests/test_project.py")


def test_package_is_layered() -> None:
    package = ROOT / "tinygrad_edu"
    problems = []
    for path in sorted(package.rglob("*.py")):
        module = ".".join(path.relative_to(package).with_suffix("").parts).removesuffix(".__init__")
        if module == "__init__":
            continue
        here = _layer(module)
        package_parts = module.split(".")[:-1] if path.name != "__init__.py" else module.split(".")
        for node in ast.parse(path.read_text()).body:  # module level only: imports inside functions are lazy
            if isinstance(node, ast.ImportFrom) and node.level:
                base = package_parts[: len(package_parts) - node.level + 1]
                names = [node.module] if node.module else [alias.name for alias in node.names]
                for target in (".".join([*base, name]) for name in names):
                    if _layer(target) > here:
                        problems.append(f"{module} imports {target}")
    assert not problems, problems
