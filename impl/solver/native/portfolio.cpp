// One solve (solveLevel): the level read, analysed, and the portfolio of
// searches run on it; the answer as the protocol's line.
#include "search.h"

// SOKOBAN_KERNEL_STAT: counters on `out` at the end (for benchmarks and tests).
void Kernel::printStats(FILE* out) {
    fprintf(out, "stats: macros tried %lld found %lld; corral tests %lld dead %lld; frozen-goal dead %lld\n",
            stats.tried, stats.found, stats.corralTests, stats.corralDead, stats.frozenDead);
    fprintf(out, "stats: forward expanded %lld, PI-corral %lld, corral-dead %lld, candidate pushes %lld; "
            "patterns %zu, children matching one %lld; solved by %s\n",
            stats.exp, stats.piCorrals, stats.deadExp, stats.cands, patterns.size(), stats.patternDead,
            stats.solvedBy.c_str());
    fprintf(out, "stats: packing search expanded %lld, box paths tried %lld found %lld, stuck %lld; "
            "most goals filled in order %d (%lld expansions there)\n",
            stats.poExp, stats.poTried, stats.poFound, stats.poStuck, stats.poBest, stats.poAtBest);
    fprintf(out, "stats: packing expansions by goals filled:");
    for (long long x : stats.poByCount) fprintf(out, " %lld", x);
    fprintf(out, "; blockers tried %lld, parked %lld\n", stats.poParkTried, stats.poParked);
    fprintf(out, "stats: feature cells %lld, regions counted from the parent's %lld, distinct cells %zu, "
            "most packing %d\n", stats.fsCells, stats.fsQuick, stats.fsDistinct, stats.fsPacked);
    fprintf(out, "stats: dead ends %lld, tried %lld, proved dead %lld; expanded positions holding a "
            "pattern %lld\n", stats.deEnds, stats.deTests, stats.deDead, stats.nodeDead);
    if (settings.dlStates > 0)
        fprintf(out, "stats: deep failures: counts run dry %lld, positions taken apart %lld, groups tested %lld, "
                "dead %lld, states %lld\n", stats.dlRuns, stats.dlPositions, stats.dlTests, stats.dlDead, stats.dlStates);
    if (settings.poOpen > 0)
        fprintf(out, "stats: packing search openings searched %lld found %lld\n", stats.poOpenTried,
                stats.poOpenFound);
    fprintf(out, "stats: YASS's score: distance tables %lld\n", stats.ysTables);
    fprintf(out, "stats: cost: children's players without a flood %lld\n", stats.lowQuick);
    if (settings.poMode)
        fprintf(out, "stats: cost: the packing search's pull areas %lld, boxes answered from them %lld, "
                "by pullArea %lld\n", poFilter.fills, poFilter.quick, poFilter.full);
}

// The portfolio: the searches the settings ask for, taking turns of TURN
// nodes (the packing search's of settings.poTurn) until one solves the level
// or proves it unsolvable, or a limit is reached; returns the answer.
static Answer portfolio(Kernel& kn, const Options& options) {
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
        if (options.stats) {
            fprintf(options.log, "stats: packing order from the start (%.3f s):", kn.elapsed());
            for (size_t i = 0; i < kn.poOrder.size(); i++)
                fprintf(options.log, " %d,%d", kn.poOrder[i] % kn.W, kn.poOrder[i] / kn.W);
            fprintf(options.log, "\n");
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
        Kernel& kn;
        vector<Search*>& runs;
        ~Owner() {
            for (Search* r : runs) delete r;
            kn.g_runs = nullptr;
        }
    } owner{kn, runs};
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
        fprintf(options.log, "progress %lld %d %.3f %zu\n", total, kn.maxDepth, now, frontier);
        fflush(options.log);
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
                        if (sr->lurd.empty()) return {"error no walk between pushes", 3};
                        return {"solved " + to_string(total) + " " + sr->lurd, 0};
                    }
                    if (sr->backward) {
                        // An exhausted backward search proves nothing here
                        // (it never reports unsolvable): it just stops.
                        if (backMode == 2) return {"gave_up nodes " + to_string(total), 0};
                        shares[r] = 0;
                        break;
                    }
                    if (sr->packing && kn.settings.poMode == 1) {
                        // The packing search used macros: it just stops.
                        shares[r] = 0;
                        break;
                    }
                    if (!sr->macros) {
                        return {(kn.openLevel ? "gave_up window " : "unsolvable ") + to_string(total), 0};
                    }
                    int w = sr->weight;
                    bool fs = sr->fs;
                    delete sr;
                    runs[r] = newForward(w, false, fs);
                }
                if (kn.nodeLimit > 0 && total >= kn.nodeLimit) return {"gave_up nodes " + to_string(total), 0};
                if (kn.timeLimit > 0 && kn.elapsed() >= kn.timeLimit) return {"gave_up time " + to_string(total), 0};
                if (kn.memLimit > 0 && kn.memoryUsed > kn.memLimit) return {"gave_up memory " + to_string(total), 0};
                report();
            }
        }
    }
}

Answer solveLevel(istream& level, const Options& options) {
    unique_ptr<Kernel> kernel(new Kernel());
    Kernel& kn = *kernel;
    kn.t0 = chrono::steady_clock::now();
    // options.stats: the counters on options.log however solveLevel returns.
    struct StatsAtEnd {
        Kernel& kn;
        const Options& options;
        ~StatsAtEnd() { if (options.stats) kn.printStats(options.log); }
    } statsAtEnd{kn, options};
    kn.timeLimit = options.timeLimit;
    kn.nodeLimit = options.nodeLimit;
    kn.memLimit = options.memLimit;
    kn.progressEvery = options.progressEvery;
    kn.settings = options.settings;
    kn.settings.poTurn = max(1LL, kn.settings.poTurn);
    string error = kn.readLevel(level);
    if (!error.empty()) return {error, 2};
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
    if (solvedStart) return {"solved 0 ", 0};
    if (kn.clustered()) kn.computePackingOrder(kn.packOrder);
    return portfolio(kn, options);
}
