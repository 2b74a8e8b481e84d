"""Sign-up with email verification, login, password reset, and the profile."""

import re
import zoneinfo

import pytest
from django.contrib.auth import get_user_model
from django.core import mail
from django.test import Client
from django.urls import reverse
from django.utils import timezone

pytestmark = pytest.mark.django_db


def sign_up(client, username="zoe", email="zoe@example.com", password="dragons-fly-slowly"):
    return client.post(
        reverse("account_signup"),
        {"email": email, "username": username, "password1": password, "password2": password},
    )


def link_in(message) -> str:
    return re.search(r"https?://[^\s]+", message.body).group(0)


def test_sign_up_verify_email_log_out_and_in():
    client = Client()
    response = sign_up(client)
    assert response.status_code == 302
    user = get_user_model().objects.get(username="zoe")
    assert user.profile.name == "zoe"
    assert len(mail.outbox) == 1 and mail.outbox[0].to == ["zoe@example.com"]
    assert "Hello from Smoki!" in mail.outbox[0].body
    assert "example.com!" not in mail.outbox[0].body
    # Unverified: logging in is held back until the address is confirmed.
    client.post(reverse("account_logout"))
    response = client.post(
        reverse("account_login"), {"login": "zoe", "password": "dragons-fly-slowly"}
    )
    assert "_auth_user_id" not in client.session
    confirm = link_in(mail.outbox[-1])
    client.post(confirm.split("testserver")[-1])
    assert user.emailaddress_set.get().verified
    response = client.post(
        reverse("account_login"), {"login": "zoe@example.com", "password": "dragons-fly-slowly"}
    )
    assert response.status_code == 302
    assert client.session["_auth_user_id"] == str(user.pk)
    client.post(reverse("account_logout"))
    assert "_auth_user_id" not in client.session


def test_sign_up_refuses_a_taken_username_and_bad_password(make_user):
    make_user("zoe")
    response = sign_up(Client(), username="zoe", email="other@example.com")
    assert response.status_code == 200 and "already" in response.content.decode()
    response = sign_up(Client(), username="yan", email="yan@example.com", password="123")
    assert response.status_code == 200
    assert not get_user_model().objects.filter(username="yan").exists()


def test_password_reset_sends_a_working_link(make_user):
    user = make_user("zoe")
    client = Client()
    client.post(reverse("account_reset_password"), {"email": "zoe@example.com"})
    assert len(mail.outbox) == 1
    link = link_in(mail.outbox[0]).split("testserver")[-1]
    response = client.get(link)
    form_url = response["Location"] if response.status_code == 302 else link
    response = client.post(
        form_url, {"password1": "a-new-dragon-pass", "password2": "a-new-dragon-pass"}
    )
    assert response.status_code == 302
    user.refresh_from_db()
    assert user.check_password("a-new-dragon-pass")


def test_profile_saves_preferences_and_they_apply(make_user):
    user = make_user("zoe")
    client = Client()
    client.force_login(user)
    assert client.get(reverse("profile")).status_code == 200
    response = client.post(
        reverse("profile"),
        {
            "display_name": "Zoë",
            "language": "pl",
            "timezone": "Europe/Warsaw",
        },
    )
    assert response.status_code == 302
    user.profile.refresh_from_db()
    assert (user.profile.display_name, user.profile.language, user.profile.timezone) == (
        "Zoë",
        "pl",
        "Europe/Warsaw",
    )
    response = client.get("/")
    assert response["Content-Language"] == "pl"
    assert "Zoë" in response.content.decode()
    # The confirmation speaks the language just chosen, not the one left behind.
    page = response.content.decode()
    assert "Profil został zapisany." in page
    assert "Your profile was saved." not in page
    assert timezone.get_current_timezone() == zoneinfo.ZoneInfo("UTC"), "zone is per request"


def test_profile_refuses_unknown_choices(make_user):
    user = make_user("zoe")
    client = Client()
    client.force_login(user)
    response = client.post(
        reverse("profile"),
        {"language": "xx", "timezone": "Mars/Olympus", "email_your_turn": "always"},
    )
    assert response.status_code == 400
    user.profile.refresh_from_db()
    assert (user.profile.language, user.profile.timezone) == ("en", "UTC")


def test_profile_needs_login():
    response = Client().get(reverse("profile"))
    assert response.status_code == 302 and "/accounts/login/" in response["Location"]


def test_the_site_allauth_names_is_smoki_at_the_served_address():
    from django.contrib.sites.models import Site

    site = Site.objects.get_current()
    assert site.name == "Smoki"
    assert site.domain == "127.0.0.1:8000"  # SITE_URL's default
