"""``python -m levels check|show|convert``: see :mod:`levels.cli`."""

import sys

from .cli import main

sys.exit(main())
