"""Correct, but leaves a few sleepers behind, each in a session of its own
(out of the checker's process group) and holding the reply pipe."""
import os
import time

from base import *  # noqa: F401,F403

for _ in range(5):
    try:
        if os.fork() == 0:
            os.setsid()
            time.sleep(300)
            os._exit(0)
    except OSError:
        break
