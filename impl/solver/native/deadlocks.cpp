// Deadlocks: freeze, corral deadlocks (barrierAlive), the learned
// patterns, PI-corral pruning and boxes frozen on goals.
#include "kernel.h"

// ------------------------------------------------------------ deadlocks --
bool Kernel::frozen(const uint8_t* occ, int c, int* tmp, int nt) {
    for (int ax = 0; ax < 2; ax++) {
        int o = ax == 0 ? 1 : W;
        int a = c - o, b = c + o;
        bool ta = false, tb = false;
        for (int i = 0; i < nt; i++) { if (tmp[i] == a) ta = true; if (tmp[i] == b) tb = true; }
        if (wall_[a] || wall_[b] || ta || tb) continue;
        if (dead_[a] && dead_[b]) continue;
        tmp[nt] = c;
        if (occ[a] && frozen(occ, a, tmp, nt + 1)) continue;
        if (occ[b] && frozen(occ, b, tmp, nt + 1)) continue;
        return false;
    }
    return true;
}

bool Kernel::freezeDeadlock(const uint8_t* occ, int c) {
    int* tmp = freezeDeadlock_tmp;
    if (!goal_[c]) return frozen(occ, c, tmp, 0);
    if (!frozen(occ, c, tmp, 0)) return false;
    for (int d = 0; d < 4; d++) {
        int x = c + OFF[d];
        if (occ[x] && !goal_[x] && frozen(occ, x, tmp, 0)) return true;
    }
    return false;
}

bool Kernel::pushAllowed(uint8_t* occ, int b, int t) {
    if (wall_[t] || occ[t] || dead_[t]) return false;
    occ[b] = 0; occ[t] = 1;
    bool blocked = freezeDeadlock(occ, t);
    occ[t] = 0; occ[b] = 1;
    return !blocked;
}

// The pushes to make when a PI-corral exists (true), else false.
// Every corral of a position: a connected area of free cells the player
// cannot reach (found from the boxes' sides), with its barrier (the boxes
// next to it).  fn(aid, cells, barrier) is called once per area, its cells
// marked in areaMarks with areaOf == aid; it returns false to stop.
template <class Fn>
void Kernel::forEachCorral(const uint8_t* occ, const Marks& seen, const vector<int>& boxes, Fn fn) {
    areaMarks.next();
    int areas = 0;
    vector<int>& cells = forEachCorral_cells; vector<int>& barrier = forEachCorral_barrier;
    vector<uint8_t>& inBarrier = forEachCorral_inBarrier;
    if (inBarrier.size() != (size_t)N) inBarrier.assign(N, 0);
    for (int b : boxes) {
        for (int d = 0; d < 4; d++) {
            int s = b + OFF[d];
            if (!inside_[s] || occ[s] || seen.has(s) || areaMarks.has(s)) continue;
            int aid = ++areas;
            cells.clear(); barrier.clear();
            cells.push_back(s);
            areaMarks.set(s); areaOf[s] = aid;
            for (size_t i = 0; i < cells.size(); i++) {
                int c = cells[i];
                for (int e = 0; e < 4; e++) {
                    int x = c + OFF[e];
                    if (!inside_[x] || areaMarks.has(x)) continue;
                    if (occ[x]) {
                        if (!inBarrier[x]) { inBarrier[x] = 1; barrier.push_back(x); }
                    } else if (!seen.has(x)) {
                        areaMarks.set(x); areaOf[x] = aid;
                        cells.push_back(x);
                    }
                }
            }
            for (int x : barrier) inBarrier[x] = 0;
            if (!fn(aid, cells, barrier)) return;
        }
    }
}

string Kernel::subKey(const vector<int>& sortedBoxes, int player) {
    string k((const char*)sortedBoxes.data(), sortedBoxes.size() * sizeof(int));
    k.append((const char*)&player, sizeof(int));
    return k;
}

void Kernel::learn(const vector<int>& boxes, const vector<int>& region) {
    vector<Pattern>& list = patterns;
    vector<vector<int>>& at = patternsAt;
    if (!learnPatterns || list.size() >= PATTERNS) return;
    if (at.size() != (size_t)N) { at.assign(N, {}); patternsFirst.assign(N, {}); }
    vector<int> sorted(boxes);
    sort(sorted.begin(), sorted.end());
    if (!patternKeys.insert(subKey(sorted, *min_element(region.begin(), region.end()))).second)
        return;  // known already (a position queued before it was learned)
    Pattern pt{boxes, vector<uint64_t>((N + 63) / 64, 0), vector<uint64_t>(WORDS, 0)};
    for (int c : region) pt.region[c >> 6] |= 1ULL << (c & 63);
    for (int c : boxes) {
        at[c].push_back((int)list.size());
        pt.bits[compact[c] >> 6] |= 1ULL << (compact[c] & 63);
    }
    patternsFirst[sorted[0]].push_back((int)list.size());
    list.push_back(move(pt));
}

// Does the position (box set b, its boxes, the player on `player`) hold
// a learned pattern, whichever box moved last?  A child is matched when
// queued (learnedDead), against the patterns known then; a position queued
// before a pattern was learned, and every position pushed from it without
// moving the pattern's boxes, is caught here when it is expanded.
bool Kernel::holdsPattern(const uint64_t* b, const vector<int>& boxes, int player) {
    if (patternsFirst.empty()) return false;
    for (int c : boxes)
        for (int id : patternsFirst[c]) {
            const Pattern& pt = patterns[id];
            if (!(pt.region[player >> 6] >> (player & 63) & 1)) continue;
            int w = 0;
            while (w < WORDS && (pt.bits[w] & ~b[w]) == 0) w++;
            if (w == WORDS) { stats.nodeDead++; return true; }
        }
    return false;
}

// Is the position (boxes in occ, the box just pushed onto `pushed`, the
// player on `player`) an instance of a learned pattern?
// (which: the matching pattern's index, when given.)
bool Kernel::learnedDead(const uint8_t* occ, int pushed, int player, int* which) {
    const vector<Pattern>& list = patterns;
    const vector<vector<int>>& at = patternsAt;
    if (at.empty()) return false;
    for (int id : at[pushed]) {
        const Pattern& pt = list[id];
        if (!(pt.region[player >> 6] >> (player & 63) & 1)) continue;
        bool all = true;
        for (int c : pt.boxes) if (!occ[c]) { all = false; break; }
        if (all) {
            stats.patternDead++;
            if (which) *which = id;
            return true;
        }
    }
    return false;
}

// `states`: the search's budget (the corral test's settings.corralStates; the
// dead-end and deep-failure tests give it their own).
bool Kernel::barrierAlive(const vector<int>& barrier, int player, int states) {
    if (states < 0) states = settings.corralStates;
    vector<uint8_t>& occ = barrierAlive_occ;
    Marks& reached = barrierAlive_reached; Marks& after = barrierAlive_after;
    vector<int>& todo = barrierAlive_todo; vector<int>& todo2 = barrierAlive_todo2;
    if (occ.size() != (size_t)N) { occ.assign(N, 0); reached.init(N); after.init(N); }
    vector<int> bx(barrier), nb;
    sort(bx.begin(), bx.end());
    for (int c : bx) occ[c] = 1;
    int low = reach(player, occ.data(), reached, todo);
    for (int c : bx) occ[c] = 0;
    string key = subKey(bx, low);
    auto known = corralMemo.find(key);
    if (known != corralMemo.end()) return known->second;
    stats.corralTests++;
    vector<int> region(todo);  // the player's region with the barrier alone
    unordered_set<string> visited{key};
    vector<string> queue{key};
    bool alive = false;
    for (size_t qi = 0; qi < queue.size() && !alive; qi++) {
        if ((int)visited.size() > states) { alive = true; break; }
        int n = (int)(queue[qi].size() / sizeof(int)) - 1;  // boxes
        bx.resize(n);
        memcpy(bx.data(), queue[qi].data(), n * sizeof(int));
        int pl;
        memcpy(&pl, queue[qi].data() + n * sizeof(int), sizeof(int));
        for (int c : bx) occ[c] = 1;
        int plLow = reach(pl, occ.data(), reached, todo);
        for (int i = 0; i < n && !alive; i++) {
            for (int d = 0; d < 4; d++) {
                int b = bx[i], t = b + OFF[d];
                if (!reached.has(b - OFF[d]) || !pushAllowed(occ.data(), b, t)) continue;
                nb = bx;
                nb[i] = t;
                occ[b] = 0; occ[t] = 1;
                int nl = lowAfterPush(occ.data(), reached, plLow, b, t);
                if (nl < 0) nl = reach(b, occ.data(), after, todo2);
                occ[t] = 0; occ[b] = 1;
                sort(nb.begin(), nb.end());
                alive = all_of(nb.begin(), nb.end(), [&](int c) { return goal_[c] != 0; });
                if (alive) break;
                string k = subKey(nb, nl);
                if (visited.insert(k).second) queue.push_back(move(k));
            }
        }
        for (int c : bx) occ[c] = 0;
    }
    corralStatesUsed += visited.size();
    if (corralMemo.size() >= CORRAL_MEMO) corralMemo.clear();
    corralMemo.emplace(move(key), alive);
    if (!alive) { stats.corralDead++; learn(barrier, region); }
    return alive;
}

// PI-corral pruning.  Returns true and the pushes into the PI-corral with
// the fewest pushes in `out` when there is one.  On the way, the corral
// deadlock test (barrierAlive) runs on every unfinished corral, PI or not,
// whose barrier holds the box just pushed and has at most settings.corralBoxes
// boxes: when one is dead it sets `dead` and returns false.
bool Kernel::piCorral(const uint8_t* occ, const Marks& seen, const vector<int>& boxes, int player,
                     int lastBox, vector<Cand>& out, bool& dead) {
    bool found = false;
    dead = false;
    vector<Cand> best, pushes;
    forEachCorral(occ, seen, boxes, [&](int aid, const vector<int>& cells, const vector<int>& barrier) {
        if (found && best.empty() && settings.corralStates == 0) return false;
        bool unfinished = false;
        for (int x : barrier) if (!goal_[x]) { unfinished = true; break; }
        bool barrierDone = !unfinished;
        if (!unfinished)
            for (int c : cells) if (goal_[c]) { unfinished = true; break; }
        if (!unfinished) return true;
        // The deadlock test: on every unfinished corral whose barrier holds
        // the box just pushed (the others were there, and tested, in the parent).
        if (settings.corralStates > 0 && !barrierDone && (int)barrier.size() <= settings.corralBoxes &&
            (lastBox < 0 || find(barrier.begin(), barrier.end(), lastBox) != barrier.end()) &&
            !barrierAlive(barrier, player)) {
            dead = true;
            return false;
        }
        pushes.clear();
        for (int x : barrier) {
            for (int e = 0; e < 4; e++) {
                int t = x + OFF[e], pc = x - OFF[e];
                if (!inside_[t] || occ[t] || dead_[t] || !inside_[pc]) continue;
                bool tIn = areaMarks.has(t) && areaOf[t] == aid;
                if (seen.has(pc)) {
                    if (!tIn) return true;
                    pushes.push_back({x, e, -1});
                } else if (!(areaMarks.has(pc) && areaOf[pc] == aid)) {
                    return true;
                }
            }
        }
        if (!found || pushes.size() < best.size()) {
            best = pushes;
            found = true;
        }
        return true;
    });
    if (dead) return false;
    if (found) out = best;
    return found;
}

// --------------------------------------------------- boxes frozen on goals --
// A box frozen on a goal never moves again: it is a wall for the others.
// After a push that leaves a box frozen on a goal, the position is dead when
// the other boxes can no longer be matched to the other goals, each box to
// a goal a lone box could still be pushed to from its cell with those walls.

bool Kernel::augmentKuhn(int v, const vector<vector<int>>& adj, vector<int>& owner, vector<char>& used) {
    for (int j : adj[v]) {
        if (used[j]) continue;
        used[j] = 1;
        if (owner[j] < 0 || augmentKuhn(owner[j], adj, owner, used)) { owner[j] = v; return true; }
    }
    return false;
}

const GoalReach& Kernel::goalReachOf(const vector<int>& fixedCells, const vector<uint8_t>& fixed) {
    for (const GoalReach& r : goalReach)
        if (r.fixedCells == fixedCells) return r;
    if (goalReach.size() < 8) goalReach.emplace_back();
    GoalReach& r = goalReach[goalReachNext++ % goalReach.size()];
    r.fixedCells = fixedCells;
    r.open.clear();
    for (int g : goals) if (!fixed[g]) r.open.push_back(g);
    r.gw = ((int)r.open.size() + 63) / 64;
    r.mask.assign((size_t)N * r.gw, 0);
    Marks& seen = goalReachOf_seen;
    vector<int>& q = goalReachOf_q;
    if (seen.v.size() != (size_t)N) seen.init(N);
    for (size_t j = 0; j < r.open.size(); j++) {
        // cells from which a lone box can be pushed onto open[j]
        seen.next();
        q.assign(1, r.open[j]);
        seen.set(r.open[j]);
        r.mask[(size_t)r.open[j] * r.gw + j / 64] |= 1ULL << (j % 64);
        for (size_t i = 0; i < q.size(); i++) {
            for (int d = 0; d < 4; d++) {
                int prev = q[i] - OFF[d], pl = q[i] - 2 * OFF[d];
                if (pl < 0 || pl >= N || wall_[prev] || wall_[pl] || fixed[prev] || fixed[pl] || seen.has(prev))
                    continue;
                seen.set(prev);
                r.mask[(size_t)prev * r.gw + j / 64] |= 1ULL << (j % 64);
                q.push_back(prev);
            }
        }
    }
    return r;
}

bool Kernel::frozenGoalsDead(const uint8_t* occ, const vector<int>& boxes) {
    int* tmp = frozenGoalsDead_tmp;
    vector<uint8_t>& fixed = frozenGoalsDead_fixed;
    vector<int>& rest = frozenGoalsDead_rest; vector<int>& fixedCells = frozenGoalsDead_fixedCells; vector<int>& owner = frozenGoalsDead_owner;
    vector<char>& used = frozenGoalsDead_used;
    vector<vector<int>>& adj = frozenGoalsDead_adj;
    if (fixed.size() != (size_t)N) fixed.assign(N, 0);
    rest.clear();
    fixedCells.clear();
    for (int c : boxes) {
        if (goal_[c] && frozen(occ, c, tmp, 0)) { fixed[c] = 1; fixedCells.push_back(c); }
        else rest.push_back(c);
    }
    sort(fixedCells.begin(), fixedCells.end());
    const GoalReach& r = goalReachOf(fixedCells, fixed);
    for (int c : fixedCells) fixed[c] = 0;
    if (adj.size() < rest.size()) adj.resize(rest.size());
    for (size_t i = 0; i < rest.size(); i++) {
        adj[i].clear();
        const uint64_t* m = &r.mask[(size_t)rest[i] * r.gw];
        for (int w = 0; w < r.gw; w++)
            for (uint64_t x = m[w]; x; x &= x - 1) adj[i].push_back(w * 64 + __builtin_ctzll(x));
    }
    owner.assign(r.open.size(), -1);
    for (size_t i = 0; i < rest.size(); i++) {
        used.assign(r.open.size(), 0);
        if (!augmentKuhn((int)i, adj, owner, used)) { stats.frozenDead++; return true; }
    }
    return false;
}
