"""Control: the correct implementation, no trick."""
from base import *  # noqa: F401,F403
