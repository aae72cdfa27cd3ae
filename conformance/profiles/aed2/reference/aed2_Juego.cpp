#include "aed2_Juego.h"

aed2_Juego::aed2_Juego(vector<aed2_Nivel> ns) : _juego(ns) {}

bool aed2_Juego::hayPared(Coordenada c) const { return _juego.actual().hayPared(c); }
bool aed2_Juego::hayDeposito(Coordenada c) const { return _juego.actual().hayDeposito(c); }
bool aed2_Juego::hayCaja(Coordenada c) const { return _juego.actual().hayCaja(c); }
Coordenada aed2_Juego::posicionActual() const { return _juego.actual().persona(); }
Nat aed2_Juego::cantidadBombas() const { return _juego.actual().bombas(); }
bool aed2_Juego::sePuedeMover(PuntoCardinal pc) const { return _juego.actual().puedeMover(pc); }
bool aed2_Juego::mover(PuntoCardinal pc) { return _juego.mover(pc); }
void aed2_Juego::tirarBomba() { _juego.tirarBomba(); }
void aed2_Juego::deshacer() { _juego.deshacer(); }
