"""The seeds' rules, written once per profile, and which case of the spec
produced a value.

Two things live here, at the bottom of ``spec`` (every spec module may use
them; they use nothing of the spec but :mod:`spec.tipos`):

* **Cases.** Each branch of an axiom that decides an observer's value is a
  :class:`Case` (``accionarPersonaje: me muevo``, ``cajas(crearFísica(n))``,
  ``deshacer(mover(s, a)) ≡ s`` ...). The spec functions call :func:`note`
  with the case they take. Off, a note costs one context-variable read; on
  (:func:`tracing`), it records, per value (``personaje``, ``cajas``...),
  the case that produced it last. Values are unchanged either way: the spec
  stays a set of pure functions, and the trace is only ever read by whoever
  switched it on.
* **Rules.** A :class:`Table` per profile family lists the seed's rules, each
  a :class:`Rule`: an id (``soko.push``), the seed it comes from (document,
  axiom or sentence), one plain English line, the seed's own words (a short
  quote), the errata that change it, the cases it is made of, and the
  operations a target needs for the rule to be checked at all. Every case
  the profile's spec can take belongs to exactly one rule of its table, so
  a value always has a rule: the rule of the case that produced it
  (:meth:`Table.rule_for`). Tables: ``tad`` (seed 000), ``extendido``
  (seed 001; also the C++ profile ``aed2``), ``soko`` (seed 002 and the
  course's practice). Others (seed 003's Prolog action model, a live
  monitor's) are added with :func:`register`.

Which rule a value breaks is read off the spec, never guessed from the name
of the observer that showed it: the same ``hay_caja`` departure is
``soko.push`` after a push and ``soko.push-blocked`` after a refused one.
"""

from __future__ import annotations

import contextlib
from contextvars import ContextVar
from dataclasses import dataclass, field
from typing import Iterable, Iterator

from spec.tipos import BOMBAS, CAJAS, DEPOSITOS, PAREDES, PERSONAJE

# ---------------------------------------------------------------- the values

#: The values a case can produce (the observers of the seeds' TADs, with
#: seed 000's names; each table says which of its observers reads which).
NIVEL = "nivel"              # which level is being played (índiceNivel, nivelesPendientes)
GANADO = "ganado"            # completado?, ganó?, juego_ganado
PUEDE_MOVER = "puede_mover"  # puedeMover?
DIMENSIONES = "dimensiones"  # dimensiones
GRILLA = "grilla"            # what mover returns and leaves behind (seed 002)
RESPUESTA = "respuesta"      # what aed2's mover answers (the course's interface)
#: A case that produces every value at once (``deshacer(mover(s, a)) ≡ s``).
TODO = "*"
VALUES = (PERSONAJE, CAJAS, PAREDES, DEPOSITOS, BOMBAS, NIVEL, GANADO, PUEDE_MOVER,
          DIMENSIONES, GRILLA, RESPUESTA)

#: The seeds, as every rule cites them.
SEEDS = {
    "000": "seed 000 (L. Carreira, TP1: Especificación de Sokoban, TAD Física and TAD Juego)",
    "001": "seed 001 (L. Carreira, TP3: Diseño de Sokoban Extendido)",
    "002": "seed 002 (course TP1 - Sokoban, the soko.py API)",
    "003": "seed 003 (A. Vega, M. Martínez: Sokoban in SWI-Prolog)",
}


@dataclass(frozen=True)
class Case:
    """One branch of one axiom: it decides ``value`` (one of :data:`VALUES`,
    or :data:`TODO`). ``id`` is the branch in the seed's notation; ``where``
    the spec function that takes it."""

    id: str
    value: str
    where: str


_CASES: dict[str, Case] = {}


def _case(id: str, value: str, where: str) -> Case:
    if id in _CASES:
        raise ValueError(f"case {id!r} declared twice")
    _CASES[id] = c = Case(id, value, where)
    return c


def cases() -> tuple[Case, ...]:
    """Every case declared, in declaration order."""
    return tuple(_CASES.values())


# --- seed 000, TAD Física (spec.fisica) and TAD Juego (spec.juego)
PERSONAJE_INICIAL = _case('personaje(crearFísica(n)) ≡ dameUno(n["personaje"])', PERSONAJE,
                          "spec.fisica.crear_fisica")
CAJAS_INICIALES = _case('cajas(crearFísica(n)) ≡ n["cajas"]', CAJAS, "spec.fisica.crear_fisica")
PAREDES_INICIALES = _case('paredes(crearFísica(n)) ≡ n["paredes"]', PAREDES,
                          "spec.fisica.crear_fisica")
DEPOSITOS_INICIALES = _case('depósitos(crearFísica(n)) ≡ n["depósitos"]', DEPOSITOS,
                            "spec.fisica.crear_fisica")
PAREDES_FIJAS = _case("paredes(simularAcción(f, a)) ≡ paredes(f)", PAREDES,
                      "spec.fisica.simular_accion")
DEPOSITOS_FIJOS = _case("depósitos(simularAcción(f, a)) ≡ depósitos(f)", DEPOSITOS,
                        "spec.fisica.simular_accion")
ME_MUEVO = _case("accionarPersonaje: estáLibre? (me muevo)", PERSONAJE,
                 "spec.fisica.accionar_personaje")
CONTRA_PARED = _case("accionarPersonaje: esPared? (no se mueve, yo tampoco)", PERSONAJE,
                     "spec.fisica.accionar_personaje")
EMPUJO = _case("accionarPersonaje: esCaja!, estáLibre? detrás (me muevo con ella)", PERSONAJE,
               "spec.fisica.accionar_personaje")
CAJA_TRABADA = _case("accionarPersonaje: esCaja!, detrás no está libre "
                     "(la caja no se mueve, yo tampoco)", PERSONAJE,
                     "spec.fisica.accionar_personaje")
CAJA_EMPUJADA = _case("accionarCaja: esCaja?, estáLibre? detrás (moverCaja)", CAJAS,
                      "spec.fisica.accionar_caja")
CAJA_QUIETA = _case("accionarCaja: esCaja?, detrás no está libre (cajas(f))", CAJAS,
                    "spec.fisica.accionar_caja")
SIN_CAJA = _case("accionarCaja: no es caja (cajas(f), E3)", CAJAS, "spec.fisica.accionar_caja")
COMPLETADO = _case("completado?(j) ≡ todoEnOrden(estado(j))", GANADO, "spec.juego.completado")

# --- seed 001's module Sokoban and Juego (spec.sokoban, spec.extendido; E10)
PERSONA_NUEVA = _case("persona(nuevoS(n)) ≡ dameUno(n[\"personaje\"])", PERSONAJE,
                      "spec.sokoban.nuevo_soko")
CAJAS_NUEVAS = _case('cajas(nuevoS(n)) ≡ n["cajas"]', CAJAS, "spec.sokoban.nuevo_soko")
PAREDES_NUEVAS = _case('paredes(nuevoS(n)) ≡ n["paredes"]', PAREDES, "spec.sokoban.nuevo_soko")
DEPOSITOS_NUEVOS = _case('depósitos(nuevoS(n)) ≡ n["depósitos"]', DEPOSITOS,
                         "spec.sokoban.nuevo_soko")
BOMBAS_NUEVAS = _case('bombas(nuevoS(n)) ≡ n["bombas"]', BOMBAS, "spec.sokoban.nuevo_soko")
BOMBAS_AL_MOVER = _case("bombas(mover(s, a)) ≡ bombas(s)", BOMBAS, "spec.sokoban.mover")
PAREDES_VOLADAS = _case("paredes(tirarBomba(s)): the walls off the character's row and column",
                        PAREDES, "spec.sokoban.tirar_bomba")
BOMBA_GASTADA = _case("bombas(tirarBomba(s)) ≡ bombas(s) - 1", BOMBAS,
                      "spec.sokoban.tirar_bomba")
NADA_SE_MUEVE_CON_BOMBA = _case("persona, cajas, depósitos (tirarBomba(s)): unchanged", TODO,
                                "spec.sokoban.tirar_bomba")
DESHACER_MOVER = _case("deshacer(mover(s, a)) ≡ s", TODO, "spec.sokoban.deshacer")
DESHACER_BOMBA = _case("deshacer(tirarBomba(s)) ≡ s", TODO, "spec.sokoban.deshacer")
DESHACER_NADA = _case("deshacer(nuevoS(n)) ≡ nuevoS(n)", TODO, "spec.sokoban.deshacer")
GANO = _case("ganó?(s) ≡ cajas(s) = depósitos(s)", GANADO, "spec.sokoban.gano")
PUEDE_LIBRE = _case("puedeMover?: noHayParedNiCaja?(s, persona(s) ⊕ d)", PUEDE_MOVER,
                    "spec.sokoban.puede_mover")
PUEDE_EMPUJAR = _case("puedeMover?: hayCaja? ∧ noHayParedNiCaja? detrás", PUEDE_MOVER,
                      "spec.sokoban.puede_mover")
NO_PUEDE = _case("puedeMover?: false (a wall, or a box that cannot move)", PUEDE_MOVER,
                 "spec.sokoban.puede_mover")
NIVEL_INICIAL = _case("índiceNivel(nuevoJ(ns)) ≡ 0", NIVEL, "spec.extendido.nuevo_juego")
MISMO_NIVEL = _case("mover(j, a), not won or no level left: the same level goes on", NIVEL,
                    "spec.extendido.mover")
AVANCE = _case("mover(j, a), ganó? ∧ ¬vacía?(nivelesPendientes(j)): "
               "nivelActual ≡ nuevoS(prim(nivelesPendientes(j)))", TODO, "spec.extendido.mover")

# --- seed 002's soko.py (spec.grilla)
JUGADOR_LEIDO = _case("crear_grilla: '@' Jugador, '+' Objetivo + Jugador", PERSONAJE,
                      "spec.grilla.crear_grilla")
CAJAS_LEIDAS = _case("crear_grilla: '$' Caja, '*' Objetivo + Caja", CAJAS,
                     "spec.grilla.crear_grilla")
PAREDES_LEIDAS = _case("crear_grilla: '#' Pared", PAREDES, "spec.grilla.crear_grilla")
OBJETIVOS_LEIDOS = _case("crear_grilla: '.' Objetivo, '*', '+'", DEPOSITOS,
                         "spec.grilla.crear_grilla")
TAMANO = _case("dimensiones: la cantidad de columnas y filas", DIMENSIONES,
               "spec.grilla.crear_grilla")
GANADA = _case("juego_ganado: todas las celdas objetivo tienen una caja encima", GANADO,
               "spec.grilla.juego_ganado")
GRILLA_NUEVA = _case("mover: devuelve una grilla nueva; la recibida NO se modifica", GRILLA,
                     "spec.grilla.mover")
GRILLA_IGUAL = _case("mover, no permitido: la grilla del estado siguiente es la misma", GRILLA,
                     "spec.grilla.mover")

# --- the course's aed2_Juego (seed 001 in C++; conformance/profiles/aed2)
MOVER_COMPLETA = _case("aed2_Juego::mover: true iff this move completes the current level",
                       RESPUESTA, "conformance (aed2's mover answer)")


# ------------------------------------------------------------------ tracing

_TRACE: ContextVar["Trace | None"] = ContextVar("spec_rules_trace", default=None)


class Trace:
    """What the spec noted while this trace was on.

    ``case_of(value)`` is the case that produced ``value`` last (a case for
    :data:`TODO` produces every value); ``events`` lists every note in order
    when ``keep_events``. ``current`` (a previous trace's, to go on from the
    state it describes) seeds what each value was produced by so far;
    ``counts`` (a dict, possibly shared) counts how often each case is
    taken (how often a check exercised each rule)."""

    def __init__(self, current: "Trace | None" = None, keep_events: bool = False,
                 counts: "dict[Case, int] | None" = None):
        self._last: dict[str, tuple[int, Case]] = dict(current._last) if current else {}
        self._seq = current._seq if current else 0
        self.events: list[Case] | None = [] if keep_events else None
        #: How many times each case was taken (a dict given by the caller,
        #: shared by several traces; None: not counted).
        self.counts = counts

    def add(self, case: Case) -> None:
        self._seq += 1
        self._last[case.value] = (self._seq, case)
        if self.events is not None:
            self.events.append(case)
        if self.counts is not None:
            self.counts[case] = self.counts.get(case, 0) + 1

    def case_of(self, value: str) -> Case | None:
        own, every = self._last.get(value), self._last.get(TODO)
        if own is None and every is None:
            return None
        if own is None or (every is not None and every[0] > own[0]):
            return every[1]
        return own[1]

    def copy(self) -> "Trace":
        return Trace(self)


def note(*taken: Case) -> None:
    """The spec took these cases (in this order). Costs one context-variable
    read when no trace is on."""
    t = _TRACE.get()
    if t is not None:
        for case in taken:
            t.add(case)


@contextlib.contextmanager
def tracing(trace: Trace | None = None) -> Iterator[Trace]:
    """Record the spec's cases into ``trace`` (a new one by default) while
    the block runs, in this thread or task only."""
    t = Trace() if trace is None else trace
    token = _TRACE.set(t)
    try:
        yield t
    finally:
        _TRACE.reset(token)


# -------------------------------------------------------------------- rules

@dataclass(frozen=True)
class Rule:
    """One rule of a seed.

    ``id`` (``soko.push``); ``title`` (a few words); ``text`` (one plain
    English line); ``source`` (where the seed says it: document, axiom or
    sentence); ``words`` (the seed's own words, a short quote); ``errata``
    (the entries of ``spec/ERRATA.md`` that change it); ``cases`` (the
    spec's cases it is made of); ``needs`` (operations a target must have
    for the rule to be checked: without one of them the rule is lost);
    ``profiles`` (when only some of the table's profiles can observe it)."""

    id: str
    title: str
    text: str
    source: str
    words: str
    cases: tuple[Case, ...] = ()
    errata: tuple[str, ...] = ()
    needs: tuple[str, ...] = ()
    #: The profiles of its table that check it (empty: all of them).
    profiles: tuple[str, ...] = ()

    def cite(self) -> str:
        """``soko.push: <text> (<source>: "<words>")``: one line for reports."""
        errata = f"; erratum {', '.join(self.errata)}" if self.errata else ""
        return f"{self.id}: {self.text} ({self.source}: \u201c{self.words}\u201d{errata})"


@dataclass(frozen=True)
class Table:
    """The rules of one seed, as one family of profiles checks them.

    ``reads`` maps each observer of the profiles to the value it shows
    (``hay_caja`` shows ``cajas``: ``hayCaja?(s, c) ≡ c ∈ cajas(s)``);
    ``acts`` maps each operation that changes the state to the value whose
    case names what the action did (a move: where the character went)."""

    name: str
    seed: str
    profiles: tuple[str, ...]
    rules: tuple[Rule, ...]
    reads: dict[str, str] = field(default_factory=dict)
    acts: dict[str, str] = field(default_factory=dict)

    def __post_init__(self):
        seen: dict[str, str] = {}
        ids = set()
        for r in self.rules:
            if r.id in ids:
                raise ValueError(f"table {self.name}: rule {r.id} twice")
            ids.add(r.id)
            for c in r.cases:
                if c.id in seen:
                    raise ValueError(f"table {self.name}: case {c.id!r} in {seen[c.id]} "
                                     f"and {r.id}")
                seen[c.id] = r.id

    def rule(self, rule_id: str) -> Rule:
        for r in self.rules:
            if r.id == rule_id:
                return r
        raise KeyError(f"no rule {rule_id!r} in table {self.name}")

    @property
    def ids(self) -> tuple[str, ...]:
        return tuple(r.id for r in self.rules)

    def rules_for(self, profile: str) -> tuple[Rule, ...]:
        """The rules ``profile`` checks (all but those meant for other profiles)."""
        return tuple(r for r in self.rules if not r.profiles or profile in r.profiles)

    def rule_for(self, case: Case | None) -> Rule | None:
        """The rule ``case`` belongs to (None: the table has no such case,
        which is a bug of the table)."""
        if case is None:
            return None
        for r in self.rules:
            if case in r.cases:
                return r
        return None

    def value_of(self, operation: str) -> str | None:
        """The value whose case explains ``operation``'s answer (an
        observer) or effect (an operation that changes the state)."""
        name = operation.split("(")[0]
        return self.reads.get(name) or self.acts.get(name)

    def blame(self, operation: str, trace: Trace, value: str | None = None) -> Rule | None:
        """The rule of the case that produced what ``operation`` should have
        shown (or, given, ``value``), according to ``trace`` (None when the
        table cannot say: a bug of the table)."""
        value = value or self.value_of(operation)
        return None if value is None else self.rule_for(trace.case_of(value))

    def exercised(self, counts: "dict[Case, int]", profile: str) -> dict[str, int]:
        """Per rule of ``profile`` (in the table's order), how many times
        ``counts`` took one of its cases."""
        return {r.id: sum(counts.get(c, 0) for c in r.cases) for r in self.rules_for(profile)}

    def needing(self, missing: Iterable[str]) -> tuple[Rule, ...]:
        """The rules that cannot be checked without the operations ``missing``."""
        missing = set(missing)
        return tuple(r for r in self.rules if missing & set(r.needs))

    def markdown(self) -> str:
        """The table as the Markdown docs/conformance.md shows."""
        lines = [f"| rule | what it says | the seed's words ({self.seed}) | errata |",
                 "|---|---|---|---|"]
        for r in self.rules:
            errata = ", ".join(f"[{e}](../spec/ERRATA.md)" for e in r.errata)
            only = f" (only {', '.join(r.profiles)})" if r.profiles else ""
            lines.append(f"| `{r.id}`{only} | {r.text} | {r.source}: \u201c{r.words}\u201d | "
                         f"{errata} |")
        return "\n".join(lines)


_TABLES: dict[str, Table] = {}


def register(table: Table) -> Table:
    """Add a table (a new seed's, a monitor's); its profiles then find it
    with :func:`table_for`."""
    for p in table.profiles:
        other = next((t for t in _TABLES.values() if p in t.profiles and t.name != table.name),
                     None)
        if other is not None:
            raise ValueError(f"profile {p} already has table {other.name}")
    _TABLES[table.name] = table
    return table


def unregister(name: str) -> None:
    """Forget the table ``name`` (one a test registered)."""
    _TABLES.pop(name, None)


def tables() -> dict[str, Table]:
    """Every table, by name."""
    return dict(_TABLES)


def table_for(profile: str) -> Table:
    """The table a profile is judged by."""
    for t in _TABLES.values():
        if profile in t.profiles:
            return t
    raise KeyError(f"no rule table for profile {profile!r}")


# --------------------------------------------------------------- the tables

_S000 = "seed 000"
_S001 = "seed 001"
_S002 = "seed 002"

TAD = register(Table(
    name="tad", seed=_S000, profiles=("tad",),
    reads={"estado": PERSONAJE, "estado['personaje']": PERSONAJE, "estado['cajas']": CAJAS,
           "estado['paredes']": PAREDES, "estado['depósitos']": DEPOSITOS,
           "completado": GANADO},
    acts={"iniciar": PERSONAJE, "step": PERSONAJE},
    rules=(
        Rule("tad.start", "the start",
             "The game starts where the level says: the character and the boxes where the level "
             "puts them.",
             f"{_S000}, axioms of crearFísica and iniciar",
             "computarEstado(crearFísica(n)) ≡ n",
             (PERSONAJE_INICIAL, CAJAS_INICIALES), needs=("iniciar", "estado")),
        Rule("tad.walls", "walls stay",
             "The walls are the level's and never move.",
             f"{_S000}, axiom of paredes",
             "paredes(simularAcción(f, a)) ≡ paredes(f) -- Estos objetos nunca se mueven",
             (PAREDES_INICIALES, PAREDES_FIJAS), needs=("estado",)),
        Rule("tad.depots", "depots stay",
             "The depots are the level's and never move, whether the character or a box stands "
             "on one or leaves it.",
             f"{_S000}, axiom of depósitos",
             "depósitos(simularAcción(f, a)) ≡ depósitos(f)",
             (DEPOSITOS_INICIALES, DEPOSITOS_FIJOS), needs=("estado",)),
        Rule("tad.step", "a step",
             "An action moves the character one cell its way (Arriba ⟨0,-1⟩, Abajo ⟨0,1⟩, "
             "Izquierda ⟨-1,0⟩, Derecha ⟨1,0⟩) when that cell is free: no wall and no box, "
             "a depot is free; boxes not pushed stay.",
             f"{_S000}, axiom of accionarPersonaje",
             "if estáLibre?(computarEstado(f), sumar2Tuplas(personaje(f), paso)) then "
             "-- me muevo",
             (ME_MUEVO, SIN_CAJA), errata=("E3",), needs=("step", "estado")),
        Rule("tad.wall-stops", "a wall stops",
             "A wall stops the character: it stays where it is.",
             f"{_S000}, axiom of accionarPersonaje",
             "if esPared?(...) then -- no se mueve, yo tampoco personaje(f)",
             (CONTRA_PARED,), needs=("step", "estado")),
        Rule("tad.push", "a push",
             "Moving into a box whose next cell is free pushes it one cell on, and the "
             "character takes its place.",
             f"{_S000}, rules of the game and axioms of accionarPersonaje, accionarCaja",
             "se mueve hacia esa dirección y además empuja la caja hacia dicha dirección",
             (EMPUJO, CAJA_EMPUJADA), errata=("E5", "E6"), needs=("step", "estado")),
        Rule("tad.push-blocked", "a blocked push",
             "A box with a wall or another box behind it does not move, and neither does the "
             "character.",
             f"{_S000}, rules of the game and axiom of accionarPersonaje",
             "solamente se puede realizar si la celda a la que debe ir a parar la caja no "
             "tiene una pared ni otra caja",
             (CAJA_TRABADA, CAJA_QUIETA), needs=("step", "estado")),
        Rule("tad.won", "the win",
             "completado? holds exactly when the boxes stand on the depots.",
             f"{_S000}, TAD Juego, axioms of completado? and todoEnOrden",
             'todoEnOrden(e) ≡ e["cajas"] = e["depósitos"]',
             (COMPLETADO,), errata=("E18",), needs=("completado",)),
    )))

EXTENDIDO = register(Table(
    name="extendido", seed=_S001, profiles=("extendido", "aed2"),
    # (with aed2_Juego's C++ names, as a compiled target's crash names the call)
    reads={"persona": PERSONAJE, "hay_caja": CAJAS, "hay_pared": PAREDES,
           "hay_deposito": DEPOSITOS, "bombas": BOMBAS, "indice_nivel": NIVEL, "gano": GANADO,
           "puede_mover": PUEDE_MOVER, "posicionActual": PERSONAJE, "hayCaja": CAJAS,
           "hayPared": PAREDES, "hayDeposito": DEPOSITOS, "cantidadBombas": BOMBAS,
           "sePuedeMover": PUEDE_MOVER},
    acts={"nuevo_juego": PERSONAJE, "mover": PERSONAJE, "tirar_bomba": PAREDES,
          "deshacer": PERSONAJE, "aed2_Juego": PERSONAJE, "tirarBomba": PAREDES},
    rules=(
        Rule("ext.start", "the start",
             "A new game starts the first level as given: the character, the boxes and the "
             "bombs where the level puts them, at level 0.",
             f"{_S001}, module Sokoban, nuevoS and module Juego, nuevoJ",
             "persona(res) = personaN(n) ∧ #bombas(res) = #bombasN(n)",
             (PERSONA_NUEVA, CAJAS_NUEVAS, BOMBAS_NUEVAS, NIVEL_INICIAL),
             errata=("E10", "E12"), needs=("nuevo_juego",)),
        Rule("ext.walls", "walls stay",
             "The walls are the level's until a bomb destroys them; no other cell is a wall "
             "(the grid is infinite) and a move changes none.",
             f"{_S001}, module Mapa (and {_S000}: paredes never move)",
             "En el mapa se encuentran las posiciones de las paredes y depósitos",
             (PAREDES_NUEVAS, PAREDES_FIJAS), errata=("E4",), needs=("hay_pared",)),
        Rule("ext.depots", "depots stay",
             "The depots are the level's and never move.",
             f"{_S001}, module Mapa, representation",
             "Los depósitos son inmutables.",
             (DEPOSITOS_NUEVOS, DEPOSITOS_FIJOS), needs=("hay_deposito",)),
        Rule("ext.step", "a step",
             "mover takes the character one cell its way into a free cell; boxes not pushed "
             "stay, and so does the bomb count.",
             f"{_S001}, module Sokoban, mover",
             "La posición actual de la persona se modificará en 1 unidad en alguna de las "
             "componentes x ó y",
             (ME_MUEVO, SIN_CAJA, BOMBAS_AL_MOVER), errata=("E3", "E8"),
             needs=("mover", "persona")),
        Rule("ext.push", "a push",
             "Moving into a box whose next cell is free pushes it one cell on, and the "
             "character takes its place.",
             f"{_S001}, module Sokoban, mover (and {_S000}: accionarCaja)",
             "De haber interactuado con una caja, ésta también se modificará en 1 unidad en la "
             "misma componente.",
             (EMPUJO, CAJA_EMPUJADA), errata=("E17",),
             needs=("mover", "hay_caja")),
        Rule("ext.can-move", "can it move",
             "puede_mover is true exactly when the next cell is free, or holds a box whose next "
             "cell is free.",
             f"{_S001}, module Sokoban, puedeMover?",
             "res será true solo en los casos donde no hay objetos (paredes o cajas) en la "
             "coordenada del personaje siguiendo la dirección d, o si hay una caja y delante "
             "de ella no hay objetos",
             # A move puedeMover? refuses is never made (mover's precondition,
             # E19), so the physics' blocked cases never happen here.
             (PUEDE_LIBRE, PUEDE_EMPUJAR, NO_PUEDE), errata=("E19",), needs=("puede_mover",)),
        Rule("ext.won", "the win",
             "A level is won exactly when its boxes stand on its depots.",
             f"{_S001}, module Sokoban, ganó?",
             "res es true si y sólo si todas las cajas coinciden con las coordenadas de todos "
             "los depósitos",
             (GANO,), errata=("E18",), needs=("gano",), profiles=("extendido",)),
        Rule("ext.advance", "the next level",
             "A move that wins a level starts the next level afresh, when there is one; "
             "otherwise play stays on the level.",
             f"{_S001}, module Juego, iMover",
             "if ganó?(...) ∧ HaySiguiente(e.itNivelActual) then Avanzar(e.itNivelActual)",
             (AVANCE, MISMO_NIVEL), errata=("E13", "E20"), needs=("mover",)),
        Rule("ext.bomb", "a bomb",
             "A bomb destroys every wall in the character's row and column, on the whole grid, "
             "and moves nothing else.",
             f"{_S001}, module Sokoban, tirarBomba",
             "destruye todas las paredes en la misma fila o columna que la coordenada de la "
             "persona",
             (PAREDES_VOLADAS, NADA_SE_MUEVE_CON_BOMBA), errata=("E16",),
             needs=("tirar_bomba", "hay_pared")),
        Rule("ext.bomb-count", "a bomb costs one",
             "Each bomb thrown costs one of the level's bombs.",
             f"{_S001}, module Sokoban, tirarBomba",
             "#bombas(s) = #bombas(s0) - 1",
             (BOMBA_GASTADA,), errata=("E16",), needs=("tirar_bomba", "bombas")),
        Rule("ext.undo", "undo",
             "deshacer restores the state before the action it undoes, a move or a bomb.",
             f"{_S001}, module Sokoban, deshacer",
             "Solo se borra el último elemento de las listas del nivel",
             (DESHACER_MOVER, DESHACER_BOMBA), needs=("deshacer",)),
        Rule("ext.undo-empty", "nothing to undo",
             "With nothing to undo, at the start of a level (the first, or one just reached), "
             "deshacer changes nothing: the history does not cross levels.",
             f"{_S001}, module Sokoban, deshacer",
             "Si no se han realizado acciones: s=s0",
             (DESHACER_NADA,), errata=("E11",), needs=("deshacer",)),
        Rule("aed2.completes", "mover's answer",
             "(aed2) mover answers true exactly when the move completes the current level, "
             "also when play then goes on to the next.",
             f"the course's aed2_Juego (docs/aed2.md), on {_S001}'s iMover",
             "bool mover(PuntoCardinal pc) // true iff this move completes the current level",
             (MOVER_COMPLETA,), needs=("mover",), profiles=("aed2",)),
    )))

SOKO = register(Table(
    name="soko", seed=_S002, profiles=("soko",),
    reads={"hay_jugador": PERSONAJE, "hay_caja": CAJAS, "hay_pared": PAREDES,
           "hay_objetivo": DEPOSITOS, "juego_ganado": GANADO, "dimensiones": DIMENSIONES},
    acts={"crear_grilla": PERSONAJE, "mover": PERSONAJE, "__fingerprint__": GRILLA,
          "__equal__": GRILLA},
    rules=(
        Rule("soko.read", "the description",
             "crear_grilla puts the player and the boxes where the description draws them "
             "('@', '+' the player; '$', '*' a box).",
             f"{_S002}, crear_grilla",
             "@ Jugador, $ Caja, * Objetivo + Caja, + Objetivo + Jugador",
             (JUGADOR_LEIDO, CAJAS_LEIDAS), needs=("crear_grilla", "hay_jugador", "hay_caja")),
        Rule("soko.size", "the size",
             "dimensiones is the pair (columns, rows).",
             f"{_S002}, dimensiones",
             "Devuelve una tupla con la cantidad de columnas y filas de la grilla.",
             (TAMANO,), errata=("E24", "E26"), needs=("dimensiones",)),
        Rule("soko.walls", "walls stay",
             "The walls are where the description draws them ('#') and never move.",
             f"{_S002}, the grid",
             "Una celda puede contener una pared, que impide que cualquier otro elemento se "
             "ubique en ese lugar.",
             (PAREDES_LEIDAS, PAREDES_FIJAS), needs=("hay_pared",)),
        Rule("soko.goals", "goals stay",
             "The goals are where the description draws them ('.', '*', '+') and never move: "
             "a goal stays under the player or a box, and after they leave.",
             f"{_S002}, the grid",
             "Una celda (que no sea una pared) puede estar marcada con un objetivo.",
             (OBJETIVOS_LEIDOS, DEPOSITOS_FIJOS), needs=("hay_objetivo",)),
        Rule("soko.step", "a step",
             "The player moves to the neighbouring cell in the direction given when it is empty "
             "(no wall, no box; a goal is empty); boxes stay.",
             f"{_S002}, Movimiento, 2nd sentence",
             "Si la celda vecina está vacía, el movimiento está permitido y el jugador se "
             "mueve a esa celda.",
             (ME_MUEVO, SIN_CAJA), errata=("E3",), needs=("hay_jugador",)),
        Rule("soko.wall-stops", "a wall stops",
             "When the neighbouring cell is a wall, the player stays where it is.",
             f"{_S002}, Movimiento, 3rd sentence",
             "Si la celda vecina es una pared, el movimiento no está permitido y el jugador se "
             "queda en su lugar.",
             (CONTRA_PARED,), needs=("hay_jugador",)),
        Rule("soko.push", "a push",
             "Into a box whose next cell (C2) is empty: the box moves to C2 and the player to "
             "the box's cell (C1).",
             f"{_S002}, Movimiento, 4th sentence",
             "Si la celda C2 está vacía, el movimiento está permitido. En ese caso, la caja que "
             "estaba en la celda C1 se mueve a la celda C2, y el jugador se mueve a la celda C1.",
             (EMPUJO, CAJA_EMPUJADA), needs=("hay_caja", "hay_jugador")),
        Rule("soko.push-blocked", "a blocked push",
             "Into a box with a wall or another box behind it: nothing moves.",
             f"{_S002}, Movimiento, 4th sentence",
             "En caso contrario, el movimiento no está permitido.",
             (CAJA_TRABADA, CAJA_QUIETA), needs=("hay_caja", "hay_jugador")),
        Rule("soko.won", "the win",
             "juego_ganado is true exactly when every goal has a box on it (boxes may "
             "outnumber goals).",
             f"{_S002}, Resolución",
             "El juego se considera ganado cuando todas las celdas objetivo tienen una caja "
             "encima.",
             (GANADA,), errata=("E18", "E27"), needs=("juego_ganado",)),
        Rule("soko.new-grid", "a new grid",
             "mover returns a new grid for the next state and leaves the one it was given "
             "unchanged.",
             f"{_S002}, mover",
             "La grilla recibida NO se modifica; es decir, en caso de que el movimiento sea "
             "válido, la función devuelve una nueva grilla.",
             (GRILLA_NUEVA,), needs=("mover",)),
        Rule("soko.blocked-same", "a refused move",
             "A move that is not allowed returns a grid equal (==) to the one given.",
             f"{_S002}, mover",
             "La función debe devolver una grilla representando el estado siguiente al "
             "movimiento efectuado.",
             (GRILLA_IGUAL,), needs=("mover",)),
    )))
