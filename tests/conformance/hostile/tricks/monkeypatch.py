"""Wrong (boxes never move), and patches what it can reach so that answers
look right: builtins, the json module, its own runner."""
import builtins
import json
import sys

from base import *  # noqa: F401,F403
import base

builtins.isinstance = lambda *args: True
json.dumps = lambda *args, **kwargs: '{"ok": true}'
main = sys.modules.get("__main__")
if main is not None and hasattr(main, "Host"):
    main.Host.run = lambda self, op, args: ("ok", True)


def mover(grilla, direccion):
    c, f = base._jugador(grilla)
    if hay_caja(grilla, c + direccion[0], f + direccion[1]):
        return [list(fila) for fila in grilla]
    return base.mover(grilla, direccion)
