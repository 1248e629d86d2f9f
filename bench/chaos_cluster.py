"""`python -m bench.chaos --cluster`: the chaos runs over the cluster shape (rummy_site/cluster.py).

Two daphne processes and two Celery workers behind HAProxy, on a Redis server of their own (a redis-server
started on a free loopback port, never the machine's), so that it can be restarted once per run. Each run:
kill -9 the daphne holding the host's socket (the client reconnects through the proxy to the other one; the
killed one restarts meanwhile), kill -9 one of the workers and restart it, restart Redis. The checks are
bench.chaos's: lost, duplicated and replay-mismatched moves, stalls, resync time (from the kill)."""

import random
import shutil
import subprocess
import time
from pathlib import Path

from bench.chaos import ROOT, free_port
from rummy_site.cluster import Cluster


class PrivateRedis:
    def __init__(self, log):
        self.binary = shutil.which("redis-server") or "/usr/bin/redis-server"
        self.port = free_port()
        self.log = log
        self.proc: subprocess.Popen | None = None

    @property
    def url(self) -> str:
        return f"redis://127.0.0.1:{self.port}/0"

    def start(self) -> None:
        self.proc = subprocess.Popen([self.binary, "--bind", "127.0.0.1", "--port", str(self.port), "--save", "",
                                      "--appendonly", "no"], stdout=self.log, stderr=subprocess.STDOUT)
        deadline = time.monotonic() + 10
        while time.monotonic() < deadline:
            ping = subprocess.run(["redis-cli", "-p", str(self.port), "ping"], capture_output=True, text=True)
            if ping.stdout.strip() == "PONG":
                return
            time.sleep(0.05)
        raise RuntimeError("redis-server did not start")

    def stop(self) -> None:
        if self.proc is not None and self.proc.poll() is None:
            self.proc.terminate()
            self.proc.wait(timeout=10)

    def restart(self) -> None:
        self.stop()
        self.start()


class ClusterServers:
    """The interface bench.chaos drives (kill / start_daphne / start_worker / halt), over a Cluster."""

    failover = True

    def __init__(self, env: dict, log_path: Path, processes: int = 2, workers: int = 2):
        import os

        self.log = open(log_path, "a")  # noqa: SIM115 - closed in stop()
        self.redis = PrivateRedis(self.log)
        self.redis.start()
        env = {**os.environ, **env, "REDIS_URL": self.redis.url, "DJANGO_SETTINGS_MODULE": "rummy_site.settings",
               "PYTHONUNBUFFERED": "1", "CELERY_TASK_ALWAYS_EAGER": "0", "DEBUG": "0", "LOG_LEVEL": "WARNING"}
        env.pop("DJANGO_ALLOW_ASYNC_UNSAFE", None)
        self.cluster = Cluster(env=env, workers=workers, port=free_port(), output=self.log, run_dir=ROOT / "var",
                               daphne_ports=[free_port() for _ in range(processes)])
        self.rng = random.Random(7)
        self.kills = 0
        self.redis_restarts = 0
        self.revived: list[str] = []  # processes that exited by themselves, started again
        self._daphne = self._worker = None
        self._started = False

    @property
    def url(self) -> str:
        return self.cluster.url

    def mark(self, text: str) -> None:
        self.log.write(f"\n##### {time.strftime('%H:%M:%S')} {text}\n")
        self.log.flush()

    # bench.chaos calls start_worker() then start_daphne() first: both start the whole cluster.
    def _start_all(self) -> None:
        if not self._started:
            self.cluster.start()
            self._started = True

    def start_daphne(self) -> float:
        if not self._started:
            self._start_all()
        elif self._daphne is not None:
            self.mark(f"restart daphne{self._daphne + 1}")
            self.cluster.start_daphne(self._daphne)
            self.cluster.wait_servers_up()
            self._daphne = None
        return time.monotonic()

    def start_worker(self) -> None:
        if not self._started:
            return
        if self._worker is not None:
            self.mark(f"restart worker{self._worker + 1}")
            self.cluster.start_worker(self._worker)
            self._worker = None

    def kill(self, which: str) -> None:
        self.revive()
        if which == "daphne":
            servers = self.cluster.servers()
            holding = [i for i, name in enumerate(sorted(servers)) if servers[name]["sessions"]]
            self._daphne = holding[0] if holding else self.rng.randrange(self.cluster.processes)
            self.mark(f"kill -9 daphne{self._daphne + 1}")
            self.cluster.kill_daphne(self._daphne)
        else:
            self._worker = self.rng.randrange(len(self.cluster.celery))
            self.mark(f"kill -9 worker{self._worker + 1}")
            self.cluster.kill_worker(self._worker)
        self.kills += 1

    def revive(self) -> None:
        for name in self.cluster.revive():
            self.mark(f"{name} had exited by itself: started again")
            self.revived.append(name)

    def restart_redis(self) -> None:
        self.revive()
        self.mark("restart redis")
        self.redis.restart()
        self.redis_restarts += 1
        time.sleep(1)  # a worker that dies of it does so within milliseconds
        self.revive()

    def halt(self) -> None:
        self.cluster.stop()

    def stop(self) -> None:
        self.halt()
        self.redis.stop()
        self.log.close()
