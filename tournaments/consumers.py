"""The tournament page's socket: the standings, the rounds and the player's next table, pushed when they change.
Anyone who may see the page may hold one (the standings are public); a private tournament's page is its
entrants' and its creator's."""

from channels.db import database_sync_to_async
from channels.generic.websocket import AsyncWebsocketConsumer

from tournaments import live, views


class TournamentConsumer(AsyncWebsocketConsumer):
    async def connect(self):
        self.tournament_id = int(self.scope["url_route"]["kwargs"]["tournament_id"])
        user = self.scope.get("user")
        self.user_id = user.pk if user is not None and user.is_authenticated else None
        if not await database_sync_to_async(views.may_see, thread_sensitive=False)(self.tournament_id, self.user_id):
            await self.close(code=4403)
            return
        await self.channel_layer.group_add(live.group(self.tournament_id), self.channel_name)
        await self.accept()
        await self.tournament_changed({})

    async def disconnect(self, code):
        if getattr(self, "tournament_id", None) is not None:
            await self.channel_layer.group_discard(live.group(self.tournament_id), self.channel_name)

    async def receive(self, text_data=None, bytes_data=None):
        """The page sends nothing on this socket; whatever comes is ignored."""

    async def tournament_changed(self, event):
        html = await database_sync_to_async(views.live_html, thread_sensitive=False)(self.tournament_id, self.user_id)
        if html:
            await self.send(text_data=html)
