from django.urls import path

from seasons import views

app_name = "seasons"

urlpatterns = [
    path("", views.season_index, name="index"),
    path("<slug:slug>/", views.season_current, name="current"),
    path("<slug:slug>/<int:number>/", views.season_past, name="past"),
]
