// The transposition table: a search's nodes (each with its box set and
// normalised player) and an open-addressing hash table over them.
#pragma once
#include "kernel.h"

struct Node {
    uint64_t hash;
    int32_t parent;
    int32_t g;
    uint32_t mv;      // single push: cell<<2|dir, steps in mvn; macro: index in macroStore
    uint16_t player;  // normalised player cell
    uint16_t mvn;     // steps of a straight push (>=1), or 0 for a macro
};

struct NodeTable {
    int words;                  // 64-bit words of a box set (Kernel::WORDS)
    vector<Node> nodes;
    vector<uint64_t> bits;      // `words` per node
    vector<uint8_t> expanded;
    vector<uint64_t> table;     // open addressing (see find)
    size_t mask;

    explicit NodeTable(int w) : words(w) {
        table.assign(1 << 10, 0);
        mask = table.size() - 1;
    }

    bool sameState(int id, const uint64_t* b, int player) {
        if (nodes[id].player != player) return false;
        return memcmp(&bits[(size_t)id * words], b, words * 8) == 0;
    }

    // The table holds (id + 1) << 32 | the hash's low 32 bits; 0 is empty.
    // A probe compares the stored bits before touching the node.
    int find(uint64_t h, const uint64_t* b, int player) {
        size_t i = (h >> 32) & mask;
        uint32_t tag = (uint32_t)h;
        while (table[i]) {
            uint64_t e = table[i];
            if ((uint32_t)e == tag) {
                int id = (int)(e >> 32) - 1;
                if (nodes[id].hash == h && sameState(id, b, player)) return id;
            }
            i = (i + 1) & mask;
        }
        return -1;
    }

    void place(vector<uint64_t>& t, size_t m, uint64_t h, int id) {
        size_t i = (h >> 32) & m;
        while (t[i]) i = (i + 1) & m;
        t[i] = (uint64_t)(id + 1) << 32 | (uint32_t)h;
    }

    void grow() {
        vector<uint64_t> t(table.size() * 2, 0);
        size_t m = t.size() - 1;
        for (uint64_t e : table)
            if (e) place(t, m, nodes[(e >> 32) - 1].hash, (int)(e >> 32) - 1);
        table.swap(t);
        mask = m;
    }

    int add(uint64_t h, const uint64_t* b, int player, int parent, int g, uint32_t mv, int mvn) {
        int id = nodes.size();
        nodes.push_back({h, parent, g, mv, (uint16_t)player, (uint16_t)mvn});
        bits.insert(bits.end(), b, b + words);
        expanded.push_back(0);
        if (nodes.size() * 2 > table.size()) grow();
        place(table, mask, h, id);
        return id;
    }
};
