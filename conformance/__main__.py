"""``python -m conformance``: see :mod:`conformance.cli`."""

import sys

from conformance.cli import main

if __name__ == "__main__":
    try:
        sys.exit(main())
    except KeyboardInterrupt:
        print("interrupted", file=sys.stderr)
        sys.exit(130)
