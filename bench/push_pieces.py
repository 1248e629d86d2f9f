"""How much of a push changed for its seat: the lever « push only the pieces that changed » of issue 17, measured.

    python -m bench.push_pieces --game thanasis --moves 400

Plays a match of 4 human seats with the rules' autoplay on a scratch SQLite database and, after every move,
renders each seat's push as the site does (tables.rendering.render_push: every piece, tables.live.PARTS), then
counts the bytes of the pieces whose HTML differs from the same seat's previous push. Prints the bytes a push
carries now and the bytes it would carry with the unchanged pieces left out. What those bytes cost the server
is the echo floor at either size (`python -m bench.load --mode redis --echo-bytes N`).
"""

import argparse
import statistics
import sys
import tempfile


def main(argv=None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--game", default="thanasis")
    parser.add_argument("--seats", type=int, default=4)
    parser.add_argument("--moves", type=int, default=400)
    args = parser.parse_args(argv)

    from bench.render import play, setup_django

    setup_django(tempfile.mkdtemp(prefix="rummy-pieces-"))
    from accounts.services import bots_ensure
    from tables import live
    from tables.rendering import table_context

    bots_ensure()
    last: dict[int, list[str]] = {}
    full, changed, pieces_changed = [], [], []
    for table, seats in play(args.game, args.seats, args.moves):
        for seat in seats:
            context = table_context(table, seats, seat)
            pieces = [str(live.render_part(part, context)) for part in live.PARTS]
            before = last.get(seat.position)
            sent = pieces if before is None else [p for p, b in zip(pieces, before, strict=True) if p != b]
            last[seat.position] = pieces
            full.append(sum(len(p.encode()) for p in pieces))
            changed.append(sum(len(p.encode()) for p in sent))
            pieces_changed.append(len(sent))
    pushes = len(full)
    print(f"pushes       : {pushes} ({args.game}, {args.seats} seats, every seat after every move)")
    print(f"bytes a push : now mean {statistics.mean(full):.0f} B (median {statistics.median(full):.0f}); "
          f"changed pieces only mean {statistics.mean(changed):.0f} B (median {statistics.median(changed):.0f}) "
          f"= {100 * sum(changed) / sum(full):.0f} % of the bytes; pieces sent mean "
          f"{statistics.mean(pieces_changed):.1f} of {len(live.PARTS)}")
    print(f"RESULT game={args.game} pushes={pushes} bytes_mean={statistics.mean(full):.0f} "
          f"changed_bytes_mean={statistics.mean(changed):.0f} share={sum(changed) / sum(full):.3f}")
    sys.stdout.flush()


if __name__ == "__main__":
    main()
