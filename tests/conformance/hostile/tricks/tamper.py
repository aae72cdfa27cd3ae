"""Correct, but writes into its working folder and the grader's output folder,
and deletes a classmate's soko.py, when imported."""
import os

from base import *  # noqa: F401,F403

OUT = "{{OUT}}"
VICTIM = "{{VICTIM}}"

for action in (lambda: open("pwned.txt", "w").write("x"),
               lambda: os.makedirs(OUT, exist_ok=True),
               lambda: open(os.path.join(OUT, "summary.csv"), "w").write("name\nrigged\n"),
               lambda: open(os.path.join(OUT, "pwned.txt"), "w").write("x"),
               lambda: os.unlink(VICTIM)):
    try:
        action()
    except OSError:
        pass
