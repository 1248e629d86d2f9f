"""Load benchmark of the live tables: real daphne (+ Celery), real accounts, real websocket frames.

    python -m bench.load --mode default --tables 200 --seconds 30
    python -m bench.load --mode redis --tables 400 --seconds 30

Starts the site on a scratch database in the chosen mode — `default`: SQLite + in-process channel layer +
the embedded Celery worker thread, one daphne process; `redis`: PostgreSQL (database `rummy_load_<pid>`,
created, dropped at the end) + Redis (database 8 + pid % 8, flushed) with separate daphne and Celery worker
processes — then:

1. the floor: a bare Channels echo consumer (bench/echo_asgi.py, same channel layer) driven by the same
   client, N groups of 4 sockets, one frame per group per second fanned out to the 4 sockets;
2. N Thanasis tables of 4 human seats (real accounts and sessions) played by scripted websocket clients
   (bench/load_client.py), one move per second per table; latency = send of a move → last seat's push;
   plus a few tables of one human and three bots, to time Celery;
3. K idle sockets: server RSS delta / K;
4. a burst of 1,000 sockets opened at once on other tables (handshake + first view).

The client is pinned to CPU 0, the server processes to CPU 1 (PostgreSQL and Redis are not ours: they
run where the kernel puts them). Server CPU time comes from /proc/<pid>/stat. Loopback only; every phase
is bounded in time. The last line is machine-readable.
"""

import argparse
import asyncio
import contextlib
import json
import os
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import threading
import time
import urllib.error
import urllib.request
from pathlib import Path

from bench import backend_work, load_breakdown
from bench import load_client as lc

ROOT = Path(__file__).resolve().parent.parent
PG_URL = "postgres://postgres@127.0.0.1:5432/rummy_load"
REDIS_URL = "redis://127.0.0.1:6379/0"  # the server; each run takes a database of its own (8–15), flushed


def load_urls() -> tuple[str, str]:
    """The scratch PostgreSQL and Redis databases of this run, on the servers of DATABASE_URL / REDIS_URL if
    set. Named after the process, so runs side by side never share a database, a Celery queue or a
    pub/sub channel (table ids start at a per-run offset: bench/load_setup.py)."""
    run = os.getpid()
    pg = os.environ.get("LOAD_DATABASE_URL") or (os.environ.get("DATABASE_URL") or PG_URL).rsplit("/", 1)[0]
    redis = os.environ.get("LOAD_REDIS_URL") or (os.environ.get("REDIS_URL") or REDIS_URL).rsplit("/", 1)[0]
    return f"{pg}/rummy_load_{run}", f"{redis}/{8 + run % 8}"


def drop_postgres(url: str) -> None:
    import psycopg

    name = url.rsplit("/", 1)[1]
    with contextlib.suppress(Exception), psycopg.connect(url.rsplit("/", 1)[0] + "/postgres",
                                                         autocommit=True) as conn:
        conn.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
CLK_TCK = os.sysconf("SC_CLK_TCK")


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def pin(cpus: set[int]):
    def apply():
        with contextlib.suppress(OSError):
            os.sched_setaffinity(0, cpus)
    return apply


def proc_tree(pid: int) -> list[int]:
    pids, stack = [], [pid]
    while stack:
        p = stack.pop()
        pids.append(p)
        with contextlib.suppress(OSError):
            for task in os.listdir(f"/proc/{p}/task"):
                with open(f"/proc/{p}/task/{task}/children") as f:
                    stack.extend(int(c) for c in f.read().split())
    return pids


def cpu_seconds(pid: int) -> float:
    """User + system CPU time of a process and its children still alive."""
    total = 0
    for p in proc_tree(pid):
        with contextlib.suppress(OSError), open(f"/proc/{p}/stat") as f:
            fields = f.read().rsplit(")", 1)[1].split()
            total += int(fields[11]) + int(fields[12])
    return total / CLK_TCK


def rss_kb(pid: int) -> int:
    total = 0
    for p in proc_tree(pid):
        with contextlib.suppress(OSError), open(f"/proc/{p}/status") as f:
            for line in f:
                if line.startswith("VmRSS:"):
                    total += int(line.split()[1])
    return total


def pids_named(name: str) -> list[int]:
    out = []
    for entry in os.listdir("/proc"):
        if entry.isdigit():
            with contextlib.suppress(OSError), open(f"/proc/{entry}/comm") as f:
                if f.read().strip() == name:
                    out.append(int(entry))
    return out


class Site:
    """The server processes of one mode; started pinned, stopped by pid."""

    def __init__(self, args, workdir: Path):
        self.args = args
        self.workdir = workdir
        self.procs: list[subprocess.Popen] = []
        self.env = {**os.environ, "DJANGO_SETTINGS_MODULE": "rummy_site.settings", "DEBUG": "0",
                    "LOG_LEVEL": "WARNING", "BOT_DELAY_SECONDS": "0", "NEXT_ROUND_DELAY_SECONDS": "2",
                    "DISCONNECT_GRACE_SECONDS": "3600", "CELERY_TASK_ALWAYS_EAGER": "0",
                    "LOAD_PROBE_DIR": str(workdir), "VAR_DIR": str(workdir), "PYTHONUNBUFFERED": "1"}
        if args.breakdown:
            self.env["LOAD_BREAKDOWN_DIR"] = str(workdir)
        for key in ("DATABASE_URL", "REDIS_URL", "SQLITE_PATH", "DJANGO_ALLOW_ASYNC_UNSAFE"):
            self.env.pop(key, None)
        self.env["DJANGO_ENV"] = "development"  # its own throwaway site on this machine
        if args.mode == "redis":
            pg, redis = load_urls()
            self.env.update(DATABASE_URL=pg, REDIS_URL=redis, CHANNEL_POOL_SIZE=str(args.channel_pool),
                            LOAD_FIRST_TABLE_ID=str(7_000_001 + os.getpid() % 1000 * 10_000))
        else:
            self.env["SQLITE_PATH"] = str(workdir / "load.sqlite3")
        self.log = open(workdir / "site.log", "w")  # noqa: SIM115 - closed in stop()

    def spawn(self, argv: list[str], env: dict | None = None) -> subprocess.Popen:
        proc = subprocess.Popen([sys.executable, *argv], cwd=ROOT, env=env or self.env, stdout=self.log,
                                stderr=subprocess.STDOUT, preexec_fn=pin(self.args.server_cpus))
        self.procs.append(proc)
        return proc

    def setup(self, tables: int, burst_tables: int, bot_tables: int) -> dict:
        out = subprocess.run([sys.executable, "-m", "bench.load_setup", "--tables", str(tables), "--burst-tables",
                              str(burst_tables), "--bot-tables", str(bot_tables)], cwd=ROOT, env=self.env,
                             capture_output=True, text=True, timeout=1800)
        if out.returncode != 0:
            sys.exit(f"setup failed:\n{out.stderr[-3000:]}")
        return json.loads(out.stdout.strip().splitlines()[-1])

    def daphne(self, app: str, env: dict | None = None) -> tuple[subprocess.Popen, int]:
        port = free_port()
        proc = self.spawn(["-m", "daphne", "-b", "127.0.0.1", "-p", str(port), app], env)
        wait_port(port, proc, self.workdir / "site.log")
        return proc, port

    def worker(self) -> subprocess.Popen:
        return self.spawn(["-m", "celery", "-A", "bench.load_celery", "worker", "-P", self.args.worker_pool,
                           "-c", str(self.args.worker_concurrency), "-l", "WARNING", "-Q", "celery",
                           "-n", f"load-{os.getpid()}@localhost", "--without-heartbeat", "--without-mingle",
                           "--without-gossip"])

    def stop(self, proc: subprocess.Popen | None = None) -> None:
        for p in [proc] if proc else list(self.procs):
            if p.poll() is None:
                p.send_signal(signal.SIGTERM)
            try:
                p.wait(timeout=15)
            except subprocess.TimeoutExpired:
                p.kill()
                p.wait()
            if p in self.procs:
                self.procs.remove(p)
        if proc is None:
            self.log.close()


def wait_port(port: int, proc: subprocess.Popen, log: Path, timeout: float = 60) -> None:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if proc.poll() is not None:
            sys.exit(f"server exited:\n{log.read_text()[-3000:]}")
        with contextlib.suppress(OSError), socket.create_connection(("127.0.0.1", port), timeout=1):
            return
        time.sleep(0.1)
    sys.exit(f"server did not listen on {port}")


def settle(procs: list[subprocess.Popen], limit: float, busy: float = 0.3) -> float:
    """Wait (at most `limit` s) until the server processes use less than `busy` of a core; the time waited."""
    started = time.monotonic()
    while time.monotonic() - started < limit:
        before = sum(cpu_seconds(p.pid) for p in procs)
        time.sleep(1.0)
        if sum(cpu_seconds(p.pid) for p in procs) - before < busy:
            break
    return time.monotonic() - started


class ReadinessProbe:
    """An operator's monitoring asking the readiness URL (rummy_site/health.py) during the load: a thread of the
    client process, one request at a time, every `every` seconds; each answer timed."""

    def __init__(self, url: str, every: float = 0.1):
        self.url, self.every = url, every
        self.latencies: list[float] = []
        self.statuses: dict[int, int] = {}
        self.refusals: dict[str, int] = {}  # 503 bodies: what was not ready
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._run, name="readiness", daemon=True)

    def start(self) -> None:
        self._thread.start()

    def stop(self) -> None:
        self._stop.set()
        self._thread.join(timeout=10)

    def _run(self) -> None:
        while not self._stop.is_set():
            began = time.perf_counter()
            try:
                with urllib.request.urlopen(self.url, timeout=10) as response:
                    response.read()
                    status = response.status
            except urllib.error.HTTPError as error:
                status = error.code
                body = error.read().decode(errors="replace")
                self.refusals[body] = self.refusals.get(body, 0) + 1
            except OSError:
                status = 0
            self.latencies.append(time.perf_counter() - began)
            self.statuses[status] = self.statuses.get(status, 0) + 1
            self._stop.wait(max(0.0, self.every - (time.perf_counter() - began)))

    def figures(self) -> dict:
        return {"ready_p50_ms": ms(lc.percentile(self.latencies, 50)),
                "ready_p99_ms": ms(lc.percentile(self.latencies, 99)),
                "ready_max_ms": ms(max(self.latencies)) if self.latencies else float("nan"),
                "ready_n": len(self.latencies)}


def ms(seconds: float) -> float:
    return round(seconds * 1000, 1)


def celery_report(workdir: Path, window: tuple[float, float] | None) -> dict:
    """Bot tasks: enqueue → start; countdown tasks (next round, timers): start − ETA. `window` (wall-clock
    start, end): only tasks due inside it count (the bot tables' first turns are sent while the worker is still
    starting: up to a second of waiting that no player meets once the site runs)."""
    bot, late, counts = [], [], {}
    for path in workdir.glob("celery.*.log"):
        for line in path.read_text().splitlines():
            name, sent, eta, start = line.split()
            due = float(eta if eta != "-" else sent if sent != "-" else start)
            if window is not None and not window[0] <= due <= window[1]:
                continue
            counts[name] = counts.get(name, 0) + 1
            start = float(start)
            if eta != "-":
                late.append(start - float(eta))
            elif sent != "-" and name.endswith("bot_turn"):
                bot.append(start - float(sent))
    return {"bot_n": len(bot), "bot_p50_ms": ms(lc.percentile(bot, 50)), "bot_p99_ms": ms(lc.percentile(bot, 99)),
            "bot_max_ms": ms(max(bot)) if bot else float("nan"),
            "countdown_n": len(late), "countdown_late_p50_ms": ms(lc.percentile(late, 50)),
            "countdown_late_p99_ms": ms(lc.percentile(late, 99)),
            "countdown_late_max_ms": ms(max(late)) if late else float("nan"), "tasks": counts}


def summarize(stats: lc.Stats, seconds: float) -> dict:
    lat = stats.latencies
    return {"p50_ms": ms(lc.percentile(lat, 50)), "p95_ms": ms(lc.percentile(lat, 95)),
            "p99_ms": ms(lc.percentile(lat, 99)), "max_ms": ms(max(lat)) if lat else float("nan"),
            "samples": len(lat), "moves_per_s": round(len(lat) / seconds, 1),
            "pushes_per_s": round(stats.pushes / seconds, 1), "lost": stats.lost,
            "unanswered": stats.unanswered, "errors": stats.errors}


def run(args) -> dict:
    os.sched_setaffinity(0, args.client_cpus)
    workdir = Path(tempfile.mkdtemp(prefix="rummy-load-"))
    site = Site(args, workdir)
    result: dict = {"mode": args.mode, "tables": args.tables}
    try:
        print(f"# workdir {workdir}; client on CPUs {sorted(args.client_cpus)}, server on {sorted(args.server_cpus)}",
              flush=True)
        t0 = time.monotonic()
        data = site.setup(args.tables, args.burst // 4, args.bot_tables)
        print(f"# setup: {args.tables} tables + {args.burst // 4} burst tables + {args.bot_tables} bot tables, "
              f"{len(data['tables']) * 4 + args.burst + args.bot_tables} accounts and sessions "
              f"in {time.monotonic() - t0:.1f} s", flush=True)

        # 1. The floor of this machine: a bare Channels echo consumer, same layer, same client.
        if args.echo:
            shapes = ("group", "seats") if args.echo_fanout == "both" else (args.echo_fanout,)
            for shape in shapes:
                echo_env = {**site.env, "ECHO_PAD_BYTES": str(args.echo_bytes), "ECHO_FANOUT": shape}
                proc, port = site.daphne("bench.echo_asgi:application", echo_env)
                echo_marks = []
                stats = asyncio.run(lc.echo(base=f"ws://127.0.0.1:{port}", groups=args.tables, size=4,
                                            warmup=args.warmup, seconds=args.echo_seconds, think=args.think,
                                            on_window=lambda edge, m=echo_marks, p=proc: m.append(cpu_seconds(p.pid))))
                site.stop(proc)
                echo = summarize(stats, args.echo_seconds)
                echo_cpu = (echo_marks[-1] - echo_marks[0]) if len(echo_marks) == 2 else float("nan")
                suffix = "" if shape == shapes[0] else f"_{shape}"
                result["echo_cpu_ms_per_msg" + suffix] = round(echo_cpu * 1000 / max(1, echo["samples"]), 2)
                result["echo_p50_ms" + suffix], result["echo_p99_ms" + suffix] = echo["p50_ms"], echo["p99_ms"]
                print(f"echo floor   : p50 {echo['p50_ms']} ms  p95 {echo['p95_ms']} ms  p99 {echo['p99_ms']} ms  "
                      f"max {echo['max_ms']} ms  msgs/s {echo['moves_per_s']}  pushes/s {echo['pushes_per_s']}  "
                      f"lost {echo['lost']}  errors {echo['errors']}  ({args.tables} groups × 4 sockets, "
                      f"{'a message per socket' if shape == 'seats' else 'a message per group'}, "
                      f"{args.echo_bytes} B); server {echo_cpu / args.echo_seconds * 100:.0f} % of a core = "
                      f"{result['echo_cpu_ms_per_msg' + suffix]} ms per message", flush=True)

        if args.echo_only:
            return result

        # 2. The site.
        if args.mode == "redis":
            worker = site.worker()
        listener = free_port() if args.readiness else 0
        daphne, port = site.daphne("bench.load_asgi:application",
                                   {**site.env, "READINESS_PORT": str(listener)} if listener else None)
        server = [daphne] + ([worker] if args.mode == "redis" else [])
        base = f"ws://127.0.0.1:{port}"
        with urllib.request.urlopen(f"http://127.0.0.1:{port}/regles/", timeout=30) as response:
            assert response.status == 200
        marks: dict = {}
        breakdowns: dict = {}
        backend: dict = {}

        profilers: list[subprocess.Popen] = []

        # /pret/ through daphne (the site's route) and on the process's readiness listener (READINESS_PORT)
        probes = {"route": ReadinessProbe(f"http://127.0.0.1:{port}/pret/"),
                  "listener": ReadinessProbe(f"http://127.0.0.1:{listener}/pret/")} if args.readiness else {}

        def on_window(edge: str) -> None:
            for probe in probes.values():
                probe.start() if edge == "start" else probe.stop()
            if args.profile:
                if edge == "start":
                    profilers.extend(start_profilers(server, f"{args.profile}.site"))
                else:
                    stop_profilers(profilers)
            marks[edge] = (time.perf_counter(), time.time(), {p.pid: cpu_seconds(p.pid) for p in server},
                           os.times(), {p: cpu_seconds(p) for p in pids_named("postgres") + pids_named("redis-server")})
            if args.breakdown:
                breakdowns[edge] = load_breakdown.read(site.workdir)
            if args.mode == "redis":
                backend[edge] = backend_work.snapshot(site.env)

        async def main_phase():
            playing = data["tables"] + data["bots"]
            stats, seats, info = await lc.play(base=base, tables=playing, warmup=args.warmup, seconds=args.seconds,
                                               think=args.think, on_window=on_window)
            rss = {}
            if args.idle:
                # 3. Idle sockets: one more page per seat of the played tables, nothing else moves.
                await asyncio.sleep(1.0)
                rss["before"] = sum(rss_kb(p.pid) for p in server)
                targets = [(t["id"], s["session"]) for t in data["tables"] for s in t["seats"]]
                targets = (targets * (args.idle // max(1, len(targets)) + 1))[: args.idle]
                idle, failures = await lc.open_idle(base=base, seats=targets)
                reader = await lc.drain_quietly(idle)
                await asyncio.sleep(2.0)
                rss["after"] = sum(rss_kb(p.pid) for p in server)
                rss["opened"], rss["failures"] = len(idle), failures
                await asyncio.gather(*(ws.close() for ws in idle), return_exceptions=True)
                reader.cancel()
            await lc.close_all(seats, info["runners"])
            return stats, info, rss

        stats, info, rss = asyncio.run(main_phase())
        window = info["window_s"]
        load = summarize(stats, window)
        result.update(load)
        (_, _, cpu0, os0, db0), (_, _, cpu1, os1, db1) = marks["start"], marks["end"]
        server_cpu = sum(cpu1[p] - cpu0[p] for p in cpu0)
        client_cpu = (os1.user + os1.system) - (os0.user + os0.system)
        db_cpu = sum(db1[p] - db0.get(p, 0) for p in db1)  # a backend gone during the window drops out
        moves = max(1, load["samples"])
        result["cpu_ms_per_move"] = round(server_cpu * 1000 / moves, 2)
        print(f"site         : p50 {load['p50_ms']} ms  p95 {load['p95_ms']} ms  p99 {load['p99_ms']} ms  "
              f"max {load['max_ms']} ms  moves/s {load['moves_per_s']}  pushes/s {load['pushes_per_s']}  "
              f"lost {load['lost']}  unanswered {load['unanswered']}  errors {load['errors']}  "
              f"({load['samples']} moves in {window:.1f} s, {args.tables} tables × 4 seats + {args.bot_tables} "
              f"bot tables, {len(data['tables']) * 4 + args.bot_tables} sockets opened in {info['connect_s']:.1f} s, "
              f"avg push {stats.push_bytes // max(1, stats.pushes)} B)", flush=True)
        print(f"cpu          : server {server_cpu / window * 100:.0f} % of a core = "
              f"{result['cpu_ms_per_move']} ms per move; client {client_cpu / window * 100:.0f} %; "
              f"PostgreSQL+Redis {db_cpu / window * 100:.0f} %", flush=True)
        if args.mode == "redis":
            # The Celery worker's share: the bot tables' moves (the bots' decisions, their renders and pushes)
            # and the tasks' own path (broker round trips, acks), against the daphne process's.
            worker_cpu = cpu1[worker.pid] - cpu0[worker.pid]
            result["worker_cpu_ms_per_move"] = round(worker_cpu * 1000 / moves, 2)
            tasks = celery_report(workdir, (marks["start"][1], marks["end"][1]))["tasks"]
            bot_moves = tasks.get("tables.tasks.bot_turn", 0)
            print(f"cpu split    : daphne {(server_cpu - worker_cpu) * 1000 / moves:.2f} ms per move, Celery worker "
                  f"{worker_cpu * 1000 / moves:.2f} ms per move = {worker_cpu * 1000 / max(1, bot_moves):.2f} ms "
                  f"per bot task ({bot_moves} bot tasks, {sum(tasks.values())} tasks in the window)", flush=True)
        if args.breakdown and len(breakdowns) == 2:
            print("cpu by stage : CPU-ms per move (bench/load_breakdown.py)", flush=True)
            for line in load_breakdown.report(breakdowns["start"], breakdowns["end"], server_cpu, moves):
                print(line, flush=True)
        if len(backend) == 2:
            for line in backend_work.per_move(backend["start"], backend["end"], moves):
                print(line, flush=True)
        if "echo_p99_ms" in result and result["echo_p99_ms"] > 0:
            print(f"ratio        : site p99 / echo p99 = {load['p99_ms'] / result['echo_p99_ms']:.1f}; "
                  f"p50 ratio {load['p50_ms'] / max(0.01, result['echo_p50_ms']):.1f}", flush=True)
        for name, probe in probes.items():
            figures = probe.figures()
            if name == "listener":
                result.update(figures)
            print(f"readiness    : /pret/ ({name}) every {probe.every * 1000:.0f} ms during the window: p50 "
                  f"{figures['ready_p50_ms']} ms  p99 {figures['ready_p99_ms']} ms  max {figures['ready_max_ms']} ms "
                  f"(n={figures['ready_n']}, answers {probe.statuses} {probe.refusals or ''})", flush=True)
        for sample in stats.error_samples:
            print(f"  error: {sample}", flush=True)
        if rss:
            per = (rss["after"] - rss["before"]) / max(1, rss["opened"])
            result["rss_kb_per_socket"] = round(per, 1)
            print(f"idle sockets : {rss['opened']} opened ({rss['failures']} failed), server RSS "
                  f"{rss['before'] // 1024} → {rss['after'] // 1024} MiB = {per:.1f} KiB per socket", flush=True)

        # 4. The burst: every socket at once, on tables nobody watches yet, once the server has settled
        # (the idle sockets' departures processed).
        if args.burst:
            settle(server, limit=60)
            targets = [(t["id"], s["session"]) for t in data["burst"] for s in t["seats"]]
            spies = start_profilers(server, f"{args.profile}.burst") if args.profile else []
            b = asyncio.run(lc.burst(base=base, seats=targets, timeout=args.burst_timeout))
            stop_profilers(spies)
            result["burst_ok"] = f"{b['ok']}/{b['total']}"
            print(f"burst        : {b['ok']}/{b['total']} sockets connected and got their view in "
                  f"{b['elapsed_s']:.1f} s (p50 {b['p50_s']:.2f} s, p99 {b['p99_s']:.2f} s) {b['kinds']}", flush=True)

        site.stop()
        time.sleep(0.5)
        celery = celery_report(workdir, (marks["start"][1], marks["end"][1]))
        result["bot_task_p99_ms"] = celery["bot_p99_ms"]
        result["countdown_late_p99_ms"] = celery["countdown_late_p99_ms"]
        print(f"celery       : bot task enqueue→start p50 {celery['bot_p50_ms']} ms p99 {celery['bot_p99_ms']} ms "
              f"max {celery['bot_max_ms']} ms (n={celery['bot_n']}); countdown fired late by p50 "
              f"{celery['countdown_late_p50_ms']} ms p99 {celery['countdown_late_p99_ms']} ms max "
              f"{celery['countdown_late_max_ms']} ms (n={celery['countdown_n']}); "
              f"tasks due in the window {celery['tasks']}",
              flush=True)
        return result
    finally:
        site.stop()
        if args.mode == "redis":
            drop_postgres(site.env["DATABASE_URL"])
        if not args.keep:
            shutil.rmtree(workdir, ignore_errors=True)


def start_profilers(processes, prefix: str) -> list[subprocess.Popen]:
    """py-spy on each server process for the measured window (raw collapsed stacks, one file per process:
    `<prefix>.<pid>.txt`; flamegraph.pl or speedscope read them)."""
    spy = shutil.which("py-spy") or str(Path(sys.executable).with_name("py-spy"))
    if not Path(spy).exists():
        print("# --profile: py-spy not found (pip install py-spy); no profile taken", flush=True)
        return []
    out = []
    for p in processes:
        path = f"{prefix}.{p.pid}.txt"
        out.append(subprocess.Popen([spy, "record", "--pid", str(p.pid), "--rate", "200", "--gil", "--format", "raw",
                                     "--output", path, "--nonblocking"],
                                    stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL))
        print(f"# --profile: sampling pid {p.pid} into {path}", flush=True)
    return out


def stop_profilers(profilers: list[subprocess.Popen]) -> None:
    for spy in profilers:
        spy.send_signal(signal.SIGINT)  # py-spy writes its file on SIGINT
    for spy in profilers:
        with contextlib.suppress(subprocess.TimeoutExpired):
            spy.wait(timeout=30)


def result_line(result: dict) -> str:
    keys = ["mode", "tables", "p50_ms", "p95_ms", "p99_ms", "max_ms", "lost", "errors", "moves_per_s",
            "pushes_per_s", "echo_p99_ms",
            "echo_cpu_ms_per_msg", "echo_p99_ms_seats", "echo_cpu_ms_per_msg_seats", "burst_ok", "cpu_ms_per_move",
            "worker_cpu_ms_per_move", "rss_kb_per_socket", "bot_task_p99_ms",
            "countdown_late_p99_ms", "ready_p50_ms", "ready_p99_ms", "ready_max_ms"]
    return "RESULT " + " ".join(f"{k}={result[k]}" for k in keys if k in result)


def parse_args(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--mode", choices=("default", "redis"), default="default")
    parser.add_argument("--redis", dest="mode", action="store_const", const="redis", help="same as --mode redis")
    parser.add_argument("--tables", type=int, default=50)
    parser.add_argument("--seconds", type=float, default=30)
    parser.add_argument("--warmup", type=float, default=3)
    parser.add_argument("--think", type=float, default=1.0, help="mean seconds before a seat answers its turn")
    parser.add_argument("--bot-tables", type=int, default=4, help="tables of 1 human + 3 bots (Celery timings)")
    parser.add_argument("--idle", type=int, default=1000, help="idle sockets for the RSS per socket (0: skip)")
    parser.add_argument("--burst", type=int, default=1000, help="sockets of the connection burst (0: skip)")
    parser.add_argument("--burst-timeout", type=float, default=30)
    parser.add_argument("--no-echo", dest="echo", action="store_false")
    parser.add_argument("--echo-only", action="store_true", help="the echo floor only, not the site")
    parser.add_argument("--echo-seconds", type=float, default=None)
    parser.add_argument("--echo-bytes", type=int, default=15000)
    parser.add_argument("--echo-fanout", choices=("group", "seats", "both"), default="group",
                        help="the echo sends one channel-layer message per group (as the site does, one per move "
                             "for a table), or one per socket (as it did, one per seat); both: one run of each")
    parser.add_argument("--channel-pool", type=int, default=100, help="CHANNEL_POOL_SIZE in redis mode")
    parser.add_argument("--worker-pool", default="threads")
    parser.add_argument("--worker-concurrency", type=int, default=4)
    parser.add_argument("--client-cpus", default="0")
    parser.add_argument("--server-cpus", default="1")
    parser.add_argument("--readiness", action="store_true",
                        help="ask /pret/ every 100 ms during the window, as an operator's monitoring (latency)")
    parser.add_argument("--keep", action="store_true", help="keep the scratch directory (logs)")
    parser.add_argument("--breakdown", action="store_true",
                        help="print the server's CPU per move by stage (render, database, …; bench/load_breakdown.py)")
    parser.add_argument("--profile", metavar="PREFIX", default=None,
                        help="sample the server processes with py-spy while the tables play and during the "
                             "burst (files PREFIX.site.<pid>.txt, PREFIX.burst.<pid>.txt, collapsed stacks)")
    args = parser.parse_args(argv)
    args.burst -= args.burst % 4
    available = os.sched_getaffinity(0)
    args.client_cpus = {int(c) for c in args.client_cpus.split(",")} & available or available
    args.server_cpus = {int(c) for c in args.server_cpus.split(",")} & available or available
    if args.echo_seconds is None:
        args.echo_seconds = min(args.seconds, 10)
    return args


def main(argv=None) -> None:
    args = parse_args(argv)
    result = run(args)
    print(result_line(result), flush=True)


if __name__ == "__main__":
    main()
