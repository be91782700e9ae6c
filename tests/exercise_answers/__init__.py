"""The wrong-answer corpus: answers learners really give to the exercises, as data.

One module per exercise notebook (``00_welcome.py`` for ``exercises/00_welcome.ipynb``), each a list
``CASES`` of ``Case``: the exercise, what its answer cell holds, and what its *visible* check must say.
For every exercise there are at least two typical wrong answers and one right answer written otherwise
than the solution. ``tests/test_exercise_answers.py`` runs each through the released notebook in a kernel
and checks the verdict and the hint.
"""

from __future__ import annotations

import textwrap
from dataclasses import dataclass


@dataclass(frozen=True)
class Case:
    """One answer to one exercise, and what its check must answer.

    ``code`` is the whole answer cell as the learner leaves it (the given lines included); a tuple is run
    cell after cell, in order (a first attempt, then another). A right answer (``passes=True``) must pass.
    A wrong one must fail (not "not attempted"), with a hint containing every phrase of ``hint`` and none
    of ``not_hint``; ``report`` phrases may appear anywhere in the report (an error line, a note).
    """

    exercise: str
    mistake: str  # what the answer does, in a few words ("right, with ..." for a right answer)
    code: str | tuple[str, ...]
    hint: str | tuple[str, ...] = ()
    not_hint: tuple[str, ...] = ()
    report: str | tuple[str, ...] = ()
    passes: bool = False

    @property
    def cells(self) -> tuple[str, ...]:
        """The answer cells' sources (written as indented blocks in the corpus: dedented here)."""
        sources = (self.code,) if isinstance(self.code, str) else self.code
        return tuple(textwrap.dedent(source).strip("\n") for source in sources)

    @property
    def hints(self) -> tuple[str, ...]:
        return (self.hint,) if isinstance(self.hint, str) else self.hint

    @property
    def reports(self) -> tuple[str, ...]:
        return (self.report,) if isinstance(self.report, str) else self.report
