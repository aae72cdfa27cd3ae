// The lower bound: a minimum-cost perfect matching of boxes to goals
// (Hungarian method), incremental from the parent's potentials.
#include "kernel.h"

int Kernel::cost(int cell, int goal) { return costTab[(size_t)goal * N + cell]; }

void Kernel::augment(Match& m, int i, vector<long long>& minv, vector<int>& way, vector<char>& used) {
    const long long BIG = (long long)INF * 64;
    int n = K;
    fill(minv.begin(), minv.end(), BIG);
    fill(used.begin(), used.end(), 0);
    m.p[0] = i;
    int j0 = 0;
    while (true) {
        used[j0] = 1;
        int i0 = m.p[j0];
        int cell = m.rows[i0 - 1];
        long long ui0 = m.u[i0];
        long long delta = BIG;
        int j1 = 0;
        for (int j = 1; j <= n; j++) {
            if (used[j]) continue;
            long long cur = cost(cell, j - 1) - ui0 - m.v[j];
            if (cur < minv[j]) { minv[j] = cur; way[j] = j0; }
            if (minv[j] < delta) { delta = minv[j]; j1 = j; }
        }
        for (int j = 0; j <= n; j++) {
            if (used[j]) { m.u[m.p[j]] += delta; m.v[j] -= delta; }
            else minv[j] -= delta;
        }
        j0 = j1;
        if (m.p[j0] == 0) break;
    }
    while (j0) { int j1 = way[j0]; m.p[j0] = m.p[j1]; j0 = j1; }
}

long long Kernel::matchTotal(const Match& m) {
    long long t = 0;
    for (int j = 1; j <= K; j++) {
        int c = cost(m.rows[m.p[j] - 1], j - 1);
        if (c >= INF) return INF;
        t += c;
    }
    return t >= INF ? INF : t;
}

void Kernel::matchFull(Match& m) {
    m.u.assign(K + 1, 0); m.v.assign(K + 1, 0); m.p.assign(K + 1, 0);
    for (int c : m.rows) if (nearTab[c] >= INF) { m.total = INF; return; }
    for (int i = 1; i <= K; i++) augment(m, i, g_minv, g_way, g_used);
    m.total = matchTotal(m);
}

// The matching after the box of row index r (0-based) moves to t.
void Kernel::matchMoved(const Match& parent, int r, int t, Match& child) {
    child.rows = parent.rows;
    child.rows[r] = t;
    if (nearTab[t] >= INF) { child.total = INF; return; }
    if (parent.total >= INF) { matchFull(child); return; }
    child.u = parent.u; child.v = parent.v; child.p = parent.p;
    int row = r + 1;
    for (int j = 1; j <= K; j++) if (child.p[j] == row) { child.p[j] = 0; break; }
    long long best = (long long)INF * 64;
    for (int j = 1; j <= K; j++) best = min(best, (long long)cost(t, j - 1) - child.v[j]);
    child.u[row] = best;
    augment(child, row, g_minv, g_way, g_used);
    child.total = matchTotal(child);
}
