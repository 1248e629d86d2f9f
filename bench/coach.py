"""« Conseil »: how long the Expert's advice takes (engine.coach.advise, the production budget), per game.

    python -m bench.coach                 (every game, 40 advices each)
    python -m bench.coach --game thanasis --advices 200

Decisions come from matches played by beginner robots from fixed seeds; each advice is timed in CPU time of the
thread (what one request costs a server core) and wall-clock time. The last line is machine-readable:
`RESULT coach <game>=p50/p99 ms …`.
"""

import argparse
import random
import time

from engine import bots, coach, games


def decisions(slug: str, seed: str):
    game = games.get(slug)
    state = game.new_match(game.info.default_players, {}, seed)
    rng = random.Random(seed)
    for _ in range(5000):
        if game.result(state) is not None:
            return
        to_act = game.to_act(state)
        if not to_act:
            state, _ = game.apply(state, state["active"][0], {"action": "next_round"})
            continue
        seat = to_act[0]
        legal = game.legal_moves(state, seat)
        view = game.view(state, seat)
        if len(legal) > 1 and not all(m["action"] == "next_round" for m in legal):
            yield view, legal
        state, _ = game.apply(state, seat, bots.choose(game, view, legal, 1, rng))


def measure(slug: str, count: int) -> tuple[list[float], list[float]]:
    game = games.get(slug)
    cpu, wall = [], []
    match = 0
    while len(cpu) < count:
        for i, (view, legal) in enumerate(decisions(slug, f"bench:coach:{slug}:{match}")):
            if i % 3 or len(cpu) >= count:
                continue
            c0, w0 = time.thread_time(), time.perf_counter()
            coach.advise(game, view, legal, random.Random(i))
            cpu.append((time.thread_time() - c0) * 1000)
            wall.append((time.perf_counter() - w0) * 1000)
        match += 1
    return cpu, wall


def pct(values: list[float], q: float) -> float:
    values = sorted(values)
    return values[min(len(values) - 1, int(q * len(values)))]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--game", choices=games.available())
    parser.add_argument("--advices", type=int, default=40)
    args = parser.parse_args()
    result = []
    for slug in [args.game] if args.game else [s for s in games.available() if bots.supports(s)]:
        cpu, wall = measure(slug, args.advices)
        print(f"{slug:18} {len(cpu):4} advices  CPU p50 {pct(cpu, .5):6.1f} ms  p99 {pct(cpu, .99):6.1f} ms"
              f"  max {max(cpu):6.1f} ms   wall p50 {pct(wall, .5):6.1f} ms  p99 {pct(wall, .99):6.1f} ms")
        result.append(f"{slug}={pct(cpu, .5):.0f}/{pct(cpu, .99):.0f}")
    print("RESULT coach " + " ".join(result))


if __name__ == "__main__":
    main()
