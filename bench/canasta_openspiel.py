"""Random play on the open-source canasta-openspiel engine (github jhtschultz/canasta-openspiel), for
`bench.selfplay --game canasta`: hands per second measured the way ours are.

That engine is a pure-Python `pyspiel.Game` (package `canasta`, needs `open_spiel`); it is never a project
dependency. Put its source tree at `--openspiel-canasta PATH` (default /tmp/canasta-openspiel) and
`pip install open-spiel` in the venv. Its match goes to 5,000 and starts each new hand inside the same
state, so a hand is counted each time its `_finalize_game` scores one (wrapped here, nothing else changed);
its `legal_actions()` may itself end a blocked hand and return [] (then it is asked again).
"""

import random
import sys
import time


def measure(n_hands: int, seed: int, path: str):
    """((hands, states, cpu seconds, wall seconds), None) or (None, why it could not run)."""
    if path not in sys.path:
        sys.path.insert(0, path)
    try:
        import pyspiel  # noqa: F401
        from canasta import canasta_game
    except ImportError as exc:
        return None, f"canasta-openspiel not importable from {path} ({exc})"
    state_cls = canasta_game.CanastaState
    finalize = state_cls._finalize_game
    hands = [0]

    def counting(self, *args, **kwargs):
        hands[0] += 1
        return finalize(self, *args, **kwargs)

    state_cls._finalize_game = counting
    try:
        game = canasta_game.CanastaGame()
        rng = random.Random(seed)
        states = 0
        t0 = time.process_time()
        w0 = time.perf_counter()
        state = game.new_initial_state()
        while hands[0] < n_hands:
            if state.is_terminal():
                state = game.new_initial_state()
                continue
            if state.is_chance_node():
                outcomes = state.chance_outcomes()
                state.apply_action(outcomes[rng.randrange(len(outcomes))][0])
                continue
            legal = state.legal_actions()
            if not legal:  # its legal_actions() itself scores a hand that cannot go on and deals the next
                continue
            state.apply_action(rng.choice(legal))
            states += 1
        return (hands[0], states, time.process_time() - t0, time.perf_counter() - w0), None
    finally:
        state_cls._finalize_game = finalize
