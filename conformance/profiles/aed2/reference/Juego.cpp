#include "Juego.h"

Juego::Juego(const vector<aed2_Nivel>& niveles)
    : _niveles(niveles), _indice(0), _soko(niveles.front()) {}

const Sokoban& Juego::actual() const { return _soko; }

bool Juego::mover(PuntoCardinal pc) {
    _soko.mover(pc);
    bool completo = _soko.gano();
    if (completo && _indice + 1 < _niveles.size()) {
        _indice++;
        _soko = Sokoban(_niveles[_indice]);
    }
    return completo;
}

void Juego::tirarBomba() { _soko.tirarBomba(); }

void Juego::deshacer() { _soko.deshacer(); }
