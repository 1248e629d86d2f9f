import os

from django.core.asgi import get_asgi_application
from django.urls import re_path

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "rummy_site.settings")
django_asgi_app = get_asgi_application()

from channels.auth import AuthMiddlewareStack  # noqa: E402
from channels.routing import ProtocolTypeRouter, URLRouter  # noqa: E402
from channels.security.websocket import AllowedHostsOriginValidator  # noqa: E402

from accounts.routing import websocket_urlpatterns as account_websockets  # noqa: E402
from rummy_site.autobahn_quiet import quiet_autobahn_debug_arguments  # noqa: E402
from rummy_site.embedded_worker import start_embedded_worker  # noqa: E402
from rummy_site.gc_tuning import tune_gc  # noqa: E402
from rummy_site.health import start_readiness_listener  # noqa: E402
from rummy_site.proxy_headers import ProxyHeadersMiddleware  # noqa: E402
from rummy_site.websocket_close_codes import allow_protocol_close_codes  # noqa: E402
from rummy_site.websocket_not_found import NotFoundConsumer  # noqa: E402
from tables.presence import start_heartbeat  # noqa: E402
from tables.routing import websocket_urlpatterns  # noqa: E402
from tournaments.routing import websocket_urlpatterns as tournament_websockets  # noqa: E402

# The player's address and scheme from X-Forwarded-For/-Proto, only when the peer is in TRUSTED_PROXIES.
application = ProxyHeadersMiddleware(
    ProtocolTypeRouter(
        {
            "http": django_asgi_app,
            "websocket": AllowedHostsOriginValidator(
                # Any other path is closed with 4404 (rummy_site/websocket_not_found.py), not a traceback.
                AuthMiddlewareStack(URLRouter([*websocket_urlpatterns, *account_websockets, *tournament_websockets,
                                           re_path(r"", NotFoundConsumer.as_asgi())]))
            ),
        }
    )
)

quiet_autobahn_debug_arguments()
allow_protocol_close_codes()
start_embedded_worker()
start_heartbeat()
start_readiness_listener()
tune_gc()
