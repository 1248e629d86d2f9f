"""Replays that explain: the cost of « Revoir »'s step page with the Expert's stored comment, and of computing
the comments once after the match (tables.annotations, the Celery task's body).

    python -m bench.replay_comments --game gin --matches 3
    python -m bench.replay_comments --game thanasis --seats 3 --matches 2 --passes 3

Plays whole matches against robots in a throwaway test database (SQLite by default, or DATABASE_URL's server
with a test_ prefix; the human seat is played by the rules' autoplay), comments each finished match as the task
does (timed per commented move), then asks `--passes` times for every step of every round that carries a stored
comment through Django's test client, as a player of the table. Prints the annotation's time per move (mean,
max), and the p50 / p99 / max time of a commented step's page (ms, wall clock on this machine).
The last line: `RESULT game=… moves=… annotate_ms_per_move=… step_p50_ms=… step_p99_ms=… step_max_ms=…`.
"""

import argparse
import statistics
import time

from bench.load_client import percentile
from bench.replays import in_scratch_database


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--game", default="gin")
    parser.add_argument("--seats", type=int, default=0, help="0: the game's default")
    parser.add_argument("--matches", type=int, default=2)
    parser.add_argument("--passes", type=int, default=2, help="requests per commented step")
    in_scratch_database(run, parser.parse_args())


def run(args) -> None:
    from django.test import Client
    from django.urls import reverse

    from accounts.services import bots_ensure, user_create
    from engine import games
    from tables import annotations, catalogue, replays
    from tables.models import Game, MoveComment, RulesPage
    from tests.tables.helpers import create_table, play_out

    catalogue.seed(Game, RulesPage)
    bots_ensure()
    seats = args.seats or games.get(args.game).info.default_players
    player = user_create(username="bench", password="Tr3s-secret!", email="")
    client = Client()
    client.force_login(player, backend="accounts.backends.HumanOnlyBackend")
    moves, per_move_ms, steps_ms = [], [], []
    costed = worst = 0
    for _ in range(args.matches):
        table = play_out(create_table(player, args.game, seats=seats, bots=dict.fromkeys(range(1, seats), 2), stake=0))
        moves.append(table.moves.count())
        count, seconds = annotations.timed_annotate(table.pk)
        if count:
            per_move_ms.append(seconds * 1000 / count)
        rows = MoveComment.objects.filter(table=table)
        costed += rows.filter(cost__gt=0).count()
        worst += rows.filter(worst=True).count()
        commented = set(rows.exclude(comment="").values_list("seq", flat=True))
        for rnd in replays.rounds(table):
            url = reverse("tables:replay", args=[table.pk, rnd.number])
            for index, step in enumerate(rnd.steps):
                if step.seq not in commented:
                    continue
                for _pass in range(args.passes):
                    start = time.perf_counter()
                    response = client.get(f"{url}?etape={index}", HTTP_HX_REQUEST="true")
                    steps_ms.append((time.perf_counter() - start) * 1000)
                    assert response.status_code == 200 and b'data-testid="replay-comment"' in response.content
    steps_ms.sort()
    per_move = statistics.mean(per_move_ms) if per_move_ms else 0.0
    p50, p99 = statistics.median(steps_ms), percentile(steps_ms, 99)
    print(f"{args.game}: {args.matches} matches, {statistics.mean(moves):.0f} moves per match; annotation "
          f"{per_move:.0f} ms per commented move (max per match {max(per_move_ms, default=0):.0f}); "
          f"{costed} moves with a clear cost, {worst} marked worst; a commented step's page "
          f"({len(steps_ms)} requests): p50 {p50:.0f} ms, p99 {p99:.0f} ms, max {steps_ms[-1]:.0f} ms")
    print(f"RESULT game={args.game} moves={statistics.mean(moves):.0f} annotate_ms_per_move={per_move:.0f} "
          f"step_p50_ms={p50:.0f} step_p99_ms={p99:.0f} step_max_ms={steps_ms[-1]:.0f}")


if __name__ == "__main__":
    main()
