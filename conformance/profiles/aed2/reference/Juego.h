// Seed 001's module Juego: the levels in order and the one being played.
#ifndef JUEGO_H
#define JUEGO_H

#include <vector>
#include "Tipos.h"
#include "Sokoban.h"

class Juego {
public:
    explicit Juego(const vector<aed2_Nivel>& niveles);

    const Sokoban& actual() const;
    bool mover(PuntoCardinal pc);
    void tirarBomba();
    void deshacer();

private:
    vector<aed2_Nivel> _niveles;
    size_t _indice;
    Sokoban _soko;
};

#endif // JUEGO_H
