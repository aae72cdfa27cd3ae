"""The course's C++ interface (seed 001's ``aed2_Juego``): the header a
C++ target holds, and the operations the engine calls through our driver."""

HEADER = "aed2_Juego.h"

#: extendido's operations less the observers the interface lacks
#: (indice_nivel, gano); mover returns whether it completed the level (see
#: docs/aed2.md).
OPERATIONS = (
    "nuevo_juego", "mover", "puede_mover", "tirar_bomba", "deshacer",
    "persona", "hay_pared", "hay_deposito", "hay_caja", "bombas",
)
