/*  The conformance driver for seed 003's Prolog programs (profile prolog).

    Run as:  swipl --stack-limit=SIZE -q driver.pl -- TARGET.pro

    It loads the target (the student's program) into module user and then
    serves requests read from standard input, one Prolog term per line,
    answering each with one line on standard output that starts with
    "@@ " followed by the answer written canonically (quoted, no
    operators). Everything the target prints goes to a null stream and its
    standard input is empty, so neither its own printing (seed 003's
    program writes every state it visits) nor its reading can break the
    protocol.

    Requests and answers:
      (at start)                 -> loaded(Missing, Messages)
      level(Filas, Columnas, Pistas)
            a fresh copy of this process (fork/1) with the level's facts
            asserted in the order given        -> ready
      successors(State, Millis)  -> ok(Pairs) | error(Text) | timeout
            Pairs: findall(A-S2, (action(State, A), perform(State, A, S2)), Pairs)
      successors_all(States, Millis) -> all(Answers)
            one answer as above per state, up to the first that is not ok
      plan(Millis)               -> plan(Plan, Time) | no_plan(Time)
                                    | timeout(Time) | error(Text, Time)
      covered(Request)           -> covered(Answer, Clauses)
            Request served with SWI-Prolog's clause coverage on (only then:
            localising a departure): Clauses, c(File, Line, Name/Arity,
            Entered, Exited) for each clause of the program entered while
            it ran (how many times it was entered, and exited), and
            g(File, Line, PC, Entered, Exited) for each call site of a
            clause it went through (the clause's file and first line, the
            site's program counter)
      sites                      -> sites(Sites)
            s(File, Line, PC, GoalLine): the line of the goal at each call
            site of the program's clauses
      calls(State, Actions, Millis, Goals) -> calls(Listed, Asked, Records, Table)
            (localising too) Listed: findall(A, action(State, A), Listed);
            Asked: those and Actions, each once (=@=, Listed's first);
            then, each with the coverage on, one call of action(State, A)
            for each A of Asked, and findall(S2, perform(State, A, S2), L)
            for each of Listed: Records, r(action, I, Result, Numbers, _)
            (Result true, false, timeout or error(Text)) and
            r(perform, I, Result-L, Numbers, _), I the action's index in
            Asked (from 0); Table, the clauses entered, c(File, Line,
            Name/Arity); Numbers, a string of three integers per clause a
            call entered: its index in Table (from 0), how many times it
            was entered, and exited. Millis: for all of them together (a
            call when none is left: timeout, not made). Records have a
            fifth argument, a string of four integers per call site gone
            through (Goals true; else empty): its clause's index in Table,
            its PC, entered, exited
      end                        -> bye  (the copy ends)
            then, from the parent, once the copy has ended for any reason:
                                 -> ended(Status)
      quit                       (the driver ends)

    Time limits come in milliseconds (integers: requests hold no floats,
    which an unbuffered stream cannot read), times go out in seconds.

    The answers of the copy are over when it ends: a target that calls
    halt/0 or dies in the middle of a request shows up as ended(Status)
    where the answer was expected. This file is part of sokoban-tad.
*/

:- module(sokoban_driver, []).

:- use_module(library(unix), [fork/1, wait/2, kill/2]).
:- use_module(library(time), [alarm/4, remove_alarm/1]).
:- use_module(library(lists), [member/2, append/3, nth0/3]).
:- use_module(library(apply), [exclude/3]).
:- use_module(library(prolog_clause), [clause_info/5]).
:- use_module(library(prolog_breakpoints), []).
:- use_module(library(readutil), [read_file_to_string/3]).

:- dynamic user:filas/1, user:columnas/1, user:pista/3.

%!  Largest answer (term_size/2 cells) sent back; larger is an error.
max_answer_cells(2000000).

:- initialization(main, main).

main :-
    current_prolog_flag(argv, Argv),
    (   Argv = [File|_]
    ->  true
    ;   format(user_error, "usage: swipl driver.pl -- TARGET.pro~n", []),
        halt(2)
    ),
    set_prolog_flag(on_error, print),
    set_prolog_flag(on_warning, print),
    stream_property(In, alias(user_input)),
    stream_property(Out, alias(user_output)),
    set_stream(Out, encoding(utf8)),
    set_stream(In, encoding(utf8)),
    % Unbuffered: a copy made by fork/1 must not inherit requests read ahead.
    set_stream(In, buffer(false)),
    nb_setval(sokoban_out, Out),
    nb_setval(sokoban_in, In),
    module_property(sokoban_driver, file(Self)),
    nb_setval(sokoban_self, Self),
    current_prolog_flag(home, Home),
    nb_setval(sokoban_home, Home),
    silence,
    load_target(File, Missing, Messages),
    answer(loaded(Missing, Messages)),
    serve_parent(In).

%   The target's streams: output to a null stream, input empty.
silence :-
    open_null_stream(Null),
    set_stream(Null, alias(user_output)),
    set_output(Null),
    open_string("", Empty),
    set_stream(Empty, alias(user_input)),
    set_input(Empty).

answer(Term) :-
    nb_getval(sokoban_out, Out),
    write(Out, '@@ '),
    write_term(Out, Term, [quoted(true), ignore_ops(true), dotlists(false),
                           max_depth(0), numbervars(false)]),
    nl(Out),
    flush_output(Out).

request(In, Request) :-
    catch(read_term(In, Request, []), E, (message_text(E, T), Request = bad(T))).

% ------------------------------------------------------------------ loading

:- dynamic load_message/1.

%   Each message as swipl prints it: "ERROR: ..." or "Warning: ...".
user:message_hook(Term, Kind, _) :-
    memberchk(Kind-Prefix, [error-"ERROR: ", warning-"Warning: "]),
    nb_current(sokoban_loading, true),
    message_text(Term, Text0),
    string_concat(Prefix, Text0, Text),
    assertz(load_message(Text)),
    fail.

load_target(File, Missing, Messages) :-
    nb_setval(sokoban_loading, true),
    % No alarm here: an alarm thread started before fork/1 is lost in the
    % copies (and their halt/1 then hangs); the checker times the load.
    catch(load_files(user:File, [if(true)]), E,
          (message_text(E, T0), string_concat("ERROR: ", T0, T), assertz(load_message(T)))),
    nb_setval(sokoban_loading, false),
    findall(T, load_message(T), Messages),
    findall(N/A, (member(N/A, [action/2, perform/3, sokoban/1]),
                  \+ target_predicate(N, A, _)), Missing).

%   Where the target's N/A lives: user (also when imported there), or the
%   module of a target file that did not export it.
target_predicate(N, A, M:Head) :-
    functor(Head, N, A),
    (   predicate_property(user:Head, defined)
    ->  M = user
    ;   current_module(M), M \== user, M \== sokoban_driver,
        module_property(M, class(user)),
        predicate_property(M:Head, defined),
        \+ predicate_property(M:Head, imported_from(_))
    ->  true
    ).

call_target(N, Args) :-
    length(Args, A),
    (   target_predicate(N, A, M:Head)
    ->  Head =.. [N|Args],
        call(M:Head)
    ;   existence_error(procedure, N/A)
    ).

message_text(Term, Text) :-
    catch(( message_to_codes(Term, Codes), string_codes(Text0, Codes) ), _,
          format(string(Text0), "~q", [Term])),
    split_string(Text0, "", " \n", [Text1]),
    (   string_length(Text1, L), L > 2000
    ->  sub_string(Text1, 0, 2000, _, Text)
    ;   Text = Text1
    ).

message_to_codes(Term, Codes) :-
    '$messages':translate_message(Term, Lines, []),
    with_output_to(codes(Codes), print_message_lines(current_output, '', Lines)).

% ------------------------------------------------------------------ parent

serve_parent(In) :-
    request(In, Request),
    (   Request == end_of_file
    ->  halt(0)
    ;   Request == quit
    ->  halt(0)
    ;   Request = level(Filas, Columnas, Pistas)
    ->  fork(Pid),
        (   Pid == child
        ->  at_halt(halted),
            set_level(Filas, Columnas, Pistas),
            answer(ready),
            serve_child(In)
        ;   wait(Pid, Status),
            answer(ended(Status)),
            serve_parent(In)
        )
    ;   format(string(Text), "unknown request ~q", [Request]),
        answer(error(Text)),
        serve_parent(In)
    ).

set_level(Filas, Columnas, Pistas) :-
    retractall(user:filas(_)),
    retractall(user:columnas(_)),
    retractall(user:pista(_, _, _)),
    assertz(user:filas(Filas)),
    assertz(user:columnas(Columnas)),
    forall(member(pista(F, C, E), Pistas), assertz(user:pista(F, C, E))).

% ------------------------------------------------------------------ the copy

%   A copy never runs halt/1's cleanup: after an alarm of library(time) it
%   can hang there (a mutex of time.so). It ends by SIGKILL; the target's
%   own halt/0 is answered with halted before that.
quit_now :-
    current_prolog_flag(pid, Pid),
    kill(Pid, kill).

halted :-
    answer(halted),
    quit_now.

serve_child(In) :-
    request(In, Request),
    (   Request == end_of_file
    ->  quit_now
    ;   Request == end
    ->  answer(bye),
        quit_now
    ;   serve(Request, Answer)
    ->  answer(Answer),
        serve_child(In)
    ;   format(string(Text), "unknown request ~q", [Request]),
        answer(error(Text)),
        serve_child(In)
    ).

serve(successors(State, Millis), Answer) :-
    successors(State, Millis, Answer).
serve(covered(Request), covered(Answer, Clauses)) :-
    covered(Request, Answer, Clauses).
serve(sites, sites(Sites)) :-
    sites(Sites).
serve(calls(State, Actions, Millis, Goals), Answer) :-
    calls(State, Actions, Millis, Goals, Listed, Asked, Records0),
    findall(c(F, L, PI), ( member(r(_, _, _, Cs), Records0),
                           member(c(F, L, PI, _, _), Cs) ), Table0),
    sort(Table0, Table),
    findall(r(K, A, R, Numbers, Called),
            ( member(r(K, A, R, Cs), Records0),
              findall(N, ( member(c(F, L, PI, E, X), Cs),
                           nth0(I, Table, c(F, L, PI)),
                           member(N, [I, E, X]) ), Ns),
              atomic_list_concat(Ns, ' ', Atom),
              atom_string(Atom, Numbers),
              findall(N, ( member(g(F, L, PC, E, X), Cs),
                           nth0(I, Table, c(F, L, _)),
                           member(N, [I, PC, E, X]) ), Gs),
              atomic_list_concat(Gs, ' ', GAtom),
              atom_string(GAtom, Called) ),
            Records),
    checked(calls(Listed, Asked, Records, Table), Answer).
serve(successors_all(States, Millis), all(Answers)) :-
    successors_all(States, Millis, Answers).
serve(plan(Millis), Answer) :-
    Seconds is Millis / 1000,
    get_time(T0),
    limited(Seconds, call_target(sokoban, [Plan]), Result),
    get_time(T1),
    Time is T1 - T0,
    (   Result == true
    ->  checked(plan(Plan, Time), Answer)
    ;   Result == false
    ->  Answer = no_plan(Time)
    ;   Result == timeout
    ->  Answer = timeout(Time)
    ;   Result = error(Text)
    ->  Answer = error(Text, Time)
    ).

successors(State, Millis, Answer) :-
    Seconds is Millis / 1000,
    Goal = findall(A-S2, (call_target(action, [State, A]),
                          call_target(perform, [State, A, S2])), Pairs),
    limited(Seconds, Goal, Result),
    (   Result == true
    ->  checked(ok(Pairs), Answer)
    ;   Result == timeout
    ->  Answer = timeout
    ;   Result = error(_)
    ->  Answer = Result
    ;   Answer = error("findall/3 failed")
    ).

%   One answer per state, in order, up to the first that is not ok(_).
successors_all([], _, []).
successors_all([State|States], Millis, [Answer|Answers]) :-
    successors(State, Millis, Answer),
    (   Answer = ok(_)
    ->  successors_all(States, Millis, Answers)
    ;   Answers = []
    ).

%   limited(+Seconds, :Goal, -Result): true, false, timeout or error(Text);
%   the first solution only. Seconds of CPU time, not of waiting: on a
%   loaded machine a correct program may wait for a core. An alarm looks at
%   the CPU time used whenever the limit could have been used up, and
%   stops Goal only once it has been (or once it has waited wall_factor/1
%   times Seconds in all); until then it looks again later. Goal runs once:
%   a starved call loses no work (each retry from the start cost a loaded
%   machine up to 7 times the limit on every table without a plan).
limited(Seconds, Goal, Result) :-
    wall_factor(F),
    statistics(cputime, C0),
    get_time(T0),
    CpuEnd is C0 + Seconds,
    WallEnd is T0 + Seconds * F,
    catch(setup_call_cleanup(arm(Seconds, CpuEnd, WallEnd),
                             ( once(Goal) -> Result0 = true ; Result0 = false ),
                             disarm),
          E,
          (   E == time_limit_exceeded
          ->  Result0 = timeout
          ;   message_text(E, Text),
              Result0 = error(Text)
          )),
    Result = Result0.

%   One alarm at a time, its id in sokoban_alarm; removed by hand (an
%   alarm removed by library(time) itself leaves an id that aborts swipl
%   when removed again).
arm(Wait, CpuEnd, WallEnd) :-
    alarm(Wait, expire(CpuEnd, WallEnd), Id, [remove(false)]),
    nb_setval(sokoban_alarm, Id).

expire(CpuEnd, WallEnd) :-
    disarm,
    statistics(cputime, C),
    get_time(Now),
    (   ( C >= CpuEnd - 0.001 ; Now >= WallEnd - 0.001 )
    ->  throw(time_limit_exceeded)
    ;   Wait is max(0.001, min(CpuEnd - C, WallEnd - Now)),
        arm(Wait, CpuEnd, WallEnd)
    ).

disarm :-
    (   nb_current(sokoban_alarm, Id), Id \== none
    ->  nb_setval(sokoban_alarm, none),
        remove_alarm(Id)
    ;   true
    ).

%   How many times its limit a call may wait in all: conformance.child's
%   WALL_FACTOR (a test checks that they agree).
wall_factor(10).

%   An answer we can send: acyclic and not huge.
checked(Answer, Checked) :-
    (   cyclic_term(Answer)
    ->  Checked = error("the answer is a cyclic term")
    ;   max_answer_cells(Max),
        term_size(Answer, Size), Size > Max
    ->  format(string(Text), "the answer is too large (~D cells)", [Size]),
        Checked = error(Text)
    ;   Checked = Answer
    ).

%   covered(+Request, -Answer, -Clauses): Request served with the clause
%   coverage of SWI-Prolog ('$cov_start', as library(test_cover) does) on.
covered(Request, Answer, Clauses) :-
    covering(( serve(Request, Answer0) -> Answer = Answer0
             ; Answer = error("the request failed") ), Clauses).

%   covering(:Goal, -Clauses): Goal once with the coverage on; Clauses,
%   c(File, Line, Name/Arity, Entered, Exited) for each clause entered,
%   of any file but this one and SWI-Prolog's own libraries.
covering(Goal, Clauses) :-
    covering(Goal, true, Clauses).

%   covering(:Goal, +Goals, -Clauses): the call sites only when Goals is
%   true.
covering(Goal, Goals, Clauses) :-
    '$cov_reset',
    setup_call_cleanup('$cov_start', once(Goal), '$cov_stop'),
    findall(c(File, Line, PI, Entered, Exited),
            ( '$cov_data'(clause(Clause), Entered, Exited), Entered > 0,
              own_clause(Clause, File, Line),
              clause_property(Clause, predicate(_:PI)) ),
            Clauses0),
    findall(g(File, Line, PC, Entered, Exited),
            ( Goals == true,
              '$cov_data'(call_site(Clause, PC, _), Entered, Exited), Entered > 0,
              own_clause(Clause, File, Line) ),
            Sites),
    append(Clauses0, Sites, Clauses1),
    sort(Clauses1, Clauses),
    '$cov_reset'.

%   A clause of the program's own files (of any file but this one and
%   SWI-Prolog's own libraries), its file and its first line.
own_clause(Clause, File, Line) :-
    clause_property(Clause, file(File)),
    nb_getval(sokoban_self, Self),
    File \== Self,
    nb_getval(sokoban_home, Home),
    \+ sub_atom(File, 0, _, _, Home),
    clause_property(Clause, line_count(Line)).

%   sites(-Sites): s(File, Line, PC, GoalLine) for each call site of each
%   clause of the program (the clause's file and first line, the site's
%   program counter as coverage names it, the line of the goal called):
%   what library(test_cover) annotates a file's lines with.
sites(Sites) :-
    findall(s(File, Line, PC, GoalLine),
            ( current_predicate(user:N/A), functor(H, N, A),
              \+ predicate_property(user:H, imported_from(_)),
              \+ predicate_property(user:H, foreign),
              catch(clause(user:H, _, Clause), _, fail),
              own_clause(Clause, File, Line),
              catch(clause_info(Clause, _, TermPos, _, [silent(true)]), _, fail),
              '$break_pc'(Clause, _, PC),
              catch(( '$clause_term_position'(Clause, PC, Path),
                      prolog_breakpoints:range(Path, TermPos, SubPos) ), _, fail),
              arg(1, SubPos, Offset),
              file_line(File, Offset, GoalLine) ),
            Sites0),
    sort(Sites0, Sites).

%   The line (from 1) of a character offset of a file.
file_line(File, Offset, Line) :-
    (   nb_current(sokoban_file_text, File-Text)
    ->  true
    ;   read_file_to_string(File, Text, []),
        nb_setval(sokoban_file_text, File-Text)
    ),
    sub_string(Text, 0, Offset, _, Before),
    split_string(Before, "\n", "", Parts),
    length(Parts, Line).

%   calls(+State, +Actions, +Millis, -Listed, -Records): the calls of the
%   action model one by one, each with its own coverage (see the header).
calls(State, Actions, Millis, Goals, Listed, Asked, Records) :-
    statistics(cputime, C0),
    End is C0 + Millis / 1000,
    within(End, findall(A, call_target(action, [State, A]), Listed0), Result),
    (   Result == true
    ->  Listed = Listed0
    ;   Listed = []
    ),
    variants(Listed, Own),
    append(Own, Actions, Asked0),
    variants(Asked0, Asked),
    findall(r(action, I, Ok, Clauses),
            ( nth0(I, Asked, A),
              covering(within(End, call_target(action, [State, A]), Ok), Goals, Clauses) ),
            Records1),
    findall(r(perform, I, Ok-Nexts, Clauses),
            ( nth0(I, Own, A),
              covering(within(End, findall(N, call_target(perform, [State, A, N]), Nexts),
                              Ok), Goals, Clauses),
              ( var(Nexts) -> Nexts = [] ; true ) ),
            Records2),
    append(Records1, Records2, Records).

%   within(+End, :Goal, -Result): limited/3 with the CPU time left until
%   End (timeout, without calling Goal, when none is left).
within(End, Goal, Result) :-
    statistics(cputime, C),
    Left is End - C,
    (   Left > 0.001
    ->  limited(Left, Goal, Result)
    ;   Result = timeout
    ).

%   The terms of a list, each once (the first of its variants).
variants([], []).
variants([X|Xs], [X|Ys]) :-
    exclude(=@=(X), Xs, Rest),
    variants(Rest, Ys).
