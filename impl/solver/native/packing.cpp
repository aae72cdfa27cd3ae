// The packing-order search's children: box-path macros to the next goal
// of the order, parking, the opening search, YASS's score, the deep-failure
// test, and the order from the level's start.
#include "search.h"

bool PullFilter::reaches(Kernel& kn, uint8_t* occ, int box, int target) {
    Slot* a = nullptr;
    for (Slot& s : slots)
        if (s.target == target && memcmp(s.board.data(), occ, kn.N) == 0) { a = &s; break; }
    if (!a) {
        if (slots.size() < 4) { slots.emplace_back(); slots.back().area.init(kn.N); one.init(kn.N); }
        a = &slots[next++ % slots.size()];
        kn.pullArea(occ, target, -1, a->area, a->q);
        a->target = target;
        a->board.assign(occ, occ + kn.N);
        fills++;
    }
    bool more = false;
    for (int d = 0; d < 4; d++) {
        int side = box + kn.OFF[d], pl = box - kn.OFF[d];
        if (a->area.has(side) && pl >= 0 && pl < kn.N && !kn.wall_[pl] && !occ[pl]) { quick++; return true; }
        int far = box + 2 * kn.OFF[d];
        more |= far >= 0 && far < kn.N && a->area.has(far) && !kn.wall_[side] && !occ[side] && !a->area.has(side);
    }
    if (!more) { quick++; return false; }
    full++;
    occ[box] = 0;
    bool ok = kn.pullArea(occ, target, box, one, oneQ);
    occ[box] = 1;
    return ok;
}

// Goals of poOrder filled from its start (filled(g): a box on goal g).
template <class Filled>
int Kernel::packedCount(Filled filled, const vector<int>& order) {
    int n = 0;
    for (int g : order) {
        if (!filled(g)) break;
        n++;
    }
    return n;
}

// The same in the box bitset b (by default in poOrder).
int Kernel::packedPrefix(const uint64_t* b, const vector<int>& order) {
    return packedCount([this, b](int g) { int i = compact[g]; return (int)(b[i >> 6] >> (i & 63) & 1); }, order);
}

// A position's key in the opening searches (POL, PS): its boxes (occ) and
// the player's region (its smallest cell `low`).
uint64_t Kernel::psHash(const uint8_t* occ, int low) {
    uint64_t h = (uint64_t)low * 0x9E3779B97F4A7C15ULL;
    forOccupied(occ, [&](int c) { h = (h ^ (uint64_t)c) * 0xFF51AFD7ED558CCDULL; return true; });
    return h;
}

// The opening searches' pushes (POL, PS): every push (cell << 2 | d) of a
// box not packed that the player (its region marked in m) can make.
void Kernel::openingPushes(uint8_t* occ, const Marks& m, const vector<uint8_t>& packed, vector<uint32_t>& pushes) {
    forOccupied(occ, [&](int c) {
        if (packed[c]) return true;
        for (int d = 0; d < 4; d++) {
            int t = c + OFF[d];
            if (!m.has(c - OFF[d]) || wall_[t] || occ[t] || !pushAllowed(occ, c, t)) continue;
            pushes.push_back((uint32_t)c << 2 | d);
        }
        return true;
    });
}

// The cells a lone box on `target` can be pulled to, the boxes of occ fixed
// and the player ignored (every box path to `target` is such a sequence of
// pulls, reversed), marked in `pulled` and listed in q; true as soon as it
// reaches `box` (-1: every such cell).
bool Kernel::pullArea(const uint8_t* occ, int target, int box, Marks& pulled, vector<int>& q) {
    pulled.next();
    pulled.set(target);
    q.assign(1, target);
    for (size_t i = 0; i < q.size(); i++)
        for (int d = 0; d < 4; d++) {
            int prev = q[i] - OFF[d], pl = q[i] - 2 * OFF[d];
            if (pl < 0 || pl >= N || wall_[prev] || wall_[pl] || occ[pl] || occ[prev] || pulled.has(prev))
                continue;
            if (prev == box) return true;
            pulled.set(prev);
            q.push_back(prev);
        }
    return false;
}

// POL: the opening search (see settings.poOpen).  occ holds the position's boxes
// (restored on return), `player` a cell of the player's region, `packed`
// marks the packed boxes (never pushed), `reaches(box, target)` is
// packingChildren's cheap filter.  Returns the first push of the shortest
// line found, or UINT32_MAX.
template <class Reaches>
uint32_t Kernel::poOpening(uint8_t* occ, int player, const vector<uint8_t>& packed, const vector<int>& targets,
                          Reaches reaches) {
    stats.poOpenTried++;
    struct St { int parent; uint32_t push; int depth; };
    vector<St> states{{-1, 0, 0}};
    unordered_set<uint64_t> known;
    Marks& m = poOpening_m;
    vector<int>& todo = poOpening_todo;
    if (m.v.size() != (size_t)N) m.init(N);
    vector<uint32_t> line;  // a state's pushes, last first
    vector<uint32_t> path;
    uint32_t answer = UINT32_MAX;
    int paths = 0;
    auto apply = [&](int si, bool on) {  // put state si's box moves on the board (on) or take them back
        line.clear();
        for (int k = si; states[k].parent >= 0; k = states[k].parent) line.push_back(states[k].push);
        if (on) {
            for (auto it = line.rbegin(); it != line.rend(); ++it) {
                int c = *it >> 2, t = c + OFF[*it & 3];
                occ[c] = 0; occ[t] = 1;
            }
        } else {
            for (uint32_t p : line) {
                int c = p >> 2, t = c + OFF[p & 3];
                occ[t] = 0; occ[c] = 1;
            }
        }
        return line.empty() ? player : (int)(line[0] >> 2);  // where the player stands
    };
    known.insert(psHash(occ, reach(player, occ, m, todo)));
    for (size_t si = 0; si < states.size() && answer == UINT32_MAX; si++) {
        if (states[si].depth >= PO_OPEN_DEPTH) break;
        int at = apply((int)si, true);
        int atLow = reach(at, occ, m, todo);
        vector<uint32_t> pushes;
        openingPushes(occ, m, packed, pushes);
        for (uint32_t p : pushes) {
            if ((int)states.size() >= settings.poOpen) break;
            int c = p >> 2, t = c + OFF[p & 3];
            occ[c] = 0; occ[t] = 1;
            Marks& cm = poOpening_cm;
            if (cm.v.size() != (size_t)N) cm.init(N);
            int low = lowAfterPush(occ, m, atLow, c, t);
            if (low < 0) low = reach(c, occ, cm, todo);
            bool fresh = known.insert(psHash(occ, low)).second;
            bool opens = false;
            for (int k = 0; fresh && k < (int)targets.size() && !opens && paths < settings.poOpenPaths; k++) {
                if (occ[targets[k]]) continue;
                forOccupied(occ, [&](int b) {
                    if (packed[b] || !reaches(b, targets[k])) return true;
                    paths++;
                    opens = boxPath(occ, c, b, targets[k], path, settings.poPathStates);
                    return !opens && paths < settings.poOpenPaths;
                });
            }
            occ[t] = 0; occ[c] = 1;
            if (!fresh) continue;
            states.push_back({(int)si, p, states[si].depth + 1});
            if (opens) {
                int k = (int)states.size() - 1;
                while (states[k].parent > 0) k = states[k].parent;
                answer = states[k].push;
                stats.poOpenFound++;
                break;
            }
        }
        apply((int)si, false);
    }
    return answer;
}

// Deep failures (settings.dlStates; docs/solver.md, "Deep failures"): when the packing search's
// highest count of goals filled in order runs dry (its queue empty: every
// line there died), the positions it expanded last at that count are taken
// apart.  The boxes not packed (not on the goals of the order's filled
// prefix) are put, in small groups of 1 to DLB boxes (each within 2 cells of
// another of the group), smallest first, through the corral test's push
// search (barrierAlive, n states) alone on the board.  A group it proves dead
// (its boxes cannot all reach goals even with every other box removed) is
// learned as a pattern like a dead barrier: a proof, so every search uses
// it.  The packing search then drops each queued position holding it when
// popped (holdsPattern), and resumes from the shallower positions that avoid
// that arrangement: the choice made much earlier that killed the deep lines.
// Supersets of a group found dead are not tried; DLT caps the searches per
// position taken apart, DLR the positions kept per count.

// The position (boxes, the player on `player`) taken apart; the number of
// groups proved dead (each learned by barrierAlive).
int Kernel::dlTakeApart(const vector<int>& boxes, int player) {
    vector<uint8_t>& occ = dlTakeApart_occ;
    if (occ.size() != (size_t)N) occ.assign(N, 0);
    for (int c : boxes) occ[c] = 1;
    int n = 0;
    while (n < (int)poOrder.size() && occ[poOrder[n]]) n++;
    for (int c : boxes) occ[c] = 0;
    vector<int> rest;
    for (int c : boxes)
        if (find(poOrder.begin(), poOrder.begin() + n, c) == poOrder.begin() + n) rest.push_back(c);
    stats.dlPositions++;
    auto near = [this](int a, int b) { return abs(a % W - b % W) <= 2 && abs(a / W - b / W) <= 2; };
    vector<vector<int>> dead;  // groups proved dead here (sorted)
    int tests = 0;
    long long before = corralStatesUsed;
    vector<int> group;
    // Is the group connected (each box within 2 cells of another, joined)?
    auto connected = [&]() {
        vector<int> todo{group[0]};
        vector<char> in(group.size(), 0);
        in[0] = 1;
        for (size_t k = 0; k < todo.size(); k++)
            for (size_t j = 0; j < group.size(); j++)
                if (!in[j] && near(todo[k], group[j])) { in[j] = 1; todo.push_back(group[j]); }
        return todo.size() == group.size();
    };
    // Every connected group of `size` boxes from rest[from..].
    function<void(size_t, int)> grow = [&](size_t from, int size) {
        if ((int)group.size() == size) {
            if (tests >= settings.dlTests || !connected()) return;
            if (all_of(group.begin(), group.end(), [this](int c) { return goal_[c] != 0; })) return;
            vector<int> g(group);
            sort(g.begin(), g.end());
            for (const vector<int>& d : dead)
                if (includes(g.begin(), g.end(), d.begin(), d.end())) return;
            tests++;
            stats.dlTests++;
            if (!barrierAlive(g, player, settings.dlStates)) {
                stats.dlDead++;
                dead.push_back(move(g));
            }
            return;
        }
        for (size_t i = from; i < rest.size() && tests < settings.dlTests; i++) {
            group.push_back(rest[i]);
            grow(i + 1, size);
            group.pop_back();
        }
    };
    for (int size = 1; size <= settings.dlBoxes && tests < settings.dlTests; size++) grow(0, size);
    stats.dlStates += corralStatesUsed - before;
    return (int)dead.size();
}
const vector<int>& Kernel::ysDistances(const vector<uint8_t>& packed, const vector<int>& targets) {
    vector<uint8_t>& lastPacked = ysDistances_lastPacked;
    vector<int>& lastTargets = ysDistances_lastTargets; vector<int>& side = ysDistances_side; vector<int>& todo = ysDistances_todo; vector<int>& dist = ysDistances_dist;
    vector<uint8_t>& blk = ysDistances_blk;
    Marks& m = ysDistances_m;
    if (lastPacked == packed && lastTargets == targets && !ysTab.empty()) return ysTab;
    stats.ysTables++;
    lastPacked = packed;
    lastTargets = targets;
    if (m.v.size() != (size_t)N) m.init(N);
    auto free = [&](int c) { return c >= 0 && c < N && !wall_[c] && !packed[c]; };
    // side[c * 4 + d]: the region (a cell of it) of the player on c + OFF[d]
    // with the box on c; -1 when that cell is not free
    side.assign((size_t)N * 4, -1);
    blk.assign(packed.begin(), packed.end());
    for (int c = 0; c < N; c++) {
        if (!free(c)) continue;
        blk[c] = 1;
        for (int d = 0; d < 4; d++) {
            int x = c + OFF[d];
            if (!free(x) || side[c * 4 + d] >= 0) continue;
            reach(x, blk.data(), m, todo);
            side[c * 4 + d] = x;
            for (int e = d + 1; e < 4; e++)
                if (free(c + OFF[e]) && m.has(c + OFF[e])) side[c * 4 + e] = x;
        }
        blk[c] = 0;
    }
    ysTab.assign(targets.size() * (size_t)N, INF);
    deque<int> dq;
    for (size_t k = 0; k < targets.size(); k++) {
        dist.assign((size_t)N * 4, INF);
        int* out = &ysTab[k * N];
        int g = targets[k];
        if (!free(g)) continue;
        out[g] = 0;
        dq.clear();
        for (int d = 0; d < 4; d++)
            if (side[g * 4 + d] >= 0) { dist[g * 4 + d] = 0; dq.push_back(g * 4 + d); }
        while (!dq.empty()) {
            int st = dq.front(); dq.pop_front();
            int c = st >> 2, d = st & 3, v = dist[st];
            for (int e = 0; e < 4; e++)  // the player goes round the box
                if (e != d && side[c * 4 + e] >= 0 && side[c * 4 + e] == side[st] && dist[c * 4 + e] > v) {
                    dist[c * 4 + e] = v;
                    dq.push_front(c * 4 + e);
                }
            int to = c + OFF[d], pl = c + 2 * OFF[d];  // the pull: box to `to`, player to pl
            if (!free(pl)) continue;
            int ns = to * 4 + d;
            if (dist[ns] <= v + 1) continue;
            dist[ns] = v + 1;
            out[to] = min(out[to], v + 1);
            dq.push_back(ns);
        }
    }
    return ysTab;
}

// The moved box's term of YASS's score for a push from c to t
// (occ after it; tab from ysDistances for `targets`): w × (1 + its distance
// to the nearest empty target) less w for each empty target it came
// nearer, YS_FAR when it reaches none; `nearer` counts those targets and
// `onTarget` says t is one.
int Kernel::ysMoved(const vector<int>& tab, const vector<int>& targets, const uint8_t* occ, int c, int t, int w,
                   int& nearer, bool& onTarget) {
    int d = INF;
    nearer = 0;
    onTarget = false;
    for (size_t k = 0; k < targets.size(); k++) {
        int g0 = targets[k];
        if (occ[g0] && g0 != t) continue;  // filled
        if (g0 == t) onTarget = true;
        const int* to = &tab[k * N];
        d = min(d, to[t]);
        nearer += to[t] < to[c];
    }
    return (d < INF ? w * (1 + d) : YS_FAR) - w * nearer;
}

// The packing search's children of a position (its boxes in occ and
// `boxes`, the player's region `player`): box-path macros to the next goal
// of poOrder appended to `store`, nearest boxes first; when no box has a
// path, the ordinary pushes already in `cands`, less the packed boxes'.
// Returns the target goal, or -1 when every goal is packed.
int Kernel::packingChildren(uint8_t* occ, const vector<int>& boxes, int player, vector<Cand>& cands,
                           vector<vector<uint32_t>>& store) {
    vector<uint8_t>& packed = packingChildren_packed;
    if (packed.size() != (size_t)N) packed.assign(N, 0);
    stats.poExp++;
    int n = 0;
    while (n < (int)poOrder.size() && occ[poOrder[n]]) n++;
    if (n == (int)poOrder.size()) return -1;
    // The target: the next empty goal of the order.
    vector<int> targets{poOrder[n]};
    int end = n;
    int target = targets[0];
    for (int i = 0; i < n; i++) packed[poOrder[i]] = 1;
    {
        int filled = packedCount([occ](int g) { return (int)occ[g]; }, poOrder);
        if (filled > stats.poBest) {
            stats.poBest = filled;
            stats.poAtBest = 0;
        }
        if (filled == stats.poBest) stats.poAtBest++;
        if (stats.poByCount.size() <= (size_t)filled) stats.poByCount.resize(filled + 1);
        stats.poByCount[filled]++;
    }
    vector<Cand> found;
    vector<uint32_t> path;
    // A cheap filter before each box path: a pull search from the target,
    // the other boxes fixed and the player's access ignored, must reach the
    // box (every box path is such a sequence of pulls, reversed; PullFilter
    // gives pullArea's answers from one area per target).
    auto canReach = [&](int box, int target) { return poFilter.reaches(*this, occ, box, target); };
    // (box, target) pairs: boxes the player can push now (a push in cands:
    // PI-corral pruning applies), not packed, that can reach the target at
    // all; nearest boxes first.
    struct Pair { int dist, rank, box, target; };
    vector<Pair> pairs;
    for (size_t k = 0; k < targets.size(); k++) {
        const int* to = &pdist[(size_t)goalIndex(targets[k]) * N];
        for (const Cand& x : cands) {
            if (packed[x.box] || to[x.box] >= INF) continue;
            bool seen = false;
            for (const Pair& p : pairs) seen |= p.box == x.box && p.target == targets[k];
            if (!seen) pairs.push_back({to[x.box], (int)k, x.box, targets[k]});
        }
    }
    stable_sort(pairs.begin(), pairs.end(),
                [](const Pair& a, const Pair& b) { return a.rank != b.rank ? a.rank < b.rank : a.dist < b.dist; });
    for (const Pair& p : pairs) {
        if ((int)found.size() >= settings.poMacros) break;
        if (!canReach(p.box, p.target)) continue;
        stats.poTried++;
        if (!boxPath(occ, player, p.box, p.target, path, settings.poPathStates)) continue;
        stats.poFound++;
        store.push_back(path);
        found.push_back({p.box, (int)(path.back() & 3), (int)store.size() - 1});
    }
    bool stuck = found.empty();
    if (stuck) stats.poStuck++;
    if (stuck && settings.poParking) {
        // Parking (SOKOBAN_KERNEL_POK; YASS parks boxes too, in its own
        // way): for the 2 nearest boxes the target's pulls reach, each other
        // box the player can push whose removal gives that box a path (a
        // blocker) is taken by a macro to the nearest cell off that path
        // (its box cells and the player's pushing cells) after which the box
        // has its path; that child is ranked first of its count (Cand.bonus).
        Marks& avoid = packingChildren_avoid;
        if (avoid.v.size() != (size_t)N) avoid.init(N);
        int tried = 0;
        vector<int> parked;
        for (const Pair& p : pairs) {
            if (tried >= 2 || (int)found.size() >= settings.poMacros) break;
            if (!canReach(p.box, p.target)) continue;
            tried++;
            for (int x : boxes) {
                if (x == p.box || packed[x] || find(parked.begin(), parked.end(), x) != parked.end()) continue;
                bool pushable = false;
                for (const Cand& c : cands) pushable |= c.box == x && c.macro < 0;
                if (!pushable) continue;
                occ[x] = 0;
                stats.poParkTried++;
                bool ok = boxPath(occ, player, p.box, p.target, path, settings.poPathStates);
                occ[x] = 1;
                if (!ok) continue;
                avoid.next();
                for (uint32_t st : path) {
                    int c = st >> 2, d = st & 3;
                    avoid.set(c); avoid.set(c + OFF[d]); avoid.set(c - OFF[d]);
                }
                // the nearest parking cells first, until one leaves the box a
                // path (the player then stands where the last push left it)
                vector<uint32_t> park;
                for (int attempt = 0; attempt < 4; attempt++) {
                    if (!boxPath(occ, player, x, -1, park, settings.poPathStates, &avoid)) break;
                    int last = park.back() >> 2, dest = last + OFF[park.back() & 3];
                    occ[x] = 0; occ[dest] = 1;
                    bool opens = boxPath(occ, last, p.box, p.target, path, settings.poPathStates);
                    occ[dest] = 0; occ[x] = 1;
                    if (!opens) { avoid.set(dest); continue; }
                    stats.poParked++;
                    parked.push_back(x);
                    store.push_back(park);
                    // ranked first of its count: it opens the target
                    found.push_back({x, (int)(park.back() & 3), (int)store.size() - 1, settings.poRank / 2});
                    break;
                }
            }
        }
    }
    // The opening search (SOKOBAN_KERNEL_POL) when stuck and parking found
    // nothing: the first push of the shortest line that gives a box a path.
    uint32_t opening = UINT32_MAX;
    if (stuck && found.empty() && settings.poOpen > 0) opening = poOpening(occ, player, packed, targets, canReach);
    // YASS's score (the second packing search): the distance table, only
    // where ordinary pushes are children
    ysQueueOn = ysQueueWeight && stuck;
    if (ysQueueOn) {
        ysDistances(packed, targets);
        ysQueueTargets = targets;
    }
    if (!stuck) {
        cands = found;
    } else {
        // stuck: the ordinary pushes of the boxes not packed rearrange the
        // position
        cands.erase(remove_if(cands.begin(), cands.end(), [&](const Cand& x) { return packed[x.box] != 0; }),
                    cands.end());
        cands.insert(cands.end(), found.begin(), found.end());
        for (Cand& x : cands)  // that push ranked first of its count
            if (x.macro < 0 && ((uint32_t)x.box << 2 | x.dir) == opening) x.bonus = PO_OPEN_BONUS;
    }
    for (int i = 0; i < end; i++) packed[poOrder[i]] = 0;
    return target;
}

// The packing order from the level's start (YASS's
// idea, our own code): from the solved position, the player on its starting
// square, the boxes are pulled off the goals back to the starting squares,
// a phase at a time.  A phase is every goal whose box the player can pull
// (the other goals' boxes fixed) to a starting square not used yet, one
// square per box (a matching); its boxes leave the board, which opens the
// next phase.  When no box can reach an unused starting square, the next
// phase is the goals whose box can be pulled off the goals at all (to a
// square where it waits); when none can, the rest is the last phase.  Boxes
// that start on a goal form the first phase.  The order is the phases
// backwards (the last pulled off filled first); within a phase, as packOrder.

// The cells the box on `box` can be pulled to (marked in `cells`), the
// player starting in the region of any of `players`, the other boxes of occ
// fixed; at most `limit` (box cell, player region) states, kept in `known`
// as cell * N + the region's smallest cell when it is given.  True when the
// search was exhausted below the limit (every state found).
bool Kernel::pullCells(uint8_t* occ, int box, const vector<int>& players, Marks& cells, int limit,
                      unordered_set<uint64_t>* knownOut) {
    Marks& m = pullCells_m; Marks& child = pullCells_child;
    vector<int>& todo = pullCells_todo;
    if (m.v.size() != (size_t)N) { m.init(N); child.init(N); }
    cells.next();
    cells.set(box);
    occ[box] = 1;
    vector<pair<int, int>> states;
    unordered_set<uint64_t> mine;
    unordered_set<uint64_t>& known = knownOut ? *knownOut : mine;
    known.clear();
    for (int p : players) {
        int low = reach(p, occ, m, todo);
        if (known.insert((uint64_t)box * N + low).second) states.push_back({box, low});
    }
    size_t i = 0;
    for (; i < states.size() && (int)states.size() < limit; i++) {
        int c = states[i].first;
        occ[c] = 1;
        reach(states[i].second, occ, m, todo);
        for (int d = 0; d < 4; d++) {
            int to = c + OFF[d], pl = c + 2 * OFF[d];  // the player on `to` steps back to pl
            if (pl < 0 || pl >= N || !m.has(to) || wall_[pl] || occ[pl]) continue;
            occ[c] = 0;
            occ[to] = 1;
            int nl = reach(pl, occ, child, todo);
            occ[to] = 0;
            occ[c] = 1;
            if (!known.insert((uint64_t)to * N + nl).second) continue;
            cells.set(to);
            states.push_back({to, nl});
        }
        occ[c] = 0;
    }
    occ[box] = 1;
    return i >= states.size();
}

void Kernel::startPackingOrder(vector<int>& order) {
    vector<int> old;
    computePackingOrder(old);
    vector<int> rankOf(N, 0);
    for (size_t i = 0; i < old.size(); i++) rankOf[old[i]] = (int)i;
    vector<uint8_t> occ(N, 0), used(N, 0);
    vector<vector<int>> phases;  // in pulling order (the last filled first)
    vector<int> left, first;
    for (int g : goals) {
        bool startsFull = find(startBoxes.begin(), startBoxes.end(), g) != startBoxes.end();
        if (startsFull) { first.push_back(g); used[g] = 1; }
        else left.push_back(g);
        occ[g] = 1;
    }
    Marks cells;
    cells.init(N);
    const int LIMIT = 4000;
    while (!left.empty()) {
        // each goal's box: the unused starting squares it can be pulled to
        vector<vector<int>> adj(left.size());
        vector<uint8_t> out(left.size(), 0);
        vector<int> starts;
        for (int c : startBoxes) if (!used[c]) starts.push_back(c);
        for (size_t i = 0; i < left.size(); i++) {
            pullCells(occ.data(), left[i], {startPlayer}, cells, LIMIT);
            for (size_t j = 0; j < starts.size(); j++)
                if (cells.has(starts[j])) adj[i].push_back((int)j);
            for (int c = 0; c < N && !out[i]; c++) out[i] = cells.has(c) && !goal_[c];
        }
        vector<int> owner(starts.size(), -1);
        vector<char> seen;
        for (size_t i = 0; i < left.size(); i++) {
            seen.assign(starts.size(), 0);
            augmentKuhn((int)i, adj, owner, seen);
        }
        vector<int> now;
        for (size_t j = 0; j < starts.size(); j++)
            if (owner[j] >= 0) { now.push_back(left[owner[j]]); used[starts[j]] = 1; }
        if (now.empty())
            for (size_t i = 0; i < left.size(); i++) if (out[i]) now.push_back(left[i]);
        if (now.empty()) now = left;
        for (int g : now) {
            occ[g] = 0;
            left.erase(find(left.begin(), left.end(), g));
        }
        phases.push_back(now);
    }
    if (!first.empty()) phases.push_back(first);
    order.clear();
    for (size_t p = phases.size(); p-- > 0;) {
        sort(phases[p].begin(), phases[p].end(), [&](int a, int b) { return rankOf[a] < rankOf[b]; });
        for (int g : phases[p]) order.push_back(g);
    }
}
