from django.urls import path

from tournaments import views

app_name = "tournaments"

urlpatterns = [
    path("", views.tournament_list, name="list"),
    path("nouveau/", views.tournament_new, name="new"),
    path("<int:tournament_id>/", views.tournament_page, name="page"),
    path("<int:tournament_id>/inscription/", views.tournament_register, name="register"),
    path("<int:tournament_id>/desinscription/", views.tournament_withdraw, name="withdraw"),
    path("<int:tournament_id>/partenaire/", views.tournament_partner, name="partner"),
    path("invitation/<str:token>/", views.tournament_invite, name="invite"),
    path("joueur/<str:pseudo>/", views.player_tournaments, name="player"),
]
