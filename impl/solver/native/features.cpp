// The feature-space search's features (FESS): packing and connectivity.
#include "search.h"

// Marks in m, and lists in todo, the free cells joined to the free cell c
// (not marked yet), without resetting m: areas flooded one after another.
void Kernel::floodArea(int c, const uint8_t* occ, Marks& m, vector<int>& todo) {
    m.set(c);
    todo.assign(1, c);
    for (size_t i = 0; i < todo.size(); i++)
        for (int d = 0; d < 4; d++) {
            int x = todo[i] + OFF[d];
            if (!wall_[x] && !occ[x] && !m.has(x)) { m.set(x); todo.push_back(x); }
        }
}

FsFeatures Kernel::fsFeatures(const uint64_t* b, const uint8_t* occ, const Marks& player, int knownRegions) {
    FsFeatures f{0, 1};
    if (!poOrder.empty()) {
        f.packing = packedPrefix(b, fsOrder);
    } else {
        for (int g : goals) f.packing += occ[g];
    }
    if (knownRegions > 0) {
        f.regions = knownRegions;
    } else {
        Marks& other = fsFeatures_other;
        vector<int>& todo = fsFeatures_todo;
        if (other.v.size() != (size_t)N) other.init(N);
        other.next();
        for (int c : cellOf) {
            if (!inside_[c] || occ[c] || player.has(c) || other.has(c)) continue;
            f.regions++;
            floodArea(c, occ, other, todo);
        }
    }
    return f;
}

int Kernel::featureCell(const uint64_t* b, const uint8_t* occ, const Marks& player, int knownRegions) {
    FsFeatures f = fsFeatures(b, occ, player, knownRegions);
    stats.fsCells++;
    stats.fsPacked = max(stats.fsPacked, f.packing);
    if (knownRegions > 0) stats.fsQuick++;
    return min(f.packing, 63) * 64 + min(f.regions, 63);
}
