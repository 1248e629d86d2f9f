from django import forms
from django.contrib.auth import authenticate, password_validation
from django.contrib.auth.forms import AuthenticationForm, PasswordChangeForm

from accounts.models import User


class SignupForm(forms.Form):
    username = forms.CharField(
        label="Pseudo",
        min_length=3,
        max_length=30,
        help_text="De 3 à 30 caractères : lettres, chiffres et . _ -",
        widget=forms.TextInput(attrs={"autocomplete": "username", "autofocus": True}),
    )
    email = forms.EmailField(label="E-mail (facultatif)", required=False,
                             widget=forms.EmailInput(attrs={"autocomplete": "email"}))
    password1 = forms.CharField(label="Mot de passe", strip=False,
                                widget=forms.PasswordInput(attrs={"autocomplete": "new-password"}),
                                help_text="Au moins 8 caractères, pas uniquement des chiffres.")
    password2 = forms.CharField(label="Confirme le mot de passe", strip=False,
                                widget=forms.PasswordInput(attrs={"autocomplete": "new-password"}))

    def clean_username(self):
        username = self.cleaned_data["username"]
        if not all(ch.isalnum() or ch in "._-" for ch in username):
            raise forms.ValidationError("Le pseudo ne peut contenir que des lettres, des chiffres et . _ -")
        if User.objects.filter(username__iexact=username).exists():
            raise forms.ValidationError("Ce pseudo est déjà pris.")
        return username

    def clean(self):
        cleaned = super().clean()
        p1, p2 = cleaned.get("password1"), cleaned.get("password2")
        if p1 and p2 and p1 != p2:
            self.add_error("password2", "Les deux mots de passe ne correspondent pas.")
        if p1:
            candidate = User(username=cleaned.get("username", ""), email=cleaned.get("email", ""))
            try:
                password_validation.validate_password(p1, candidate)
            except forms.ValidationError as error:
                self.add_error("password1", error)
        return cleaned


class LoginForm(AuthenticationForm):
    error_messages = {
        "invalid_login": "Pseudo ou mot de passe incorrect.",
        "inactive": "Ce compte est désactivé.",
    }

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["username"].label = "Pseudo"
        self.fields["password"].label = "Mot de passe"


class PasswordChangeCheckedForm(PasswordChangeForm):
    """The old password goes through authenticate(), as a login does: the login limits (accounts/lockout.py)
    count its failures and refuse it while a lock-out holds, instead of a check_password() that nothing limits."""

    error_messages = {
        **PasswordChangeForm.error_messages,
        "password_incorrect": "Ton mot de passe actuel est incorrect.",
    }

    def __init__(self, user, *args, request=None, **kwargs):
        self.request = request
        super().__init__(user, *args, **kwargs)
        self.fields["old_password"].label = "Mot de passe actuel"

    def clean_old_password(self):
        old_password = self.cleaned_data["old_password"]
        checked = authenticate(self.request, username=self.user.get_username(), password=old_password)
        if checked is None or checked.pk != self.user.pk:
            raise forms.ValidationError(self.error_messages["password_incorrect"], code="password_incorrect")
        return old_password


class MailPreferencesForm(forms.ModelForm):
    """The profile's « E-mails »: the address, and which slow cases are mailed (accounts.notifications.MAILED)."""

    class Meta:
        model = User
        fields = ["email", "mail_turn", "mail_reminder", "mail_invitation"]
        labels = {
            "email": "Adresse e-mail",
            "mail_turn": "Quand c'est à moi de jouer dans une partie lente",
            "mail_reminder": "Un rappel avant la fin de mon temps dans une partie lente",
            "mail_invitation": "Quand on m'invite à une table",
        }
        help_texts = {"email": "Laisse vide pour ne recevoir aucun e-mail."}
