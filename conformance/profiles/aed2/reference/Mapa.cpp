#include "Mapa.h"

#include <algorithm>

bool busquedaBinaria(const vector<Coordenada>& v, Coordenada c) {
    size_t lo = 0;
    size_t hi = v.size();
    while (lo < hi) {
        size_t medio = lo + (hi - lo) / 2;
        if (v[medio] < c) {
            lo = medio + 1;
        } else {
            hi = medio;
        }
    }
    return lo < v.size() && v[lo] == c;
}

Mapa::Mapa(const set<Coordenada>& paredes, const set<Coordenada>& depositos)
    : _paredes(paredes.begin(), paredes.end()),
      _depositos(depositos.begin(), depositos.end()) {
    _minPared = _paredes.empty() ? Coordenada(0, 0) : _paredes.front();
}

bool Mapa::hayPared(Coordenada c) const {
    if (_paredes.empty() || c < _minPared) {
        return false;
    }
    if (!busquedaBinaria(_paredes, c)) {
        return false;
    }
    for (const Coordenada& e : _explosiones) {
        if (e.first == c.first || e.second == c.second) {
            return false;
        }
    }
    return true;
}

bool Mapa::hayDeposito(Coordenada c) const { return busquedaBinaria(_depositos, c); }

Nat Mapa::cantidadDepositos() const { return _depositos.size(); }

void Mapa::tirarBomba(Coordenada c) {
    _explosiones.push_back(c);
}

void Mapa::quitarUltimaExplosion() {
    if (!_explosiones.empty()) {
        _explosiones.pop_back();
    }
}
