"""The cluster shape on one machine: N daphne processes and M Celery workers on PostgreSQL + Redis, behind
HAProxy (deploy/haproxy.cfg). `manage.py serve --processes N` runs it; the cross-process tests and
`bench.chaos --cluster` start it the same way, kill its processes and look at the proxy's view of them."""

import contextlib
import os
import shutil
import signal
import socket
import ssl
import subprocess
import sys
import time
import urllib.request
from dataclasses import dataclass, field
from pathlib import Path

from rummy_site import rolling

ROOT = Path(__file__).resolve().parent.parent
TEMPLATE = ROOT / "deploy" / "haproxy.cfg"
INSTALL_HINT = "HAProxy est introuvable : « sudo apt-get install haproxy » (Debian), ou lance « make cluster »."
# HAProxy connects to the daphne processes from this address (Linux routes all of 127.0.0.0/8 to lo), and they
# trust the X-Forwarded-For of that address only (TRUSTED_PROXIES): a client reaching a daphne port directly,
# from 127.0.0.1 or elsewhere, cannot choose the address the rate limits count him under.
PROXY_SOURCE = "127.0.0.2"


def haproxy_binary() -> str | None:
    return shutil.which("haproxy") or next((p for p in ("/usr/sbin/haproxy",) if os.path.exists(p)), None)


def free_port(host: str = "127.0.0.1") -> int:
    with socket.socket() as sock:
        sock.bind((host, 0))
        return sock.getsockname()[1]


def haproxy_config(bind: str, servers: list[str], stats_socket: Path, source: str | None = None,
                   tls_cert: Path | None = None, redirect_bind: str | None = None) -> str:
    """deploy/haproxy.cfg with its `bind`, `server` and `stats socket` lines for these addresses (the servers
    connected to from `source` if given). `tls_cert`: the site is served over HTTPS with this PEM file, and plain
    HTTP on `redirect_bind` is redirected to it; without it the HTTP-to-HTTPS frontend is left out."""
    tail = f" source {source}" if source else ""
    lines, done, frontend = [], False, None
    for line in TEMPLATE.read_text().splitlines():
        stripped = line.strip()
        if line and not line[0].isspace() and not line.startswith("#"):
            frontend = stripped.split()[1] if stripped.startswith("frontend ") else None
        if frontend == "http_to_https" and tls_cert is None:
            continue  # nothing served over HTTPS: nothing to redirect
        if stripped.startswith("bind "):
            if frontend == "http_to_https":
                line = f"    bind {redirect_bind}"
            else:
                line = f"    bind {bind}" + (f" ssl crt {tls_cert} alpn http/1.1" if tls_cert else "")
        elif stripped.startswith("stats socket "):
            line = f"    stats socket {stats_socket} mode 600 level admin"
        elif stripped.startswith("server "):
            if done:
                continue
            done = True
            lines.extend(f"    server daphne{i} {address}{tail}" for i, address in enumerate(servers, 1))
            continue
        lines.append(line)
    return "\n".join(lines) + "\n"


def wait_serving(url: str, timeout: float, proc: subprocess.Popen | None = None) -> None:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if proc is not None and proc.poll() is not None:
            raise RuntimeError(f"{url}: le processus s'est arrêté au démarrage")
        # Over HTTPS the harness asks for an answer, not the certificate's trust (a test's is self-signed).
        context = ssl._create_unverified_context() if url.startswith("https") else None  # noqa: S323
        with contextlib.suppress(OSError), urllib.request.urlopen(url + "/sante/", timeout=2,
                                                                  context=context) as response:
            if response.status == 200:
                return
        time.sleep(0.05)
    raise RuntimeError(f"{url} ne répond pas")


@dataclass
class Cluster:
    """Start with start(); every process is a child of this one; stop() ends them all."""

    env: dict
    processes: int = 2
    workers: int = 1
    host: str = "127.0.0.1"
    port: int = 8000
    run_dir: Path = ROOT / "var"
    output: object = None  # a file for the children's output (default: inherited)
    daphnes: list = field(default_factory=list)  # Popen per daphne, None while killed
    daphne_ports: list = field(default_factory=list)  # default: the ports right after the proxy's
    celery: list = field(default_factory=list)
    proxy: subprocess.Popen | None = None
    tls_cert: Path | None = None  # served over HTTPS with this PEM file (certificate and key)
    redirect_port: int | None = None  # with tls_cert: plain HTTP here is redirected to HTTPS

    def __post_init__(self):
        if not self.daphne_ports:
            self.daphne_ports = [self.port + 1 + i for i in range(self.processes)]
        self.processes = len(self.daphne_ports)
        self.daphnes = [None] * self.processes
        self.celery = [None] * self.workers
        self.run_dir.mkdir(exist_ok=True)
        self.stats_socket = self.run_dir / f"haproxy-{self.port}.sock"
        self.config_path = self.run_dir / f"haproxy-{self.port}.cfg"

    @property
    def url(self) -> str:
        return f"{'https' if self.tls_cert else 'http'}://{self.host}:{self.port}"

    def daphne_url(self, index: int) -> str:
        return f"http://{self.host}:{self.daphne_ports[index]}"

    def _spawn(self, argv: list[str], **env) -> subprocess.Popen:
        return subprocess.Popen(argv, cwd=ROOT, env={**self.env, **env}, stdout=self.output,
                                stderr=subprocess.STDOUT if self.output else None)

    def start_daphne(self, index: int, timeout: float = 60) -> None:
        # No --proxy-headers (daphne would believe X-Forwarded-For from any peer): the site takes the player's
        # address from HAProxy's header only when the request comes from PROXY_SOURCE (rummy_site/proxy_headers.py).
        proc = self._spawn([sys.executable, "-m", "daphne", "-b", self.host,
                            "-p", str(self.daphne_ports[index]), "rummy_site.asgi:application"],
                           SITE_INSTANCE=f"daphne{index + 1}", TRUSTED_PROXIES=PROXY_SOURCE)
        self.daphnes[index] = proc
        wait_serving(self.daphne_url(index), timeout, proc)

    def start_worker(self, index: int) -> None:
        self.celery[index] = self._spawn([
            sys.executable, "-m", "celery", "-A", "rummy_site", "worker", "-P", "threads", "-c", "4",
            "-l", self.env.get("CELERY_LOG_LEVEL", "WARNING"), "-n", f"worker{index + 1}-{self.port}@%h",
            "--without-mingle", "--without-gossip"])

    def start_proxy(self, timeout: float = 30) -> None:
        binary = haproxy_binary()
        if binary is None:
            raise RuntimeError(INSTALL_HINT)
        servers = [f"{self.host}:{port}" for port in self.daphne_ports]
        redirect = f"{self.host}:{self.redirect_port}" if self.redirect_port else None
        self.config_path.write_text(haproxy_config(f"{self.host}:{self.port}", servers, self.stats_socket,
                                                   source=PROXY_SOURCE, tls_cert=self.tls_cert,
                                                   redirect_bind=redirect))
        check = subprocess.run([binary, "-c", "-q", "-f", str(self.config_path)], capture_output=True, text=True)
        if check.returncode:
            raise RuntimeError(f"configuration HAProxy refusée : {check.stdout}{check.stderr}")
        self.proxy = self._spawn([binary, "-W", "-db", "-f", str(self.config_path)])
        wait_serving(self.url, timeout, self.proxy)
        self.wait_servers_up(timeout)

    def start(self) -> "Cluster":
        for i in range(self.processes):
            self.start_daphne(i)
        for i in range(self.workers):
            self.start_worker(i)
        self.start_proxy()
        return self

    def children(self) -> list[subprocess.Popen]:
        return [p for p in (*self.daphnes, *self.celery, self.proxy) if p is not None]

    def kill_daphne(self, index: int) -> None:
        proc = self.daphnes[index]
        if proc is not None and proc.poll() is None:
            proc.send_signal(signal.SIGKILL)
            proc.wait()
        self.daphnes[index] = None

    def kill_worker(self, index: int) -> None:
        proc = self.celery[index]
        if proc is not None and proc.poll() is None:
            proc.send_signal(signal.SIGKILL)
            proc.wait()
        self.celery[index] = None

    def revive(self) -> list[str]:
        """Start again every daphne or worker that exited by itself (killed ones are None: not revived), as a
        service manager would (systemd's Restart=always). Celery 5.7 / kombu 5.7 workers exit with « Unrecoverable
        error: AttributeError('NoneType' object has no attribute 'hostname') » when Redis restarts under them
        while they hold unacknowledged tasks (acks_late); their tasks come back after the visibility timeout."""
        revived = []
        for i, proc in enumerate(self.daphnes):
            if proc is not None and proc.poll() is not None:
                self.start_daphne(i)
                revived.append(f"daphne{i + 1}")
        for i, proc in enumerate(self.celery):
            if proc is not None and proc.poll() is not None:
                self.start_worker(i)
                revived.append(f"worker{i + 1}")
        return revived

    def restart_daphne(self, index: int, timeout: float = 15) -> None:
        """Stop a daphne as a service manager does (SIGTERM, SIGKILL after `timeout`), start it again."""
        proc = self.daphnes[index]
        if proc is not None and proc.poll() is None:
            proc.terminate()
            try:
                proc.wait(timeout=timeout)
            except subprocess.TimeoutExpired:
                proc.kill()
                proc.wait()
        self.start_daphne(index)

    def rolling_restart(self, grace: float = 1.0, close_rate: float = 20.0,
                        say=lambda _text: None) -> list[rolling.Step]:
        """Every daphne restarted in turn, drained first through the proxy (rummy_site/rolling.py)."""
        by_address = {f"{self.host}:{port}": i for i, port in enumerate(self.daphne_ports)}
        return rolling.rolling_restart(self.stats_socket, lambda _name, address: self.restart_daphne(
            by_address[address]), grace=grace, close_rate=close_rate, say=say)

    # -- what the proxy sees (its admin socket)

    def proxy_command(self, command: str) -> str:
        return rolling.proxy_command(self.stats_socket, command)

    def servers(self) -> dict[str, dict]:
        """Per daphne server: its status (UP/DOWN…) and current sessions (open sockets and requests)."""
        return rolling.proxy_servers(self.stats_socket)

    def wait_servers_up(self, timeout: float = 30, count: int | None = None) -> None:
        want = self.processes if count is None else count
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if sum(1 for s in self.servers().values() if s["status"].startswith("UP")) >= want:
                return
            time.sleep(0.1)
        raise RuntimeError(f"HAProxy ne voit pas {want} daphne en service : {self.servers()}")

    def stop(self) -> None:
        for proc in self.children():
            if proc.poll() is None:
                proc.terminate()
        for proc in self.children():
            try:
                proc.wait(timeout=15)
            except subprocess.TimeoutExpired:
                proc.kill()
                proc.wait()
        with contextlib.suppress(FileNotFoundError):
            self.stats_socket.unlink()
