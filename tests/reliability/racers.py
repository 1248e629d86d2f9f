"""Run the same callable in N threads released together by a barrier, many times over.

The threads live as long as the `Racers` (each keeps its database connection between races,
as a worker would) and close their connection when it is shut down.
"""

import threading
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor

from django.db import connection


class Racers:
    def __init__(self, threads: int, timeout: float = 60):
        self.threads = threads
        self.timeout = timeout
        self._pool = ThreadPoolExecutor(max_workers=threads)

    def race(self, calls: list[Callable]) -> list:
        """Start every call at once (one per thread); their results in order (exceptions re-raised)."""
        assert len(calls) == self.threads
        barrier = threading.Barrier(self.threads, timeout=self.timeout)

        def run(call):
            barrier.wait()
            return call()

        futures = [self._pool.submit(run, call) for call in calls]
        return [future.result(timeout=self.timeout) for future in futures]

    def close(self) -> None:
        # The barrier holds every thread until all have taken one task: each closes its own connection.
        self.race([lambda: connection.close()] * self.threads)
        self._pool.shutdown(wait=True)

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()
