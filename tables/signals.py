"""What the tables tell the rest of the site, without knowing who listens (a tournament records its results).

`match_finished` is sent inside the transaction that ends the match, after the tokens are settled: a receiver's
writes commit or roll back with the match's last move. Arguments: `table`, and `places` ({seat: place}, 1 =
first, equal places for a tie: the engine's `match_places`)."""

from django.dispatch import Signal

match_finished = Signal()
