// The class the course's tests use (seed 001's Juego behind the course's
// interface). Written for this project.
#ifndef AED2_JUEGO_H
#define AED2_JUEGO_H

#include <vector>
#include "Tipos.h"
#include "Juego.h"

class aed2_Juego {
public:
    aed2_Juego(vector<aed2_Nivel> ns);

    bool hayPared(Coordenada c) const;
    bool hayDeposito(Coordenada c) const;
    bool hayCaja(Coordenada c) const;
    Coordenada posicionActual() const;
    Nat cantidadBombas() const;
    bool sePuedeMover(PuntoCardinal pc) const;

    // true iff this move completes the current level
    bool mover(PuntoCardinal pc);
    void tirarBomba();
    void deshacer();

private:
    Juego _juego;
};

#endif // AED2_JUEGO_H
