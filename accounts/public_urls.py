from django.urls import path

from accounts import public_views

urlpatterns = [
    path("joueurs/<str:pseudo>/", public_views.player_profile, name="player_profile"),
    path("classement/", public_views.leaderboards, name="leaderboards"),
    path("classement/<slug:slug>/", public_views.game_leaderboard, name="leaderboard"),
]
