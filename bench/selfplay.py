"""Random players through the engine contract: games/s and states/s, compared with OpenSpiel.

    python -m bench.selfplay --game gin --games 2000
    python -m bench.selfplay --game thanasis --games 200 --profile
    python -m bench.selfplay --game thunee --games 2000
    python -m bench.selfplay --game canasta --games 500   (and canasta-tuiles)

A game runs from `new_match` with uniformly random legal moves (`legal_moves` + `apply`, 2 seats)
to the end of the first round for Gin (like one OpenSpiel gin_rummy game: a knock or a void round;
random players seldom knock, and a single-round Gin match goes on after a void round), and to the
end of the match (101) for Thanasis, and for Thunee (4 seats, a match to 12 balls, the JODHI window's two
seats answered in `to_act` order), and to the end of the first hand for the Canastas (4 seats; random players
never reach 5,000); `--until` changes it. A "state" is one applied decision move;
the deal is not counted.
Rates are per second of this process's CPU time (the machine may be shared; wall time is printed too).
For Gin the same figures are measured in the same run for OpenSpiel's `gin_rummy` (C++ engine
through pyspiel), random legal actions from the initial state to the terminal one, counting the
player decisions only (chance outcomes of the deal and of draws are applied but not counted), if
`pyspiel` imports (`pip install open-spiel` in the venv; never a project dependency).
`--profile` runs cProfile on our engine and prints the functions that dominate.
The last line: `RESULT game=… games_per_s=… states_per_s=… openspiel_states_per_s=… ratio=…`.
"""

import argparse
import cProfile
import hashlib
import io
import pstats
import random
import sys
import time

from engine import games

# the other games: 2 seats (heads-up, like OpenSpiel's gin_rummy)
SEATS = {"thunee": 4, "canasta": 4, "canasta-tuiles": 4}


def our_selfplay(slug: str, n_games: int, seed: int, until: str) -> tuple[int, int, float]:
    """(games, states, seconds) of random play on our engine."""
    game = games.get(slug)
    rng = random.Random(seed)
    states = 0
    t0 = time.process_time()
    w0 = time.perf_counter()
    for i in range(n_games):
        seed_i = hashlib.sha256(f"selfplay:{i}".encode()).hexdigest()
        state = game.new_match(seats=SEATS.get(slug, 2), options={}, seed=seed_i)
        while game.result(state) is None:
            to_act = game.to_act(state)
            if not to_act:
                if until == "round":
                    break
                state, _ = game.apply(state, state["active"][0], {"action": "next_round"})
                states += 1
                continue
            seat = to_act[0]
            move = rng.choice(game.legal_moves(state, seat))
            state, _ = game.apply(state, seat, move)
            states += 1
    return n_games, states, time.process_time() - t0, time.perf_counter() - w0


def openspiel_selfplay(n_games: int, seed: int):
    """(games, states, seconds) of random play on OpenSpiel's gin_rummy, or None if unavailable."""
    try:
        import pyspiel
    except ImportError as exc:
        return None, f"pyspiel not importable ({exc})"
    game = pyspiel.load_game("gin_rummy")
    rng = random.Random(seed)
    states = 0
    t0 = time.process_time()
    w0 = time.perf_counter()
    for _ in range(n_games):
        state = game.new_initial_state()
        while not state.is_terminal():
            if state.is_chance_node():
                outcomes = state.chance_outcomes()
                state.apply_action(outcomes[rng.randrange(len(outcomes))][0])
                continue
            state.apply_action(rng.choice(state.legal_actions()))
            states += 1
    return (n_games, states, time.process_time() - t0, time.perf_counter() - w0), None


def profile_ours(slug: str, n_games: int, seed: int, until: str, top: int = 25) -> str:
    prof = cProfile.Profile()
    prof.enable()
    our_selfplay(slug, n_games, seed, until)
    prof.disable()
    out = io.StringIO()
    stats = pstats.Stats(prof, stream=out)
    stats.sort_stats("tottime").print_stats(top)
    stats.sort_stats("cumulative").print_stats(top)
    return out.getvalue()


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--game", choices=("gin", "thanasis", "thunee", "canasta", "canasta-tuiles"), default="gin")
    parser.add_argument("--games", type=int, default=2000)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--until", choices=("round", "match"), default=None,
                        help="where a game ends (default: round for gin, match for thanasis)")
    parser.add_argument("--profile", action="store_true", help="cProfile our engine (a tenth of the games)")
    parser.add_argument("--openspiel-canasta", default="/tmp/canasta-openspiel",
                        help="source tree of canasta-openspiel (bench/canasta_openspiel.py)")
    args = parser.parse_args(argv)
    until = args.until or ("round" if args.game in ("gin", "canasta", "canasta-tuiles") else "match")

    n, states, secs, wall = our_selfplay(args.game, args.games, args.seed, until)
    ours_gps, ours_sps = n / secs, states / secs
    print(f"ours   {args.game} (a game = to the end of the {until}): {n} games, {states} states in {secs:.2f} s CPU "
          f"({wall:.2f} s wall) -> {ours_gps:.1f} games/s, {ours_sps:.0f} states/s ({states / n:.1f} states/game)")
    os_sps = None
    if args.game == "gin":
        measured, why = openspiel_selfplay(args.games, args.seed)
        if measured is None:
            print(f"OpenSpiel: not measured: {why}")
        else:
            on, ostates, osecs, owall = measured
            os_sps = ostates / osecs
            print(f"OpenSpiel gin_rummy: {on} games, {ostates} states in {osecs:.2f} s CPU ({owall:.2f} s wall) -> "
                  f"{on / osecs:.1f} games/s, {os_sps:.0f} states/s ({ostates / on:.1f} states/game)")
    elif args.game == "canasta":
        from bench import canasta_openspiel

        measured, why = canasta_openspiel.measure(args.games, args.seed, args.openspiel_canasta)
        if measured is None:
            print(f"canasta-openspiel: not measured: {why}")
        else:
            on, ostates, osecs, owall = measured
            os_sps = ostates / osecs
            print(f"canasta-openspiel (Python, a game = one hand): {on} hands, {ostates} states in {osecs:.2f} s CPU "
                  f"({owall:.2f} s wall) -> {on / osecs:.1f} hands/s, {os_sps:.0f} states/s "
                  f"({ostates / on:.1f} states/hand)")
    else:
        print(f"OpenSpiel has no {args.game}: our figure alone")
    if args.profile:
        print(profile_ours(args.game, max(1, args.games // 10), args.seed, until))

    def fmt(x, digits=1):
        return "na" if x is None else f"{x:.{digits}f}"

    ratio = None if os_sps is None else ours_sps / os_sps
    print(f"RESULT game={args.game} games_per_s={fmt(ours_gps)} states_per_s={fmt(ours_sps, 0)} "
          f"openspiel_states_per_s={fmt(os_sps, 0)} ratio={fmt(ratio, 3)}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
