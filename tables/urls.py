from django.urls import path

from tables import views

app_name = "tables"

urlpatterns = [
    path("", views.lobby, name="lobby"),
    path("nouvelle/", views.table_new, name="new"),
    path("rapide/", views.table_quick, name="quick"),
    path("invitation/<str:token>/", views.table_invite, name="invite"),
    path("<int:table_id>/", views.table_page, name="table"),
    path("<int:table_id>/regarder/", views.table_watch, name="watch"),
    path("<int:table_id>/revoir/", views.table_replays, name="replays"),
    path("<int:table_id>/revoir/<int:number>/", views.table_replay, name="replay"),
    path("<int:table_id>/rejoindre/", views.table_join, name="join"),
    path("<int:table_id>/commencer/", views.table_start, name="start"),
    path("<int:table_id>/quitter/", views.table_leave, name="leave"),
    path("<int:table_id>/action/", views.table_action, name="action"),
]
