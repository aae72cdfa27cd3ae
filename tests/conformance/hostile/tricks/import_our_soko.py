"""Delegates to the project's own soko.py, by putting the project on its path."""
import sys

sys.path.insert(0, "{{PROJECT}}")
sys.modules.pop("soko", None)
from soko import *  # noqa: E402,F401,F403
