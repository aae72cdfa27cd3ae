// Written by the conformance toolkit (conformance/profiles/aed2/driver.cpp), compiled
// with a student's sources: drives one aed2_Juego over a line protocol.
//
// Requests on stdin, one per line; one answer line each, on the protocol
// stream (the original stdout: the student's own prints go to stderr).
//   N k        a new juego from the k level lines that follow:
//   L bombs px py nw x y .. nd x y .. nc x y ..   (walls, depots, boxes)
//   P x y | D x y | C x y   hayPared / hayDeposito / hayCaja   -> 1 | 0
//   A          posicionActual -> "x y"       B  cantidadBombas -> n
//   S d        sePuedeMover(d) -> 1 | 0      M d  mover(d) -> 1 | 0
//   T          tirarBomba -> ok              U  deshacer -> ok
//   W n x y .. the cells' hayPared, hayCaja and hayDeposito, in that order
//              cell by cell -> one line of 3n digits, 1 | 0 | x (x: it threw),
//              then, when one threw, the first one's "!raised ..."; each call
//              is served as its own P, C or D request would be (the request
//              being served, its coverage)
//   F          flush -> "."                  Q  quit
//   G          (coverage build only) the basic blocks of the student's code
//              run since the last G: "address op count" lines, in hex (count: how
//              many times the block ran under that request); then forgets them
// d is 0 Norte, 1 Este, 2 Sur, 3 Oeste. An exception answers "!raised ...".
// When the process dies (signal, abort, sanitizer), the request being served
// is written to stderr after the marker "@@aed2-died-in: ".
//
// Built with -DAED2_COVERAGE (only to localise a departure already found; see
// conformance/profiles/aed2/build.py), the student's files are compiled with
// -fsanitize-coverage=trace-pc: each basic block of theirs calls
// __sanitizer_cov_trace_pc, which keeps its address with the request being
// served, and counts its runs. G hands them over; a dying process writes them to stderr, each line after
// the marker "@@aed2-block: ".
#include "aed2_Juego.h"

#include <csignal>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <exception>
#include <unistd.h>

extern "C" void __sanitizer_set_death_callback(void (*)(void)) __attribute__((weak));

static char aed2_current[512];
static FILE* aed2_out = nullptr;
static aed2_Juego* aed2_juego = nullptr;

#ifdef AED2_COVERAGE
#include <cstdint>
// Open addressing: (return address << 8 | request letter) of each block run.
static const size_t AED2_SLOTS = 1u << 18;
static uint64_t aed2_slots[AED2_SLOTS];
static uint32_t aed2_used[AED2_SLOTS / 2];
static uint32_t aed2_hits[AED2_SLOTS];
static size_t aed2_count = 0;
static volatile char aed2_op = 0;

extern "C" void __sanitizer_cov_trace_pc(void) {
    uint64_t key = ((uint64_t) (uintptr_t) __builtin_return_address(0) << 8)
                   | (uint64_t) (unsigned char) aed2_op;
    size_t i = (size_t) ((key * 0x9E3779B97F4A7C15ull) >> 46) & (AED2_SLOTS - 1);
    while (aed2_slots[i] != 0) {
        if (aed2_slots[i] == key) {
            if (aed2_hits[i] != UINT32_MAX) aed2_hits[i]++;
            return;
        }
        i = (i + 1) & (AED2_SLOTS - 1);
    }
    if (aed2_count >= AED2_SLOTS / 2) return;      // full: the rest is not kept
    aed2_slots[i] = key;
    aed2_hits[i] = 1;
    aed2_used[aed2_count++] = (uint32_t) i;
}

static size_t aed2_hex(char* out, uint64_t v) {
    char tmp[17];
    size_t n = 0;
    do { tmp[n++] = "0123456789abcdef"[v & 15]; v >>= 4; } while (v != 0);
    for (size_t k = 0; k < n; k++) out[k] = tmp[n - 1 - k];
    return n;
}

// Writes the blocks run as "address op count" lines (each after prefix) to fd and
// forgets them (async-signal-safe: only write(2)).
static void aed2_coverage_to(int fd, const char* prefix) {
    char line[64];
    size_t start = strlen(prefix);
    memcpy(line, prefix, start);
    for (size_t k = 0; k < aed2_count; k++) {
        uint64_t key = aed2_slots[aed2_used[k]];
        size_t n = start + aed2_hex(line + start, key >> 8);
        line[n++] = ' ';
        n += aed2_hex(line + n, key & 0xff);
        line[n++] = ' ';
        n += aed2_hex(line + n, aed2_hits[aed2_used[k]]);
        line[n++] = '\n';
        ssize_t ignored = write(fd, line, n);
        (void) ignored;
        aed2_slots[aed2_used[k]] = 0;
    }
    aed2_count = 0;
}

// A dying process: its blocks go to stderr, each line after the marker.
static void aed2_coverage_on_death() {
    ssize_t ignored = write(2, "\n", 1);
    (void) ignored;
    aed2_coverage_to(2, "@@aed2-block: ");
}
#define AED2_SET_OP(op) (aed2_op = (op))
#else
#define AED2_SET_OP(op) ((void) 0)
static void aed2_coverage_on_death() {}
#endif

static void aed2_say_current() {
    static const char head[] = "\n@@aed2-died-in: ";
    ssize_t ignored = write(2, head, sizeof head - 1);
    ignored = write(2, aed2_current, strlen(aed2_current));
    ignored = write(2, "\n", 1);
    (void) ignored;
}

static void aed2_on_signal(int sig) {
    aed2_coverage_on_death();
    aed2_say_current();
    signal(sig, SIG_DFL);
    raise(sig);
}

static const char* aed2_cursor;

static long aed2_number() {
    char* end;
    long v = strtol(aed2_cursor, &end, 10);
    aed2_cursor = end;
    return v;
}

static Coordenada aed2_coord() {
    int x = (int) aed2_number();
    int y = (int) aed2_number();
    return Coordenada(x, y);
}

static set<Coordenada> aed2_coords() {
    set<Coordenada> s;
    long n = aed2_number();
    for (long i = 0; i < n; i++) {
        s.insert(aed2_coord());
    }
    return s;
}

static PuntoCardinal aed2_direction() {
    switch (aed2_number()) {
        case 0: return Norte;
        case 1: return Este;
        case 2: return Sur;
        default: return Oeste;
    }
}

static bool aed2_read_line(char*& line, size_t& cap) {
    ssize_t n = getline(&line, &cap, stdin);
    if (n < 0) return false;
    size_t k = (size_t) n < sizeof aed2_current - 1 ? (size_t) n : sizeof aed2_current - 1;
    memcpy(aed2_current, line, k);
    aed2_current[k] = '\0';
    if (k > 0 && aed2_current[k - 1] == '\n') aed2_current[k - 1] = '\0';
    return true;
}

// The answer to a call that threw: "!raised " and what it threw (std::exception's
// what(), on one line, at most 300 characters), or that it was not a std::exception.
static void aed2_raised_text(char* out, size_t size, const char* what) {
    if (what == nullptr) {
        snprintf(out, size, "!raised (not a std::exception)");
        return;
    }
    size_t n = (size_t) snprintf(out, size, "!raised ");
    for (const char* c = what; *c != '\0' && c - what < 300 && n + 1 < size; c++) {
        out[n++] = *c == '\n' || *c == '\r' ? ' ' : *c;
    }
    out[n] = '\0';
}

static void aed2_serve(char op, char*& line, size_t& cap) {
    AED2_SET_OP(op);
    if (op == 'N') {
        long k = aed2_number();
        vector<aed2_Nivel> niveles;
        for (long i = 0; i < k; i++) {
            if (!aed2_read_line(line, cap)) exit(3);
            aed2_cursor = line + 1;
            aed2_Nivel n;
            n.cantidadBombas = (Nat) aed2_number();
            n.posicionInicial = aed2_coord();
            n.paredes = aed2_coords();
            n.depositos = aed2_coords();
            n.cajas = aed2_coords();
            niveles.push_back(n);
        }
        snprintf(aed2_current, sizeof aed2_current, "aed2_Juego(niveles)");
        delete aed2_juego;
        aed2_juego = nullptr;
        aed2_juego = new aed2_Juego(niveles);
        fputs("ok\n", aed2_out);
        return;
    }
#ifdef AED2_COVERAGE
    if (op == 'G') {
        fflush(aed2_out);
        aed2_coverage_to(fileno(aed2_out), "");
        return;
    }
#endif
    if (op == 'F') {
        fputs(".\n", aed2_out);
        fflush(aed2_out);
        return;
    }
    if (aed2_juego == nullptr) {
        fputs("!nogame\n", aed2_out);
        return;
    }
    aed2_Juego& j = *aed2_juego;
    if (op == 'W') {
        long n = aed2_number();
        char failure[320] = "";         // the first call that threw: what it threw
        for (long i = 0; i < n; i++) {
            int x = (int) aed2_number();
            int y = (int) aed2_number();
            Coordenada c(x, y);
            for (int k = 0; k < 3; k++) {
                const char letter = "PCD"[k];
                snprintf(aed2_current, sizeof aed2_current, "%c %d %d", letter, x, y);
                AED2_SET_OP(letter);
                char digit;
                try {
                    bool yes = k == 0 ? j.hayPared(c) : k == 1 ? j.hayCaja(c) : j.hayDeposito(c);
                    digit = yes ? '1' : '0';
                } catch (const std::exception& e) {
                    digit = 'x';
                    if (failure[0] == '\0') aed2_raised_text(failure, sizeof failure, e.what());
                } catch (...) {
                    digit = 'x';
                    if (failure[0] == '\0') aed2_raised_text(failure, sizeof failure, nullptr);
                }
                fputc(digit, aed2_out);
            }
        }
        if (failure[0] != '\0') fputs(failure, aed2_out);
        fputc('\n', aed2_out);
        return;
    }
    switch (op) {
        case 'P': fputs(j.hayPared(aed2_coord()) ? "1\n" : "0\n", aed2_out); break;
        case 'D': fputs(j.hayDeposito(aed2_coord()) ? "1\n" : "0\n", aed2_out); break;
        case 'C': fputs(j.hayCaja(aed2_coord()) ? "1\n" : "0\n", aed2_out); break;
        case 'A': {
            Coordenada c = j.posicionActual();
            fprintf(aed2_out, "%d %d\n", c.first, c.second);
            break;
        }
        case 'B': fprintf(aed2_out, "%lld\n", (long long) j.cantidadBombas()); break;
        case 'S': fputs(j.sePuedeMover(aed2_direction()) ? "1\n" : "0\n", aed2_out); break;
        case 'M': fputs(j.mover(aed2_direction()) ? "1\n" : "0\n", aed2_out); break;
        case 'T': j.tirarBomba(); fputs("ok\n", aed2_out); break;
        case 'U': j.deshacer(); fputs("ok\n", aed2_out); break;
        default: fputs("!unknown\n", aed2_out); break;
    }
}

int main() {
    int proto = dup(1);
    dup2(2, 1);
    aed2_out = fdopen(proto, "w");
    if (aed2_out == nullptr) return 3;
    if (__sanitizer_set_death_callback != nullptr) {
        __sanitizer_set_death_callback(aed2_say_current);
    } else {
        signal(SIGSEGV, aed2_on_signal);
        signal(SIGBUS, aed2_on_signal);
        signal(SIGFPE, aed2_on_signal);
        signal(SIGILL, aed2_on_signal);
    }
    signal(SIGABRT, aed2_on_signal);
#ifdef AED2_COVERAGE
    atexit(aed2_coverage_on_death);     // the student's code may call exit()
#endif
    char* line = nullptr;
    size_t cap = 0;
    while (aed2_read_line(line, cap)) {
        if (line[0] == 'Q') break;
        if (line[0] == '\n' || line[0] == '\0') continue;
        aed2_cursor = line + 1;
        try {
            aed2_serve(line[0], line, cap);
        } catch (const std::exception& e) {
            char failure[320];
            aed2_raised_text(failure, sizeof failure, e.what());
            fputs(failure, aed2_out);
            fputc('\n', aed2_out);
        } catch (...) {
            char failure[320];
            aed2_raised_text(failure, sizeof failure, nullptr);
            fputs(failure, aed2_out);
            fputc('\n', aed2_out);
        }
    }
    delete aed2_juego;
    fflush(aed2_out);
    free(line);
    return 0;
}
