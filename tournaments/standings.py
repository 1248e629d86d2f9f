"""Standings recomputed from the stored results (never a running total): the same answer after a crash, a
retry or a replay of the round's tasks."""

from tournaments import pairing
from tournaments.models import Entry, Match, Tournament

BYE_POINTS = 1.0  # a bye counts as a win (docs/tournaments.md)


def results_of(tournament: Tournament) -> list[pairing.Result]:
    out = []
    for match in Match.objects.filter(tournament=tournament, places__isnull=False, table__isnull=False):
        entries = tuple(int(e) for e in match.entries)
        out.append(pairing.Result(entries, tuple(int(match.places[str(e)]) for e in entries)))
    return out


def byes_of(tournament: Tournament) -> dict[int, int]:
    byes: dict[int, int] = {}
    for match in Match.objects.filter(tournament=tournament, table__isnull=True):
        for entry in match.entries:
            byes[int(entry)] = byes.get(int(entry), 0) + 1
    return byes


def met_of(results: list[pairing.Result]) -> dict[int, set[int]]:
    met: dict[int, set[int]] = {}
    for result in results:
        for entry in result.entries:
            met.setdefault(entry, set()).update(e for e in result.entries if e != entry)
    return met


def final_places(tournament: Tournament) -> dict[int, int]:
    """A knock-out's final: the places at its one table (the last round, when it was a single table, no bye)."""
    last = tournament.round_set.order_by("-number").first()
    matches = list(last.matches.all()) if last else []
    if len(matches) != 1 or matches[0].is_bye or matches[0].places is None:
        return {}
    return {int(e): int(p) for e, p in matches[0].places.items()}


def compute(tournament: Tournament) -> list[pairing.Standing]:
    """Best first. Swiss and Arena: points, then Buchholz, then wins, then seed. Knock-out: who went furthest
    first (still in, then eliminated later), then the same order."""
    entries = list(Entry.objects.filter(tournament=tournament).values_list("pk", "seed", "eliminated_in"))
    seeds = {pk: seed for pk, seed, _ in entries}
    table = pairing.standings([pk for pk, _, _ in entries], results_of(tournament), byes_of(tournament),
                              bye_points=BYE_POINTS, seeds=seeds)
    if tournament.format != Tournament.Format.KNOCKOUT:
        return table
    out_in = {pk: eliminated for pk, _, eliminated in entries}
    final = final_places(tournament)
    ordered = sorted(table, key=lambda s: (out_in[s.entry] is not None, -(out_in[s.entry] or 0),
                                           final.get(s.entry, 0), s.rank))
    return [pairing.Standing(**{**s.__dict__, "rank": i}) for i, s in enumerate(ordered, 1)]
