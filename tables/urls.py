from django.urls import path

from tables import views

app_name = "tables"

urlpatterns = [
    path("", views.lobby, name="lobby"),
    path("nouvelle/", views.table_new, name="new"),
    path("rapide/", views.table_quick, name="quick"),
    path("mes-parties/", views.my_games, name="my_games"),
    path("invitation/<str:token>/", views.table_invite, name="invite"),
    path("inviter/", views.friend_invite, name="invite_friend"),
    path("<int:table_id>/", views.table_page, name="table"),
    path("<int:table_id>/regarder/", views.table_watch, name="watch"),
    path("<int:table_id>/revoir/", views.table_replays, name="replays"),
    path("<int:table_id>/revoir/<int:number>/", views.table_replay, name="replay"),
    path("<int:table_id>/revoir/<int:number>/rejouer/", views.table_practice, name="practice"),
    path("<int:table_id>/revoir/partie.txt", views.table_export, {"kind": "txt"}, name="export_text"),
    path("<int:table_id>/revoir/partie.json", views.table_export, {"kind": "json"}, name="export_json"),
    path("importer/", views.match_import, name="import"),
    path("importees/<int:pk>/", views.imported_replays, name="imported"),
    path("importees/<int:pk>/<int:number>/", views.imported_replay, name="imported_round"),
    path("importees/<int:pk>/supprimer/", views.imported_delete, name="imported_delete"),
    path("<int:table_id>/rejoindre/", views.table_join, name="join"),
    path("<int:table_id>/commencer/", views.table_start, name="start"),
    path("<int:table_id>/quitter/", views.table_leave, name="leave"),
    path("<int:table_id>/action/", views.table_action, name="action"),
    path("<int:table_id>/masquer/", views.chat_mute, name="mute"),
    path("<int:table_id>/revanche/", views.table_rematch, name="rematch"),
    path("<int:table_id>/revanche/accepter/", views.table_rematch_accept, name="rematch_accept"),
    path("<int:table_id>/revanche/refuser/", views.table_rematch_refuse, name="rematch_refuse"),
    path("<int:table_id>/revanche/robot/", views.table_rematch_robot, name="rematch_robot"),
    path("<int:table_id>/revanche/equipes/", views.table_rematch_teams, name="rematch_teams"),
]
