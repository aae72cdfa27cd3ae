#include "Sokoban.h"

Coordenada siguiente(Coordenada c, PuntoCardinal pc) {
    switch (pc) {
        case Norte: return {c.first, c.second + 1};
        case Este: return {c.first + 1, c.second};
        case Sur: return {c.first, c.second - 1};
        default: return {c.first - 1, c.second};
    }
}

static PuntoCardinal opuesto(PuntoCardinal pc) {
    switch (pc) {
        case Norte: return Sur;
        case Este: return Oeste;
        case Sur: return Norte;
        default: return Este;
    }
}

Sokoban::Sokoban(const aed2_Nivel& n)
    : _mapa(n.paredes, n.depositos), _cajas(n.cajas), _persona(n.posicionInicial),
      _bombas(n.cantidadBombas), _enDeposito(0) {
    for (const Coordenada& c : _cajas) {
        if (_mapa.hayDeposito(c)) {
            _enDeposito++;
        }
    }
}

bool Sokoban::hayPared(Coordenada c) const { return _mapa.hayPared(c); }
bool Sokoban::hayDeposito(Coordenada c) const { return _mapa.hayDeposito(c); }
bool Sokoban::hayCaja(Coordenada c) const { return _cajas.count(c) > 0; }
Coordenada Sokoban::persona() const { return _persona; }
Nat Sokoban::bombas() const { return _bombas; }

bool Sokoban::libre(Coordenada c) const { return !hayPared(c) && !hayCaja(c); }

bool Sokoban::puedeMover(PuntoCardinal pc) const {
    Coordenada sig = siguiente(_persona, pc);
    return libre(sig) || (hayCaja(sig) && libre(siguiente(sig, pc)));
}

bool Sokoban::gano() const {
    return _cajas.size() == _mapa.cantidadDepositos() && _enDeposito == _cajas.size();
}

void Sokoban::mover(PuntoCardinal pc) {
    Coordenada sig = siguiente(_persona, pc);
    Accion a = {false, pc, hayCaja(sig), _enDeposito};
    if (hayCaja(sig)) {
        Coordenada destino = siguiente(sig, pc);
        _cajas.erase(sig);
        _cajas.insert(destino);
        if (_mapa.hayDeposito(sig)) _enDeposito--;
        if (_mapa.hayDeposito(destino)) _enDeposito++;
    }
    _persona = sig;
    _historial.push_back(a);
}

void Sokoban::tirarBomba() {
    _mapa.tirarBomba(_persona);
    _bombas--;
    _historial.push_back({true, Norte, false, _enDeposito});
}

void Sokoban::deshacer() {
    if (_historial.empty()) {
        return;
    }
    Accion a = _historial.back();
    _historial.pop_back();
    if (a.fueBomba) {
        _mapa.quitarUltimaExplosion();
        _bombas++;
        return;
    }
    Coordenada antes = siguiente(_persona, opuesto(a.direccion));
    if (a.movioCaja) {
        _cajas.erase(siguiente(_persona, a.direccion));
        _cajas.insert(_persona);
    }
    _enDeposito = a.enDepositoAntes;
    _persona = antes;
}
