"""Bad input is a clear 4xx that changes nothing, never a 500: NUL bytes,
digits Python reads but ``int`` cannot, huge numbers, names that break email
headers or pass for someone else, and HTTP methods the site has none of."""

import pytest
from django.contrib.auth.models import Group
from django.core import mail
from django.test import Client
from django.urls import reverse

from accounts.models import Profile
from games.correspondence import delivery
from games.lobby import invitations
from games.lobby import services as lobby
from games.models import ChatMessage, Invitation, Notification, NotificationKind, Report
from games.play import chat

pytestmark = pytest.mark.django_db


def client_for(user):
    client = Client()
    client.force_login(user)
    return client


@pytest.fixture
def message(started_match, bob):
    return chat.post_message(bob, started_match, "hello")


# -- NUL bytes -----------------------------------------------------------------------------


def test_a_nul_in_an_invite_link_is_an_unknown_invitation(started_match):
    response = Client().get(f"/invite/{started_match.invite_token}%00/")
    assert response.status_code == 404
    assert "not valid" in response.content.decode()


def test_a_nul_in_the_token_of_a_match_page_is_refused(started_match):
    url = reverse("match_detail", args=[started_match.pk])
    response = Client().get(url, {"token": "abc\x00"})
    assert response.status_code == 400
    assert "not allowed" in response.content.decode()


@pytest.mark.parametrize(
    "url_name, data",
    [
        ("match_chat", {"text": "hi\x00there"}),
        ("match_report", {"reason": "rude\x00words here"}),
        ("match_report", {"reason": "rude words here", "player": "bob\x00"}),
        ("match_join", {"token": "\x00"}),
        ("match_invite", {"username": "carol\x00"}),
    ],
)
def test_a_nul_in_a_form_is_a_400_that_changes_nothing(started_match, alice, url_name, data):
    before = (ChatMessage.objects.count(), Report.objects.count(), Invitation.objects.count())
    response = client_for(alice).post(reverse(url_name, args=[started_match.pk]), data)
    assert response.status_code == 400
    assert "not allowed" in response.content.decode()
    after = (ChatMessage.objects.count(), Report.objects.count(), Invitation.objects.count())
    assert after == before


# -- Digits and huge numbers --------------------------------------------------------------------


@pytest.mark.parametrize("message_id", ["²", "٣", "1²", "9" * 40, "-1", "0", ""])
def test_a_report_about_an_unreadable_message_id_is_refused(
    started_match, alice, message, message_id
):
    response = client_for(alice).post(
        reverse("match_report", args=[started_match.pk]),
        {"reason": "rude words", "message": message_id},
    )
    assert response.status_code == 400
    assert "could not be found" in response.content.decode()
    assert not Report.objects.exists()


def test_a_report_about_a_real_message_is_taken(started_match, alice, message):
    response = client_for(alice).post(
        reverse("match_report", args=[started_match.pk]),
        {"reason": "rude words", "message": str(message.pk)},
    )
    assert response.status_code == 302
    assert Report.objects.get().message == message


@pytest.mark.parametrize("hours", ["²", "24,²", "٣", "9" * 30])
def test_reminder_hours_take_ascii_digits_only(alice, hours):
    response = client_for(alice).post(
        reverse("notification_settings"),
        {
            "email_your_turn": "immediate",
            "email_reminder": "immediate",
            "email_match_events": "immediate",
            "email_invitation": "immediate",
            "reminder_hours": hours,
        },
    )
    assert response.status_code == 400
    assert "whole hours" in response.content.decode()
    assert Profile.objects.get(user=alice).reminder_hours == "24,2"


def test_stored_reminder_hours_with_other_digits_are_ignored(alice):
    alice.profile.reminder_hours = "²,24"
    assert alice.profile.reminder_offsets() == [24]


@pytest.fixture
def moderator_client(make_user):
    moderator = make_user("mod")
    moderator.is_staff = True
    moderator.save()
    moderator.groups.add(Group.objects.get(name="moderator"))
    return client_for(moderator)


@pytest.mark.parametrize("stale", ["²", "٣", "9" * 30, "99999999", "0", "abc"])
def test_the_desks_stale_filter_refuses_what_is_not_a_number_of_days(
    moderator_client, started_match, stale
):
    response = moderator_client.get(reverse("admin:games_match_changelist"), {"stale": stale})
    assert response.status_code == 400


def test_the_desks_stale_filter_works_with_days(moderator_client, started_match):
    url = reverse("admin:games_match_changelist")
    assert f"/{started_match.pk}/" in moderator_client.get(url).content.decode()
    response = moderator_client.get(url, {"stale": "7"})
    assert response.status_code == 200
    assert f"/admin/games/match/{started_match.pk}/" not in response.content.decode()


@pytest.mark.parametrize("pk", ["99999999999999999999", "9223372036854775808"])
def test_huge_ids_in_addresses_are_not_found(alice, moderator_client, pk):
    assert client_for(alice).get(f"/m/{pk}/").status_code == 404
    assert client_for(alice).post(f"/m/{pk}/chat/", {"text": "hi"}).status_code == 404
    assert moderator_client.get(f"/admin/games/match/{pk}/moderate/abort/").status_code == 404


def test_a_huge_version_is_refused(started_match, alice):
    response = client_for(alice).post(
        reverse("match_act", args=[started_match.pk]),
        {"action": '{"type": "roll"}', "version": "9" * 40},
    )
    assert response.status_code == 400


# -- Display names --------------------------------------------------------------------------


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
        ("Eve\nBcc: all@example.com", "one line"),
        ("Eve\rX", "one line"),
        ("Eve\u2028X", "one line"),
        ("Eve\x07", "one line"),
        ("Eve (bot)", "look like a bot"),
        ("eve (BOT)", "look like a bot"),
        ("Bot 2", "look like a bot"),
        ("bob", "already called"),
        ("BOB", "already called"),
        ("Carol the Great", "already called"),
    ],
)
def test_display_names_are_one_line_and_pass_for_nobody_else(alice, bob, carol, name, error):
    carol.profile.display_name = "Carol the Great"
    carol.profile.save()
    response = profile_post(client_for(alice), name)
    assert response.status_code == 400
    assert error in response.content.decode()
    assert Profile.objects.get(user=alice).display_name == ""


@pytest.mark.parametrize(
    "name, saved", [("  Alice   of   Krakow ", "Alice of Krakow"), ("alice", "alice"), ("", "")]
)
def test_display_names_are_trimmed(alice, bob, name, saved):
    response = profile_post(client_for(alice), name)
    assert response.status_code == 302
    assert Profile.objects.get(user=alice).display_name == saved


def test_an_invitation_from_a_name_saved_with_a_line_break_still_sends(alice, bob, make_user):
    Profile.objects.filter(user=alice).update(display_name="Alice\nBcc: all@example.com")
    alice.refresh_from_db()
    match = lobby.create_match(user=alice, game_key="nogi", n_seats=3)
    invitations.invite_user(user=alice, match=match, username="bob")
    row = Notification.objects.get(user=bob, kind=NotificationKind.INVITATION)
    mail.outbox.clear()
    delivery.deliver(row.pk)
    (sent,) = mail.outbox
    assert "\n" not in sent.subject and "Alice Bcc: all@example.com invites you" in sent.subject
    assert "Bcc" not in sent.message()


# -- Methods ----------------------------------------------------------------------------------


@pytest.mark.parametrize("method", ["put", "delete", "patch"])
def test_put_delete_and_patch_are_not_allowed_anywhere(started_match, alice, method):
    client = client_for(alice)
    pk = started_match.pk
    for url in [
        "/",
        "/matches/new/",
        f"/m/{pk}/",
        f"/m/{pk}/act/",
        f"/m/{pk}/chat/",
        f"/m/{pk}/report/",
        "/profile/",
        "/profile/vacation/",
        "/notifications/",
        "/accounts/login/",
        "/accounts/password/change/",
        "/admin/",
        f"/invite/{started_match.invite_token}/",
        "/unsubscribe/x/",
    ]:
        response = getattr(client, method)(url)
        assert response.status_code == 405, (method, url)


@pytest.mark.parametrize(
    "url", ["/", "/healthz", "/notifications/", "/m/{pk}/", "/m/{pk}/log/", "/invite/{token}/"]
)
def test_reading_pages_refuse_post(started_match, alice, url):
    url = url.format(pk=started_match.pk, token=started_match.invite_token)
    assert client_for(alice).post(url).status_code == 405


def test_a_non_ascii_invite_token_is_no_token(alice, make_user):
    """Found by the fuzzer: comparing such a token in constant time raised."""
    match = lobby.create_match(user=alice, game_key="nogi", n_seats=3, visibility="private")
    dave = client_for(make_user("dave"))
    assert dave.get(reverse("match_detail", args=[match.pk]), {"token": "²"}).status_code == 404
    response = dave.post(reverse("match_join", args=[match.pk]), {"token": "²"})
    assert response.status_code == 404
    assert match.seats.count() == 1


@pytest.mark.parametrize("ids", ["²", "1,٣", "9" * 30, "x,,"])
def test_the_resend_page_ignores_ids_that_are_not_numbers(moderator_client, ids):
    """Found by the fuzzer: "²".isdigit() is true but int("²") fails."""
    url = reverse("admin:games_notification_resend") + "?ids=" + ids
    response = moderator_client.get(url)
    assert response.status_code == 200
    assert "None of the selected emails has failed." in response.content.decode()
    assert moderator_client.post(url, {"reason": "x", "confirm": "on"}).status_code < 500


@pytest.mark.parametrize("pk", ["²", "٣", "9" * 30])
def test_the_desks_match_page_with_an_id_that_is_not_a_number_is_not_found(
    moderator_client, started_match, pk
):
    """Found by the fuzzer: the desk's match page read "²" as an id."""
    url = f"/admin/games/match/{pk}/change/"
    assert moderator_client.get(url).status_code == 404
    assert moderator_client.post(url, {"x": "1"}).status_code == 404


# -- Bytes that are not UTF-8 -------------------------------------------------------------

FORM = "application/x-www-form-urlencoded"


@pytest.mark.parametrize(
    "body",
    [b"text=\xff\xfe", b"text=%FF%FE", b"text=caf%E9", b"te%FFxt=hello", b"text=ok\xc3"],
    ids=["raw", "escaped", "latin-1", "in-the-name", "cut-short"],
)
def test_a_chat_post_that_is_not_utf8_is_a_400_that_stores_nothing(started_match, alice, body):
    url = reverse("match_chat", args=[started_match.pk])
    response = client_for(alice).post(url, body, content_type=FORM)
    assert response.status_code == 400
    assert "not valid UTF-8" in response.content.decode()
    assert not ChatMessage.objects.exists()


def test_a_multipart_post_that_is_not_utf8_is_refused(started_match, alice):
    boundary = "smokiboundary"
    body = (
        f'--{boundary}\r\nContent-Disposition: form-data; name="text"\r\n\r\n'.encode()
        + b"\xff\xfe hello\r\n"
        + f"--{boundary}--\r\n".encode()
    )
    url = reverse("match_chat", args=[started_match.pk])
    response = client_for(alice).post(
        url, body, content_type=f"multipart/form-data; boundary={boundary}"
    )
    assert response.status_code == 400
    assert not ChatMessage.objects.exists()


def _multipart(boundary: str, *parts: tuple[bytes, bytes]) -> bytes:
    """A multipart body of (part headers, part content) pairs."""
    body = b""
    for headers, content in parts:
        body += f"--{boundary}\r\n".encode() + headers + b"\r\n\r\n" + content + b"\r\n"
    return body + f"--{boundary}--\r\n".encode()


TEXT = b'Content-Disposition: form-data; name="text"'


@pytest.mark.parametrize(
    "parts, charset",
    [
        # A real replacement character in another field hid the bad bytes.
        (
            [
                (TEXT, b"\xff\xfe hello"),
                (b'Content-Disposition: form-data; name="x"', "\ufffd".encode()),
            ],
            "",
        ),
        ([(TEXT, "\ufffd ok ".encode() + b"\xff\xfe")], ""),
        # The request says its form is Latin-1: Django then reads the bytes as that.
        ([(TEXT, b"\xff\xfe hello")], "; charset=iso-8859-1"),
        ([(TEXT, "caf\u00e9".encode())], "; charset=latin-1"),
        # The field sent in base64, decoding to bytes that are not UTF-8.
        ([(TEXT + b"\r\nContent-Transfer-Encoding: base64", b"//4gaGVsbG8=")], ""),
        # The field's name given in RFC 2231 form with a byte that is not UTF-8.
        ([(b"Content-Disposition: form-data; name*=utf-8''te%FFxt", b"hello")], ""),
    ],
    ids=[
        "bad-bytes-beside-a-real-replacement-character",
        "bad-bytes-after-a-real-replacement-character",
        "declared-latin-1",
        "declared-latin-1-valid-bytes",
        "base64-field",
        "rfc2231-name",
    ],
)
def test_a_multipart_post_with_bytes_that_are_not_utf8_is_refused_however_sent(
    started_match, alice, parts, charset
):
    boundary = "smokiboundary"
    url = reverse("match_chat", args=[started_match.pk])
    # generic(): post() would re-encode a body whose type names a charset.
    response = client_for(alice).generic(
        "POST",
        url,
        _multipart(boundary, *parts),
        content_type=f"multipart/form-data; boundary={boundary}{charset}",
    )
    assert response.status_code == 400
    assert "not valid UTF-8" in response.content.decode()
    assert not ChatMessage.objects.exists()


def test_a_multipart_post_in_utf8_is_taken_replacement_character_and_all(started_match, alice):
    boundary = "smokiboundary"
    url = reverse("match_chat", args=[started_match.pk])
    parts = [(TEXT, "caf\u00e9 \ufffd \u2013 ok".encode())]
    for charset in ("", "; charset=UTF-8", "; charset=utf8"):
        response = client_for(alice).generic(
            "POST",
            url,
            _multipart(boundary, *parts),
            content_type=f"multipart/form-data; boundary={boundary}{charset}",
        )
        assert response.status_code == 302, charset
    assert (
        list(ChatMessage.objects.values_list("text", flat=True))
        == ["caf\u00e9 \ufffd \u2013 ok"] * 3
    )


def test_a_form_declared_in_another_charset_is_refused_and_utf8_taken(started_match, alice):
    url = reverse("match_chat", args=[started_match.pk])
    body = b"text=caf%C3%A9"
    latin = client_for(alice).generic("POST", url, body, content_type=f"{FORM}; charset=latin-1")
    assert latin.status_code == 400
    assert not ChatMessage.objects.exists()
    utf8 = client_for(alice).generic("POST", url, body, content_type=f"{FORM}; charset=UTF-8")
    assert utf8.status_code == 302
    assert list(ChatMessage.objects.values_list("text", flat=True)) == ["caf\u00e9"]


def test_a_real_replacement_character_is_kept(started_match, alice):
    """U+FFFD typed on purpose is valid UTF-8, sent either way."""
    url = reverse("match_chat", args=[started_match.pk])
    assert client_for(alice).post(url, {"text": "what \ufffd is"}).status_code == 302
    assert client_for(alice).post(url, "text=%EF%BF%BD", content_type=FORM).status_code == 302
    assert ChatMessage.objects.count() == 2


@pytest.mark.parametrize(
    "url, data",
    [
        ("account_login", b"login=al%FFice&password=x"),
        ("account_signup", b"email=z%40example.com&username=z%FF&password1=x&password2=x"),
        (
            "profile",
            b"display_name=%FFname&language=en&timezone=UTC&email_your_turn=immediate"
            b"&email_reminder=immediate&email_match_events=immediate"
            b"&email_invitation=immediate&reminder_hours=24",
        ),
    ],
)
def test_every_form_refuses_bytes_that_are_not_utf8(alice, url, data):
    before = (Profile.objects.get(user=alice).display_name, Profile.objects.count())
    response = client_for(alice).post(reverse(url), data, content_type=FORM)
    assert response.status_code == 400
    assert (Profile.objects.get(user=alice).display_name, Profile.objects.count()) == before


def test_a_query_that_is_not_utf8_is_refused(started_match):
    response = Client().get(reverse("lobby") + "?q=%FF")
    assert response.status_code == 400


def test_a_nul_in_an_api_address_is_a_json_404_that_asks_the_database_nothing(
    alice, django_assert_num_queries
):
    """``/api/v1/ladders/%00/leave`` was a 500 on PostgreSQL, which refuses a
    NUL in a query's text (the API fuzzer's finding): no name the API serves
    holds one."""
    client = Client()
    with django_assert_num_queries(0):
        response = client.post("/api/v1/ladders/%00/leave")
    assert response.status_code == 404
    assert response.json()["error"]["code"] == "not_found"
