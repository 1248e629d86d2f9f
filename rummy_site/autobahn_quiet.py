"""Autobahn (daphne's websocket layer) builds the arguments of a debug log line for every frame it sends or
receives — `hltype` inspects the method and colours its name with click, `hlval` colours a value — even when
debug logging is off, so the line is never written. Under load that was about 6 % of daphne's event loop
(bench/load.py under py-spy). Here those two helpers are replaced, in the two autobahn modules on the frame
path only, by ones that return their argument unformatted: a debug line, if someone turns them on, shows the
plain value instead of a coloured one.
"""


def _plain(value, *args, **kwargs):
    return value


def quiet_autobahn_debug_arguments() -> None:
    from autobahn.twisted import websocket as twisted_websocket
    from autobahn.websocket import protocol

    for module in (protocol, twisted_websocket):
        module.hltype = _plain
        module.hlval = _plain
