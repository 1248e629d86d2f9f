"""The web app manifest: « Ajouter à l'écran d'accueil » on a phone opens the site full screen, with its name,
its colours and its icons (static/icons/, drawn by `make static-icons`). No offline play: no service worker."""

from django.http import JsonResponse
from django.templatetags.static import static
from django.views.decorators.cache import cache_control

FELT_DARK = "#0a4229"  # static/css/site.css --felt-dark: the header's colour


@cache_control(max_age=86400, public=True)
def manifest(request):
    icons = [{"src": static(f"icons/app-{size}.png"), "sizes": f"{size}x{size}", "type": "image/png",
              "purpose": "any"} for size in (192, 512)]
    icons.append({"src": static("icons/app-512.png"), "sizes": "512x512", "type": "image/png", "purpose": "maskable"})
    data = {
        "name": "Cartes & Rami",
        "short_name": "Cartes & Rami",
        "description": "Rami, Gin Rami, Thanasis, Canasta, Rummikub et Thunee en ligne, avec tes amis ou contre des"
                       " robots.",
        "lang": "fr",
        "dir": "ltr",
        "id": "/",
        "start_url": "/tables/",
        "scope": "/",
        "display": "standalone",
        "orientation": "any",
        "background_color": FELT_DARK,
        "theme_color": FELT_DARK,
        "icons": icons,
    }
    return JsonResponse(data, content_type="application/manifest+json", json_dumps_params={"ensure_ascii": False})
