// The types of the course interface (seed 001's course), written for this
// project from the interface's public description.
#ifndef TIPOS_H
#define TIPOS_H

#include <set>
#include <utility>
#include <vector>

using namespace std;

using Nat = unsigned int;
using Coordenada = pair<int, int>;

enum PuntoCardinal { Norte, Este, Sur, Oeste };

struct aed2_Nivel {
    set<Coordenada> paredes;
    set<Coordenada> depositos;
    set<Coordenada> cajas;
    Coordenada posicionInicial;
    Nat cantidadBombas;
};

#endif // TIPOS_H
