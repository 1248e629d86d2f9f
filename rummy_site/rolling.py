"""A rolling restart of the daphne processes behind HAProxy, one at a time, with players at their tables.

For each server of the proxy's `daphne` backend, in turn:
1. the proxy drains it: no new connection goes to it (its open sockets and requests carry on);
2. after a short grace (a move's request in flight finishes), the proxy closes its connections a few at a time
   (`close_rate` a second): each table page reconnects at once through the proxy to another process, which sends
   it the current view (a move sent meanwhile is applied once: each carries its version). Closed all at once, the
   pages of a busy process would all come back in the same instant and wait for each other;
   then `restart` stops the process and starts the new version;
3. once the new process answers its health check, the proxy takes it back (`ready`) and sees it up.

`manage.py rolling_restart` runs it on a production machine (systemd restarts each unit); rummy_site.cluster's
Cluster runs it on its own child processes (the cross-process test and bench/rolling_update.py). The proxy is
driven through its admin socket (`stats socket … level admin` in deploy/haproxy.cfg)."""

import socket
import time
import urllib.request
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

BACKEND = "daphne"


def proxy_command(stats_socket: Path | str, command: str, timeout: float = 5) -> str:
    """One command on HAProxy's admin socket; its whole answer."""
    with socket.socket(socket.AF_UNIX) as sock:
        sock.settimeout(timeout)
        sock.connect(str(stats_socket))
        sock.sendall(command.encode() + b"\n")
        chunks = []
        while chunk := sock.recv(65536):
            chunks.append(chunk)
    return b"".join(chunks).decode()


def proxy_servers(stats_socket: Path | str, backend: str = BACKEND) -> dict[str, dict]:
    """Per server of `backend`: its status (UP, DOWN, DRAIN, MAINT…), current sessions and address."""
    text = proxy_command(stats_socket, "show stat")
    header, *rows = [line for line in text.splitlines() if line]
    names = header.lstrip("# ").split(",")
    out = {}
    for row in rows:
        values = dict(zip(names, row.split(","), strict=False))
        if values.get("pxname") == backend and values.get("svname") not in ("FRONTEND", "BACKEND"):
            out[values["svname"]] = {"status": values["status"], "sessions": int(values["scur"] or 0),
                                     "address": values.get("addr", "")}
    return out


def server_sessions(stats_socket: Path | str, server: str, backend: str = BACKEND) -> list[str]:
    """The ids of the proxy's sessions (open sockets and requests) on one server, oldest first."""
    ids = []
    for line in proxy_command(stats_socket, "show sess").splitlines():
        fields = line.split()
        if fields and f"be={backend}" in fields and f"srv={server}" in fields:
            ids.append(fields[0].rstrip(":"))
    return ids


def close_gradually(stats_socket: Path | str, server: str, rate: float, backend: str = BACKEND) -> int:
    """Close the server's sessions at the proxy, `rate` a second: each page reconnects at once, to another
    server, so the others take the pages back at a pace they keep up with rather than all in the same instant
    (and the draining process sees each socket close, as when a player leaves: his seat's count goes down)."""
    ids = server_sessions(stats_socket, server, backend)
    for session in ids:
        proxy_command(stats_socket, f"shutdown session {session}")
        time.sleep(1 / rate)
    return len(ids)


def _process(url: str) -> str | None:
    """The token of the process answering /sante/ at `url` (rummy_site.health), None if none answers."""
    try:
        with urllib.request.urlopen(url, timeout=2) as response:
            return response.headers.get("X-Process", "") if response.status == 200 else None
    except OSError:
        return None


@dataclass
class Step:
    server: str
    address: str
    drained_s: float  # from the drain to the process stopped and started again
    back_s: float  # from the drain to the proxy seeing the new process up


def rolling_restart(stats_socket: Path | str, restart: Callable[[str, str], None], *, backend: str = BACKEND,
                    servers: list[str] | None = None, grace: float = 1.0, close_rate: float = 20.0,
                    timeout: float = 60,
                    say: Callable[[str], None] = print) -> list[Step]:
    """Restart the servers of `backend` (all of them, in name order, unless `servers` names some) one at a time.
    `restart(name, address)` stops that server's process and starts it again; it may return before the new one
    answers. Raises RuntimeError, leaving the server drained, if the new process is not back within `timeout`
    (the others keep the players; the operator looks at its log)."""
    known = proxy_servers(stats_socket, backend)
    names = servers or sorted(known)
    unknown = [name for name in names if name not in known]
    if unknown:
        raise RuntimeError(f"serveurs inconnus du proxy : {', '.join(unknown)} (connus : {', '.join(sorted(known))})")
    if sum(1 for server in known.values() if server["status"].startswith("UP")) < 2:
        raise RuntimeError("moins de deux serveurs en service : en redémarrer un couperait le site")
    steps = []
    for name in names:
        address = known[name]["address"]
        start = time.monotonic()
        proxy_command(stats_socket, f"set server {backend}/{name} state drain")
        say(f"{name} ({address}) : plus de nouvelle connexion")
        time.sleep(grace)
        closed = close_gradually(stats_socket, name, close_rate, backend)
        say(f"{name} : {closed} connexions fermées ({close_rate:.0f} par seconde), redémarrage")
        before = _process(f"http://{address}/sante/")
        restart(name, address)
        stopped = time.monotonic()
        deadline = stopped + timeout
        # a new process: a restart command that returns before the old one has stopped must not count it as back
        while (now := _process(f"http://{address}/sante/")) is None or now == before:
            if time.monotonic() > deadline:
                raise RuntimeError(f"{name} ({address}) ne répond pas après son redémarrage ; il reste hors service")
            time.sleep(0.05)
        proxy_command(stats_socket, f"set server {backend}/{name} state ready")
        while not proxy_servers(stats_socket, backend)[name]["status"].startswith("UP"):
            if time.monotonic() > deadline:
                raise RuntimeError(f"le proxy ne voit pas {name} en service")
            time.sleep(0.05)
        steps.append(Step(name, address, round(stopped - start, 2), round(time.monotonic() - start, 2)))
        say(f"{name} : redémarré, de nouveau en service en {steps[-1].back_s:.1f} s")
    return steps
