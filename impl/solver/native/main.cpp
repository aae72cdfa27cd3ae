// The protocol with Python (impl/solver/native.py): arguments, the level
// on stdin, the answer on stdout; the settings; the portfolio.
#include "search.h"

// SOKOBAN_KERNEL_STAT: counters on stderr at exit (for benchmarks and tests).
void Kernel::printStats() {
    fprintf(stderr, "stats: macros tried %lld found %lld; corral tests %lld dead %lld; frozen-goal dead %lld\n",
            stats.tried, stats.found, stats.corralTests, stats.corralDead, stats.frozenDead);
    fprintf(stderr, "stats: forward expanded %lld, PI-corral %lld, corral-dead %lld, candidate pushes %lld; "
            "patterns %zu, children matching one %lld; solved by %s\n",
            stats.exp, stats.piCorrals, stats.deadExp, stats.cands, patterns.size(), stats.patternDead,
            stats.solvedBy.c_str());
    fprintf(stderr, "stats: packing search expanded %lld, box paths tried %lld found %lld, stuck %lld; "
            "most goals filled in order %d (%lld expansions there)\n",
            stats.poExp, stats.poTried, stats.poFound, stats.poStuck, stats.poBest, stats.poAtBest);
    fprintf(stderr, "stats: packing expansions by goals filled:");
    for (long long x : stats.poByCount) fprintf(stderr, " %lld", x);
    fprintf(stderr, "; blockers tried %lld, parked %lld\n", stats.poParkTried, stats.poParked);
    fprintf(stderr, "stats: feature cells %lld, regions counted from the parent's %lld, distinct cells %zu, "
            "most packing %d\n", stats.fsCells, stats.fsQuick, stats.fsDistinct, stats.fsPacked);
    fprintf(stderr, "stats: dead ends %lld, tried %lld, proved dead %lld; expanded positions holding a "
            "pattern %lld\n", stats.deEnds, stats.deTests, stats.deDead, stats.nodeDead);
    if (settings.dlStates > 0)
        fprintf(stderr, "stats: deep failures: counts run dry %lld, positions taken apart %lld, groups tested %lld, "
                "dead %lld, states %lld\n", stats.dlRuns, stats.dlPositions, stats.dlTests, stats.dlDead, stats.dlStates);
    if (settings.poOpen > 0)
        fprintf(stderr, "stats: packing search openings searched %lld found %lld\n", stats.poOpenTried,
                stats.poOpenFound);
    fprintf(stderr, "stats: YASS's score: distance tables %lld\n", stats.ysTables);
    fprintf(stderr, "stats: cost: children's players without a flood %lld\n", stats.lowQuick);
    if (settings.poMode)
        fprintf(stderr, "stats: cost: the packing search's pull areas %lld, boxes answered from them %lld, "
                "by pullArea %lld\n", poFilter.fills, poFilter.quick, poFilter.full);
}

// The settings from SOKOBAN_KERNEL_<NAME> (see Settings), each one that is set.
void Kernel::readSettings(Settings& s) {
    auto read = [](const char* name, auto& v) {
        const char* text = getenv((string("SOKOBAN_KERNEL_") + name).c_str());
        if (text) v = (std::remove_reference_t<decltype(v)>)atoll(text);
    };
    if (const char* w = getenv("SOKOBAN_KERNEL_W")) sscanf(w, "%d,%d,%d", &s.weights[0], &s.weights[1], &s.weights[2]);
    read("D", s.delay);
    read("B", s.backMode);
    read("BW", s.backWeight);
    read("BS", s.backShare);
    read("BD", s.backDelay);
    read("FS", s.fsMode);
    read("FSW", s.fsWeight);
    read("FSS", s.fsShare);
    read("FSD", s.fsDelay);
    read("SWA", s.fsAdvice);
    read("PO", s.poMode);
    read("POW", s.poWeight);
    read("POS", s.poTurn);
    s.poTurn = max(1LL, s.poTurn);
    read("YSP", s.ysSecond);
    read("R", s.macroRadius);
    read("P", s.pathStates);
    read("POP", s.poPathStates);
    read("POM", s.poMacros);
    read("POR", s.poRank);
    read("POB", s.poRegion);
    read("POE", s.poEscape);
    read("POK", s.poParking);
    read("POL", s.poOpen);
    read("POLP", s.poOpenPaths);
    read("CD", s.corralStates);
    read("CDB", s.corralBoxes);
    read("DE", s.deStates);
    read("DEB", s.deBoxes);
    read("DL", s.dlStates);
    read("DLB", s.dlBoxes);
    read("DLT", s.dlTests);
    read("DLR", s.dlRecent);
}

// The portfolio: the searches the settings ask for, taking turns of TURN
// nodes (the packing search's of settings.poTurn) until one solves the level
// or proves it unsolvable, or a limit is reached; prints the answer and
// returns main's exit status.
static int portfolio(Kernel& kn) {
    int& backMode = kn.settings.backMode;
    int& fsMode = kn.settings.fsMode;
    const long long DELAY = kn.settings.delay;
    const long long TURN = 512;
    kn.poOrder = kn.packOrder;
    if (kn.settings.poMode == 2 && kn.poOrder.empty()) kn.computePackingOrder(kn.poOrder);
    if (kn.poOrder.empty()) kn.settings.poMode = 0;  // in the portfolio only on levels with a goal room
    kn.fsOrder = kn.poOrder;
    if (kn.settings.poMode) {
        kn.startPackingOrder(kn.poOrder);
        if (getenv("SOKOBAN_KERNEL_STAT")) {
            fprintf(stderr, "stats: packing order from the start (%.3f s):", kn.elapsed());
            for (size_t i = 0; i < kn.poOrder.size(); i++) fprintf(stderr, " %d,%d", kn.poOrder[i] % kn.W, kn.poOrder[i] / kn.W);
            fprintf(stderr, "\n");
        }
    }
    if (kn.settings.poMode == 2) backMode = 0;
    auto newPacking = [&]() {
        Search* p = new Search(kn, kn.settings.poWeight, true);
        p->packing = true;
        p->start();
        return p;
    };
    if (fsMode == 2) backMode = kn.settings.poMode = 0;
    if (backMode == 2 || kn.settings.poMode == 2) fsMode = 0;  // another search alone
    auto newForward = [&](int w, bool mac, bool fs) {
        Search* f = new Search(kn, w, mac);
        f->fs = fs;
        f->start();
        return f;
    };
    if (backMode) kn.analyseBackward();
    auto newBack = [&]() {
        Search* b = new Search(kn, kn.settings.backWeight, false);
        b->backward = true;
        b->startBack();
        return b;
    };
    // runs[r] takes shares[r] turns of TURN nodes per round; a share of 0
    // is a search that is over (an exhausted backward search).
    vector<Search*> runs;
    struct Owner {  // the searches are deleted however the portfolio returns
        vector<Search*>& runs;
        ~Owner() { for (Search* r : runs) delete r; }
    } owner{runs};
    vector<int> shares;
    kn.g_runs = &runs;
    if (backMode == 2) {
        runs.push_back(newBack());
    } else if (kn.settings.poMode == 2) {
        runs.push_back(newPacking());
    } else if (fsMode == 2) {
        runs.push_back(newForward(kn.settings.fsWeight, true, true));
    } else {
        runs.push_back(newForward(kn.settings.weights[0], true, false));
    }
    shares.push_back(1);
    if (kn.settings.poMode == 1) {
        runs.push_back(newPacking());
        shares.push_back(1);
        if (kn.settings.ysSecond > 0) {  // YSP: the second packing search
            Search* p = newPacking();
            p->ysWeight = kn.settings.ysSecond;  // read from its first expansion on
            runs.push_back(p);
            shares.push_back(1);
        }
    }
    bool joined = backMode == 2 || kn.settings.poMode == 2 || fsMode == 2;
    bool fsJoined = fsMode != 1;
    bool backJoined = backMode != 1;
    const long long backDelay = kn.settings.backDelay >= 0 ? kn.settings.backDelay : DELAY;
    const long long fsDelay = kn.settings.fsDelay >= 0 ? kn.settings.fsDelay : DELAY;
    long long total = 0;
    double nextProgress = kn.progressEvery;
    // One progress line (see the usage at the top) when one is due.
    auto report = [&]() {
        if (kn.progressEvery < 0) return;
        double now = kn.elapsed();
        if (now < nextProgress) return;
        nextProgress = now + kn.progressEvery;
        size_t frontier = 0;
        for (Search* sr : runs) frontier += sr->frontier();
        fprintf(stderr, "progress %lld %d %.3f %zu\n", total, kn.maxDepth, now, frontier);
        fflush(stderr);
    };
    while (true) {
        if (!joined && total >= DELAY) {
            joined = true;
            shares[0] = 2;
            for (int i = 1; i < 3; i++) {
                runs.push_back(newForward(kn.settings.weights[i], true, false));
                shares.push_back(1);
            }
        }
        if (!fsJoined && total >= fsDelay) {
            fsJoined = true;
            runs.push_back(newForward(kn.settings.fsWeight, true, true));
            shares.push_back(kn.settings.fsShare);
            if (kn.settings.fsAdvice > 0 && !kn.poOrder.empty()) {
                // A second feature-space search with the packing search's
                // box-path macros as children too (FSM's, for it alone).
                runs.push_back(newForward(kn.settings.fsWeight, true, true));
                runs.back()->fsAdvice = true;
                shares.push_back(kn.settings.fsAdvice);
            }
        }
        if (backMode == 1 && !backJoined && total >= backDelay) {
            backJoined = true;
            runs.push_back(newBack());
            shares.push_back(kn.settings.backShare);
        }
        for (size_t r = 0; r < runs.size(); r++) {
            for (int k = 0; k < shares[r]; k++) {
                Search* sr = runs[r];
                long long want = sr->packing && kn.settings.poMode == 1 ? kn.settings.poTurn : TURN;
                if (kn.nodeLimit > 0) want = min(want, kn.nodeLimit - total);
                if (!sr->done) total += sr->run(want);
                if (sr->done) {
                    if (sr->result == "solved") {
                        kn.stats.solvedBy = (sr->backward ? string("backward")
                                        : sr->packing ? string("packing")
                                        : (sr->fs ? "feature-space w=" : "forward w=") + to_string(sr->weight) +
                                          (sr->fsAdvice ? " (box-path macros)" : "")) +
                                       (kn.stats.solvedBy == "meeting" ? " (meeting)" : "");
                        if (sr->lurd.empty()) { printf("error no walk between pushes\n"); return 3; }
                        printf("solved %lld %s\n", total, sr->lurd.c_str());
                        return 0;
                    }
                    if (sr->backward) {
                        // An exhausted backward search proves nothing here
                        // (it never reports unsolvable): it just stops.
                        if (backMode == 2) { printf("gave_up nodes %lld\n", total); return 0; }
                        shares[r] = 0;
                        break;
                    }
                    if (sr->packing && kn.settings.poMode == 1) {
                        // The packing search used macros: it just stops.
                        shares[r] = 0;
                        break;
                    }
                    if (!sr->macros) {
                        printf(kn.openLevel ? "gave_up window %lld\n" : "unsolvable %lld\n", total);
                        return 0;
                    }
                    int w = sr->weight;
                    bool fs = sr->fs;
                    delete sr;
                    runs[r] = newForward(w, false, fs);
                }
                if (kn.nodeLimit > 0 && total >= kn.nodeLimit) { printf("gave_up nodes %lld\n", total); return 0; }
                if (kn.timeLimit > 0 && kn.elapsed() >= kn.timeLimit) { printf("gave_up time %lld\n", total); return 0; }
                if (kn.memLimit > 0 && kn.memoryUsed > kn.memLimit) { printf("gave_up memory %lld\n", total); return 0; }
                report();
            }
        }
    }
}

int main(int argc, char** argv) {
    unique_ptr<Kernel> kernel(new Kernel());
    Kernel& kn = *kernel;
    kn.t0 = chrono::steady_clock::now();
    // SOKOBAN_KERNEL_STAT: the counters on stderr when main returns.
    struct StatsAtEnd {
        Kernel& kn;
        bool on;
        ~StatsAtEnd() { if (on) kn.printStats(); }
    } statsAtEnd{kn, getenv("SOKOBAN_KERNEL_STAT") != nullptr};
    if (argc > 1) kn.timeLimit = atof(argv[1]);
    if (argc > 2) kn.nodeLimit = atoll(argv[2]);
    if (argc > 3) kn.memLimit = (size_t)atoll(argv[3]) << 20;
    if (argc > 4) kn.progressEvery = atof(argv[4]);
    if (!kn.readLevel()) return 2;
    kn.analyse();
    kn.areaMarks.init(kn.N);
    kn.areaOf.assign(kn.N, 0);
    kn.g_minv.assign(kn.K + 1, 0); kn.g_way.assign(kn.K + 1, 0); kn.g_used.assign(kn.K + 1, 0);
    uint64_t s = 0x9E3779B97F4A7C15ULL;
    for (int i = 0; i < kn.N && i < 65536; i++) {  // only cells index them
        s ^= s << 13; s ^= s >> 7; s ^= s << 17; kn.zob[i] = s;
        s ^= s << 13; s ^= s >> 7; s ^= s << 17; kn.zobP[i] = s;
    }
    bool solvedStart = true;
    for (int c : kn.startBoxes) if (!kn.goal_[c]) solvedStart = false;
    if (solvedStart) { printf("solved 0 \n"); return 0; }
    if (kn.clustered()) kn.computePackingOrder(kn.packOrder);
    kn.readSettings(kn.settings);
    return portfolio(kn);
}
