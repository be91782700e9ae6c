"""``tinygrad_edu.grading``: checks that teach, and the tools that release and grade exercise notebooks.

In an exercise notebook (what learners use)::

    from tinygrad_edu.grading import check_close, check_tensor, exercise

    with exercise("leaf-2", points=2):
        check_tensor("w", w, requires_grad=True, is_leaf=True, grad_fn=None)

* ``exercise(grade_id, points)``: one graded part; prints ``✔ leaf-2 passed (2/2 points)``, "not attempted
  yet" (printed, so that Run all goes on), or a short report of what failed and why, the learner's own
  errors included (``exercise.py``)
* ``check_close``, ``check_equal``, ``check_tensor``, ``check_grad``, ``check_raises``: the checks, each
  with hints about the usual mistakes where their cause is possible, and ``mistakes=`` for the ones an
  exercise knows (``checks.py``)

For instructors (``python -m tinygrad_edu.grading --help``, or the ``tinygrad-edu`` command):

* ``release``: ``solutions/`` (answers and hidden tests) -> ``exercises/`` (what learners get) (``release.py``,
  the notebook format itself is in ``notebook.py``)
* ``grade``: run submissions in fresh kernels with the original checks and report points (``grade.py``,
  ``report.py``)

Only the checks are imported here: releasing and grading need nbclient and are loaded on demand.
"""

from .checks import CheckFailed, check_close, check_equal, check_grad, check_raises, check_tensor
from .exercise import ExerciseFailed, NotAttempted, exercise

__all__ = [
    "CheckFailed", "ExerciseFailed", "NotAttempted", "check_close", "check_equal", "check_grad", "check_raises",
    "check_tensor", "exercise",
]
