from django.contrib.auth import views as auth_views
from django.urls import path

from accounts import views

app_name = "accounts"

urlpatterns = [
    path("inscription/", views.signup, name="signup"),
    path("connexion/", views.LoginView.as_view(), name="login"),
    path("deconnexion/", views.LogoutView.as_view(), name="logout"),
    path("mot-de-passe/", views.PasswordChangeView.as_view(), name="password_change"),
    path("mot-de-passe/ok/", auth_views.PasswordChangeDoneView.as_view(), name="password_change_done"),
    path("profil/", views.profile, name="profile"),
    path("son/", views.turn_sound, name="turn_sound"),
    path("notifications/", views.notifications_page, name="notifications"),
    path("notifications/<int:note_id>/", views.notification_open, name="notification"),
    path("notifications/lues/", views.notifications_read, name="notifications_read"),
    path("emails/", views.mail_preferences, name="mail_preferences"),
    path("desabonner/<str:token>/", views.unsubscribe, name="unsubscribe"),
]
