"""Daphne closes a socket through autobahn's `sendClose`, which takes only 1000 and 3000–4999 (the codes an
application defines) and raises on any other. RFC 6455 §7.4.1 lets an endpoint send the protocol's own codes
too, and the site closes a flooding socket with 1008 (policy violation): before this, that close raised inside
the consumer and the socket was dropped without a proper close. The protocol's codes now go through autobahn's
`sendCloseFrame`, which sends the frame and runs the closing handshake as `sendClose` does after its check.
"""

PROTOCOL_CODES = frozenset({1001, 1002, 1003, 1007, 1008, 1009, 1010, 1011})


def allow_protocol_close_codes() -> None:
    from daphne.ws_protocol import WebSocketProtocol

    original = WebSocketProtocol.serverClose
    if getattr(original, "allows_protocol_codes", False):
        return

    def server_close(self, code=None):
        if code in PROTOCOL_CODES:
            self.sendCloseFrame(code=code, isReply=False)
        else:
            original(self, code)

    server_close.allows_protocol_codes = True
    WebSocketProtocol.serverClose = server_close
