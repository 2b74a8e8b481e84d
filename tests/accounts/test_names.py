"""A player's name passes for no one else: not for a bot, and not for another
player's username or display name once case, compatibility forms (NFKC) and
spaces are set aside; at sign-up and in the profile alike."""

import pytest
from django.contrib.auth import get_user_model
from django.test import Client
from django.urls import reverse
from django.utils import translation
from hypothesis import given, settings
from hypothesis import strategies as st

from accounts.forms import name_refusal
from accounts.models import Profile
from accounts.names import name_key, name_keys

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
    # As written the capital I reads as the l it resembles; in small letters, as i.
    assert name_keys("  ＡＬＩＣＥ ") == ("allce", "alice")
    assert name_key("  ＡＬＥＸ ") == "alex"
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
    assert name_key(CYRILLIC_A + "lice") == name_key("alice") == name_keys("ALICE")[1]
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


# -- Capitals, the whole confusables table, invisible characters, the bot label ---------

GREEK_CAPITAL_BETA = "\u0392"  # Β
CYRILLIC_CAPITAL_VE = "\u0412"  # В
GREEK_CAPITAL_MU = "\u039c"  # Μ
CYRILLIC_CAPITAL_EM = "\u041c"  # М
GREEK_CAPITAL_ETA = "\u0397"  # Η
GREEK_CAPITAL_EPSILON = "\u0395"  # Ε
CYRILLIC_KA = "\u043a"  # к
CYRILLIC_PALOCHKA = "\u04c0"  # Ӏ
FILLERS = ["\u3164", "\u2800", "\u115f", "\uffa0"]  # Hangul filler, blank Braille, ...


@pytest.fixture
def crowd(alice, bob, make_user):
    """alice, bob, mod (displayed "Mod Two"), henry and frank; and zed, who
    chooses a name."""
    mod = make_user("mod")
    mod.profile.display_name = "Mod Two"
    mod.profile.save()
    make_user("henry")
    make_user("frank")
    return make_user("zed")


@pytest.mark.parametrize(
    "name, error",
    [
        (GREEK_CAPITAL_BETA + "ob", "already called"),
        (CYRILLIC_CAPITAL_VE + "ob", "already called"),
        (GREEK_CAPITAL_MU + "od Two", "already called"),
        (GREEK_CAPITAL_ETA + GREEK_CAPITAL_EPSILON + "NRY", "already called"),
        ("Fran" + CYRILLIC_KA, "already called"),
        ("A" + CYRILLIC_PALOCHKA + "ice", "already called"),
        (GREEK_CAPITAL_BETA + "ot 2", "look like a bot"),
        ("Bot 2 (heuristic bot)", "look like a bot"),
        ("Bot 2 (bot heurystyczny)", "look like a bot"),
        ("Eve (heuristický bot)", "look like a bot"),
        ("Eve (R0B0T", "look like a bot"),
        *[("alice" + filler, "invisible") for filler in FILLERS],
        *[("Ann" + filler + "Smith", "invisible") for filler in FILLERS],
        ("Frankie", None),
        ("Abbot (the)", None),
    ],
)
def test_the_profile_refuses_capital_look_alikes_fillers_and_the_bot_label(crowd, name, error):
    client = Client()
    client.force_login(crowd)
    response = profile_post(client, name)
    stored = Profile.objects.get(user=crowd).display_name
    if error is None:
        assert response.status_code == 302
        assert stored == name
    else:
        assert response.status_code == 400
        assert error in response.content.decode()
        assert stored == ""


@pytest.mark.parametrize(
    "username",
    [
        GREEK_CAPITAL_BETA + "ob",
        CYRILLIC_CAPITAL_EM + "od",
        "alice\u3164",
        "Fran" + CYRILLIC_KA,
        "A" + CYRILLIC_PALOCHKA + "ice",
    ],
)
def test_sign_up_refuses_capital_look_alikes_and_fillers(crowd, username):
    response = sign_up(username)
    assert response.status_code == 200
    assert not get_user_model().objects.filter(email="zoe@example.com").exists()


def test_names_that_differ_in_case_pass_for_each_other_and_i_is_not_l(bob):
    bob.profile.display_name = "Ivan"
    bob.profile.save()
    assert name_refusal("ivan") is not None  # in small letters they read alike
    assert name_refusal("IVAN") is not None
    assert name_refusal("lvan") is not None  # a small l for the capital I
    bob.profile.display_name = "Ali"
    bob.profile.save()
    assert name_refusal("All") is None  # a small i is no l
    assert name_refusal("AIi") is not None  # but a capital I is


def test_the_refusal_of_invisible_characters_speaks_polish_and_czech():
    with translation.override("pl"):
        assert name_refusal("alice\u3164") == (
            "Nazwa gracza nie może zawierać niewidocznych ani pustych znaków."
        )
    with translation.override("cs"):
        assert name_refusal("alice\u3164") == (
            "Jméno hráče nesmí obsahovat neviditelné ani prázdné znaky."
        )


def _table_pairs() -> list[tuple[str, str]]:
    """Every pair of look-alikes of Unicode's confusables.txt (as the
    confusable-homoglyphs package ships it), without the few whose member has
    a canonical decomposition: UTS #39 decomposes (NFD) before it maps, so
    those entries never apply."""
    import unicodedata

    from confusable_homoglyphs.confusables import confusables_data

    marks = str.maketrans("", "", "\u200e\u200f")
    pairs = set()
    for char, entries in confusables_data.items():
        for entry in entries:
            a, b = char.translate(marks), entry["c"].translate(marks)
            if a and b and a != b and all(unicodedata.normalize("NFD", x) == x for x in (a, b)):
                pairs.add((min(a, b), max(a, b)))
    return sorted(pairs)


TABLE_PAIRS = _table_pairs()


def test_every_pair_of_the_confusables_table_reads_alike():
    assert len(TABLE_PAIRS) > 5000
    apart = [(a, b) for a, b in TABLE_PAIRS if name_key(a) != name_key(b)]
    assert apart == []


def test_every_look_alike_of_an_ascii_letter_or_digit_reads_as_it_in_any_case():
    """The single characters that look like an ASCII letter or digit (1,300
    and more): each, written where that letter stands in a name, passes for
    the name written with the letter, in capitals or small letters."""
    from accounts.names import prototypes

    latin = {
        source: target
        for source, target in prototypes().items()
        if len(target) == 1 and target.isascii() and target.isalnum()
    }
    assert len(latin) > 1300
    missed = []
    for source, target in latin.items():
        mine = set(name_keys(f"X{source}y"))
        if not (
            mine & set(name_keys(f"X{target}y")) and mine & set(name_keys(f"x{target}y".lower()))
        ):
            missed.append(source)
    assert missed == []


@given(
    pair=st.sampled_from(TABLE_PAIRS),
    before=st.text(st.characters(codec="ascii", categories=("L", "N", "Zs")), max_size=8),
    after=st.text(st.characters(codec="ascii", categories=("L", "N", "Zs")), max_size=8),
    swap=st.booleans(),
)
@settings(max_examples=500, deadline=None)
def test_a_name_with_a_look_alike_written_in_it_reads_as_the_name(pair, before, after, swap):
    """Property over the whole confusables table: one character of a name
    replaced by its look-alike, the name reads the same, in either case."""
    a, b = pair
    if swap:
        before, after = before.swapcase(), after.swapcase()
    assert name_key(before + a + after) == name_key(before + b + after)
    assert name_keys(before + a + after)[1] == name_keys(before + b + after)[1] or (
        # In small letters a capital may read otherwise than its look-alike
        # (the Greek capital Beta is a B, its small beta a German sharp s):
        # the reading as written still holds them together.
        name_key(before + a + after) == name_key(before + b + after)
    )


@given(name=st.text(st.characters(codec="latin-1", categories=("L", "N", "Zs")), max_size=12))
@settings(max_examples=300, deadline=None)
def test_names_differing_only_in_case_share_a_reading(name):
    assert set(name_keys(name)) & set(name_keys(name.upper())) or name.upper().casefold() != (
        name.casefold()
    )
    assert set(name_keys(name)) & set(name_keys(name.lower()))


def test_the_migration_recomputes_both_readings(alice):
    from importlib import import_module

    from django.apps import apps

    alice.profile.display_name = "AIex"
    alice.profile.save()
    Profile.objects.filter(user=alice).update(
        username_key="stale", username_lower_key="", display_key="", display_lower_key=""
    )
    import_module("accounts.migrations.0008_name_readings").refill_keys(apps, None)
    profile = Profile.objects.get(user=alice)
    assert (profile.username_key, profile.username_lower_key) == ("alice", "alice")
    assert (profile.display_key, profile.display_lower_key) == ("alex", "aiex")


def test_the_command_groups_names_by_either_reading(alice, bob, make_user):
    from io import StringIO

    from django.core.management import call_command

    bob.profile.display_name = "Ivan"
    bob.profile.save()
    small = make_user("ivan")  # reads as "Ivan" in small letters
    impostor = make_user("a" + CYRILLIC_PALOCHKA + "ice")  # reads as alice as written
    out = StringIO()
    call_command("lookalike_names", stdout=out)
    text = out.getvalue()
    assert "2 groups of look-alike names" in text
    assert f"user {small.pk} username 'ivan'" in text and f"user {bob.pk}" in text
    assert f"user {impostor.pk}" in text and f"user {alice.pk}" in text


def test_a_reading_fits_its_column_however_long_the_compatibility_form():
    from accounts.names import KEY_LENGTH

    name = "\ufdfa" * 40  # NFKC makes 18 letters of each
    assert all(len(key) <= KEY_LENGTH for key in name_keys(name))
    assert Profile._meta.get_field("display_key").max_length == KEY_LENGTH
    assert Profile._meta.get_field("username_lower_key").max_length == KEY_LENGTH
