"""Bot levels against each other, heads-up: win rates with 95 % Wilson intervals, decision times.

    python -m bench.bots --game thanasis --matches 1000
    python -m bench.bots --game gin --matches 400 --jobs 2
    python -m bench.bots --game rami --matches 200 --l3-matches 100 --limit 100
    python -m bench.bots --game rami-traditionnel --quick
    python -m bench.bots --game rummikub --matches 300 --jobs 1
    python -m bench.bots --game thunee --matches 200 --l3-matches 60 --jobs 1
    python -m bench.bots --game canasta --matches 200 --jobs 1   (and --game canasta-tuiles: teams, below)

Every game with bots: Thanasis, Gin Rami, the table-meld rummies (Rami, Rami 40, Kalooki, Rami
traditionnel) and Rummikub. Each pairing (level 2 vs level 1, level 3 vs level 2) plays whole matches
from fixed seeds (`bench:<game>:<i>`); the stronger level sits at seat i % 2, so seats alternate.

`--limit` is the game's match option, by default the table's default: Thanasis has none (matches go to
101, last one standing); Gin `match` (1 round, or 100 penalty points: the table's default);
Rami, Rami 40, Kalooki `point_limit` (1: the first round decides, 50, 100 by default); Rami traditionnel
`target` (1: one round, 100, 250 by default, 500); Rummikub `rounds` (1, 3 by default, 5). A match that
has not ended after `--max-steps` moves (a round can stall in Rami 40 / Kalooki when every table meld is
full and every hand is down to one card) counts as a draw, and the count is printed, with how the rounds
ended and by which level.

Decision times are measured around `engine.bots.choose` for real decisions only (two legal moves or
more), per level: CPU time of the deciding thread (one core, what the RESULT line reports, robust to
other load on the machine) and wall-clock time; below each, the CPU of the whole bot turn as the server
runs it (`legal_moves` + `view` + the decision: caches the view fills, e.g. Rummikub's suggestion, are
then warm for the decision).
The last line is machine-readable: `RESULT game=… l2_vs_l1=… l3_vs_l2=… l1_p99_ms=… l2_p99_ms=… l3_p99_ms=…`.
"""

import argparse
import copy
import hashlib
import math
import os
import random
import sys
import time
from collections import Counter
from multiprocessing import Pool

from bench import gin_constraints, gin_reading, race_oracle, reference
from engine import bots, games, melds
from engine.bots import levels as bot_levels
from engine.bots.gin import CANDIDATE_MARGIN

GAMES = ("thanasis", "gin", "rami", "rami40", "kalooki", "rami-traditionnel", "rummikub")
BENCH_DEFAULT_LIMIT: dict[str, str] = {}  # a game's bench match length where it is not the table's default
MAX_STEPS = 6000
PAIRS = ((2, 1), (3, 2))


def wilson(wins: float, n: int, z: float = 1.96) -> tuple[float, float]:
    """95 % Wilson score interval of a proportion."""
    if n == 0:
        return 0.0, 1.0
    p = wins / n
    denom = 1 + z * z / n
    centre = (p + z * z / (2 * n)) / denom
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / denom
    return max(0.0, centre - half), min(1.0, centre + half)


def percentile(values: list[float], q: float) -> float:
    if not values:
        return float("nan")
    s = sorted(values)
    k = max(0, min(len(s) - 1, math.ceil(q / 100 * len(s)) - 1))
    return s[k]


def match_seed(game: str, index: int) -> str:
    return hashlib.sha256(f"bench:{game}:{index}".encode()).hexdigest()


def match_options(slug: str, limit: str | None) -> dict:
    """The cleaned match options: `limit` (None: the bench's default) as the game's one match option."""
    info = games.get(slug).info
    if not info.options:
        if limit is not None:
            raise ValueError(f"{slug} has no match option (--limit)")
        return {}
    option = info.options[0]
    value = limit if limit is not None else BENCH_DEFAULT_LIMIT.get(slug, option.default)
    return info.clean_options({option.name: value})


ORACLE = 4  # the Expert's search on the true deal: an all-seeing player, the ceiling of a race
HAND_READER = 5  # the Expert's search knowing the other hands but not the stock's order
# What part of the Reader's edge comes from what (Gin): the Reader searching only what the Expert searches (the
# draws and the knock), and the Expert's guessed hands kept only where the other's deadwood is his true one, give
# or take DEADWOOD_TOLERANCE points, searching its discards too.
READER_DRAWS = 6
DEADWOOD_READER = 7
DEADWOOD_TOLERANCE = 2
DEADWOOD_TRIES = 40
# Whether the Expert's search buys anything in a one-round Gin race: a player with no search, its draws and discards
# chosen by the deadwood expected after the next draw (the knock as the Expert's), `race_move`.
RACE_RULES = 8
RACE_CANDIDATES = 5  # discards weighed, best first in the Confirmé's order, within CANDIDATE_MARGIN of the best
# What not feeding the other's melds is worth, and how much of it a reading of public information recovers: the
# race-rules player counting, against each discard, the deadwood it takes off the other hand when it completes a
# meld there, in the true hand (FEED_ORACLE) or on average over guessed hands (FEED_GUESS: `FEED_SAMPLES` deals of
# the Expert's, those where no card of the discard pile would make a meld with his hand kept first).
FEED_ORACLE = 9
FEED_GUESS = 10
FEED_SAMPLES = 30
FEED_KEPT_AT_LEAST = 10
FEED_GUESS_WEIGHT = 0.5  # of 0.2, 0.5 and 1.0 (800 matches each), the best
# How good a reading would have to be: the oracle's cost averaged over READING_SAMPLES hands in which each of his true
# cards is kept with the chance `--reading` (env BENCH_READING, default READING) and otherwise replaced at random.
FEED_READING = 11
READING = 0.5
READING_SAMPLES = 10
# The same cost averaged over hands read from the round's public moves by a particle filter (`bench.gin_reading`).
FEED_FILTER = 12
FILTER_HANDS = 30
# The same cost averaged over hands read from his last turn's public moves by a Markov chain (`bench.gin_constraints`).
FEED_CHAIN = 13
CHAIN_HANDS = 30
ANALYSIS_LEVELS = (ORACLE, HAND_READER, READER_DRAWS, DEADWOOD_READER, RACE_RULES, FEED_ORACLE, FEED_GUESS,
                   FEED_READING, FEED_FILTER, FEED_CHAIN)
GUESSED_SHARE: list[float] = []  # per decision of levels 10-13: the share of his cards their hands of him hold


def decide(game, view: dict, legal: list[dict], level: int, rng: random.Random, budget, state=None) -> dict:
    """A bot's move, the reference opponent's (level 0, `bench.reference`), or the all-seeing one's."""
    if level == reference.REFERENCE:
        return reference.choose(game.info.slug, view, legal, rng)
    if level == ORACLE and game.info.slug == "thanasis":
        return race_oracle.choose(state, view, legal)
    if level in (ORACLE, HAND_READER, READER_DRAWS):
        return all_seeing(game, state, view, legal, rng, budget, stock_known=level == ORACLE,
                          search_discards=level != READER_DRAWS)
    if level == DEADWOOD_READER:
        return deadwood_reader(game, state, view, legal, rng, budget)
    if level in (RACE_RULES, FEED_ORACLE, FEED_GUESS, FEED_READING, FEED_FILTER, FEED_CHAIN):
        feed = {RACE_RULES: None, FEED_ORACLE: true_feed, FEED_GUESS: guessed_feed, FEED_READING: read_feed,
                FEED_FILTER: filtered_feed, FEED_CHAIN: chained_feed}[level]
        return race_move(game, view, legal, rng, budget, state, feed)
    return bots.choose(game, view, legal, level, rng, budget=budget if level == 3 else None)


def all_seeing(game, state: dict, view: dict, legal: list[dict], rng: random.Random, budget,
               stock_known: bool = True, search_discards: bool = True) -> dict:
    """The Expert's move when its playouts are dealt the true hidden cards (other hands, and the stock's order
    if `stock_known`, else shuffled anew each time) instead of guesses: what knowledge is worth with the same
    search (Gin, whose search deals hands and stock)."""
    if len(legal) == 1:
        return legal[0]
    seat = view["seat"]
    hands = {s: list(h) for s, h in enumerate(state["hands"]) if s != seat and h is not None}

    def truth(*_args):
        stock = list(state["stock"])
        if not stock_known:
            rng.shuffle(stock)
        return {"hands": hands, "stock": stock}

    seeing = copy.copy(bots.adapter_for(game.info.slug))
    seeing.determinize = truth
    if search_discards and hasattr(seeing, "search_kinds"):  # seeing the cards, it searches its discards too
        seeing.search_kinds = frozenset({"draw", "discard", "end"})
    return bot_levels.decide(seeing, view, bots.Moves(legal), 3, rng, budget)


def deadwood_reader(game, state: dict, view: dict, legal: list[dict], rng: random.Random, budget) -> dict:
    """The Expert told only the other hand's deadwood (heads-up Gin): of its guessed deals it keeps one where the
    other's deadwood is within DEADWOOD_TOLERANCE of the truth (the closest of DEADWOOD_TRIES otherwise), and it
    searches its discards too."""
    if len(legal) == 1:
        return legal[0]
    adapter = bots.adapter_for(game.info.slug)
    other = 1 - view["seat"]
    truth = adapter.deadwood(state["hands"][other], None)
    guess = adapter.determinize

    def close_to_truth(v, know, key, r):
        tries = []
        for _ in range(DEADWOOD_TRIES):
            world = guess(v, know, key, r)
            gap = abs(adapter.deadwood(world["hands"][other], key) - truth)
            if gap <= DEADWOOD_TOLERANCE:
                return world
            tries.append((gap, len(tries), world))
        return min(tries)[2]

    reading = copy.copy(adapter)
    reading.determinize = close_to_truth
    reading.search_kinds = frozenset({"draw", "discard", "end"})
    return bot_levels.decide(reading, view, bots.Moves(legal), 3, rng, budget)


def expected_after_draw(adapter, hand: list[str], unseen: list[str]) -> float:
    """The least deadwood `hand` is expected to hold after one more blind draw and the greedy discard."""
    return sum(adapter.step(hand, card, None)[1] for card in unseen) / max(1, len(unseen))


def completes_meld(adapter, hand: list[str], card: str) -> bool:
    """Whether `card` makes a meld with two cards of `hand` (Gin)."""
    rules = adapter.rules(None)
    partners = [c for c in hand if adapter.partial_outs(c, card)]
    return any(melds.is_valid_meld([a, b, card], rules) for i, a in enumerate(partners) for b in partners[i + 1:])


def meld_feed(adapter, hand: list[str], card: str) -> int:
    """The deadwood `card` takes off `hand` when it completes a meld there (the greedy discard after it), else 0."""
    if not completes_meld(adapter, hand, card):
        return 0
    return adapter.deadwood(hand, None) - adapter.step(hand, card, None)[1]


def average_feed(adapter, hands: list[list[str]], cards_weighed: list[str], weight: float = 1.0) -> dict[str, float]:
    """`meld_feed` of each weighed card averaged over `hands`, times `weight`."""
    return {c: weight * sum(meld_feed(adapter, hand, c) for hand in hands) / len(hands) for c in cards_weighed}


def true_feed(adapter, state: dict, view: dict, know, cards_weighed: list[str], rng) -> dict[str, float]:
    return average_feed(adapter, [list(state["hands"][1 - view["seat"]])], cards_weighed)


def read_feed(adapter, state: dict, view: dict, know, cards_weighed: list[str], rng) -> dict[str, float]:
    """The oracle's cost averaged over hands read with the accuracy `reading()`: each of his cards kept with that
    chance, the others replaced by cards he might hold."""
    truth = list(state["hands"][1 - view["seat"]])
    unseen = [c for c in know.extra["unseen"] if c not in truth]
    hands = []
    for _ in range(READING_SAMPLES):
        kept = [c for c in truth if rng.random() < reading()]
        pool = unseen + [c for c in truth if c not in kept]
        rng.shuffle(pool)
        hands.append(kept + pool[:len(truth) - len(kept)])
    note_guesses(hands, truth)
    return average_feed(adapter, hands, cards_weighed)


def filtered_feed(adapter, state: dict, view: dict, know, cards_weighed: list[str], rng) -> dict[str, float]:
    """The oracle's cost averaged over hands the particle filter reads from the round's public moves."""
    hands = rng.sample(gin_reading.read(view["seat"], rng), FILTER_HANDS)
    note_guesses(hands, list(state["hands"][1 - view["seat"]]))
    return average_feed(adapter, hands, cards_weighed)


def chained_feed(adapter, state: dict, view: dict, know, cards_weighed: list[str], rng) -> dict[str, float]:
    """The oracle's cost averaged over hands the Markov chain reads from his last turn (`bench.gin_constraints`)."""
    other = 1 - view["seat"]
    hands = gin_constraints.read(view["seat"], list(know.known.get(other, ())), know.extra["unseen"],
                                 know.hand_counts.get(other, 10), CHAIN_HANDS, rng)
    note_guesses(hands, list(state["hands"][other]))
    return average_feed(adapter, hands, cards_weighed)


def reading() -> float:
    return float(os.environ.get("BENCH_READING", READING))


def note_guesses(hands: list[list[str]], truth: list[str]) -> None:
    held = set(truth)
    GUESSED_SHARE.append(sum(len(held.intersection(hand)) for hand in hands) / (len(hands) * max(1, len(held))))


def guessed_feed(adapter, state: dict, view: dict, know, cards_weighed: list[str], rng) -> dict[str, float]:
    """`meld_feed` averaged over guessed hands, those where no card of the pile makes a meld kept first (a card he
    threw or let go by did not complete one)."""
    other = 1 - view["seat"]
    pile = list(know.discard_pile)
    guesses = []
    for index in range(FEED_SAMPLES):
        hand = adapter.determinize(view, know, None, rng)["hands"][other]
        guesses.append((sum(completes_meld(adapter, hand, c) for c in pile), index, hand))
    guesses.sort()
    kept = [hand for bad, _i, hand in guesses if bad == 0]
    if len(kept) < FEED_KEPT_AT_LEAST:
        kept = [hand for _bad, _i, hand in guesses[:FEED_KEPT_AT_LEAST]]
    note_guesses(kept, list(state["hands"][other]))
    return average_feed(adapter, kept, cards_weighed, FEED_GUESS_WEIGHT)


def race_move(game, view: dict, legal: list[dict], rng: random.Random, budget, state=None, feed=None) -> dict:
    """The race-rules player (Gin): it takes the upcard when the deadwood it leaves is no more than a blind draw is
    expected to leave, and throws, of the Confirmé's first `RACE_CANDIDATES` discards, the one whose hand is
    expected to hold the least deadwood after the next draw (plus the Confirmé's feeding risk, and what `feed`
    counts against each); it knocks as the Expert does."""
    if len(legal) == 1:
        return legal[0]
    adapter = bots.adapter_for(game.info.slug)
    moves = bots.Moves(legal)
    know = adapter.knowledge(view)
    unseen = know.extra["unseen"] = adapter.unseen(know)
    take, blind = moves.first("take_discard"), moves.first("draw_stock") or moves.first("pass")
    if take is not None and blind is not None and know.top is not None:
        kept = adapter.step(know.hand, know.top, None, taken=know.top)[1]
        return take if kept <= expected_after_draw(adapter, know.hand, unseen) else blind
    options = moves.by_card("discard")
    if moves.has("knock") or not options:
        return decide(game, view, legal, 3, rng, budget)
    left = adapter.discards(know.hand, None)
    risks = adapter.discard_risks(know, list(options), None)
    order = bot_levels.confirmed_order(adapter, know, list(options), None)
    weighed = [c for c in order[:RACE_CANDIDATES] if left[c] <= left[order[0]] + CANDIDATE_MARGIN]
    fed = feed(adapter, state, view, know, weighed, rng) if feed is not None and len(weighed) > 1 else {}
    best = min(weighed, key=lambda c: expected_after_draw(adapter, [x for x in know.hand if x != c], unseen)
               + risks.get(c, 0.0) + fed.get(c, 0.0))
    return options[best]


def name(level: int) -> str:
    return {reference.REFERENCE: "Ref", ORACLE: "Oracle", HAND_READER: "Reader", READER_DRAWS: "Reader-draws",
            DEADWOOD_READER: "DW-reader", RACE_RULES: "Race-rules", FEED_ORACLE: "Feed-oracle",
            FEED_GUESS: "Feed-guess", FEED_READING: "Feed-reading", FEED_FILTER: "Feed-filter",
            FEED_CHAIN: "Feed-chain"}.get(level, f"L{level}")


def round_winner(row: dict) -> int | None:
    """Who won a history row: its `winner`, or in Gin the undercutter, else the knocker."""
    if row.get("winner") is not None:
        return row["winner"]
    if row.get("undercutter") is not None:
        return row["undercutter"]
    return row.get("knocker")


def play_match(task: tuple) -> dict:
    """One heads-up match; the strong level's score (1 win, 0.5 shared or stalled) and timings."""
    slug, index, strong, weak, options, budget, max_steps = task
    game = games.get(slug)
    seed = match_seed(slug, index)
    strong_seat = index % 2
    levels = {strong_seat: strong, 1 - strong_seat: weak}
    state = game.new_match(seats=2, options=options, seed=seed)
    wall = {strong: [], weak: []}
    cpu = {strong: [], weak: []}
    turn = {strong: [], weak: []}  # CPU of legal_moves + view + decision: the whole bot turn on the server
    GUESSED_SHARE.clear()
    fed = {strong: [0, 0], weak: [0, 0]}  # Gin: discards, and those that make a meld with two of the other's cards
    adapter = bots.adapter_for(slug) if slug == "gin" else None
    if adapter is not None:
        gin_reading.LOG.start(state)
    step = 0
    while game.result(state) is None and step < max_steps:
        to_act = game.to_act(state)
        if not to_act:  # ROUND_OVER: the table service plays « Manche suivante »
            state, _ = game.apply(state, state["active"][0], {"action": "next_round"})
            if adapter is not None:
                gin_reading.LOG.start(state)
            continue
        for seat in to_act:
            t_turn = time.thread_time()
            legal = game.legal_moves(state, seat)
            view = game.view(state, seat)
            rng = random.Random(f"{seed}:{step}:{seat}")
            t0, c0 = time.perf_counter(), time.thread_time()
            move = decide(game, view, legal, levels[seat], rng, budget, state)
            elapsed, used = time.perf_counter() - t0, time.thread_time() - c0
            if slug == "gin" and move.get("action") == "discard":
                fed[levels[seat]][0] += 1
                fed[levels[seat]][1] += completes_meld(adapter, state["hands"][1 - seat], move["card"])
            if len(legal) > 1:
                wall[levels[seat]].append(elapsed * 1000)
                cpu[levels[seat]].append(used * 1000)
                turn[levels[seat]].append((time.thread_time() - t_turn) * 1000)
            before = state
            state, _ = game.apply(state, seat, move)
            if adapter is not None:
                gin_reading.LOG.record(before, seat, move, state)
            step += 1
    result = game.result(state)
    if result is None:
        score, stalled = 0.5, True
    else:
        winners = result["winners"]
        score = 1.0 if winners == [strong_seat] else (0.5 if strong_seat in winners else 0.0)
        stalled = False
    endings = Counter((row["ending"], "strong" if round_winner(row) == strong_seat else "weak")
                      for row in state["history"] if row.get("ending") and round_winner(row) is not None)
    return {"pair": (strong, weak), "score": score, "wall": wall, "cpu": cpu, "turn": turn, "rounds": state["round"],
            "steps": step, "stalled": stalled, "endings": endings, "fed": fed, "guessed": list(GUESSED_SHARE),
            "round_points": round_points(state["history"], strong_seat)}


def round_points(history: list[dict], strong_seat: int) -> dict | None:
    """The points each level scored over the match's played rounds, as the game's history counts them (Thanasis,
    Gin, the Rami family: penalty points, lower is better), and how many rounds: None where rows carry no
    per-seat list. Void rounds (no points for anyone) are left out."""
    rows = [row for row in history if isinstance(row.get("points"), list) and not row.get("void")]
    if not rows or len(rows[0]["points"]) != 2:
        return None
    strong = sum(row["points"][strong_seat] or 0 for row in rows)
    weak = sum(row["points"][1 - strong_seat] or 0 for row in rows)
    return {"strong": strong, "weak": weak, "rounds": len(rows)}


def progress(results, total: int, every: int = 50) -> list[dict]:
    """Collect the matches' results, printing the running win rate of each pairing to stderr every `every`
    matches (a long run can be read, or stopped, half-way)."""
    done, scores = [], Counter()
    for r in results:
        done.append(r)
        scores[r["pair"], "score"] += r["score"]
        scores[r["pair"], "n"] += 1
        if len(done) % every == 0 and len(done) < total:
            rates = ", ".join(f"{name(s)} vs {name(w)} {scores[(s, w), 'score'] / n:.1%} of {n}"
                              for (s, w), key in scores if key == "n" for n in [scores[(s, w), "n"]])
            print(f"# {len(done)}/{total} matches: {rates}", file=sys.stderr, flush=True)
    return done


def run(slug: str, matches: int, jobs: int, pairs, options: dict, budget, first: int = 0,
        l3_matches: int | None = None, max_steps: int = MAX_STEPS) -> dict:
    tasks = [(slug, first + i, s, w, options, budget, max_steps) for (s, w) in pairs
             for i in range(l3_matches if (l3_matches is not None and 3 in (s, w)) else matches)]
    worker = play_team_match if slug in TEAM_GAMES else play_match
    worker = play_whole_team_match if slug in WHOLE_MATCH_TEAM_GAMES else worker
    if jobs > 1:
        with Pool(jobs) as pool:
            results = progress(pool.imap_unordered(worker, tasks, chunksize=1), len(tasks))
    else:
        results = progress(map(worker, tasks), len(tasks))
    summary = {k: {level: [] for level in (0, 1, 2, 3, *ANALYSIS_LEVELS)} for k in ("wall", "cpu", "turn")}
    summary["pairs"] = {}
    for r in results:
        entry = summary["pairs"].setdefault(r["pair"], {"score": 0.0, "n": 0, "rounds": 0, "steps": 0,
                                                        "stalled": 0, "endings": Counter(), "points": Counter(),
                                                        "fed": {level: [0, 0] for level in r["pair"]},
                                                        "guessed": []})
        entry["score"] += r["score"]
        entry["n"] += 1
        entry["rounds"] += r["rounds"]
        entry["steps"] += r["steps"]
        entry["stalled"] += r["stalled"]
        entry["endings"].update(r["endings"])
        entry["guessed"].extend(r.get("guessed") or ())
        for level, (thrown, feeding) in (r.get("fed") or {}).items():
            entry["fed"][level][0] += thrown
            entry["fed"][level][1] += feeding
        entry["points"].update(r.get("round_points") or {})
        for level in r["cpu"]:
            summary["wall"][level].extend(r["wall"][level])
            summary["cpu"][level].extend(r["cpu"][level])
            summary["turn"][level].extend(r["turn"][level])
    return summary


# ---------------------------------------------------------------- partnership games (Canasta): teams of two
# A bench "match" of a team game is one deal played twice: the stronger level holds team A (seats 0
# and 2) in the first hand, team B (seats 1 and 3) in the second, on the same seed (same deal, same
# first player). The stronger level wins the match when its two hands total more points than the
# other level's (equal totals: half a win). Whole matches (5,000 points) would take far longer.
TEAM_GAMES = ("canasta", "canasta-tuiles")
TEAM_BENCH_LIMIT = {"canasta-tuiles": "1"}  # one round: the bench plays one hand anyway
TEAM_LAYOUT = "teams {0,2} vs {1,3}, one deal played twice with the teams' levels swapped"
BENCH_DEFAULT_LIMIT.update(TEAM_BENCH_LIMIT)


def team_hand_points(state: dict) -> tuple[int, int]:
    """(team A, team B) points of the first finished hand."""
    points = state["history"][0]["points"]
    return int(points["A"]), int(points["B"])


def play_team_hand(game, seed: str, levels: dict, options: dict, budget, max_steps: int, times: dict) -> tuple:
    state = game.new_match(seats=4, options=options, seed=seed)
    step = 0
    while not state.get("history") and step < max_steps:
        to_act = game.to_act(state)
        if not to_act:
            break
        for seat in to_act:
            if seat not in game.to_act(state):
                continue
            t_turn = time.thread_time()
            legal = game.legal_moves(state, seat)
            if not legal:
                continue
            view = game.view(state, seat)
            rng = random.Random(f"{seed}:{step}:{seat}")
            level = levels[seat]
            t0, c0 = time.perf_counter(), time.thread_time()
            move = decide(game, view, legal, level, rng, budget)
            elapsed, used = time.perf_counter() - t0, time.thread_time() - c0
            if len(legal) > 1:
                times["wall"][level].append(elapsed * 1000)
                times["cpu"][level].append(used * 1000)
                times["turn"][level].append((time.thread_time() - t_turn) * 1000)
            state, _ = game.apply(state, seat, move)
            step += 1
    if not state.get("history"):
        return None, step
    return team_hand_points(state), step


def play_team_match(task: tuple) -> dict:
    """One deal played twice with the teams' levels swapped; the strong level's score and timings."""
    slug, index, strong, weak, options, budget, max_steps = task
    game = games.get(slug)
    seed = match_seed(slug, index)
    times = {k: {strong: [], weak: []} for k in ("wall", "cpu", "turn")}
    margin, steps, stalled = 0, 0, False
    for strong_team in (0, 1):
        levels = {seat: strong if seat % 2 == strong_team else weak for seat in range(4)}
        points, n = play_team_hand(game, seed, levels, options, budget, max_steps, times)
        steps += n
        if points is None:
            stalled = True
            continue
        margin += points[strong_team] - points[1 - strong_team]
    score = 0.5 if stalled or margin == 0 else (1.0 if margin > 0 else 0.0)
    return {"pair": (strong, weak), "score": score, "rounds": 2, "steps": steps, "stalled": stalled,
            "endings": Counter(), "margin": margin, **times}


# ---------------------------------------------------------------- Thunee: whole team matches
# A Thunee deal is short (six tricks of four cards), so a bench match is a whole match to 12 balls:
# two bots of the stronger level against two of the weaker one, the stronger level holding team A
# (seats 0 and 2) in even matches and team B (seats 1 and 3) in odd ones. Deal outcomes are counted
# per level (made / set, thunee_made, double_failed, …, by the team that scored the balls).
WHOLE_MATCH_TEAM_GAMES = ("thunee",)
WHOLE_MATCH_LAYOUT = "teams {0,2} vs {1,3}, whole matches to 12 balls, the strong level's team alternates"


def play_whole_team_match(task: tuple) -> dict:
    """One whole match, two seats of each level (partners share a level); the strong level's score."""
    slug, index, strong, weak, options, budget, max_steps = task
    game = games.get(slug)
    seed = match_seed(slug, index)
    strong_team = index % 2
    levels = {seat: strong if seat % 2 == strong_team else weak for seat in range(4)}
    times = {k: {strong: [], weak: []} for k in ("wall", "cpu", "turn")}
    state = game.new_match(seats=4, options=options, seed=seed)
    step = 0
    while game.result(state) is None and step < max_steps:
        to_act = game.to_act(state)
        if not to_act:  # between deals the table service plays « Donne suivante »
            state, _ = game.apply(state, 0, {"action": "next_round"})
            continue
        seat = to_act[0]
        t_turn = time.thread_time()
        legal = game.legal_moves(state, seat)
        view = game.view(state, seat)
        rng = random.Random(f"{seed}:{step}:{seat}")
        level = levels[seat]
        t0, c0 = time.perf_counter(), time.thread_time()
        move = decide(game, view, legal, level, rng, budget)
        elapsed, used = time.perf_counter() - t0, time.thread_time() - c0
        if len(legal) > 1:
            times["wall"][level].append(elapsed * 1000)
            times["cpu"][level].append(used * 1000)
            times["turn"][level].append((time.thread_time() - t_turn) * 1000)
        state, _ = game.apply(state, seat, move)
        step += 1
    result = game.result(state)
    stalled = result is None
    score = 0.5 if stalled else (1.0 if set(result["winners"]) == {strong_team, strong_team + 2} else 0.0)
    team_name = "AB"[strong_team]
    endings = Counter((row["outcome"], "strong" if row["team"] == team_name else "weak") for row in state["history"])
    return {"pair": (strong, weak), "score": score, "rounds": state["round"], "steps": step, "stalled": stalled,
            "endings": endings, **times}


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--game", choices=GAMES + TEAM_GAMES + WHOLE_MATCH_TEAM_GAMES, required=True)
    parser.add_argument("--matches", "--rounds", dest="matches", type=int, default=1000,
                        help="matches per pairing (alias --rounds)")
    parser.add_argument("--l3-matches", type=int, default=None,
                        help="matches for pairings with level 3 (default: --matches); level 3 thinks ~0.2 s a move")
    parser.add_argument("--quick", action="store_true", help="a short run (20 matches per pairing)")
    parser.add_argument("--jobs", type=int, default=1, help="worker processes (multiprocessing)")
    parser.add_argument("--limit", "--gin-match", dest="limit", default=None,
                        help="match option: Gin match (1, 100 by default), Rami / Rami 40 / Kalooki "
                             "point_limit (1, 50, 100), Rami traditionnel target (1, 100, 250, 500), Rummikub "
                             "rounds (1, 3, 5); "
                             "default: the table's default")
    parser.add_argument("--pairs", default="2-1,3-2",
                        help="pairings strong-weak, e.g. 2-1,3-2; 0 is the reference opponent (bench.reference): 3-0")
    parser.add_argument("--iterations", type=int, default=None,
                        help="level 3 determinizations (default: the production budget)")
    parser.add_argument("--first", type=int, default=0, help="index of the first match seed")
    parser.add_argument("--reading", type=float, default=None,
                        help=f"Gin, level {FEED_READING}: the chance each of his cards is read right "
                             f"(default {READING})")
    parser.add_argument("--max-steps", type=int, default=MAX_STEPS, help="moves before a match counts as a draw")
    args = parser.parse_args(argv)
    matches = 20 if args.quick else args.matches
    if args.reading is not None:
        os.environ["BENCH_READING"] = str(args.reading)  # the worker processes inherit it
    l3_matches = 20 if args.quick else args.l3_matches
    pairs = [tuple(int(x) for x in p.split("-")) for p in args.pairs.split(",")]
    try:
        options = match_options(args.game, args.limit)
    except ValueError as exc:
        parser.error(str(exc))
    budget = None if args.iterations is None else bots.Budget(iterations=args.iterations)
    t0 = time.perf_counter()
    summary = run(args.game, matches, args.jobs, pairs, options, budget, args.first, l3_matches, args.max_steps)
    wall = time.perf_counter() - t0

    kind = ", ".join(f"{k}={v}" for k, v in options.items()) or "match to 101"
    if args.game in TEAM_GAMES:
        kind = "one deal, twice"
    sizes = f"{matches} matches per pairing" + (f" ({l3_matches} with level 3)" if l3_matches else "")
    layout = TEAM_LAYOUT if args.game in TEAM_GAMES else "heads-up, seats alternate"
    if args.game in WHOLE_MATCH_TEAM_GAMES:
        kind, layout = "match to 12 balls", WHOLE_MATCH_LAYOUT
    print(f"game={args.game} ({kind}), {sizes}, {layout}, jobs={args.jobs}, wall {wall:.0f} s")
    rates = {}
    for (s, w), e in sorted(summary["pairs"].items()):
        lo, hi = wilson(e["score"], e["n"])
        rate = e["score"] / e["n"]
        rates[(s, w)] = rate
        stalled = f", {e['stalled']} stalled (draws)" if e["stalled"] else ""
        print(f"  {name(s)} vs {name(w)}: {name(s)} wins {rate:.1%} of {e['n']} matches  (95% CI {lo:.1%} – {hi:.1%}), "
              f"{e['rounds'] / e['n']:.1f} rounds/match, {e['steps'] / e['n']:.0f} moves/match{stalled}")
        if e["endings"]:
            endings = ", ".join(f"{ending} by {name(s if who == 'strong' else w)}: {n}"
                                for (ending, who), n in sorted(e["endings"].items()))
            print(f"    round endings: {endings}")
        fed = {level: counts for level, counts in e["fed"].items() if counts[0]}
        if fed:
            print("    discards making a meld with two of the other's cards: " + ", ".join(
                f"{name(level)} {feeding / thrown:.1%} of {thrown}" for level, (thrown, feeding) in fed.items()))
        if e["guessed"]:
            print(f"    his cards in {name(s)}'s hands of him: {sum(e['guessed']) / len(e['guessed']):.1%} "
                  f"({len(e['guessed'])} decisions)")
        points = e["points"]
        if points.get("rounds"):
            print(f"    points per round (the game's count): {name(s)} {points['strong'] / points['rounds']:.2f}, "
                  f"{name(w)} {points['weak'] / points['rounds']:.2f} over {points['rounds']} rounds")
    p99 = {}
    for level in (1, 2, 3, RACE_RULES, FEED_ORACLE, FEED_GUESS, FEED_READING, FEED_FILTER):
        ts, cs = summary["wall"][level], summary["cpu"][level]
        if ts:
            p99[level] = percentile(cs, 99)
            print(f"  {name(level)} decision time over {len(ts)} decisions: CPU p50 {percentile(cs, 50):.2f} ms, "
                  f"p99 {p99[level]:.2f} ms, max {max(cs):.1f} ms; wall p50 {percentile(ts, 50):.2f} ms, "
                  f"p99 {percentile(ts, 99):.2f} ms, max {max(ts):.1f} ms")
            us = summary["turn"][level]
            print(f"    whole turn (legal_moves + view + decision) CPU p50 {percentile(us, 50):.2f} ms, "
                  f"p99 {percentile(us, 99):.2f} ms, max {max(us):.1f} ms")

    def fmt(x, digits=3):
        return "na" if x is None else f"{x:.{digits}f}"

    vs_reference = "".join(f"l{s}_vs_ref={fmt(rate)} " for (s, w), rate in sorted(rates.items()) if w == 0)
    print(f"RESULT game={args.game} l2_vs_l1={fmt(rates.get((2, 1)))} l3_vs_l2={fmt(rates.get((3, 2)))} {vs_reference}"
          f"l1_p99_ms={fmt(p99.get(1), 2)} l2_p99_ms={fmt(p99.get(2), 2)} l3_p99_ms={fmt(p99.get(3), 2)}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
