"""Checking the course's C++ implementations of seed 001 (profile ``aed2``).

A folder holding ``aed2_Juego.h`` is a C++ target: :mod:`.build` compiles our
driver (``driver.cpp``) with the folder's ``.cpp`` files (cached, with
AddressSanitizer and UndefinedBehaviorSanitizer when available) and
:class:`.target.Aed2Target` plays the binary through the engine's ``aed2``
state machine. Every process started for the student's code (the compiler
and the binary) goes through :func:`.process.start`. See ``docs/aed2.md``.
"""

HEADER = "aed2_Juego.h"

