from django.contrib import admin
from django.urls import include, path

from rummy_site.health import favicon, health, ready
from rummy_site.pwa import manifest
from tables import views as table_views

urlpatterns = [
    path("", table_views.home, name="home"),
    path("regles/", table_views.rules_index, name="rules_index"),
    path("regles/<slug:slug>/", table_views.rules_page, name="rules_page"),
    path("compte/", include("accounts.urls")),
    path("", include("accounts.public_urls")),  # « /joueurs/<pseudo>/ », « /classement/ »
    # « Mes amis » shows where friends play (tables); its forms are accounts' (accounts/friend_urls.py).
    path("amis/", table_views.friends_page, name="friends"),
    path("amis/", include("accounts.friend_urls")),
    path("tables/", include("tables.urls")),
    path("tournois/", include("tournaments.urls")),
    path("saisons/", include("seasons.urls")),
    path("problemes/", include("problems.urls")),
    path("admin/", admin.site.urls),
    path("sante/", health, name="health"),
    path("pret/", ready, name="ready"),
    # Browsers ask for /favicon.ico whatever the page links: the site's icon, not a 404 on every page.
    path("favicon.ico", favicon),
    path("manifest.webmanifest", manifest, name="manifest"),
]

# A bad request (400) is answered without the request in the page (rummy_site/errors.py).
handler400 = "rummy_site.errors.bad_request"
