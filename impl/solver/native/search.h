// A search of the portfolio: its node table, queues and expansion.
#pragma once
#include "table.h"

struct Search : NodeTable {
    Kernel& kn;
    int weight;
    bool macros;
    bool backward = false;      // a pull search (startBack / runBack)
    bool packing = false;       // the packing-order search (packingChildren)
    int childRegion = 0;        // packing: the cells of the player's region of the child being kept
    int childYs = 0;            // packing: the moved box's term of YASS's score (ysMoved)
    int ysWeight = 0;           // packing: that term's weight (0; the second packing search's settings.ysSecond)
    int childBonus = 0;         // packing: its Cand's bonus (a parking, SOKOBAN_KERNEL_POK, or an opening, POL)
    priority_queue<HeapE> heap;
    vector<vector<uint32_t>> macroStore;
    // matchings of generated children, in a ring indexed by node id; the
    // ring grows with the nodes up to RING entries (a small level never
    // pays for the whole ring at its start)
    static const int RING = 1 << 16;
    vector<int32_t> ringTag;
    vector<Match> ring;
    void remember(int id, const Match& m) {
        size_t at = id % RING;
        if (at >= ring.size()) {
            size_t n = min((size_t)RING, max(at + 1, 2 * ring.size()));
            ring.resize(n);
            ringTag.resize(n, -1);
        }
        ring[at] = m;
        ringTag[at] = id;
    }
    bool remembered(int id) const { return (size_t)(id % RING) < ringTag.size() && ringTag[id % RING] == id; }
    long long expandedCount = 0;
    bool done = false;
    string result;  // "solved"/"exhausted"
    string lurd;
    size_t bytes = 0;
    // Feature-space search (FESS-style; see featureCell):
    // instead of `heap`, one queue per feature cell, visited in turn.
    bool fs = false;
    bool fsAdvice = false;  // the packing search's box-path macros too (SOKOBAN_KERNEL_SWA's member)
    vector<priority_queue<HeapE>> cellQ;   // the cells' queues, in order of discovery
    unordered_map<int, int> cellIndex;     // feature cell -> index in cellQ
    size_t cursor = 0, fsQueued = 0;
    int fsCell = 0;                        // the cell of the child run() is keeping
    FsParentRegions fsParent{kn};              // the expanded node's regions
    DeadEnd deadEnd{kn};                       // the expanded node's cut pushes
    // The packing search's escape: one queue per count
    // of goals filled in order (countQ[n]); see nextPacking.
    vector<priority_queue<HeapE>> countQ;
    mutable int queueCount = 0;            // the count of the child being queued (set by rank)
    size_t poQueued = 0;
    long long poTick = 0;
    int poRover = 0;

    int frozenScratch[1100];               // run()'s for frozen()
    Search(Kernel& k, int w, bool mac) : NodeTable(k.WORDS), kn(k), weight(w), macros(mac) {}
    ~Search() { kn.memoryUsed -= bytes; }

    void account() {
        size_t b = nodes.capacity() * sizeof(Node) + bits.capacity() * 8 + table.size() * 8 +
                   expanded.capacity() + (heap.size() + fsQueued + poQueued) * sizeof(HeapE) * 2;
        kn.memoryUsed += b - bytes;
        bytes = b;
    }


    void start() { startAt(kn.startBoxes, kn.startPlayer); }

    // The search's root: the boxes on `boxes`, the player on `player` (the
    // level's start).
    void startAt(const vector<int>& rootBoxes, int player) {
        kn.costTab = kn.pdist.data();
        kn.nearTab = kn.nearest_.data();
        vector<uint64_t> b(kn.WORDS, 0);
        uint64_t h = 0;
        for (int c : rootBoxes) { b[kn.compact[c] >> 6] |= 1ULL << (kn.compact[c] & 63); h ^= kn.zob[c]; }
        vector<uint8_t> occ(kn.N, 0);
        for (int c : rootBoxes) occ[c] = 1;
        Marks m; m.init(kn.N); vector<int> todo;
        int low = kn.reach(player, occ.data(), m, todo);
        h ^= kn.zobP[low];
        Match mt; mt.rows = rootBoxes; kn.matchFull(mt);
        if (mt.total >= INF) { done = true; result = "exhausted"; return; }
        int id = add(h, b.data(), low, -1, 0, 0, 1);
        remember(id, mt);
        if (fs) fsCell = kn.featureCell(b.data(), occ.data(), m);
        queue({(int32_t)(weight * mt.total + rank(b.data())), 0, (uint32_t)id});
    }

    // The packing search ranks positions by goals filled in order first.
    int32_t rank(const uint64_t* b) const {
        if (!packing) return 0;
        queueCount = kn.packedPrefix(b, kn.poOrder);
        return (kn.K - queueCount) * kn.settings.poRank - kn.settings.poRegion * childRegion - childBonus + childYs;
    }

    void pushesTo(int id, vector<uint32_t>& out) {
        vector<uint32_t> rev;
        while (nodes[id].parent >= 0) {
            const Node& n = nodes[id];
            if (n.mvn == 0) {
                auto& ms = macroStore[n.mv];
                for (auto it = ms.rbegin(); it != ms.rend(); ++it) rev.push_back(*it);
            } else {
                int c = n.mv >> 2, d = n.mv & 3;
                for (int k = n.mvn - 1; k >= 0; k--) rev.push_back((uint32_t)(c + k * kn.OFF[d]) << 2 | d);
            }
            id = n.parent;
        }
        out.assign(rev.rbegin(), rev.rend());
    }

    // Node id's box cells into `boxes` and its bitset into `pb` (a copy:
    // add() may move `bits`).  When the node's matching is in the ring, the
    // boxes come in its row order, parentM is that matching and the answer
    // is true.
    bool unpack(int id, vector<uint64_t>& pb, vector<int>& boxes, Match& parentM) {
        pb.assign(bits.begin() + (size_t)id * kn.WORDS, bits.begin() + (size_t)(id + 1) * kn.WORDS);
        if (remembered(id)) {
            parentM = ring[id % RING];
            boxes = parentM.rows;
            return true;
        }
        boxes.clear();
        for (int w = 0; w < kn.WORDS; w++) {
            uint64_t x = pb[w];
            while (x) { int i = __builtin_ctzll(x); x &= x - 1; boxes.push_back(kn.cellOf[w * 64 + i]); }
        }
        return false;
    }

    // Is a child (bits b, hash h, region low) reached at cost g1 worth
    // keeping?  Not when it is known and expanded or reached as cheaply;
    // *old is its node when known, else -1.
    bool worth(uint64_t h, const uint64_t* b, int low, int g1, int* old) {
        *old = find(h, b, low);
        return *old < 0 || (!expanded[*old] && nodes[*old].g > g1);
    }

    // Keep a child of node `parent` (see worth; childM its matching): a
    // cheaper path to the known node `old`, or a
    // new node, then queued.  A new node found in the other direction's
    // tables is a meeting: the solution goes to lurd, and true.
    bool keep(int old, uint64_t h, const uint64_t* b, int low, int parent, int g1, uint32_t mv,
              int mvn, const Match& childM);

    // The search is over with these pushes as its solution.
    void solvedWith(const vector<uint32_t>& pushes);

    // Expand up to `budget` nodes; returns the number expanded.
    long long run(long long budget);
    bool children(const Node& nd, const uint64_t* b, const vector<int>& boxes, uint8_t* occ, const Marks& seen,
                  vector<Cand>& cands, int& lastBox, int& macroTarget);
    static const int EXHAUSTED = -1, STALE = -2;
    // Queue a node: on the heap, or (feature-space search) in the queue of
    // its feature cell fsCell.
    void queue(const HeapE& e) {
        if (packing && kn.settings.poEscape > 0) {
            if (countQ.size() <= (size_t)queueCount) countQ.resize(queueCount + 1);
            countQ[queueCount].push(e);
            poQueued++;
            return;
        }
        if (!fs) { heap.push(e); return; }
        auto it = cellIndex.find(fsCell);
        if (it == cellIndex.end()) {
            it = cellIndex.emplace(fsCell, (int)cellQ.size()).first;
            cellQ.emplace_back();
            kn.stats.fsDistinct = max(kn.stats.fsDistinct, cellQ.size());
        }
        cellQ[it->second].push(e);
        fsQueued++;
    }
    size_t frontier() const { return heap.size() + fsQueued + poQueued; }

    // The next node to expand (marked expanded), STALE for a heap entry
    // superseded by a cheaper path or already expanded, EXHAUSTED when the
    // heap is empty: the same for the forward and the backward search.
    int next() {
        if (fs) return nextCell();
        if (packing && kn.settings.poEscape > 0) return nextPacking();
        if (heap.empty()) return EXHAUSTED;
        HeapE e = heap.top(); heap.pop();
        return take(e);
    }

    // A popped entry's node, marked expanded, or STALE.
    int take(const HeapE& e) {
        if (expanded[e.id] || nodes[e.id].g != e.g) return STALE;
        expanded[e.id] = 1;
        expandedCount++;
        if (e.g > kn.maxDepth) kn.maxDepth = e.g;
        return e.id;
    }

    // The feature-space search's next(): the best live entry of the cell at
    // the cursor, which moves on to the next non-empty cell once the cell
    // has had its turn (round robin over the cells).
    int nextCell() {
        for (size_t tries = 0; tries <= cellQ.size(); tries++) {
            auto& q = cellQ[cursor];
            while (!q.empty()) {
                HeapE e = q.top(); q.pop();
                fsQueued--;
                int id = take(e);
                if (id == STALE) continue;
                cursor = (cursor + 1) % cellQ.size();
                return id;
            }
            cursor = (cursor + 1) % cellQ.size();
        }
        return EXHAUSTED;
    }

    // The packing search with an escape (YASS's idea): the best entry of
    // the highest count of goals filled in order, but every settings.poEscape-th
    // expansion the best of the next lower non-empty count (a rover going
    // down the counts, round robin): a line that makes no progress does not
    // take every expansion.
    int nextPacking() {
        while (poQueued > 0) {
            int top = (int)countQ.size() - 1;
            while (countQ[top].empty()) top--;
            if (kn.settings.dlStates > 0) dlCheck(top);
            int n = top;
            if (++poTick % kn.settings.poEscape == 0) {
                n = poRover;
                do n = n > 0 ? n - 1 : top; while (countQ[n].empty());
                poRover = n;
            }
            HeapE e = countQ[n].top(); countQ[n].pop();
            poQueued--;
            int id = take(e);
            if (id != STALE) {
                if (kn.settings.dlStates > 0) dlRemember(n, id);
                return id;
            }
        }
        return EXHAUSTED;
    }

    // SOKOBAN_KERNEL_DL: the last positions expanded at each count
    // (dlRecent[n], up to settings.dlRecent) and the highest count seen non-empty.
    vector<vector<int>> dlRecent;
    void dlRemember(int n, int id) {
        if (dlRecent.size() <= (size_t)n) dlRecent.resize(n + 1);
        vector<int>& r = dlRecent[n];
        r.push_back(id);
        if ((int)r.size() > kn.settings.dlRecent) r.erase(r.begin());
    }
    // A count runs dry when its queue, non-empty at the last look, is empty
    // (every line there died): the counts above `top`, the highest non-empty
    // one.  The positions expanded last at a dry count are taken apart.
    vector<char> dlSeen;
    void dlCheck(int top) {
        if (dlSeen.size() < countQ.size()) dlSeen.resize(countQ.size(), 0);
        bool any = false;
        vector<uint64_t> pb;
        vector<int> bx;
        Match unused;
        for (int c = (int)dlSeen.size() - 1; c >= 0; c--) {
            bool now = !countQ[c].empty();
            if (dlSeen[c] && !now && c > top && (size_t)c < dlRecent.size()) {
                any = true;
                for (int id : dlRecent[c]) {
                    unpack(id, pb, bx, unused);
                    kn.dlTakeApart(bx, nodes[id].player);
                }
                dlRecent[c].clear();
            }
            dlSeen[c] = now;
        }
        kn.stats.dlRuns += any;
    }

    // The backward search: start states and expansion by pulls.
    void startBack();
    long long runBack(long long budget);

    // Backward node id's pulls back to its root, reversed into pushes, in
    // forward order, appended to out.  Walking up from id gives the pulls
    // last first; the pull (b, d) reversed is the push of the box on b + d
    // in direction -d (index d ^ 1).
    void pullsHome(int id, vector<uint32_t>& out) {
        for (int k = id; nodes[k].parent >= 0; k = nodes[k].parent) {
            int c = nodes[k].mv >> 2, d = nodes[k].mv & 3;
            out.push_back((uint32_t)(c + kn.OFF[d]) << 2 | (d ^ 1));
        }
    }
};
