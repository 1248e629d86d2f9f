"""A whole tournament played through the real services, with processes killed in the middle.

    python -m bench.tournament --players 256 --rounds 5 --kill-round 3

The cluster shape (rummy_site/cluster.py: HAProxy, 2 daphne, 2 Celery workers) on a scratch PostgreSQL database
and Redis database. A Swiss Thanasis tournament of --players players at tables of 4 starts by the workers' sweep;
each player is a scripted client (bench.chaos's HostTab: real websocket frames through the proxy, deciding only
from the HTML it is sent) that goes to its table when the round seats it, plays it to its end, then waits for the
next. When round --kill-round starts: `kill -9` of the daphne holding the most sockets and of a worker, both
started again two seconds later (as systemd's Restart=always would). Then:
- the tournament ends with every round paired once, every entry in each round once (a table or a bye);
- every stored result is the one its table's log gives (the engine's places of the replayed final state), and
  every table's log replays to its state with nothing lost or applied twice (bench.chaos's checks);
- the standings equal an independent recomputation from the stored results (points, Buchholz, wins);
- tokens are conserved; pairs that met twice are counted.
Loopback only; bounded in time; the last line is machine-readable."""

import argparse
import asyncio
import os
import random
import sys
import time
from datetime import timedelta
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def setup_tournament(players: int, rounds: int, table_size: int, think: tuple[float, float]):
    from django.utils import timezone

    from accounts.services import bots_ensure, user_create
    from bench.chaos import session_cookie
    from tables.models import Game
    from tournaments import services

    bots_ensure()
    tournament = services.tournament_create(
        name="Banc d'essai", game=Game.objects.get(slug="thanasis"), starts_at=timezone.now() + timedelta(days=1),
        table_size=table_size, rounds=rounds, entry_stake=10, prizes=[50, 30, 20], rated=True)
    users = []
    for i in range(players):
        user = user_create(username=f"tournoi-{i}", password=None)
        services.register(tournament_id=tournament.pk, user=user)
        users.append((user.pk, session_cookie(user)))
    return tournament.pk, users


def open_tables(tournament_id: int) -> tuple[str, int, dict[int, tuple[int, int]]]:
    """(status, rounds paired, {user id: (table id, seat)} for the tables in play)."""
    from django.db import connection

    from tables.models import Seat, Table
    from tournaments.models import Match, Round, Tournament

    try:
        status = Tournament.objects.filter(pk=tournament_id).values_list("status", flat=True).first()
        paired = Round.objects.filter(tournament_id=tournament_id).count()
        tables = Match.objects.filter(tournament_id=tournament_id, table__status=Table.Status.PLAYING)
        seats = Seat.objects.filter(table_id__in=tables.values("table_id")).values_list("user_id", "table_id",
                                                                                          "position")
        return status, paired, {user: (table, position) for user, table, position in seats}
    finally:
        connection.close()


def start_now(tournament_id: int) -> None:
    from django.db import connection
    from django.utils import timezone

    from tournaments.models import Tournament

    Tournament.objects.filter(pk=tournament_id).update(starts_at=timezone.now())
    connection.close()


async def play(cluster, tournament_id: int, users, kill_round: int, timeout: float, think, say) -> dict:
    from bench.chaos import HostTab

    report: dict = {"kills": [], "tabs": []}
    playing: dict[int, tuple[HostTab, asyncio.Task, asyncio.Event]] = {}
    await asyncio.to_thread(start_now, tournament_id)
    deadline = time.monotonic() + timeout
    killed = False
    rng = random.Random(7)
    while time.monotonic() < deadline:
        status, paired, seated = await asyncio.to_thread(open_tables, tournament_id)
        for user_id, cookie in users:
            where = seated.get(user_id)
            current = playing.get(user_id)
            if current is not None and (where is None or where[0] != current[0].table_id):
                current[2].set()  # the table is over: leave it
                await current[1]
                report["tabs"].append(current[0])
                del playing[user_id]
            if where is not None and user_id not in playing:
                tab = HostTab(where[0], "thanasis", cookie, seat=where[1], rng=random.Random(user_id), think=think)
                stop = asyncio.Event()
                playing[user_id] = (tab, asyncio.create_task(tab.run(cluster, stop)), stop)
        if paired >= kill_round and not killed:
            killed = True
            await asyncio.sleep(1.0)  # round `kill_round`'s tables under way
            servers = await asyncio.to_thread(cluster.servers)
            victim = max(range(cluster.processes), key=lambda i: servers.get(f"daphne{i + 1}", {}).get("sessions", 0))
            worker = rng.randrange(len(cluster.celery))
            say(f"# round {kill_round}: kill -9 daphne{victim + 1} ({servers}) and worker{worker + 1}")
            cluster.kill_daphne(victim)
            cluster.kill_worker(worker)
            report["kills"] = [f"daphne{victim + 1}", f"worker{worker + 1}"]
            await asyncio.sleep(2.0)
            await asyncio.to_thread(cluster.start_daphne, victim)
            cluster.start_worker(worker)
            await asyncio.to_thread(cluster.wait_servers_up)
        if status in ("finished", "cancelled"):
            report["status"] = status
            break
        for name in cluster.revive():
            say(f"# {name} had exited by itself: started again")
        await asyncio.sleep(0.5)
    else:
        report["status"] = "timeout"
    for tab, task, stop in playing.values():
        stop.set()
        await task
        report["tabs"].append(tab)
    return report


def points_of(places: list[int]) -> list[float]:
    """Independent of tournaments.pairing: (n - place) / (n - 1), ties sharing their places' points."""
    n = len(places)
    out = []
    for place in places:
        tied = places.count(place)
        covered = [(n - p) / (n - 1) for p in range(place, place + tied)]
        out.append(sum(covered) / tied)
    return out


def audit(tournament_id: int, tabs) -> dict:
    """Everything the bench checks once the tournament is over (docstring)."""
    from django.db.models import Sum

    from accounts.models import Account, LedgerEntry
    from bench.chaos import Figures, check_table
    from engine import games
    from tables import services as table_services
    from tournaments import standings
    from tournaments.models import Entry, Match, Round, Tournament
    from tournaments.results import entry_seats

    tournament = Tournament.objects.get(pk=tournament_id)
    entries = set(Entry.objects.filter(tournament=tournament).values_list("pk", flat=True))
    out = {"rounds": Round.objects.filter(tournament=tournament).count(), "entries": len(entries),
           "bad_rounds": 0, "missing_results": 0, "wrong_results": 0, "repeat_pairs": 0}
    for round_ in Round.objects.filter(tournament=tournament):
        seen = [int(e) for m in round_.matches.all() for e in m.entries]
        out["bad_rounds"] += sorted(seen) != sorted(entries)
    engine = games.get("thanasis")
    pairs = []
    points: dict[int, float] = dict.fromkeys(entries, 0.0)
    opponents: dict[int, list[list[int]]] = {e: [] for e in entries}
    wins = dict.fromkeys(entries, 0)
    for match in Match.objects.filter(tournament=tournament).select_related("table"):
        if match.is_bye:
            points[int(match.entries[0])] += standings.BYE_POINTS
            continue
        if match.places is None:
            out["missing_results"] += 1
            continue
        state = table_services.replay(match.table)
        seat_places = engine.match_places(state, engine.result(state))
        seats = entry_seats(match.entries, match.table.seats_count)
        truth = {str(e): min(seat_places[s] for s in where) for e, where in seats.items()}
        out["wrong_results"] += truth != match.places
        order = [int(e) for e in match.entries]
        places = [int(match.places[str(e)]) for e in order]
        for entry, value, place in zip(order, points_of(places), places, strict=True):
            points[entry] += value
            wins[entry] += place == 1
            opponents[entry].append([e for e in order if e != entry])
        pairs += [frozenset((a, b)) for i, a in enumerate(order) for b in order[i + 1:]]
    out["repeat_pairs"] = len(pairs) - len(set(pairs))
    buchholz = {e: sum(sum(points[o] for o in group) / len(group) for group in opponents[e]) for e in entries}
    computed = standings.compute(tournament)
    out["standings_mismatch"] = sum(
        1 for s in computed if abs(s.points - points[s.entry]) > 1e-9 or abs(s.buchholz - buchholz[s.entry]) > 1e-9
        or s.wins != wins[s.entry])
    ranked = [(round(s.points, 9), round(s.buchholz, 9), s.wins) for s in computed]
    out["standings_order_ok"] = ranked == sorted(ranked, reverse=True)
    figures = Figures()
    for tab in tabs:
        check_table(tab.table_id, tab, figures)
    out.update(lost_moves=figures.lost_moves, duplicate_moves=figures.duplicate_moves,
               replay_mismatches=figures.replay_mismatches, moves=figures.moves, acked=figures.acked)
    total = LedgerEntry.objects.aggregate(total=Sum("amount"))["total"] or 0
    cached = sum(Account.objects.values_list("balance", flat=True))
    out["tokens_conserved"] = total == 0 and cached == 0
    out["status"] = tournament.status
    return out


def run(args, say=print) -> dict:
    from bench.rolling_update import drop, scratch  # noqa: F401 - the same scratch database helpers
    from rummy_site.cluster import Cluster, free_port

    env = {**os.environ, "DATABASE_URL": args.database, "REDIS_URL": args.redis, "DEBUG": "0",
           "DJANGO_SETTINGS_MODULE": "rummy_site.settings", "CELERY_TASK_ALWAYS_EAGER": "0", "LOG_LEVEL": "WARNING",
           "PYTHONUNBUFFERED": "1", "MOVE_RATE_LIMIT": "100000", "NEXT_ROUND_DELAY_SECONDS": "0.3"}
    env.pop("DJANGO_ALLOW_ASYNC_UNSAFE", None)
    log = open(args.log, "w")  # noqa: SIM115 - closed below
    cluster = Cluster(env=env, processes=2, workers=2, port=free_port(), output=log,
                      daphne_ports=[free_port(), free_port()])
    think = (args.think * 0.5, args.think * 1.5)
    tournament_id, users = setup_tournament(args.players, args.rounds, 4, think)
    started = time.monotonic()
    try:
        cluster.start()
        say(f"# {args.players} players, {args.rounds} rounds at tables of 4, cluster at {cluster.url}")
        report = asyncio.run(play(cluster, tournament_id, users, args.kill_round, args.timeout, think, say))
    finally:
        cluster.stop()
        log.close()
    result = audit(tournament_id, report["tabs"])
    result.update(seconds=round(time.monotonic() - started), kills=",".join(report["kills"]) or "none",
                  played_status=report["status"])
    return result


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--players", type=int, default=256)
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--kill-round", type=int, default=3)
    parser.add_argument("--think", type=float, default=0.2, help="mean seconds before a player answers")
    parser.add_argument("--timeout", type=float, default=1800)
    parser.add_argument("--database", default=os.environ.get("TOURNAMENT_DATABASE_URL",
                                                             "postgres://postgres@127.0.0.1:5432/rummy_tournament"))
    parser.add_argument("--redis", default=os.environ.get("TOURNAMENT_REDIS_URL", "redis://127.0.0.1:6379/14"))
    parser.add_argument("--log", default=str(ROOT / "var" / "tournament.log"))
    args = parser.parse_args()
    os.environ.update({"DATABASE_URL": args.database, "REDIS_URL": args.redis,
                       "DJANGO_SETTINGS_MODULE": "rummy_site.settings"})
    (ROOT / "var").mkdir(exist_ok=True)
    from bench.rolling_update import drop, scratch

    scratch(args.database, args.redis)
    import django

    django.setup()
    try:
        result = run(args)
    finally:
        from django.db import connections

        connections.close_all()
        drop(args.database)
    print(f"tournament of {args.players} players, {result['rounds']} rounds, in {result['seconds']} s "
          f"({result['status']}; kills: {result['kills']}): {result['missing_results']} results missing, "
          f"{result['wrong_results']} wrong, {result['bad_rounds']} badly paired rounds, standings mismatches "
          f"{result['standings_mismatch']} (order ok: {result['standings_order_ok']}), repeated pairs "
          f"{result['repeat_pairs']}, moves {result['moves']} (lost {result['lost_moves']}, twice "
          f"{result['duplicate_moves']}, replay mismatches {result['replay_mismatches']}), tokens conserved "
          f"{result['tokens_conserved']}", file=sys.stdout)
    print("RESULT " + " ".join(f"{key}={result[key]}" for key in (
        "entries", "rounds", "status", "missing_results", "wrong_results", "bad_rounds", "standings_mismatch",
        "standings_order_ok", "repeat_pairs", "lost_moves", "duplicate_moves", "replay_mismatches", "moves",
        "tokens_conserved", "kills", "seconds")))


if __name__ == "__main__":
    main()
