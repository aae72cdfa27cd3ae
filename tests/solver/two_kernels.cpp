// Two or more solves side by side in one process (tests/solver/test_two_kernels.py).
//
//   two_kernels NODE_LIMIT LEVEL.xsb...
//
// Solves each level alone, one after another, then all of them at once, one
// std::thread per level, each with its own solveLevel call (no time limit,
// so the answers depend on nothing but the level and the limits).  Prints
// each level's answer line, as solved alone, on stdout; exits with status 1,
// saying which level differed, when a level's answer in the threads is not
// the same line (the same node count, the same solution) as alone.
#include <atomic>
#include <fstream>
#include <sstream>
#include <thread>

#include "kernel.h"

static Answer solveText(const string& text, long long nodeLimit) {
    Options options;
    options.nodeLimit = nodeLimit;
    options.memLimit = (size_t)3000 << 20;  // impl/solver/native.py's MEMORY_MB
    istringstream in(text);
    return solveLevel(in, options);
}

int main(int argc, char** argv) {
    if (argc < 4) {
        fprintf(stderr, "usage: two_kernels NODE_LIMIT LEVEL.xsb LEVEL.xsb...\n");
        return 2;
    }
    long long nodeLimit = atoll(argv[1]);
    vector<string> texts;
    for (int i = 2; i < argc; i++) {
        ifstream file(argv[i]);
        if (!file) { fprintf(stderr, "two_kernels: cannot read %s\n", argv[i]); return 2; }
        stringstream text;
        text << file.rdbuf();
        texts.push_back(text.str());
    }
    vector<Answer> alone;
    for (const string& text : texts) alone.push_back(solveText(text, nodeLimit));

    vector<Answer> together(texts.size());
    atomic<bool> go{false};
    vector<thread> threads;
    for (size_t i = 0; i < texts.size(); i++)
        threads.emplace_back([&, i]() {
            while (!go.load()) this_thread::yield();  // every thread starts at once
            together[i] = solveText(texts[i], nodeLimit);
        });
    go.store(true);
    for (thread& t : threads) t.join();

    int status = 0;
    for (size_t i = 0; i < texts.size(); i++) {
        printf("%s\n", alone[i].line.c_str());
        if (together[i].line != alone[i].line || together[i].status != alone[i].status) {
            fprintf(stderr, "two_kernels: %s differs: alone '%s' (status %d), in a thread '%s' (status %d)\n",
                    argv[i + 2], alone[i].line.c_str(), alone[i].status, together[i].line.c_str(),
                    together[i].status);
            status = 1;
        }
    }
    return status;
}
