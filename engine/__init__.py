"""Pure rules engine: every game behind one contract (see engine/README.md).

No Django, no I/O: the same seed and moves always rebuild the same state.
"""

from engine import games
from engine.errors import IllegalMove

__all__ = ["IllegalMove", "games"]
