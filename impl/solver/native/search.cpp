// The searches' expansion: forward (pushes, with macros, the packing and
// feature-space orders) and backward (pulls), and their meeting.
#include "search.h"

// The partner search holding this state, its node id in *at; null if none.
Search* Kernel::partnerOf(bool backward, uint64_t h, const uint64_t* b, int low, int* at) {
    if (!g_runs) return nullptr;
    for (Search* o : *g_runs) {
        if (o->backward == backward) continue;
        int id = o->find(h, b, low);
        if (id >= 0) { *at = id; return o; }
    }
    return nullptr;
}

void Search::solvedWith(const vector<uint32_t>& pushes) {
    lurd = kn.toLurd(pushes);
    done = true;
    result = "solved";
}

bool Search::keep(int old, uint64_t h, const uint64_t* b, int low, int parent, int g1, uint32_t mv,
                  int mvn, const Match& childM) {
    int cid;
    if (old >= 0) {
        cid = old;
        nodes[old].parent = parent; nodes[old].g = g1; nodes[old].mv = mv; nodes[old].mvn = mvn;
    } else {
        cid = add(h, b, low, parent, g1, mv, mvn);
        int at;
        if (Search* o = kn.partnerOf(backward, h, b, low, &at)) {
            Search* fw = backward ? o : this;
            Search* bw = backward ? this : o;
            vector<uint32_t> pushes;
            fw->pushesTo(backward ? at : cid, pushes);
            bw->pullsHome(backward ? cid : at, pushes);
            solvedWith(pushes);
            kn.stats.solvedBy = "meeting";
            return true;
        }
    }
    remember(cid, childM);
    queue({(int32_t)(g1 + weight * childM.total + rank(b)), g1, (uint32_t)cid});
    return false;
}

// The candidate pushes of node nd (its boxes in occ and `boxes`, bitset b,
// the player's region marked in `seen`) into cands: false when the node is
// dead (a learned pattern, a corral deadlock).  lastBox: where the push
// that led here left its box; macroTarget: the goal the macros aim at (-1:
// none).
bool Search::children(const Node& nd, const uint64_t* b, const vector<int>& boxes, uint8_t* occ, const Marks& seen,
                      vector<Cand>& cands, int& lastBox, int& macroTarget) {
    cands.clear();
    lastBox = -1;  // where the push that led here left its box
    if (nd.parent >= 0) {
        if (nd.mvn == 0) { uint32_t p = macroStore[nd.mv].back(); lastBox = (p >> 2) + kn.OFF[p & 3]; }
        else lastBox = (int)(nd.mv >> 2) + nd.mvn * kn.OFF[nd.mv & 3];
    }
    bool corralDead = false;
    kn.stats.exp++;
    if (kn.holdsPattern(b, boxes, nd.player)) return false;
    bool pi = kn.piCorral(occ, seen, boxes, nd.player, lastBox, cands, corralDead);
    if (pi) kn.stats.piCorrals++;
    if (!pi) {
        if (corralDead) {
            kn.stats.deadExp++;
            return false;
        }
        for (int i = 0; i < kn.K; i++)
            for (int d = 0; d < 4; d++)
                if (seen.has(boxes[i] - kn.OFF[d])) cands.push_back({boxes[i], d, -1});
    }
    macroTarget = -1;
    if (packing) {
        kn.ysQueueWeight = ysWeight;
        macroTarget = kn.packingChildren(occ, boxes, nd.player, cands, macroStore);
    }
    if (fs && fsAdvice && macros && !kn.poOrder.empty()) {
        kn.ysQueueWeight = 0;
        // FESS's packing advisor: the packing search's box-path macros
        // to the next goal of the order, beside the ordinary pushes.
        vector<Cand> advice = cands;
        kn.packingChildren(occ, boxes, nd.player, advice, macroStore);
        for (const Cand& x : advice) if (x.macro >= 0) cands.push_back(x);
    }
    if (macros && !packing) for (int x : kn.packOrder) if (!occ[x]) { macroTarget = x; break; }
    if (macros && !packing && !kn.packOrder.empty() && nd.parent >= 0) {
        int last = lastBox;
        // The box just pushed, when it is near the goals and has a path
        // to the next goal: the goal macro replaces every other push
        // (Rolling Stone's goal cut).
        vector<uint32_t> path;
        if (macroTarget >= 0 && !kn.goal_[last] && kn.nearest_[last] <= kn.settings.macroRadius) {
            kn.stats.tried++;
            if (kn.boxPath(occ, nd.player, last, macroTarget, path)) {
                kn.stats.found++;
                macroStore.push_back(path);
                cands.clear();
                cands.push_back({last, (int)(path.back() & 3), (int)macroStore.size() - 1});
            }
        }
    }
    return true;
}

long long Search::run(long long budget) {
    if (backward) return runBack(budget);
    kn.costTab = kn.pdist.data();
    kn.nearTab = kn.nearest_.data();
    long long count = 0;
    Scratch& sc = kn.scratch();
    vector<uint8_t>& occ = sc.occ;
    Marks &seen = sc.seen, &cm = sc.cm;
    vector<int> &todo = sc.todo, &todo2 = sc.todo2;
    vector<int> boxes, childBoxes;
    int* frozenTmp = frozenScratch;
    vector<Cand> cands;
    vector<uint64_t> cb(kn.WORDS), pb(kn.WORDS);
    Match parentM, childM;
    while (count < budget) {
        int id = next();
        if (id == EXHAUSTED) { done = true; result = "exhausted"; return count; }
        if (id == STALE) continue;
        count++;
        const Node nd = nodes[id];
        bool haveM = unpack(id, pb, boxes, parentM);
        const uint64_t* b = pb.data();
        for (int c : boxes) occ[c] = 1;
        kn.reach(nd.player, occ.data(), seen, todo);
        fsParent.ready = false;
        int lastBox, macroTarget;
        if (!children(nd, b, boxes, occ.data(), seen, cands, lastBox, macroTarget)) {
            for (int c : boxes) occ[c] = 0;
            continue;
        }
        bool matched = haveM;
        kn.stats.cands += cands.size();
        deadEnd.start(kn.settings.deStates > 0 && !cands.empty());
        for (const Cand& cd : cands) {
            int bc = cd.box, d = cd.dir, t, lastCell, steps;
            if (cd.macro >= 0) {
                deadEnd.fail();
                auto& ms = macroStore[cd.macro];
                lastCell = ms.back() >> 2;
                t = lastCell + kn.OFF[ms.back() & 3];  // the macro's goal
                steps = ms.size();
            } else {
                t = bc + kn.OFF[d];
                if (!kn.pushAllowed(occ.data(), bc, t)) { deadEnd.refused(occ.data(), bc, t); continue; }
                steps = 1;
                lastCell = bc;
                if (macros) t = kn.tunnelEnd(occ.data(), bc, d, lastCell, steps);
            }
            // child state
            kn.movedBits(b, bc, t, cb);
            occ[bc] = 0; occ[t] = 1;
            // (the packing search's rank counts the child's region and the
            // feature-space search reads its cells: flooded there)
            int low = packing || fs || cd.macro >= 0 || steps > 1 ? -1
                      : kn.lowAfterPush(occ.data(), seen, nd.player, bc, t);
            if (low < 0) {
                low = kn.reach(lastCell, occ.data(), cm, todo2);
                childRegion = todo2.size();
            }
            childYs = 0;
            if (packing && kn.ysQueueOn && cd.macro < 0) {
                int k;
                bool on;
                childYs = kn.ysMoved(kn.ysTab, kn.ysQueueTargets, occ.data(), bc, t, ysWeight, k, on);
            }
            bool goalsLost = false;
            if (kn.goal_[t] && kn.frozen(occ.data(), t, frozenTmp, 0)) {
                childBoxes = boxes;
                for (int& x : childBoxes) if (x == bc) x = t;
                goalsLost = kn.frozenGoalsDead(occ.data(), childBoxes);
            }
            int pid = -1;
            if (goalsLost) deadEnd.fail();
            else if (kn.learnedDead(occ.data(), t, lastCell, &pid)) goalsLost = true;
            occ[t] = 0; occ[bc] = 1;
            if (goalsLost) {
                if (pid >= 0) deadEnd.matched(pid, bc, t);
                continue;
            }
            deadEnd.fail();  // a child that is not cut by a rule naming its boxes
            uint64_t h = nd.hash ^ kn.zobP[nd.player] ^ kn.zob[bc] ^ kn.zob[t] ^ kn.zobP[low];
            int g1 = nd.g + steps;
            int old;
            childBonus = packing ? cd.bonus : 0;
            if (!worth(h, cb.data(), low, g1, &old)) {
                // a parking that opens the target, to a position already
                // queued: queued again, first of its count
                if (childBonus && old >= 0 && !expanded[old]) {
                    if (!matched) { parentM.rows = boxes; kn.matchFull(parentM); matched = true; }
                    int r = std::find(boxes.begin(), boxes.end(), bc) - boxes.begin();
                    kn.matchMoved(parentM, r, t, childM);
                    int g0 = nodes[old].g;
                    queue({(int32_t)(g0 + weight * childM.total + rank(cb.data())), g0, (uint32_t)old});
                }
                continue;
            }

            if (!matched) {
                parentM.rows = boxes;
                kn.matchFull(parentM);
                matched = true;
            }
            int r = find_if(boxes.begin(), boxes.end(), [&](int x) { return x == bc; }) - boxes.begin();
            kn.matchMoved(parentM, r, t, childM);
            if (childM.total >= INF) continue;
            uint32_t mv = cd.macro >= 0 ? (uint32_t)cd.macro : ((uint32_t)bc << 2 | d);
            int mvn = cd.macro >= 0 ? 0 : steps;
            if (childM.total == 0) {
                // every box on a goal
                for (int c : boxes) occ[c] = 0;
                int cid = add(h, cb.data(), low, id, g1, mv, mvn);
                vector<uint32_t> pushes;
                pushesTo(cid, pushes);
                solvedWith(pushes);
                return count;
            }
            if (fs) {  // the child's feature cell (cm still holds its player region)
                int known = -1;
                if (cd.macro < 0 && !fsParent.ready) fsParent.compute(occ.data(), seen, boxes);
                occ[bc] = 0; occ[t] = 1;
                if (cd.macro < 0)  // the player walked over bc
                    known = fsParent.count(occ.data(), cm, t);
                fsCell = kn.featureCell(cb.data(), occ.data(), cm, known);
                occ[t] = 0; occ[bc] = 1;
            }
            if (keep(old, h, cb.data(), low, id, g1, mv, mvn, childM)) {
                for (int c : boxes) occ[c] = 0;
                return count;
            }
        }
        for (int c : boxes) occ[c] = 0;
        deadEnd.finish(nd.player);
        if ((count & 1023) == 0) account();
    }
    account();
    return count;
}

// Start states of the backward search: the boxes on the goals, one state per
// region of free cells the player may end in (every region inside the level:
// the last position of a forward solution can be any of them).
void Search::startBack() {
    kn.costTab = kn.bdist.data();
    kn.nearTab = kn.bnear.data();
    vector<uint8_t> occ(kn.N, 0);
    vector<uint64_t> b(kn.WORDS, 0);
    uint64_t h = 0;
    for (int g : kn.goals) {
        occ[g] = 1;
        b[kn.compact[g] >> 6] |= 1ULL << (kn.compact[g] & 63);
        h ^= kn.zob[g];
    }
    Match mt; mt.rows = kn.goals; kn.matchFull(mt);
    if (mt.total >= INF) { done = true; result = "exhausted"; return; }
    Marks m; m.init(kn.N);
    vector<uint8_t> taken(kn.N, 0);
    vector<int> todo;
    for (int c = 0; c < kn.N; c++) {
        if (!kn.inside_[c] || kn.wall_[c] || occ[c] || taken[c]) continue;
        int low = kn.reach(c, occ.data(), m, todo);
        for (int x : todo) taken[x] = 1;
        int id = add(h ^ kn.zobP[low], b.data(), low, -1, 0, 0, 1);
        remember(id, mt);
        heap.push({(int32_t)(weight * mt.total), 0, (uint32_t)id});
    }
    if (heap.empty()) { done = true; result = "exhausted"; }
}

// Expand up to `budget` backward nodes.  A pull: the player on p = b + d
// next to the box on b, the cell q = b + 2d free; the player steps to q and
// the box follows to p.  Pruning (sound for pulls): a box pulled onto a
// backward dead square, and no perfect matching of boxes to the start boxes
// under pull distances.  The goal: the box set of the level's start with the
// start player's cell in the player's region.  The answer is the pulls
// reversed into pushes (toLurd adds the walks).
long long Search::runBack(long long budget) {
    kn.costTab = kn.bdist.data();
    kn.nearTab = kn.bnear.data();
    long long count = 0;
    Scratch& sc = kn.scratch();
    vector<uint8_t>& occ = sc.occ;
    Marks &seen = sc.seen, &cm = sc.cm;
    vector<int> &todo = sc.todo, &todo2 = sc.todo2;
    vector<int> boxes;
    vector<uint64_t> cb(kn.WORDS), pb(kn.WORDS);
    Match parentM, childM;
    while (count < budget) {
        int id = next();
        if (id == EXHAUSTED) { done = true; result = "exhausted"; return count; }
        if (id == STALE) continue;
        count++;
        const Node nd = nodes[id];
        bool haveM = unpack(id, pb, boxes, parentM);
        const uint64_t* b = pb.data();
        for (int c : boxes) occ[c] = 1;
        kn.reach(nd.player, occ.data(), seen, todo);
        bool matched = haveM;
        for (int i = 0; i < kn.K; i++) {
            for (int d = 0; d < 4; d++) {
                int bc = boxes[i], p = bc + kn.OFF[d], q = p + kn.OFF[d];
                if (!seen.has(p) || kn.wall_[q] || occ[q] || kn.bnear[p] >= INF) continue;
                kn.movedBits(b, bc, p, cb);
                occ[bc] = 0; occ[p] = 1;
                int low = kn.reach(q, occ.data(), cm, todo2);
                bool home = cm.has(kn.startPlayer) && memcmp(cb.data(), kn.startBits.data(), kn.WORDS * 8) == 0;
                occ[p] = 0; occ[bc] = 1;

                uint64_t h = nd.hash ^ kn.zobP[nd.player] ^ kn.zob[bc] ^ kn.zob[p] ^ kn.zobP[low];
                int g1 = nd.g + 1;
                int old;
                if (!worth(h, cb.data(), low, g1, &old)) continue;
                if (!matched) {
                    parentM.rows = boxes;
                    kn.matchFull(parentM);
                    matched = true;
                }
                kn.matchMoved(parentM, i, p, childM);
                if (childM.total >= INF) continue;
                uint32_t mv = (uint32_t)bc << 2 | d;
                if (home) {
                    for (int c : boxes) occ[c] = 0;
                    int cid = add(h, cb.data(), low, id, g1, mv, 1);
                    vector<uint32_t> pushes;
                    pullsHome(cid, pushes);
                    solvedWith(pushes);
                    return count;
                }
                if (keep(old, h, cb.data(), low, id, g1, mv, 1, childM)) {
                    for (int c : boxes) occ[c] = 0;
                    return count;
                }
            }
        }
        for (int c : boxes) occ[c] = 0;
        if ((count & 1023) == 0) account();
    }
    account();
    return count;
}
