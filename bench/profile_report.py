"""Summarise py-spy raw profiles (as `bench.load --profile PREFIX` writes them): where the server's CPU goes.

    python -m bench.profile_report /tmp/prof.site.*.txt [--top 40] [--match tables/]

Prints, over all the files given, the functions by inclusive share of the busy samples (a sample whose leaf
is an idle wait — select/epoll, a lock or queue wait, sleep — is not counted as busy) and by self share.
`--match` keeps only the functions whose file contains the given text.
"""

import argparse
import re
from collections import Counter

FRAME = re.compile(r"^(?P<func>.*?) \((?P<file>.*?)(?::\d+)?\)$")


def frames(stack: str) -> list[str]:
    out = []
    for raw in stack.split(";"):
        m = FRAME.match(raw.strip())
        out.append(f"{m['func']} ({m['file']})" if m else raw.strip())
    return out


def is_idle(leaf: str) -> bool:
    name = leaf.split(" (")[0]
    return name in {"select", "poll", "epoll", "wait", "sleep", "acquire", "_wait_for_tstate_lock",
                    "run_forever", "accept", "get", "readline", "recv_into", "_recv", "_wait"} and (
        "threading" in leaf or "selectors" in leaf or "queue" in leaf or "socket" in leaf
        or "asyncio" in leaf or "time" in leaf or "ssl" in leaf or "connection" in leaf)


def load(paths: list[str]) -> list[tuple[list[str], int]]:
    stacks = []
    for path in paths:
        with open(path, encoding="utf-8", errors="replace") as fh:
            for line in fh:
                line = line.rstrip("\n")
                if not line:
                    continue
                stack, _, count = line.rpartition(" ")
                if not count.isdigit():
                    continue
                stacks.append((frames(stack), int(count)))
    return stacks


def report(paths: list[str], top: int, match: str | None) -> None:
    stacks = load(paths)
    total = sum(n for _, n in stacks)
    busy = [(f, n) for f, n in stacks if f and not is_idle(f[-1])]
    busy_total = sum(n for _, n in busy) or 1
    inclusive: Counter = Counter()
    self_: Counter = Counter()
    for fs, n in busy:
        for name in set(fs):
            inclusive[name] += n
        self_[fs[-1]] += n
    print(f"# {len(paths)} file(s): {total} samples, {busy_total} busy ({busy_total / max(total, 1):.0%})")
    for title, counter in (("inclusive", inclusive), ("self", self_)):
        print(f"\n## {title} share of busy samples")
        shown = 0
        for name, n in counter.most_common():
            if match and match not in name:
                continue
            print(f"{n / busy_total:6.1%}  {name}")
            shown += 1
            if shown >= top:
                break


def main(argv=None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("paths", nargs="+")
    parser.add_argument("--top", type=int, default=40)
    parser.add_argument("--match", default=None, help="only functions whose file contains this text")
    args = parser.parse_args(argv)
    report(args.paths, args.top, args.match)


if __name__ == "__main__":
    main()
