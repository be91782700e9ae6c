"""``python -m tinygrad_edu.grading {release,grade} ...``: see ``cli.py``."""

import sys

from .cli import main

sys.exit(main())
