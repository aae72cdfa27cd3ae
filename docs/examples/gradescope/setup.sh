#!/usr/bin/env bash
# Gradescope autograder setup: runs once, when the autograder image is built.
# Replace TOOLKIT with where your course installs sokoban-tad from.
set -euo pipefail
TOOLKIT="git+https://github.com/YOUR-ORG/sokoban-tad"
apt-get install -y python3 python3-pip bubblewrap
python3 -m pip install "$TOOLKIT"
