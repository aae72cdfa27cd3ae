#pragma once
// Native push-search kernel of the Sokoban solver (impl/solver/native.py).
//
// A standalone program (main.cpp, a thin wrapper round solveLevel, which
// other C++ code may call too: see Options): reads one level as XSB text on
// stdin and prints one line on stdout:
//   solved <nodes> <LURD>
//   unsolvable <nodes>                 (exhausted without macros, closed level)
//   gave_up <time|nodes|memory|window> <nodes>
//   error <message>
// Usage: kernel TIME_LIMIT_S [NODE_LIMIT [MEMORY_MB [PROGRESS_S]]]   (0 = no limit)
// With PROGRESS_S (>= 0), a line on stderr every PROGRESS_S seconds (0: after
// every turn of the portfolio) while it runs:
//   progress <nodes> <depth> <elapsed seconds> <frontier>
// (nodes expanded in all, the most pushes or pulls of any node expanded, the
// open nodes waiting in the heaps).
//
// The same search as impl/solver/search.py's push search (see docs/solver.md):
// a state is the box set plus the normalised player (the smallest cell it can
// reach); dead squares by a backward pull search from the goals; freeze and
// bipartite deadlocks; minimum-cost matching lower bound (Hungarian,
// incremental from the parent's potentials); PI-corral pruning; tunnel and
// goal-room macros; a portfolio of weights (g + w*h).  Macros prove nothing:
// only an exhausted search without them reports "unsolvable".  Deadlock
// rules the Python search does not have: corral deadlocks (barrierAlive),
// kept as patterns matched against every later child (learnedDead), and
// boxes frozen on goals that cut the other boxes off the other goals
// (frozenGoalsDead).
//
// Beside the forward searches the portfolio runs a backward (pull) search
// from the solved position back to the level's start (Search::startBack,
// Search::runBack) and meets the two in the middle (partnerOf): see
// docs/solver.md, "Backward (pull) search".  It never reports "unsolvable".
// A third kind of member, the feature-space search (FESS-style: one queue
// per cell of features, visited in turn; featureCell, Search::nextCell), is
// a forward search that differs only in the order it expands nodes.
//
// The files (built together into one program by impl/solver/native.py):
//   kernel.h      this header: the settings, the counters, the entry
//                 point (Options, solveLevel) and Kernel, the state one
//                 solve shares between its searches (the level and its
//                 precomputation, the learned patterns, the packing order,
//                 scratch space); every function below is a member of
//                 Kernel or of Search
//   table.h       the transposition table (a search's nodes, hashed)
//   search.h      Search: one member of the portfolio (its queues, its
//                 expansion: search.cpp)
//   board.cpp     reading the level and its precomputation, reachability,
//                 tunnels, box paths, the packing order, LURD
//   matching.cpp  the lower bound (minimum-cost matching)
//   deadlocks.cpp freeze, corral deadlocks, learned patterns, PI-corrals,
//                 boxes frozen on goals
//   packing.cpp   the packing-order search's children
//   features.cpp  the feature-space search's features
//   search.cpp    expanding nodes forwards and backwards, the meeting
//   portfolio.cpp solveLevel: the portfolio of searches, the counters
//   main.cpp      the protocol with Python: arguments, the settings from
//                 the environment, stdin and stdout
#include <algorithm>
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <functional>
#include <iostream>
#include <queue>
#include <set>
#include <string>
#include <unordered_map>
#include <unordered_set>
#include <memory>
#include <vector>

using namespace std;

static const int MARGIN = 2;
static const int INF = 1 << 22;
static const char LETTERS[] = "udlr";
static const int ROOM_GOALS = 6;

// Stamped scratch arrays (no clearing between uses).
struct Marks {
    vector<uint32_t> v;
    uint32_t stamp = 0;
    void init(int n) { v.assign(n, 0); stamp = 0; }
    void next() {
        if (++stamp == 0) { fill(v.begin(), v.end(), 0); stamp = 1; }
    }
    bool has(int c) const { return v[c] == stamp; }
    void set(int c) { v[c] = stamp; }
};

// What the search did, counted for SOKOBAN_KERNEL_STAT (printStats).
struct Stats {
    long long tried = 0, found = 0;                           // goal macros: box paths tried, found
    long long exp = 0, piCorrals = 0, cands = 0, deadExp = 0; // forward expansions, PI-corral ones, pushes, corral-dead
    string solvedBy = "-";                                    // which search found the solution, and how
    long long lowQuick = 0;       // children's normalised players found by lowAfterPush
    long long corralTests = 0, corralDead = 0;
    long long patternDead = 0;    // children matching a learned pattern
    long long nodeDead = 0;       // expanded positions holding one
    long long frozenDead = 0;     // positions cut by the frozen-goals rule
    long long poExp = 0, poTried = 0, poFound = 0, poStuck = 0;
    int poBest = 0;               // the most goals filled in order of a position the packing search expanded
    long long poAtBest = 0;       // its expansions at that count
    vector<long long> poByCount;  // its expansions at each count of goals filled in order
    long long poParkTried = 0, poParked = 0;
    long long poOpenTried = 0, poOpenFound = 0;
    long long dlRuns = 0, dlPositions = 0, dlTests = 0, dlDead = 0, dlStates = 0;
    long long ysTables = 0;
    long long deTests = 0, deDead = 0, deEnds = 0;
    long long fsCells = 0, fsQuick = 0;  // feature cells computed, regions counted cheaply
    int fsPacked = 0;                    // the most packing of any feature cell
    size_t fsDistinct = 0;               // the most cells of one feature-space search
};

// The kernel's settings: every number a maintainer may tune, with its
// default.  main reads them in one place (settingsFromEnvironment): each
// from SOKOBAN_KERNEL_<NAME> when that is set (impl/solver/native.py passes
// those on only when SOKOBAN_KERNEL_EXPERIMENTS=1: benchmarks and tests).
// docs/solver.md has the table.
struct Settings {
    // The portfolio.
    int weights[3] = {6, 2, 15};  // W=a,b,c: the forward searches' weights (f = g + w*h)
    long long delay = 16384;      // D: nodes before the 2nd and 3rd forward searches join
    int backMode = 1;             // B: the backward search: 0 off, 1 in the portfolio, 2 alone
    int backWeight = 3;           // BW: its weight
    int backShare = 2;            // BS: its turns per round
    long long backDelay = -1;     // BD: nodes before it joins (-1: D's)
    int fsMode = 1;               // FS: the feature-space search: 0 off, 1 in the portfolio, 2 alone
    int fsWeight = 1;             // FSW: its weight within a cell
    int fsShare = 4;              // FSS: its turns per round
    long long fsDelay = -1;       // FSD: nodes before it joins (-1: D's)
    int fsAdvice = 4;             // SWA: turns of a second one with the box-path macros (0: none)
    int poMode = 1;               // PO: the packing-order search: 0 off, 1 in the portfolio, 2 alone
    int poWeight = 6;             // POW: its weight
    long long poTurn = 128;       // POS: its turns, in nodes (the others' are 512)
    int ysSecond = 96;            // YSP: a second packing search, YASS's score at this weight (0: none)
    // Macros.
    int macroRadius = 3;          // R: a box this near the goals tries a goal macro
    int pathStates = 60;          // P: states of a goal macro's box path
    // The packing-order search.
    int poPathStates = 400;       // POP: states of its box paths
    int poMacros = 8;             // POM: its box-path children at most
    int poRank = 1 << 20;         // POR: f added per goal not yet filled in order
    int poRegion = 6;             // POB: f taken off per cell of the player's region
    int poEscape = 2;             // POE: every n-th expansion from a lower count (0: never)
    int poParking = 1;            // POK: parking macros for the blockers when stuck (0: off)
    int poOpen = 50;              // POL: states of the opening search when stuck (0: off)
    int poOpenPaths = 32;         // POLP: box paths tried per opening search at most
    // Deadlocks.
    int corralStates = 50;        // CD: states of the corral test's push search (0: no test)
    int corralBoxes = 4;          // CDB: larger barriers are not tested
    int deStates = 300;           // DE: states of the dead-end test (0: off)
    int deBoxes = 8;              // DEB: larger dead-end candidates are not tested
    int dlStates = 300;           // DL: states of the deep-failure test (0: off)
    int dlBoxes = 4;              // DLB: its largest group of boxes
    int dlTests = 100;            // DLT: its searches per position taken apart
    int dlRecent = 1;             // DLR: positions kept per count
};

// ---------------------------------------------------------- entry point --
// solveLevel (portfolio.cpp) is the whole solve as a function of its inputs:
// the level's XSB text and these options (main's arguments and
// environment).  Each call has its own Kernel and Searches and reads no
// environment and no global state, so calls may run side by side in
// threads of one process (tests/solver/two_kernels.cpp checks it); only
// `log` is shared, when two calls are given the same one.
struct Options {
    double timeLimit = 0;        // seconds (0: none)
    long long nodeLimit = 0;     // nodes expanded in all (0: none)
    size_t memLimit = 0;         // bytes (0: none)
    double progressEvery = -1;   // seconds between progress lines on `log` (0: every turn; < 0: none)
    bool stats = false;          // SOKOBAN_KERNEL_STAT: the counters on `log` at the end
    FILE* log = stderr;          // where progress lines and counters go
    Settings settings;
};

// The answer: the protocol's line (without its newline: solved, unsolvable,
// gave_up or error, see the top) and main's exit status (0; 2 for a level
// that cannot be read, 3 for a solution without its walk).
struct Answer {
    string line;
    int status;
};

Answer solveLevel(istream& level, const Options& options);

// ------------------------------------------------------------- matching --
// Minimum-cost perfect matching of rows (boxes) to columns (goals), with
// potentials: u[0..K], v[0..K], p[0..K] (p[j] = row matched to column j, 1-based).
struct Match {
    vector<int> rows;  // box cells, in row order
    vector<long long> u, v;
    vector<int> p;
    long long total = 0;
};

// ------------------------------------------------------------ PI-corrals --
struct Cand { int box; int dir; int macro; int bonus = 0; };  // macro: -1, or index in macros; bonus: the packing search's (parking)
static const size_t CORRAL_MEMO = 400000;
static const size_t PATTERNS = 100000;
struct Pattern {
    vector<int> boxes;         // cells
    vector<uint64_t> region;   // the player's region on the pattern's board, a bit per cell
    vector<uint64_t> bits;     // its boxes as a box set (compact cells, WORDS words)
};

// The goals left open by a set of fixed boxes (frozen on goals) and, per
// cell, the open goals a lone box there can be pushed onto (bit j: open[j]),
// the fixed boxes as walls: the same for every position with those fixed
// boxes, so kept for the last few sets (frozenGoalsDead).
struct GoalReach {
    vector<int> fixedCells;   // sorted
    vector<int> open;         // the goals not fixed, ascending
    int gw = 0;               // 64-bit words per cell
    vector<uint64_t> mask;    // mask[c * gw + j / 64] bit j % 64
};

// The opening search (settings.poOpen): in a position where no box has a
// path to a target (stuck), a breadth-first search of up to n positions
// over the ordinary pushes of the boxes not packed, at most PO_OPEN_DEPTH
// pushes deep, for the fewest pushes after which some box has one
// (poOpening); the child made by the first push of that line ranks first
// among its count's positions (its Cand's bonus, PO_OPEN_BONUS off its f;
// a parking's, SOKOBAN_KERNEL_POK, is larger).  0: off.
static const int PO_OPEN_DEPTH = 3;
static const int PO_OPEN_BONUS = 1 << 14;

// pullArea's answer for box after box of one position, from one area per
// target: the target's pull area with every box fixed (pullArea with no
// box), kept with a copy of the board it was computed on (a call on another
// board computes its own: callers need not say when occ changed).  The box
// on b is reached with b off the board exactly when some side q = b + OFF[d]
// of it is in that area and the player's cell beyond b, b - OFF[d], is free:
// taking b off only adds pulls whose player stands on b, and the area
// reaches no more than that unless such a pull (from b + 2·OFF[d], over a
// free cell b + OFF[d] not in the area) exists; then, seldom, pullArea runs
// for that box.  The same answers as pullArea box by box, one flood fill
// instead of one per box.
struct Kernel;
struct PullFilter {
    struct Slot { int target = -1; vector<uint8_t> board; Marks area; vector<int> q; };
    vector<Slot> slots;
    size_t next = 0;
    Marks one;
    vector<int> oneQ;
    long long fills = 0, quick = 0, full = 0;  // statistics
    bool reaches(Kernel& kn, uint8_t* occ, int box, int target);
};

// YASS's score of a push (YASS.pas read for the idea only; our own code),
// used by the second packing search (settings.ysSecond): the moved box's distance
// to the nearest target, in pushes of a lone box with the player's walk
// (ysDistances: the packed boxes are walls, the other boxes ignored); a box
// that reaches no target costs YS_FAR.
static const int YS_FAR = 8;

// The kernel's state: the level and what is computed from it, the
// settings, the counters, the learned deadlock patterns and the
// portfolio.  Every search holds a reference to the one it belongs to.
// The expansion loops' scratch (both directions; one search runs at a time):
// box occupancy, the parent's and a child's player regions, flood queues.
struct Scratch {
    vector<uint8_t> occ;
    Marks seen, cm;
    vector<int> todo, todo2;
};

struct FsFeatures { int packing, regions; };

// boxPath's states and queue entries ((f, counter), state).
struct BoxPathState { int cell, low, parent; uint32_t step; int depth; };
typedef pair<pair<int, int>, int> BoxPathEntry;

struct Search;
struct Kernel {

    // ---------------------------------------------------------------- board --
    int W, H, N;
    int OFF[4];
    vector<uint8_t> wall_, goal_, dead_, inside_;
    vector<int> goals;               // goal cells, ascending
    vector<int> pdist;               // pdist[g * N + c]
    vector<int> nearest_;
    vector<int> compact;             // cell -> index among inside cells, or -1
    vector<int> cellOf;              // compact index -> cell
    int F;                           // number of inside cells
    int K;                           // boxes
    int WORDS;                       // 64-bit words of a box bitset
    vector<int> startBoxes;
    int startPlayer;
    bool openLevel = false;
    vector<uint8_t> corridor[4];
    vector<int> packOrder;           // goal macro order (empty: no macros)

    chrono::steady_clock::time_point t0;
    double timeLimit = 0;
    double progressEvery = -1;   // < 0: no progress lines
    int maxDepth = 0;            // the largest g of a node expanded
    long long nodeLimit = 0;
    size_t memLimit = 0;
    Stats stats;
    Settings settings;

    // The cost table the matching reads: push distances to the goals (forward
    // search) or pull distances to the start boxes (backward search); each
    // search points these at its own before it runs.
    const int* costTab = nullptr;
    const int* nearTab = nullptr;

    vector<long long> g_minv;
    vector<int> g_way;
    vector<char> g_used;

    Marks areaMarks;
    vector<int> areaOf;  // valid where areaMarks.has

    // ------------------------------------------------------ corral deadlocks --
    // A position is dead when the barrier of one of its unfinished corrals,
    // alone on the board (every other box removed), can never have all its
    // boxes on goals: removing boxes only helps, so what the barrier cannot do
    // alone it cannot do with the others there either.  Decided by a small
    // breadth-first push search over those boxes (dead squares and freeze
    // deadlocks prune it); it answers "dead" only when exhausted, and "alive"
    // when it finds every barrier box on a goal or spends settings.corralStates states.
    // Answers are kept by (barrier, normalised player) in corralMemo.
    unordered_map<string, bool> corralMemo;

    // Learned deadlock patterns.  Each barrier barrierAlive proves dead is kept
    // as a pattern: its boxes and the player's region on a board holding only
    // them.  Any later position holding those boxes (and any others) with the
    // player in that region is dead for the same reason (removing boxes only
    // helps), whatever corral it has: the search tests each child against the
    // patterns holding the box just pushed (learnedDead) before queueing it.
    // The player's region on the pattern's board changes only when one of the
    // pattern's boxes moves, so the pushed box's patterns are the only new
    // candidates.
    int learnPatterns = 1;
    vector<Pattern> patterns;
    vector<vector<int>> patternsAt;  // cell -> the patterns holding a box there
    vector<vector<int>> patternsFirst;  // cell -> the patterns whose first box is there
    unordered_set<string> patternKeys;  // boxes and region of each pattern: none learned twice

    long long corralStatesUsed = 0;  // states of every barrierAlive search
    vector<GoalReach> goalReach;
    size_t goalReachNext = 0;

    // ------------------------------------------------------------ goal macros --
    vector<uint8_t> roomGoal;  // goals in a block of >= ROOM_GOALS

    // ------------------------------------------------- packing-order search --
    // SOKOBAN_KERNEL_PO (docs/solver.md, "Packing-order search"): a forward
    // search whose children are "take a box to the next goal of the packing
    // order" macros (boxPath, the other boxes fixed), one per box that has such
    // a path; only when no box has one, the ordinary pushes (less those of the
    // boxes already packed) rearrange the position.  Its queue puts the
    // positions with the most goals filled in order first (then g + w*h).
    // Macros prove nothing: an exhausted packing search in the portfolio just
    // stops; alone (PO=2) it is rerun without macros, as every search is.
    vector<int> poOrder;       // packOrder, or with PO=2 on any level, every goal's order
    // The order the feature-space search's packing feature counts: poOrder
    // before the order from the start replaced it (which made the
    // feature-space search lose XSokoban 15 and 21).
    vector<int> fsOrder;
    PullFilter poFilter;

    // Pushes of a lone box from each cell to each target (ysTab[k * N + c],
    // k the target's index in `targets`; INF: none), the packed boxes walls and
    // the other boxes ignored, the player walking round the box: a 0-1
    // breadth-first search of pulls over (box cell, player side) states from
    // each target, the player changing sides for free when both sides are in
    // one region of the board with the box's cell blocked.  Kept for the last
    // (packed, targets) it was asked for.
    vector<int> ysTab;

    vector<int> ysQueueTargets;  // the targets ysTab was computed for by packingChildren
    bool ysQueueOn = false;
    // The weight of the packing search being expanded (its Search::ysWeight:
    // 0 for the first packing search, settings.ysSecond for the second), set before
    // packingChildren.
    int ysQueueWeight = 0;

            // ------------------------------------------------------- backward search --
    // The backward (pull) search starts from the boxes on the goals and pulls
    // them back to the level's starting boxes.  bdist[s * N + c] is the number of
    // pulls that take a lone box from c to startBoxes[s]: a forward *push*
    // search from startBoxes[s] (a pull from c to c + d is the reverse of the
    // push from c + d to c).  A box on a cell with no finite distance to any
    // start box can never be pulled home: backward dead squares.
    vector<int> bdist;
    vector<int> bnear;  // pulls from a cell to the nearest start box
    vector<uint64_t> startBits;

    // ---------------------------------------------------------------- search --

    uint64_t zob[65536];
    uint64_t zobP[65536];

    size_t memoryUsed = 0;

    // Meeting in the middle: every new state of one direction is looked up in
    // the other direction's tables (same key: box set and normalised player, the
    // smallest cell of the player's region, so a hit is the same position).  A
    // forward path to it followed by the backward path from it, reversed, is a
    // solution.  g_runs is the portfolio (set while portfolio runs).
    vector<Search*>* g_runs = nullptr;

    double elapsed();
    int reach(int start, const uint8_t* occ, Marks& m, vector<int>& todo);
    int lowAfterPush(const uint8_t* occ, const Marks& region, int low, int b, int t);
    template <class Fn> void forOccupied(const uint8_t* occ, Fn fn);
    string readLevel(istream& in);
    void analyse();
    bool frozen(const uint8_t* occ, int c, int* tmp, int nt);
    bool freezeDeadlock(const uint8_t* occ, int c);
    bool pushAllowed(uint8_t* occ, int b, int t);
    int tunnelEnd(uint8_t* occ, int bc, int d, int& lastCell, int& steps);
    int cost(int cell, int goal);
    void augment(Match& m, int i, vector<long long>& minv, vector<int>& way, vector<char>& used);
    long long matchTotal(const Match& m);
    void matchFull(Match& m);
    void matchMoved(const Match& parent, int r, int t, Match& child);
    template <class Fn> void forEachCorral(const uint8_t* occ, const Marks& seen, const vector<int>& boxes, Fn fn);
    string subKey(const vector<int>& sortedBoxes, int player);
    void learn(const vector<int>& boxes, const vector<int>& region);
    bool holdsPattern(const uint64_t* b, const vector<int>& boxes, int player);
    bool learnedDead(const uint8_t* occ, int pushed, int player, int* which = nullptr);
    bool barrierAlive(const vector<int>& barrier, int player, int states = -1);
    bool piCorral(const uint8_t* occ, const Marks& seen, const vector<int>& boxes, int player,
                         int lastBox, vector<Cand>& out, bool& dead);
    bool augmentKuhn(int v, const vector<vector<int>>& adj, vector<int>& owner, vector<char>& used);
    const GoalReach& goalReachOf(const vector<int>& fixedCells, const vector<uint8_t>& fixed);
    bool frozenGoalsDead(const uint8_t* occ, const vector<int>& boxes);
    bool clustered();
    int pullsOut(int g, const vector<uint8_t>& others);
    void computePackingOrder(vector<int>& order);
    int goalIndex(int g);
    bool boxPath(uint8_t* occ, int playerLow, int box, int target, vector<uint32_t>& out,
                        int limit = 0, const Marks* avoid = nullptr);
    template <class Filled> int packedCount(Filled filled, const vector<int>& order);
    int packedPrefix(const uint64_t* b, const vector<int>& order);
    uint64_t psHash(const uint8_t* occ, int low);
    void openingPushes(uint8_t* occ, const Marks& m, const vector<uint8_t>& packed, vector<uint32_t>& pushes);
    bool pullArea(const uint8_t* occ, int target, int box, Marks& pulled, vector<int>& q);
    template <class Reaches> uint32_t poOpening(uint8_t* occ, int player, const vector<uint8_t>& packed, const vector<int>& targets,
                              Reaches reaches);
    int dlTakeApart(const vector<int>& boxes, int player);
    const vector<int>& ysDistances(const vector<uint8_t>& packed, const vector<int>& targets);
    int ysMoved(const vector<int>& tab, const vector<int>& targets, const uint8_t* occ, int c, int t, int w,
                       int& nearer, bool& onTarget);
    int packingChildren(uint8_t* occ, const vector<int>& boxes, int player, vector<Cand>& cands,
                               vector<vector<uint32_t>>& store);
    bool pullCells(uint8_t* occ, int box, const vector<int>& players, Marks& cells, int limit,
                          unordered_set<uint64_t>* knownOut = nullptr);
    void startPackingOrder(vector<int>& order);
    void analyseBackward();
    void floodArea(int c, const uint8_t* occ, Marks& m, vector<int>& todo);
    FsFeatures fsFeatures(const uint64_t* b, const uint8_t* occ, const Marks& player, int knownRegions);
    int featureCell(const uint64_t* b, const uint8_t* occ, const Marks& player, int knownRegions = -1);
    string toLurd(const vector<uint32_t>& pushes);
    Search* partnerOf(bool backward, uint64_t h, const uint64_t* b, int low, int* at);
    void movedBits(const uint64_t* b, int from, int to, vector<uint64_t>& cb);
    Scratch& scratch();
    Scratch scratchSpace;
    vector<BoxPathState> boxPath_states;
    Marks boxPath_known, boxPath_m, boxPath_mm;
    priority_queue<BoxPathEntry, vector<BoxPathEntry>, greater<BoxPathEntry>> boxPath_fr;
    vector<int> boxPath_todo, boxPath_td;
    vector<uint8_t> deadEnd_board;  // DeadEnd::finish's
    Marks deadEnd_region;
    vector<int> deadEnd_todo;
    // The functions' scratch space, kept between calls (named function_variable).
    vector<int> reach_buf;
    int freezeDeadlock_tmp[1100];
    vector<int> forEachCorral_cells;
    vector<int> forEachCorral_barrier;
    vector<uint8_t> forEachCorral_inBarrier;
    vector<uint8_t> barrierAlive_occ;
    Marks barrierAlive_reached;
    Marks barrierAlive_after;
    vector<int> barrierAlive_todo;
    vector<int> barrierAlive_todo2;
    Marks goalReachOf_seen;
    vector<int> goalReachOf_q;
    int frozenGoalsDead_tmp[1100];
    vector<uint8_t> frozenGoalsDead_fixed;
    vector<int> frozenGoalsDead_rest;
    vector<int> frozenGoalsDead_fixedCells;
    vector<int> frozenGoalsDead_owner;
    vector<char> frozenGoalsDead_used;
    vector<vector<int>> frozenGoalsDead_adj;
    Marks poOpening_m;
    vector<int> poOpening_todo;
    Marks poOpening_cm;
    vector<uint8_t> dlTakeApart_occ;
    vector<uint8_t> ysDistances_lastPacked;
    vector<int> ysDistances_lastTargets;
    vector<int> ysDistances_side;
    vector<int> ysDistances_todo;
    vector<int> ysDistances_dist;
    vector<uint8_t> ysDistances_blk;
    Marks ysDistances_m;
    vector<uint8_t> packingChildren_packed;
    Marks packingChildren_avoid;
    Marks pullCells_m;
    Marks pullCells_child;
    vector<int> pullCells_todo;
    Marks fsFeatures_other;
    vector<int> fsFeatures_todo;
    void printStats(FILE* out);
};

// ------------------------------------------------------ dead-end patterns --
// A position whose every push is cut by a deadlock rule (a dead square or a
// freeze, or a child matching a learned pattern) is dead: no child, no
// solution.  Its deadlock lies one push deeper than any rule sees, and the
// searches meet it again and again with other boxes elsewhere.  The boxes
// that cut its pushes (the pushed box and the boxes around its target for a
// freeze, the pattern's boxes, moved back, for a pattern) are a candidate
// pattern; the corral test's push search (barrierAlive, settings.deStates states)
// decides it on those boxes alone, and a configuration it proves dead is
// learned like a dead barrier (sound whatever the candidate: the search is
// the proof).  A node with a duplicate, a kept child, a macro or a cut of
// another kind (frozen goals, the matching, the room cut) is not tried.
// SOKOBAN_KERNEL_DE: the states of that search (0: off); DEB: the most boxes.

struct DeadEnd {
    Kernel& kn;
    explicit DeadEnd(Kernel& k) : kn(k) {}
    bool open = false;   // every push cut by a rule that names its boxes, so far
    vector<int> boxes;   // the boxes named
    void start(bool on) { open = on; boxes.clear(); }
    void fail() { open = false; }
    // a push of the box on bc to t refused (pushAllowed): the box, and the
    // boxes around t that may freeze it
    void refused(const uint8_t* occ, int bc, int t) {
        if (!open || kn.wall_[t]) return;  // a wall: the same on any board
        boxes.push_back(bc);
        for (int dy = -1; dy <= 1; dy++)
            for (int dx = -1; dx <= 1; dx++) {
                int x = t + dy * kn.W + dx;
                if (x != bc && occ[x]) boxes.push_back(x);
            }
    }
    // a child (the box on bc pushed to t) matching learned pattern `id`
    void matched(int id, int bc, int t) {
        if (!open) return;
        for (int c : kn.patterns[id].boxes) boxes.push_back(c == t ? bc : c);
    }

    // At the end of the expansion: try the candidate when the node is a
    // dead end; true when it is learned.
    bool finish(int player) {
        if (!open || boxes.empty()) return false;
        kn.stats.deEnds++;
        sort(boxes.begin(), boxes.end());
        boxes.erase(unique(boxes.begin(), boxes.end()), boxes.end());
        if ((int)boxes.size() > kn.settings.deBoxes) return false;
        if (all_of(boxes.begin(), boxes.end(), [&](int c) { return kn.goal_[c] != 0; })) return false;
        kn.stats.deTests++;
        // Each box in turn is left out while the rest stays dead: the
        // pattern learned is as small as the search can prove, so it
        // matches more positions.  (learnPatterns is off meanwhile: only
        // the smallest set is learned.)
        int keepLearning = kn.learnPatterns;
        kn.learnPatterns = 0;
        bool dead = false;
        for (size_t i = 0; i < boxes.size() && boxes.size() > 1;) {
                vector<int> fewer(boxes);
                fewer.erase(fewer.begin() + i);
                if (any_of(fewer.begin(), fewer.end(), [&](int c) { return !kn.goal_[c]; }) &&
                    !kn.barrierAlive(fewer, player, kn.settings.deStates)) {
                    boxes.swap(fewer);
                    dead = true;
                } else {
                    i++;
                }
            }
        if (!dead) dead = !kn.barrierAlive(boxes, player, kn.settings.deStates);
        kn.learnPatterns = keepLearning;
        if (!dead) return false;
        kn.stats.deDead++;
        vector<uint8_t>& board = kn.deadEnd_board;
        Marks& region = kn.deadEnd_region;
        vector<int>& todo = kn.deadEnd_todo;
        if (board.size() != (size_t)kn.N) { board.assign(kn.N, 0); region.init(kn.N); }
        for (int c : boxes) board[c] = 1;
        kn.reach(player, board.data(), region, todo);
        for (int c : boxes) board[c] = 0;
        kn.learn(boxes, todo);
        return true;
    }
};
// --------------------------------------------------------- feature space --
// The feature-space search (FESS, Shoham & Schaeffer's idea, our own cheap
// version) files each position under a cell of two features:
// - packing: the goals of the packing order filled from its start
//   (packedPrefix, the packing search's count, in fsOrder); without a
//   packing order, the boxes on goals;
// - connectivity: the player regions, areas of free cells cut apart by boxes.
// Each feature is capped at 63 and the cell is packing * 64 + regions.
// b and occ hold the position's boxes and `player` marks the player's region
// (the child's reach).

// The cheap region count: the regions of a child
// from its parent's.  The parent's regions other than the player's (its
// corrals) are labelled once per expansion (compute).  A push frees bc (the
// player's cell after it, or on the player's walk) and fills t; then the
// child's regions are its player's region, each parent corral without t that
// this region does not reach (such a corral is whole in the child, so one of
// its cells tells), and the pieces that filling t cut off: the region that
// held t, less t, falls apart into pieces that each touch t, and those the
// player does not reach are flooded from t's neighbours (small areas).
struct FsParentRegions {
    Kernel& kn;
    explicit FsParentRegions(Kernel& k) : kn(k) {}
    Marks mark, cut;
    vector<int> label, rep, todo;
    bool ready = false;
    void compute(const uint8_t* occ, const Marks& seen, const vector<int>& boxes) {
        if (mark.v.size() != (size_t)kn.N) { mark.init(kn.N); cut.init(kn.N); label.assign(kn.N, 0); }
        mark.next();
        rep.clear();
        for (int bx : boxes)
            for (int d = 0; d < 4; d++) {
                int c = bx + kn.OFF[d];
                if (kn.wall_[c] || occ[c] || seen.has(c) || mark.has(c)) continue;
                kn.floodArea(c, occ, mark, todo);
                for (int x : todo) label[x] = rep.size();
                rep.push_back(c);
            }
        ready = true;
    }
    // The child's regions: occ holds its boxes (the box moved onto t),
    // `player` marks its player's region.
    int count(const uint8_t* occ, const Marks& player, int t) {
        int own = mark.has(t) ? label[t] : -1;  // the corral that held t, if any
        int regions = 1;
        for (size_t i = 0; i < rep.size(); i++)
            if ((int)i != own && !player.has(rep[i])) regions++;
        cut.next();
        for (int d = 0; d < 4; d++) {
            int c = t + kn.OFF[d];
            if (kn.wall_[c] || occ[c] || player.has(c) || cut.has(c)) continue;
            regions++;
            kn.floodArea(c, occ, cut, todo);
        }
        return regions;
    }
};



struct HeapE {
    int32_t f, g;
    uint32_t id;
    bool operator<(const HeapE& o) const {  // max-heap inverted: smallest f first
        if (f != o.f) return f > o.f;
        if (g != o.g) return g < o.g;       // deeper first
        return id > o.id;                   // older first
    }
};

// fn(c) for each cell c with occ[c] != 0, in ascending order, eight cells
// at a time (a board is mostly empty); stops when fn returns false.
template <class Fn>
void Kernel::forOccupied(const uint8_t* occ, Fn fn) {
    int c = 0;
    for (; c + 8 <= N; c += 8) {
        uint64_t w;
        memcpy(&w, occ + c, 8);
        while (w) {
            int i = __builtin_ctzll(w) >> 3;
            if (!fn(c + i)) return;
            w &= ~(0xFFULL << (8 * i));
        }
    }
    for (; c < N; c++)
        if (occ[c] && !fn(c)) return;
}
