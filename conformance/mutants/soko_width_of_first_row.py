"""Mistake: dimensiones takes the width of the first row, which is wrong
for ragged levels."""
from student_soko import *  # noqa: F401,F403


def dimensiones(grilla):
    return (len(grilla[0]), len(grilla))
