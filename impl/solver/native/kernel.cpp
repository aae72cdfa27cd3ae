// Native push-search kernel of the Sokoban solver (impl/solver/native.py).
//
// A standalone program: reads one level as XSB text on stdin and prints one
// line on stdout:
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
// goal-room macros; a portfolio of settings.weights (g + w*h).  Macros prove nothing:
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
// default.  main reads them in one place (readSettings): each from
// SOKOBAN_KERNEL_<NAME> when that is set (impl/solver/native.py passes
// those on only when SOKOBAN_KERNEL_EXPERIMENTS=1: benchmarks and tests).
// docs/solver.md has the table.
struct Settings {
    // The portfolio (main).
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




// SOKOBAN_KERNEL_POL=n (same section): in a position where no box has a
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
    // candidates.  SOKOBAN_KERNEL_LP=0 switches the patterns off.
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
    // before SOKOBAN_KERNEL_POO replaced it (the order from the start made the
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
    // solution.  g_runs is the portfolio (set by main).
    vector<Search*>* g_runs = nullptr;

    double elapsed();
    int reach(int start, const uint8_t* occ, Marks& m, vector<int>& todo);
    int lowAfterPush(const uint8_t* occ, const Marks& region, int low, int b, int t);
    template <class Fn> void forOccupied(const uint8_t* occ, Fn fn);
    bool readLevel();
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
    void printStats();
    void readSettings(Settings& s);
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

struct Node {
    uint64_t hash;
    int32_t parent;
    int32_t g;
    uint32_t mv;      // single push: cell<<2|dir, steps in mvn; macro: index in macroStore
    uint16_t player;  // normalised player cell
    uint16_t mvn;     // steps of a straight push (>=1), or 0 for a macro
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

struct Search {
    Kernel& kn;
    int weight;
    bool macros;
    bool backward = false;      // a pull search (startBack / runBack)
    bool packing = false;       // the packing-order search (packingChildren)
    int childRegion = 0;        // packing: the cells of the player's region of the child being kept
    int childYs = 0;            // packing: the moved box's term of YASS's score (ysMoved)
    int ysWeight = 0;           // packing: that term's weight (0; the second packing search's settings.ysSecond)
    int childBonus = 0;         // packing: its Cand's bonus (a parking, SOKOBAN_KERNEL_POK, or an opening, POL)
    vector<Node> nodes;
    vector<uint64_t> bits;      // WORDS per node
    vector<uint8_t> expanded;
    vector<uint64_t> table;     // open addressing (see find)
    size_t mask;
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
    Search(Kernel& k, int w, bool mac) : kn(k), weight(w), macros(mac) {
        table.assign(1 << 10, 0);
        mask = table.size() - 1;
    }
    ~Search() { kn.memoryUsed -= bytes; }


    void account() {
        size_t b = nodes.capacity() * sizeof(Node) + bits.capacity() * 8 + table.size() * 8 +
                   expanded.capacity() + (heap.size() + fsQueued + poQueued) * sizeof(HeapE) * 2;
        kn.memoryUsed += b - bytes;
        bytes = b;
    }

    bool sameState(int id, const uint64_t* b, int player) {
        if (nodes[id].player != player) return false;
        return memcmp(&bits[(size_t)id * kn.WORDS], b, kn.WORDS * 8) == 0;
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
        bits.insert(bits.end(), b, b + kn.WORDS);
        expanded.push_back(0);
        if (nodes.size() * 2 > table.size()) grow();
        place(table, mask, h, id);
        return id;
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

bool Kernel::readLevel() {
    vector<string> rows;
    string line;
    bool started = false;
    while (getline(cin, line)) {
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
    if (rows.empty()) { printf("error no level on stdin\n"); return false; }
    int w = 0;
    for (auto& r : rows) w = max(w, (int)r.size());
    int h = rows.size();
    W = w + 2 * MARGIN;
    H = h + 2 * MARGIN;
    N = W * H;
    if (N >= 65000) { printf("error level too large for the kernel\n"); return false; }
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
    if (players != 1) { printf("error need exactly one player\n"); return false; }
    for (int c = 0; c < N; c++) if (goal_[c]) goals.push_back(c);
    if (goals.size() != startBoxes.size()) {
        printf("error boxes and goals differ in number\n");
        return false;
    }
    sort(startBoxes.begin(), startBoxes.end());
    K = startBoxes.size();
    if (K > 1000) { printf("error too many boxes for the kernel\n"); return false; }
    return true;
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



// SOKOBAN_KERNEL_DL=n (300 by default; docs/solver.md, "Issue 19: learning
// from the packing search's deep failures"): when the packing search's
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
// SOKOBAN_KERNEL_YSP=n: a second packing-order search in the portfolio
// with YSQ=n (settings.weights 24-96 solve XSokoban 27, 36, 37 and 61, where 20 and
// 25 need 3 or less: both, each in its own search), taking turns beside the
// first; 0: none.  96, the default: XSokoban 19, 27, 36, 37, 45 and 61
// solved at 1 000 000 nodes, none of the others lost (docs/solver.md, "Issue
// 19: the fifth session's defaults together").



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



// The packing order from the level's start (SOKOBAN_KERNEL_POO=1, 2; YASS's
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

// Marks in m, and lists in todo, the free cells joined to the free cell c
// (not marked yet), without resetting m: areas flooded one after another.
void Kernel::floodArea(int c, const uint8_t* occ, Marks& m, vector<int>& todo) {
    m.set(c);
    todo.assign(1, c);
    for (size_t i = 0; i < todo.size(); i++)
        for (int d = 0; d < 4; d++) {
            int x = todo[i] + OFF[d];
            if (!wall_[x] && !occ[x] && !m.has(x)) { m.set(x); todo.push_back(x); }
        }
}

FsFeatures Kernel::fsFeatures(const uint64_t* b, const uint8_t* occ, const Marks& player, int knownRegions) {
    FsFeatures f{0, 1};
    if (!poOrder.empty()) {
        f.packing = packedPrefix(b, fsOrder);
    } else {
        for (int g : goals) f.packing += occ[g];
    }
    if (knownRegions > 0) {
        f.regions = knownRegions;
    } else {
        Marks& other = fsFeatures_other;
        vector<int>& todo = fsFeatures_todo;
        if (other.v.size() != (size_t)N) other.init(N);
        other.next();
        for (int c : cellOf) {
            if (!inside_[c] || occ[c] || player.has(c) || other.has(c)) continue;
            f.regions++;
            floodArea(c, occ, other, todo);
        }
    }
    return f;
}

int Kernel::featureCell(const uint64_t* b, const uint8_t* occ, const Marks& player, int knownRegions) {
    FsFeatures f = fsFeatures(b, occ, player, knownRegions);
    stats.fsCells++;
    stats.fsPacked = max(stats.fsPacked, f.packing);
    if (knownRegions > 0) stats.fsQuick++;
    return min(f.packing, 63) * 64 + min(f.regions, 63);
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
        cands.clear();
        int lastBox = -1;  // where the push that led here left its box
        if (nd.parent >= 0) {
            if (nd.mvn == 0) { uint32_t p = macroStore[nd.mv].back(); lastBox = (p >> 2) + kn.OFF[p & 3]; }
            else lastBox = (int)(nd.mv >> 2) + nd.mvn * kn.OFF[nd.mv & 3];
        }
        bool corralDead = false;
        kn.stats.exp++;
        if (kn.holdsPattern(b, boxes, nd.player)) {
            for (int c : boxes) occ[c] = 0;
            continue;
        }
        bool pi = kn.piCorral(occ.data(), seen, boxes, nd.player, lastBox, cands, corralDead);
        if (pi) kn.stats.piCorrals++;
        if (!pi) {
            if (corralDead) {
                kn.stats.deadExp++;
                for (int c : boxes) occ[c] = 0;
                continue;
            }
            for (int i = 0; i < kn.K; i++)
                for (int d = 0; d < 4; d++)
                    if (seen.has(boxes[i] - kn.OFF[d])) cands.push_back({boxes[i], d, -1});
        }
        int macroTarget = -1;
        if (packing) {
            kn.ysQueueWeight = ysWeight;
            macroTarget = kn.packingChildren(occ.data(), boxes, nd.player, cands, macroStore);
        }
        if (fs && fsAdvice && macros && !kn.poOrder.empty()) {
            kn.ysQueueWeight = 0;
            // FESS's packing advisor: the packing search's box-path macros
            // to the next goal of the order, beside the ordinary pushes.
            vector<Cand> advice = cands;
            kn.packingChildren(occ.data(), boxes, nd.player, advice, macroStore);
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
                if (kn.boxPath(occ.data(), nd.player, last, macroTarget, path)) {
                    kn.stats.found++;
                    macroStore.push_back(path);
                    cands.clear();
                    cands.push_back({last, (int)(path.back() & 3), (int)macroStore.size() - 1});
                }
            }

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

