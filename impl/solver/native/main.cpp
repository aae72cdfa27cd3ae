// The program the Python side runs (impl/solver/native.py): the limits as
// arguments, the settings from the environment, the level on stdin, the
// answer on stdout (see the usage at the top of kernel.h).  The solve itself
// is solveLevel (portfolio.cpp), a function of its inputs alone.
#include "kernel.h"

// The settings: the defaults, each replaced by SOKOBAN_KERNEL_<NAME> when
// that is set (see Settings).
static Settings settingsFromEnvironment() {
    Settings s;
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
    return s;
}


int main(int argc, char** argv) {
    Options options;
    if (argc > 1) options.timeLimit = atof(argv[1]);
    if (argc > 2) options.nodeLimit = atoll(argv[2]);
    if (argc > 3) options.memLimit = (size_t)atoll(argv[3]) << 20;
    if (argc > 4) options.progressEvery = atof(argv[4]);
    options.stats = getenv("SOKOBAN_KERNEL_STAT") != nullptr;
    options.settings = settingsFromEnvironment();
    Answer answer = solveLevel(cin, options);
    printf("%s\n", answer.line.c_str());
    return answer.status;
}
