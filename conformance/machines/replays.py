"""The replay format: one recorded failure (its levels and actions) as JSON,
the command line that plays it again, and its parser.

``{"profile": P, "levels": [{"rows": [...], "origin": [x, y], "bombs": n,
"soko": true}], "actions": "udlrbz"}``; in ``rows``, ``-`` is floor (so
trailing spaces survive); ``actions`` letters are the moves ``u d l r``
(:data:`ACTION_CODES`), ``b`` tirar_bomba and ``z`` deshacer.
"""

from __future__ import annotations

import json
import shlex
from typing import Collection, Sequence

from conformance.machines import levels as lv
from levels.lurd import LETTERS
from spec.tipos import ACCIONES

#: The one-letter codes of the moves (replay strings), in ``ACCIONES`` order;
#: ``b`` (tirar_bomba) and ``z`` (deshacer) are the other actions.
ACTION_CODES = {letter: a for a, letter in sorted(LETTERS.items(), key=lambda kv: ACCIONES.index(kv[0]))}
ACTION_LETTERS = "udlrbz"


def replay_data(profile: str, scenes: Sequence[lv.Scene], codes: Sequence[str],
                robustness: bool = False) -> dict:
    """``robustness``: a finding of ``--robustness`` (replayed as a warning)."""
    data = {"profile": profile, "levels": [s.to_data() for s in scenes],
            "actions": "".join(codes)}
    if robustness:
        data["robustness"] = True
    return data


def replay_string(profile: str, scenes: Sequence[lv.Scene], codes: Sequence[str],
                  robustness: bool = False) -> str:
    """The ``--replay`` argument: compact JSON (see :func:`parse_replay`)."""
    return json.dumps(replay_data(profile, scenes, codes, robustness), separators=(",", ":"),
                      ensure_ascii=False)


def replay_command(target_name: str, profile: str, scenes, codes, directions: str = "ours",
                   robustness: bool = False) -> str:
    parts = ["python", "-m", "conformance", target_name, "--profile", profile]
    if directions != "ours":
        parts += ["--directions", directions]
    parts += ["--replay", replay_string(profile, scenes, codes, robustness)]
    return " ".join(shlex.quote(p) for p in parts)


def is_robustness(text: str, domain: "lv.Domain | None" = None) -> bool:
    """Whether a replay is a finding of ``--robustness``: it says so, or
    (recorded before it did) one of its levels lies beyond ``domain``, the
    domain of a profile that has inputs beyond it (None: one that has none).
    Such a replay is played as the warning it was."""
    try:
        data = _json(text)
        if isinstance(data, dict) and data.get("robustness") is True:
            return True
        _, scenes, _ = parse_replay(text)
    except ValueError:
        return False
    return domain is not None and not all(lv.in_domain(domain, s) for s in scenes)


def _json(text: str):
    try:
        return json.loads(text)
    except json.JSONDecodeError as e:
        raise ValueError(f"the replay is not valid JSON: {e}") from None


def _profile(data, known: Collection[str] | None) -> str | None:
    profile = data.get("profile") if isinstance(data, dict) else None
    if profile is not None and known is not None and profile not in known:
        raise ValueError(f"unknown profile {profile!r} in the replay")
    return profile


def recorded_profile(text: str, known: Collection[str]) -> str | None:
    """The profile a replay names, when it is JSON naming one of ``known``
    (the rest of it is judged by :func:`parse_replay`, when it is played)."""
    try:
        return _profile(_json(text), known)
    except ValueError:
        return None


def parse_replay(text: str, known: Collection[str] | None = None
                 ) -> tuple[str | None, list[lv.Scene], str]:
    """``(profile or None, scenes, action codes)`` from a replay string (or
    the text of a file holding one); ``known``: the profile it names must be
    one of them. Raises ValueError with a clear message."""
    data = _json(text)
    if not isinstance(data, dict) or not isinstance(data.get("levels"), list) or not data["levels"]:
        raise ValueError("the replay must be a JSON object with a non-empty 'levels' list")
    try:
        scenes = [lv.from_data(d) for d in data["levels"]]
    except (KeyError, TypeError, ValueError) as e:
        raise ValueError(f"a level of the replay is malformed: {e}") from None
    actions = data.get("actions", "")
    if not isinstance(actions, str) or set(actions) - set(ACTION_LETTERS):
        raise ValueError("the replay's actions must be a string of the letters u d l r b z")
    return _profile(data, known), scenes, actions
