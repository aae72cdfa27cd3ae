// Seed 001's module Sokoban: one level being played, with the history of
// its actions for deshacer.
#ifndef SOKOBAN_H
#define SOKOBAN_H

#include <vector>
#include "Tipos.h"
#include "Mapa.h"

Coordenada siguiente(Coordenada c, PuntoCardinal pc);

class Sokoban {
public:
    explicit Sokoban(const aed2_Nivel& n);

    bool hayPared(Coordenada c) const;
    bool hayDeposito(Coordenada c) const;
    bool hayCaja(Coordenada c) const;
    Coordenada persona() const;
    Nat bombas() const;
    bool puedeMover(PuntoCardinal pc) const;
    bool gano() const;

    void mover(PuntoCardinal pc);
    void tirarBomba();
    void deshacer();

private:
    struct Accion {
        bool fueBomba;
        PuntoCardinal direccion;
        bool movioCaja;
        Nat enDepositoAntes;
    };
    bool libre(Coordenada c) const;

    Mapa _mapa;
    set<Coordenada> _cajas;
    Coordenada _persona;
    Nat _bombas;
    Nat _enDeposito;
    vector<Accion> _historial;
};

#endif // SOKOBAN_H
