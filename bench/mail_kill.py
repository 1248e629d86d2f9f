"""1,000 notification e-mails queued at once, the Celery worker killed (kill -9) mid-way and started again: each
e-mail must arrive once, none lost, none twice.

    DATABASE_URL=postgres://postgres@127.0.0.1:5432/rummy REDIS_URL=redis://127.0.0.1:6379/0 \\
        python -m bench.mail_kill [--mails 1000] [--kill-after 300]

A scratch PostgreSQL database (rummy_bench_mail, dropped and created) and a scratch Redis database (number 11,
flushed) of the same servers; a real SMTP server on loopback (aiosmtpd, in this process) that takes 5 ms per
message (4 ms before the data, 1 ms to accept them: --rcpt-ms, --accept-ms); a real worker process
(`celery worker -P threads -c 4`), with the sweep every 2 s and a lease of 10 s so that the run is short.
Prints what the SMTP server received: distinct messages, duplicates, missing, and times.
"""

import argparse
import asyncio
import os
import random
import signal
import socket
import subprocess
import sys
import time
from collections import Counter
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
SCRATCH_PG = "rummy_bench_mail"
SCRATCH_REDIS_DB = 11


class Inbox:
    """Records each message's Message-ID. A message counts as delivered once its data are in, as a real server
    (Postfix) queues it then, even when the client is gone before reading the 250."""

    def __init__(self, rcpt_s: float, accept_s: float):
        self.ids: list[str] = []
        self.rcpt_s, self.accept_s = rcpt_s, accept_s

    async def handle_RCPT(self, server, session, envelope, address, rcpt_options):  # noqa: N802
        await asyncio.sleep(self.rcpt_s)  # the conversation's round trips before the data
        envelope.rcpt_tos.append(address)
        return "250 OK"

    async def handle_DATA(self, server, session, envelope):  # noqa: N802 - aiosmtpd's hook name
        await asyncio.sleep(self.accept_s)  # the server writing its queue file: the client waits for the 250
        for line in envelope.content.decode("utf-8", "replace").splitlines():
            if line.lower().startswith("message-id:"):
                self.ids.append(line.split(":", 1)[1].strip())
                break
        return "250 OK"


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def scratch(database_url: str, redis_url: str) -> tuple[str, str]:
    import psycopg
    import redis

    base = database_url.rsplit("/", 1)[0]
    with psycopg.connect(base + "/postgres", autocommit=True) as conn:
        conn.execute("SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = %s", (SCRATCH_PG,))
        conn.execute(f'DROP DATABASE IF EXISTS "{SCRATCH_PG}"')
        conn.execute(f'CREATE DATABASE "{SCRATCH_PG}"')
    redis_scratch = redis_url.rsplit("/", 1)[0] + f"/{SCRATCH_REDIS_DB}"
    redis.Redis.from_url(redis_scratch).flushdb()
    return base + "/" + SCRATCH_PG, redis_scratch


def start_worker(env: dict, name: str, log) -> subprocess.Popen:
    return subprocess.Popen([sys.executable, "-m", "celery", "-A", "rummy_site", "worker", "-P", "threads", "-c", "4",
                             "-l", "WARNING", "-n", f"{name}@localhost"], cwd=ROOT, env=env, stdout=log, stderr=log)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--mails", type=int, default=1000)
    parser.add_argument("--kill-after", type=int, default=300, help="e-mails received before the kill -9")
    parser.add_argument("--timeout", type=float, default=240)
    parser.add_argument("--rcpt-ms", type=float, default=4, help="the SMTP server's time before the data")
    parser.add_argument("--accept-ms", type=float, default=1, help="its time to accept the data (its 250)")
    args = parser.parse_args()
    if not (os.environ.get("DATABASE_URL") and os.environ.get("REDIS_URL")):
        sys.exit("bench.mail_kill needs DATABASE_URL and REDIS_URL (PostgreSQL and Redis)")

    import logging

    from aiosmtpd.controller import Controller

    logging.getLogger("mail.log").setLevel(logging.WARNING)  # aiosmtpd's line per SMTP command
    inbox = Inbox(args.rcpt_ms / 1000, args.accept_ms / 1000)
    smtp = Controller(inbox, hostname="127.0.0.1", port=free_port())
    smtp.start()
    database_url, redis_url = scratch(os.environ["DATABASE_URL"], os.environ["REDIS_URL"])
    env = {**os.environ, "DATABASE_URL": database_url, "REDIS_URL": redis_url, "DJANGO_ENV": "development",
           "DJANGO_SETTINGS_MODULE": "rummy_site.settings", "CELERY_TASK_ALWAYS_EAGER": "0",
           "EMAIL_HOST": "127.0.0.1", "EMAIL_PORT": str(smtp.port), "MAIL_SWEEP_SECONDS": "2",
           "MAIL_LEASE_SECONDS": "10", "CELERY_VISIBILITY_TIMEOUT": "15"}
    os.environ.update(env)
    import django

    django.setup()
    from django.core.management import call_command
    from django.db import transaction

    from accounts import notifications
    from accounts.models import Notification, User

    call_command("migrate", verbosity=0)
    users = User.objects.bulk_create([User(username=f"joueur{i}", email=f"joueur{i}@example.org")
                                      for i in range(args.mails)])
    started = time.monotonic()
    with transaction.atomic():  # queued at once, on commit
        for user in users:
            notifications.notify(user=user, kind=Notification.Kind.TURN, text="À toi de jouer (banc d'essai).",
                                 url="/tables/1/", key=f"bench:{user.pk}", mail=True)
    queued = time.monotonic() - started
    log = open(ROOT / "var" / "bench_mail_kill.log", "w")  # noqa: SIM115 - closed below
    worker = start_worker(env, "mailbench-1", log)
    deadline = time.monotonic() + args.timeout
    while len(inbox.ids) < args.kill_after and time.monotonic() < deadline:
        time.sleep(0.01)
    # At a random instant, not on the heels of an acceptance (which would land the kill in the one window where a
    # message can go twice far more often than chance).
    time.sleep(random.uniform(0, 0.1))
    os.kill(worker.pid, signal.SIGKILL)
    worker.wait()
    at_kill = len(inbox.ids)
    killed_at = time.monotonic()
    worker = start_worker(env, "mailbench-2", log)
    while time.monotonic() < deadline:
        if not Notification.objects.filter(mail=Notification.Mail.PENDING).exists():
            break
        time.sleep(0.2)
    done = time.monotonic()
    time.sleep(3)  # anything sent twice late would show now
    worker.terminate()
    worker.wait(timeout=30)
    log.close()
    smtp.stop()

    expected = {f"<notification-{pk}@127.0.0.1>" for pk in Notification.objects.values_list("pk", flat=True)}
    counts = Counter(inbox.ids)
    duplicates = sum(n - 1 for n in counts.values() if n > 1)
    missing = len(expected - set(counts))
    pending = Notification.objects.filter(mail=Notification.Mail.PENDING).count()
    print(f"{args.mails} e-mails queued in {queued:.2f} s; SMTP server {args.rcpt_ms:g} ms before the data, "
          f"{args.accept_ms:g} ms to accept them; worker killed (-9) after {at_kill} received, started again")
    print(f"received {len(inbox.ids)}: distinct {len(counts)}, duplicates {duplicates}, missing {missing}, "
          f"still pending {pending}")
    print(f"all sent {done - started:.1f} s after queueing ({done - killed_at:.1f} s after the kill; "
          f"the killed worker's claims wait for their 10 s lease)")
    # A message whose data the server had taken when the worker died (at most one per worker thread: 4) is sent
    # again after its lease, with the same Message-ID; anything more, or anything missing, is a failure.
    sys.exit(0 if duplicates <= 4 and missing == 0 else 1)


if __name__ == "__main__":
    main()
