"""A player's name passes for no one else: not for a bot, and not for another
player's username or display name once case, compatibility forms (NFKC) and
spaces are set aside; at sign-up and in the profile alike."""

import pytest
from django.contrib.auth import get_user_model
from django.test import Client
from django.urls import reverse
from django.utils import translation

from accounts.forms import name_refusal
from accounts.models import Profile, name_key

pytestmark = pytest.mark.django_db

PASSWORD = "dragons-fly-slowly"


def sign_up(username, email="zoe@example.com"):
    return Client().post(
        reverse("account_signup"),
        {"email": email, "username": username, "password1": PASSWORD, "password2": PASSWORD},
    )


@pytest.fixture
def queen(carol):
    carol.profile.display_name = "Dragon Queen"
    carol.profile.save()
    return carol


def test_name_key_folds_case_width_and_spaces():
    assert name_key("  ＡＬＩＣＥ ") == "alice"
    assert name_key("Dragon \t Queen") == "dragon queen"
    assert name_key("ﬁre") == "fire"  # the ligature is two letters
    assert name_key("Straße") == name_key("STRASSE")


@pytest.mark.parametrize(
    "username, error",
    [
        ("ａｌｉｃｅ", "already called"),  # full-width letters read as "alice"
        ("Alice", "already"),  # allauth's own check of usernames
        ("dragonqueen", None),
        ("robot7", "look like a bot"),
        ("Bot_2", None),
    ],
)
def test_sign_up_refuses_a_username_that_passes_for_someone(alice, queen, username, error):
    response = sign_up(username)
    users = get_user_model().objects
    if error is None:
        assert response.status_code == 302
        assert users.filter(username=username).exists()
    else:
        assert error in response.content.decode()
        assert not users.filter(email="zoe@example.com").exists()


def test_sign_up_refuses_another_players_display_name_as_username(queen):
    # Usernames take no spaces: a one-word display name is the case to catch.
    queen.profile.display_name = "Smaug"
    queen.profile.save()
    response = sign_up("SMAUG")
    assert "already called" in response.content.decode()
    assert not get_user_model().objects.filter(username="SMAUG").exists()


@pytest.mark.parametrize("name", ["ＢＯＢ", " bob ", "DRAGON   queen", "Ｄragon Queen"])
def test_the_profile_refuses_a_display_name_that_passes_for_someone(alice, bob, queen, name):
    client = Client()
    client.force_login(alice)
    response = client.post(
        reverse("profile"),
        {
            "display_name": name,
            "language": "en",
            "timezone": "UTC",
            "email_your_turn": "immediate",
            "email_reminder": "immediate",
            "email_match_events": "immediate",
            "email_invitation": "immediate",
            "reminder_hours": "24,2",
        },
    )
    assert response.status_code == 400
    assert "already called" in response.content.decode()
    assert Profile.objects.get(user=alice).display_name == ""


def test_ones_own_names_do_not_count(alice):
    assert name_refusal("ＡＬＩＣＥ", alice.pk) is None
    alice.profile.display_name = "Ali"
    alice.profile.save()
    assert name_refusal("ali", alice.pk) is None
    assert name_refusal("ali") is not None


def test_a_renamed_user_is_checked_by_the_new_name(alice):
    alice.username = "alicja"
    alice.save()
    assert name_refusal("ALICJA") is not None
    assert name_refusal("alice") is None


@pytest.mark.parametrize(
    "language, imitation, bot",
    [
        ("pl", "Inny gracz już się tak nazywa.", "Nazwa gracza nie może wyglądać jak nazwa bota."),
        ("cs", "Jiný hráč se už takto jmenuje.", "Jméno hráče nesmí vypadat jako jméno bota."),
    ],
)
def test_the_refusals_speak_polish_and_czech(alice, language, imitation, bot):
    with translation.override(language):
        assert name_refusal("Alice") == imitation
        assert name_refusal("Eve (bot)") == bot


def test_a_save_of_other_fields_reads_no_user_row(alice, django_assert_num_queries):
    profile = Profile.objects.get(user=alice)
    profile.language = "pl"
    with django_assert_num_queries(1):  # the UPDATE, no SELECT of the user
        profile.save(update_fields=["language"])
    profile.display_name = "Ala"
    profile.save(update_fields=["display_name"])
    assert Profile.objects.get(user=alice).display_key == "ala"


# -- Look-alike characters (UTS #39 confusable skeletons) ------------------------------

CYRILLIC_A = "\u0430"  # а
CYRILLIC_CAPITAL_A = "\u0410"  # А
CYRILLIC_E = "\u0435"  # е
GREEK_OMICRON = "\u03bf"  # ο


def profile_post(client, name):
    return client.post(
        reverse("profile"),
        {
            "display_name": name,
            "language": "en",
            "timezone": "UTC",
            "email_your_turn": "immediate",
            "email_reminder": "immediate",
            "email_match_events": "immediate",
            "email_invitation": "immediate",
            "reminder_hours": "24,2",
        },
    )


@pytest.mark.parametrize(
    "name, error",
    [
        (CYRILLIC_CAPITAL_A + "lice", "already called"),
        ("Alic" + CYRILLIC_E, "already called"),
        ("A\u0301lice", "already called"),  # A, combining acute accent, lice
        ("B" + GREEK_OMICRON + "t 2", "look like a bot"),
        ("B0t 2", "look like a bot"),
        ("R0B0T 10", "look like a bot"),
        ("Alicja", None),
        ("Bob the Builder", None),
    ],
)
def test_the_profile_refuses_look_alike_display_names(alice, bob, name, error):
    client = Client()
    client.force_login(bob)
    response = profile_post(client, name)
    stored = Profile.objects.get(user=bob).display_name
    if error is None:
        assert response.status_code == 302
        assert stored == name
    else:
        assert response.status_code == 400
        assert error in response.content.decode()
        assert stored == ""


@pytest.mark.parametrize(
    "username", [CYRILLIC_A + "lice", "alic" + CYRILLIC_E, "B" + GREEK_OMICRON + "t2", "b0t7"]
)
def test_sign_up_refuses_a_look_alike_username(alice, username):
    response = sign_up(username)
    assert response.status_code == 200
    assert not get_user_model().objects.filter(email="zoe@example.com").exists()


def test_look_alike_keys():
    assert name_key(CYRILLIC_A + "lice") == name_key("alice") == name_key("ALICE")
    assert name_key("rn") == name_key("m")
    assert name_key("dragon") != name_key("dragons")


def test_a_command_lists_existing_accounts_whose_names_look_alike(alice, make_user, bob):
    from io import StringIO

    from django.core.management import call_command

    impostor = make_user(CYRILLIC_A + "lice")  # taken before the rule: not through a form
    bob.profile.display_name = "B0b"
    bob.profile.save()
    out = StringIO()
    call_command("lookalike_names", stdout=out)
    text = out.getvalue()
    assert f"user {alice.pk} username 'alice'" in text
    assert f"user {impostor.pk} username '{CYRILLIC_A}lice'" in text
    assert "'bob'" not in text  # bob's own two names are one player
    assert "1 groups of look-alike names" in text


def test_the_migration_recomputes_the_keys(alice):
    from importlib import import_module

    from django.apps import apps

    Profile.objects.filter(user=alice).update(username_key="stale")
    import_module("accounts.migrations.0007_confusable_name_keys").refill_keys(apps, None)
    assert Profile.objects.get(user=alice).username_key == "alice"
