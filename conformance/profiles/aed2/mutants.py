"""Our correct C++ implementation of the course interface
(``conformance/profiles/aed2/reference``) and its mutants, one classic mistake each.

Each mutant is the reference with one line substituted (:data:`MUTANTS`:
file, the exact text replaced, its replacement); :func:`materialize` writes
the mutated folder into the cache at selftest time. Each substitution must
match exactly once (checked), so the table stays honest when the reference
changes.
"""

from __future__ import annotations

import hashlib
import shutil
from dataclasses import dataclass
from pathlib import Path

from conformance.profiles.aed2.build import cache_root

REFERENCE = Path(__file__).resolve().parent / "reference"


@dataclass(frozen=True)
class Mutant:
    name: str
    file: str
    old: str
    new: str
    mistake: str
    rule: str           # the rule of spec.rules (table extendido) the mistake breaks


MUTANTS = (
    Mutant("chain_push", "Sokoban.cpp",
           "(hayCaja(sig) && libre(siguiente(sig, pc)))",
           "(hayCaja(sig) && !hayPared(siguiente(sig, pc)))",
           "pushes a box into another box (a chain push)",
           "ext.can-move"),
    Mutant("push_into_wall", "Sokoban.cpp",
           "(hayCaja(sig) && libre(siguiente(sig, pc)))",
           "(hayCaja(sig) && !hayCaja(siguiente(sig, pc)))",
           "pushes a box into a wall",
           "ext.can-move"),
    Mutant("undo_forgets_box", "Sokoban.cpp",
           "    if (a.movioCaja) {",
           "    if (false) {",
           "deshacer moves the character back but leaves the pushed box",
           "ext.undo"),
    Mutant("undo_forgets_counter", "Sokoban.cpp",
           "    _enDeposito = a.enDepositoAntes;",
           "    ;",
           "deshacer does not restore the boxes-on-goals counter (a later move "
           "completes the level falsely)",
           "aed2.completes"),
    Mutant("undo_forgets_walls", "Sokoban.cpp",
           "        _mapa.quitarUltimaExplosion();",
           "        ;",
           "undoing a bomb does not bring the walls back",
           "ext.undo"),
    Mutant("undo_forgets_bomb_count", "Sokoban.cpp",
           "        _bombas++;",
           "        ;",
           "undoing a bomb does not give the bomb back",
           "ext.undo"),
    Mutant("bomb_only_row", "Mapa.cpp",
           "if (e.first == c.first || e.second == c.second) {",
           "if (e.second == c.second) {",
           "a bomb clears only its row, not its column",
           "ext.bomb"),
    Mutant("bomb_once_per_cell", "Mapa.cpp",
           "    _explosiones.push_back(c);",
           "    if (find(_explosiones.begin(), _explosiones.end(), c) == _explosiones.end()) "
           "_explosiones.push_back(c);",
           "a second bomb on the same cell is not recorded (undoing it undoes the first)",
           "ext.undo"),
    Mutant("binary_search_past_end", "Mapa.cpp",
           "    return lo < v.size() && v[lo] == c;",
           "    return v[lo] == c;",
           "the binary search over the sorted vectors reads one past the end: asked of a cell "
           "beyond the last wall, hayPared compares with whatever lies there (in a plain build, "
           "fresh zeroed memory: it says the cell (0, 0) is a wall; the sanitizer build stops "
           "on the read); the plain departure is the one a student sees",
           "ext.walls"),
    Mutant("crash_without_walls", "Mapa.cpp",
           "    _minPared = _paredes.empty() ? Coordenada(0, 0) : _paredes.front();",
           "    _minPared = _paredes.front();",
           "reads the first wall of an empty wall set (a level without walls)",
           "ext.start"),
    Mutant("wrong_mover_result", "Juego.cpp",
           "    return completo;",
           "    return _soko.gano();",
           "mover answers whether the level now being played is won (after advancing)",
           "aed2.completes"),
)
BY_NAME = {m.name: m for m in MUTANTS}


def mutated_text(m: Mutant, reference: Path = REFERENCE) -> str:
    text = (reference / m.file).read_text()
    if text.count(m.old) != 1:
        raise ValueError(f"mutant {m.name}: {m.old!r} occurs {text.count(m.old)} times in "
                         f"{m.file} (expected exactly once)")
    return text.replace(m.old, m.new)


def materialize(m: Mutant, reference: Path = REFERENCE) -> Path:
    """The folder of mutant ``m`` (the reference with its one substitution),
    written under the cache; reused while the reference is unchanged."""
    text = mutated_text(m, reference)
    digest = hashlib.sha256(text.encode())
    for p in sorted(reference.iterdir()):
        digest.update(p.name.encode() + p.read_bytes())
    folder = cache_root() / "mutants" / f"{m.name}-{digest.hexdigest()[:12]}"
    if not (folder / m.file).is_file():
        tmp = folder.with_name(folder.name + ".tmp")
        shutil.rmtree(tmp, ignore_errors=True)
        shutil.copytree(reference, tmp)
        (tmp / m.file).write_text(text)
        try:
            tmp.rename(folder)
        except OSError:
            shutil.rmtree(tmp, ignore_errors=True)
    return folder
