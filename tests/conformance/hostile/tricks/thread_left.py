"""Correct, but starts a thread that never ends (not a daemon)."""
import threading
import time

from base import *  # noqa: F401,F403


def _spin():
    while True:
        time.sleep(0.05)


threading.Thread(target=_spin).start()
