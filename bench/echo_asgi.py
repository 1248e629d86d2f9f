"""The floor of this machine for bench.load: a bare Channels consumer served by daphne, no Django view,
no database. A frame sent on /ws/echo/<group>/ goes to every socket of that group through the configured
channel layer (the same layer as the site's mode), padded to ECHO_PAD_BYTES like a table push.

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


class EchoConsumer(AsyncWebsocketConsumer):
    async def connect(self):
        self.group = f"echo.{self.scope['url_route']['kwargs']['group']}"
        await self.channel_layer.group_add(self.group, self.channel_name)
        await self.accept()

    async def disconnect(self, code):
        await self.channel_layer.group_discard(self.group, self.channel_name)

    async def receive(self, text_data=None, bytes_data=None):
        await self.channel_layer.group_send(self.group, {"type": "echo.out", "text": (text_data or "") + PAD})

    async def echo_out(self, event):
        await self.send(text_data=event["text"])


application = ProtocolTypeRouter({
    "websocket": URLRouter([path("ws/echo/<int:group>/", EchoConsumer.as_asgi())]),
})
