"""The friend forms (accounts.friends), under « /amis/ »; the « Mes amis » page is tables.views.friends_page."""

from django.urls import path

from accounts import views

app_name = "friends"

urlpatterns = [
    path("demander/", views.friend_request, name="request"),
    path("accepter/", views.friend_accept, name="accept"),
    path("refuser/", views.friend_refuse, name="refuse"),
    path("annuler/", views.friend_cancel, name="cancel"),
    path("retirer/", views.friend_remove, name="remove"),
    path("bloquer/", views.player_block, name="block"),
    path("debloquer/", views.player_unblock, name="unblock"),
]
