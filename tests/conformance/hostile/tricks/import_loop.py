"""Never finishes importing."""
from base import *  # noqa: F401,F403

while True:
    pass
