from django.urls import path

from tables import converters  # noqa: F401  registers <id64:…>
from tables.consumers import TableConsumer

websocket_urlpatterns = [
    path("ws/tables/<id64:table_id>/", TableConsumer.as_asgi()),
]
