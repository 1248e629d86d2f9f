from django.urls import path

from accounts.consumers import BellConsumer

websocket_urlpatterns = [
    path("ws/notifications/", BellConsumer.as_asgi()),
]
