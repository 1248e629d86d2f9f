from django import forms
from django.contrib.auth import password_validation
from django.contrib.auth.forms import AuthenticationForm

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
