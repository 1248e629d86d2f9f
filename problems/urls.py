from django.urls import path

from problems import views

app_name = "problems"

urlpatterns = [
    path("", views.problem_index, name="index"),
    path("n/<int:problem_id>/", views.problem_page, name="problem"),
    path("n/<int:problem_id>/reponse/", views.problem_answer, name="answer"),
    path("<slug:slug>/", views.game_problems, name="game"),
    path("<slug:slug>/suivant/", views.next_problem, name="next"),
]
