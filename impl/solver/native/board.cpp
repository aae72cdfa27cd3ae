// The board: reading the level, its precomputation (dead squares, push
// distances, tunnels, the goal room's packing order), the player's
// reachability, box paths and the answer as LURD.
#include "kernel.h"

double Kernel::elapsed() {
    return chrono::duration<double>(chrono::steady_clock::now() - t0).count();
}

// Player reachability: marks in m, returns the smallest reachable cell.
// (The hottest loop of the kernel: a queue in a plain buffer, copied into
// todo at the end, the cells in the same order as pushed one by one.)
int Kernel::reach(int start, const uint8_t* occ, Marks& m, vector<int>& todo) {
    m.next();
    vector<int>& buf = reach_buf;
    if (buf.size() < (size_t)N) buf.resize(N);
    int* q = buf.data();
    uint32_t* mark = m.v.data();
    const uint32_t stamp = m.stamp;
    const uint8_t* wall = wall_.data();
    const int o0 = OFF[0], o1 = OFF[1], o2 = OFF[2], o3 = OFF[3];
    mark[start] = stamp;
    q[0] = start;
    int n = 1, low = start;
    auto visit = [&](int x) {
        if (mark[x] != stamp && !wall[x] && !occ[x]) {
            mark[x] = stamp;
            q[n++] = x;
            if (x < low) low = x;
        }
    };
    for (int i = 0; i < n; i++) {
        const int c = q[i];
        visit(c + o0); visit(c + o1); visit(c + o2); visit(c + o3);
    }
    todo.assign(q, q + n);
    return low;
}

// The normalised player after a single push of the box on b to t (the
// player then on b), from the player's region before it (marked in
// `region`, its smallest cell `low`; occ as after the push): when t was
// outside that region and b's other neighbours are walls, boxes or in it,
// the region after the push is that region and b, so its smallest cell is
// min(low, b), found without a flood.  -1 otherwise (flood it: reach).
int Kernel::lowAfterPush(const uint8_t* occ, const Marks& region, int low, int b, int t) {
    if (region.has(t)) return -1;
    for (int d = 0; d < 4; d++) {
        int x = b + OFF[d];
        if (x != t && !wall_[x] && !occ[x] && !region.has(x)) return -1;
    }
    stats.lowQuick++;
    return min(low, b);
}

// The first level of the XSB text on `in` into the board; "" or the
// protocol's error line.
string Kernel::readLevel(istream& in) {
    vector<string> rows;
    string line;
    bool started = false;
    while (getline(in, line)) {
        if (!line.empty() && line.back() == '\r') line.pop_back();
        bool board = line.find_first_of("#@+$*.-_") != string::npos &&
                     line.find_first_not_of(" \t-_#@+$*.") == string::npos;
        if (board) {
            started = true;
            rows.push_back(line);
        } else if (started) {
            break;
        }
    }
    if (rows.empty()) return "error no level on stdin";
    int w = 0;
    for (auto& r : rows) w = max(w, (int)r.size());
    int h = rows.size();
    W = w + 2 * MARGIN;
    H = h + 2 * MARGIN;
    N = W * H;
    if (N >= 65000) return "error level too large for the kernel";
    OFF[0] = -W; OFF[1] = W; OFF[2] = -1; OFF[3] = 1;
    wall_.assign(N, 0); goal_.assign(N, 0);
    int players = 0;
    for (int i = 0; i < N; i++) {
        int x = i % W, y = i / W;
        if (x == 0 || y == 0 || x == W - 1 || y == H - 1) wall_[i] = 1;
    }
    for (int y = 0; y < h; y++)
        for (int x = 0; x < (int)rows[y].size(); x++) {
            int c = (y + MARGIN) * W + x + MARGIN;
            char ch = rows[y][x];
            if (ch == '#') wall_[c] = 1;
            if (ch == '$' || ch == '*') startBoxes.push_back(c);
            if (ch == '.' || ch == '*' || ch == '+') goal_[c] = 1;
            if (ch == '@' || ch == '+') { startPlayer = c; players++; }
        }
    if (players != 1) return "error need exactly one player";
    for (int c = 0; c < N; c++) if (goal_[c]) goals.push_back(c);
    if (goals.size() != startBoxes.size()) return "error boxes and goals differ in number";
    sort(startBoxes.begin(), startBoxes.end());
    K = startBoxes.size();
    if (K > 1000) return "error too many boxes for the kernel";
    return "";
}

void Kernel::analyse() {
    // Inside: reachable by the player ignoring boxes.
    vector<uint8_t> none(N, 0);
    Marks m; m.init(N);
    vector<int> todo;
    reach(startPlayer, none.data(), m, todo);
    inside_.assign(N, 0);
    compact.assign(N, -1);
    for (int c : todo) inside_[c] = 1;
    // Every non-wall cell gets a bit: a box may stand where the player never goes.
    for (int c = 0; c < N; c++)
        if (!wall_[c]) { compact[c] = cellOf.size(); cellOf.push_back(c); }
    F = cellOf.size();
    WORDS = (F + 63) / 64;
    for (int c : todo) {
        int x = c % W, y = c / W;
        for (int d = 0; d < 4; d++) {
            int e = c + OFF[d];
            int ex = e % W, ey = e / W;
            if (ex == 0 || ey == 0 || ex == W - 1 || ey == H - 1) openLevel = true;
        }
        (void)x; (void)y;
    }
    // Push distances by a backward pull search from every goal.
    int G = goals.size();
    pdist.assign((size_t)G * N, INF);
    vector<int> q;
    for (int g = 0; g < G; g++) {
        int* dist = &pdist[(size_t)g * N];
        dist[goals[g]] = 0;
        q.clear();
        q.push_back(goals[g]);
        for (size_t i = 0; i < q.size(); i++) {
            int c = q[i];
            for (int d = 0; d < 4; d++) {
                int prev = c - OFF[d], pl = c - 2 * OFF[d];
                if (pl < 0 || pl >= N) continue;
                if (!wall_[prev] && !wall_[pl] && dist[prev] == INF) {
                    dist[prev] = dist[c] + 1;
                    q.push_back(prev);
                }
            }
        }
    }
    dead_.assign(N, 0);
    nearest_.assign(N, INF);
    for (int c = 0; c < N; c++) {
        int best = INF;
        for (int g = 0; g < G; g++) best = min(best, pdist[(size_t)g * N + c]);
        nearest_[c] = best;
        if (best >= INF && !wall_[c]) dead_[c] = 1;
    }
    for (int d = 0; d < 4; d++) {
        corridor[d].assign(N, 0);
        int a0 = d < 2 ? 2 : 0;
        for (int c = 0; c < N; c++) {
            int x = c % W, y = c / W;
            if (x == 0 || y == 0 || x == W - 1 || y == H - 1) continue;
            if (!wall_[c] && wall_[c + OFF[a0]] && wall_[c + OFF[a0 + 1]]) corridor[d][c] = 1;
        }
    }
}

// A push of the box on bc in direction d taken on along a tunnel (a
// corridor one cell wide, no goal): returns where the box ends, its last
// cell before that in lastCell (where the player ends) and the pushes in
// steps.  occ is unchanged.
int Kernel::tunnelEnd(uint8_t* occ, int bc, int d, int& lastCell, int& steps) {
    int t = bc + OFF[d];
    lastCell = bc;
    steps = 1;
    if (!(corridor[d][t] && corridor[d][bc] && !goal_[t])) return t;
    occ[bc] = 0; occ[t] = 1;
    while (corridor[d][t] && corridor[d][lastCell] && !goal_[t]) {
        int nt = t + OFF[d];
        if (!pushAllowed(occ, t, nt)) break;
        occ[t] = 0; occ[nt] = 1;
        lastCell = t; t = nt;
        steps++;
    }
    occ[t] = 0; occ[bc] = 1;
    return t;
}

bool Kernel::clustered() {
    vector<uint8_t> seen(N, 0);
    roomGoal.assign(N, 0);
    bool any = false;
    for (int g : goals) {
        if (seen[g]) continue;
        seen[g] = 1;
        vector<int> block{g};
        for (size_t i = 0; i < block.size(); i++)
            for (int d = 0; d < 4; d++) {
                int x = block[i] + OFF[d];
                if (x >= 0 && x < N && goal_[x] && !seen[x]) { seen[x] = 1; block.push_back(x); }
            }
        if ((int)block.size() >= ROOM_GOALS) {
            any = true;
            for (int c : block) roomGoal[c] = 1;
        }
    }
    return any;
}

int Kernel::pullsOut(int g, const vector<uint8_t>& others) {
    vector<int> dist(N, -1);
    dist[g] = 0;
    vector<int> todo{g};
    for (size_t i = 0; i < todo.size(); i++) {
        int c = todo[i];
        for (int d = 0; d < 4; d++) {
            int m = c + OFF[d], behind = c + 2 * OFF[d];
            if (behind < 0 || behind >= N) continue;
            if (dist[m] >= 0 || wall_[m] || wall_[behind] || others[m] || others[behind]) continue;
            dist[m] = dist[c] + 1;
            if (!goal_[m]) return dist[m];
            todo.push_back(m);
        }
    }
    return -1;
}

// The packing order of every goal (back of a goal room first) into `order`.
void Kernel::computePackingOrder(vector<int>& order) {
    vector<uint8_t> filled(N, 0);
    vector<int> left(goals), removed;
    for (int g : goals) filled[g] = 1;
    while (!left.empty()) {
        int bestD = -1, bestG = -1;
        for (int g : left) {
            filled[g] = 0;
            int d = pullsOut(g, filled);
            filled[g] = 1;
            if (d >= 0 && (bestD < 0 || d < bestD)) { bestD = d; bestG = g; }
        }
        if (bestG < 0) break;
        removed.push_back(bestG);
        filled[bestG] = 0;
        left.erase(find(left.begin(), left.end(), bestG));
    }
    order = left;  // ascending already
    for (auto it = removed.rbegin(); it != removed.rend(); ++it) order.push_back(*it);
}

int Kernel::goalIndex(int g) { return lower_bound(goals.begin(), goals.end(), g) - goals.begin(); }

// Shortest push sequence (cell<<2|dir) taking the box on `box` to `target`,
// the other boxes fixed; empty when not found within settings.pathStates states.
// `limit` > 0 replaces settings.pathStates (the packing-order search's larger limit).
// With `avoid` (the packing search's parking, SOKOBAN_KERNEL_POK): the
// fewest pushes taking the box to any cell not marked in `avoid` and not a
// dead square (target unused).
bool Kernel::boxPath(uint8_t* occ, int playerLow, int box, int target, vector<uint32_t>& out,
                    int limit, const Marks* avoid) {
    if (limit <= 0) limit = settings.pathStates;
    const int* to = avoid ? nearest_.data() : &pdist[(size_t)goalIndex(target) * N];
    const int weight = avoid ? 0 : 1;  // parking: breadth first
    if (to[box] >= INF) return false;
    occ[box] = 0;
    typedef BoxPathState St;
    vector<St>& states = boxPath_states;
    states.clear();
    states.push_back({box, playerLow, -1, 0, 0});
    // (cell, region) pairs seen: a stamp per pair of non-wall cells
    Marks& known = boxPath_known;
    if (known.v.size() != (size_t)F * F) known.init(F * F);
    known.next();
    auto fresh = [&](int cell, int low) {
        size_t k = (size_t)compact[cell] * F + compact[low];
        if (known.has(k)) return false;
        known.set(k);
        return true;
    };
    fresh(box, playerLow);
    typedef BoxPathEntry QE;  // ((f, counter), state)
    priority_queue<QE, vector<QE>, greater<QE>>& fr = boxPath_fr;
    fr = {};
    fr.push({{weight * to[box], 0}, 0});
    int counter = 1;
    Marks& m = boxPath_m;
    Marks& mm = boxPath_mm;
    vector<int>& todo = boxPath_todo;
    vector<int>& td = boxPath_td;
    if (m.v.size() != (size_t)N) { m.init(N); mm.init(N); }
    bool ok = false;
    while (!fr.empty() && (int)states.size() < limit) {
        int si = fr.top().second; fr.pop();
        St s = states[si];
        occ[s.cell] = 1;
        int stLow = reach(s.low, occ, m, todo);
        occ[s.cell] = 0;
        for (int d = 0; d < 4 && !ok; d++) {
            int c = s.cell, t = c + OFF[d];
            if (!m.has(c - OFF[d]) || wall_[t] || occ[t] || to[t] >= INF) continue;
            occ[c] = 1;
            bool allowed = pushAllowed(occ, c, t);
            occ[c] = 0;
            if (!allowed) continue;
            if (avoid ? !avoid->has(t) : t == target) {
                out.clear();
                out.push_back((uint32_t)c << 2 | d);
                int k = si;
                while (states[k].parent >= 0) { out.push_back(states[k].step); k = states[k].parent; }
                reverse(out.begin(), out.end());
                ok = true;
                break;
            }
            occ[t] = 1;
            // normalised region after the push (player on c)
            int low = lowAfterPush(occ, m, stLow, c, t);
            if (low < 0) low = reach(c, occ, mm, td);
            occ[t] = 0;
            if (!fresh(t, low)) continue;  // (cell, region) seen
            states.push_back({t, low, si, (uint32_t)c << 2 | d, s.depth + 1});
            fr.push({{s.depth + 1 + weight * to[t], counter++}, (int)states.size() - 1});
        }
        if (ok) break;
    }
    occ[box] = 1;
    return ok;
}

void Kernel::analyseBackward() {
    bdist.assign((size_t)K * N, INF);
    vector<int> q;
    for (int s = 0; s < K; s++) {
        int* dist = &bdist[(size_t)s * N];
        dist[startBoxes[s]] = 0;
        q.clear();
        q.push_back(startBoxes[s]);
        for (size_t i = 0; i < q.size(); i++) {
            int c = q[i];
            for (int d = 0; d < 4; d++) {
                int next = c + OFF[d], pl = c - OFF[d];
                if (next < 0 || next >= N || pl < 0 || pl >= N) continue;
                if (!wall_[next] && !wall_[pl] && dist[next] == INF) {
                    dist[next] = dist[c] + 1;
                    q.push_back(next);
                }
            }
        }
    }
    bnear.assign(N, INF);
    for (int s = 0; s < K; s++)
        for (int c = 0; c < N; c++) bnear[c] = min(bnear[c], bdist[(size_t)s * N + c]);
    startBits.assign(WORDS, 0);
    for (int c : startBoxes) startBits[compact[c] >> 6] |= 1ULL << (compact[c] & 63);
}

string Kernel::toLurd(const vector<uint32_t>& pushes) {
    vector<uint8_t> occ(N, 0);
    for (int c : startBoxes) occ[c] = 1;
    int player = startPlayer;
    string out;
    vector<int> came(N, -1);
    vector<int> q;
    for (uint32_t p : pushes) {
        int b = p >> 2, d = p & 3;
        int target = b - OFF[d];
        if (player != target) {
            fill(came.begin(), came.end(), -1);
            came[player] = 4;
            q.clear(); q.push_back(player);
            bool found = false;
            for (size_t i = 0; i < q.size() && !found; i++) {
                int c = q[i];
                for (int e = 0; e < 4; e++) {
                    int x = c + OFF[e];
                    if (wall_[x] || occ[x] || came[x] >= 0) continue;
                    came[x] = e;
                    if (x == target) { found = true; break; }
                    q.push_back(x);
                }
            }
            if (!found) return "";
            string walk;
            for (int c = target; c != player; c -= OFF[came[c]]) walk += LETTERS[came[c]];
            reverse(walk.begin(), walk.end());
            out += walk;
        }
        out += (char)toupper(LETTERS[d]);
        occ[b] = 0;
        occ[b + OFF[d]] = 1;
        player = b;
    }
    return out;
}

// The box set `b` with the box on `from` moved to `to`, into cb.
void Kernel::movedBits(const uint64_t* b, int from, int to, vector<uint64_t>& cb) {
    memcpy(cb.data(), b, WORDS * 8);
    int fi = compact[from], ti = compact[to];
    cb[fi >> 6] &= ~(1ULL << (fi & 63));
    cb[ti >> 6] |= 1ULL << (ti & 63);
}

Scratch& Kernel::scratch() {
    Scratch& sc = scratchSpace;
    if (sc.occ.size() != (size_t)N) { sc.occ.assign(N, 0); sc.seen.init(N); sc.cm.init(N); }
    return sc;
}
