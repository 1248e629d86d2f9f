"""The bell's socket: one per open page of a logged-in player, told when his notifications change."""

from channels.db import database_sync_to_async
from channels.generic.websocket import AsyncWebsocketConsumer
from django.template.loader import render_to_string

from accounts import notifications


def bell_html(user_id: int) -> str:
    return render_to_string("accounts/bell.html", {"bell": notifications.bell_context(user_id)})


class BellConsumer(AsyncWebsocketConsumer):
    async def connect(self):
        user = self.scope.get("user")
        if user is None or not user.is_authenticated:
            await self.close(code=4401)
            return
        self.user_id = user.pk
        await self.channel_layer.group_add(notifications.bell_group(self.user_id), self.channel_name)
        await self.accept()
        await self.bell_changed({})  # the bell as it is now: something may have come since the page was drawn

    async def disconnect(self, code):
        if getattr(self, "user_id", None) is not None:
            await self.channel_layer.group_discard(notifications.bell_group(self.user_id), self.channel_name)

    async def receive(self, text_data=None, bytes_data=None):
        """The page sends nothing on this socket; whatever comes is ignored."""

    async def bell_changed(self, event):
        html = await database_sync_to_async(bell_html, thread_sensitive=False)(self.user_id)
        await self.send(text_data=html)
