"""The floor of this machine for bench.load: a bare Channels consumer served by daphne, no Django view,
no database. A frame sent on /ws/echo/<group>/ goes to every socket of that group through the configured
channel layer (the same layer as the site's mode), padded to ECHO_PAD_BYTES like a table push.
ECHO_FANOUT=seats sends one message per socket instead of one per group, as the site did until every seat's
render of a move travelled in one message to the table (tables.broadcast): four channel-layer messages a move.

    daphne bench.echo_asgi:application
"""

import os

import django

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "rummy_site.settings")
django.setup()

from channels.generic.websocket import AsyncWebsocketConsumer  # noqa: E402
from channels.routing import ProtocolTypeRouter, URLRouter  # noqa: E402
from django.urls import path  # noqa: E402

PAD = " " + "x" * max(0, int(os.environ.get("ECHO_PAD_BYTES", "15000")) - 1)
PER_SEAT = os.environ.get("ECHO_FANOUT", "group") == "seats"
MEMBERS: dict[str, set[str]] = {}  # group -> this process's channels in it (the bench runs one daphne)


class EchoConsumer(AsyncWebsocketConsumer):
    async def connect(self):
        self.group = f"echo.{self.scope['url_route']['kwargs']['group']}"
        await self.channel_layer.group_add(self.group, self.channel_name)
        MEMBERS.setdefault(self.group, set()).add(self.channel_name)
        await self.accept()

    async def disconnect(self, code):
        await self.channel_layer.group_discard(self.group, self.channel_name)
        MEMBERS.get(self.group, set()).discard(self.channel_name)

    async def receive(self, text_data=None, bytes_data=None):
        message = {"type": "echo.out", "text": (text_data or "") + PAD}
        if PER_SEAT:
            for channel in sorted(MEMBERS.get(self.group, ())):
                await self.channel_layer.send(channel, message)
        else:
            await self.channel_layer.group_send(self.group, message)

    async def echo_out(self, event):
        await self.send(text_data=event["text"])


application = ProtocolTypeRouter({
    "websocket": URLRouter([path("ws/echo/<int:group>/", EchoConsumer.as_asgi())]),
})
