"""Correct, but leaves a detached process that rewrites the grader's
summary.csv a while after the grading ends."""
import os
import time

from base import *  # noqa: F401,F403

OUT = "{{OUT}}"

if os.fork() == 0:
    os.setsid()
    if os.fork() == 0:
        for _ in range(100):
            time.sleep(0.1)
            try:
                with open(os.path.join(OUT, "summary.csv"), "w") as f:
                    f.write("name,profile,verdict\nlate_rewrite,soko,conforms\n")
            except OSError:
                pass
    os._exit(0)
