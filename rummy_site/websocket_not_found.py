"""A websocket to a path no route knows (/ws/nope/, /ws/tables/abc/, a table id beyond 64 bits): accepted and
closed at once with 4404, like an HTTP 404. Without this route Channels' URLRouter raised "No route found" and
daphne logged a traceback for every such connection, which anyone could repeat to fill the logs. The handshake
is accepted first so the client really receives the code: a close before accepting is a rejected handshake
(HTTP 403), which carries no code. Nothing is logged (daphne's access log has the path).
"""

from channels.generic.websocket import AsyncWebsocketConsumer

NOT_FOUND = 4404


class NotFoundConsumer(AsyncWebsocketConsumer):
    async def connect(self):
        await self.accept()
        await self.close(code=NOT_FOUND)

    async def receive(self, text_data=None, bytes_data=None):
        """A frame that was already on its way: ignored, the socket is closing."""
