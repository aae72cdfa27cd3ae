// Seed 001's module Mapa: walls and depots in sorted vectors searched by
// bisection; the bombs thrown, newest last (a wall on the row or column of
// any of them is destroyed).
#ifndef MAPA_H
#define MAPA_H

#include <vector>
#include "Tipos.h"

class Mapa {
public:
    Mapa(const set<Coordenada>& paredes, const set<Coordenada>& depositos);

    bool hayPared(Coordenada c) const;
    bool hayDeposito(Coordenada c) const;
    Nat cantidadDepositos() const;

    void tirarBomba(Coordenada c);
    void quitarUltimaExplosion();

private:
    vector<Coordenada> _paredes;
    vector<Coordenada> _depositos;
    vector<Coordenada> _explosiones;
    Coordenada _minPared;
};

bool busquedaBinaria(const vector<Coordenada>& v, Coordenada c);

#endif // MAPA_H
