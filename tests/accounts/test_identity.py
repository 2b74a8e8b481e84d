"""A player's identity: picture (re-encoded, metadata stripped, bombs
refused), identicon, country and bio, edited on the profile page and shown
on the player page; the desk removes a picture or a bio, audited."""

from __future__ import annotations

from io import BytesIO

import pytest
from django.contrib.auth.models import Group
from django.core.files.uploadedfile import SimpleUploadedFile
from django.test import Client
from django.urls import reverse
from PIL import Image

from accounts import pictures
from accounts.identicon import identicon_svg
from accounts.models import Profile
from games.models import ModerationAction

pytestmark = pytest.mark.django_db

SECRET_MAKE = "SecretCameraMaker"


def _photo(size=(640, 480), fmt="JPEG", name="photo.jpg") -> SimpleUploadedFile:
    """A photo with EXIF (the camera's make, a GPS block) as a phone writes it."""
    image = Image.new("RGB", size, (200, 30, 30))
    exif = Image.Exif()
    exif[0x010F] = SECRET_MAKE  # Make
    exif[0x8825] = {1: "N", 2: (50.0, 3.0, 0.0)}  # GPS
    out = BytesIO()
    image.save(out, fmt, exif=exif.tobytes())
    return SimpleUploadedFile(name, out.getvalue(), content_type="image/jpeg")


def _signed_in(user) -> Client:
    client = Client()
    client.force_login(user)
    return client


def _post(client, **data):
    return client.post(reverse("profile_identity"), {"country": "", "bio": "", **data})


def test_an_uploaded_photo_is_kept_as_a_256_px_webp_without_its_metadata(alice):
    response = _post(_signed_in(alice), picture_file=_photo(), country="PL", bio="Hello")
    assert response.status_code == 302
    profile = Profile.objects.get(user=alice)
    assert profile.picture.name.startswith("pictures/") and profile.picture.name.endswith(".webp")
    data = profile.picture.read()
    assert SECRET_MAKE.encode() not in data
    with Image.open(BytesIO(data)) as kept:
        assert kept.format == "WEBP" and kept.size == (256, 256)
        assert not kept.info.get("exif") and not kept.getexif()
        assert "icc_profile" not in kept.info and "xmp" not in kept.info
    assert (profile.country.code, profile.bio) == ("PL", "Hello")


@pytest.mark.parametrize(
    "upload, message",
    [
        (SimpleUploadedFile("a.png", b"not an image at all", "image/png"), "must be a JPEG"),
        (
            SimpleUploadedFile("a.png", b"\x89PNG\r\n\x1a\n" + b"\0" * 40, "image/png"),
            "must be a JPEG",
        ),
        (
            SimpleUploadedFile("a.svg", b"<svg xmlns='http://www.w3.org/2000/svg'/>"),
            "must be a JPEG",
        ),
    ],
)
def test_what_is_not_a_picture_is_refused_and_nothing_changes(alice, upload, message):
    response = _post(_signed_in(alice), picture_file=upload, country="CZ", bio="new words")
    assert response.status_code == 400
    assert message in response.content.decode()
    profile = Profile.objects.get(user=alice)
    assert not profile.picture and not profile.country and profile.bio == ""


def test_a_decompression_bomb_is_refused_before_it_is_decoded(alice):
    # 6000 x 5000 one-bit pixels: a file of a few kilobytes, 30 million pixels.
    out = BytesIO()
    Image.new("1", (6000, 5000)).save(out, "PNG")
    assert len(out.getvalue()) < 100_000
    upload = SimpleUploadedFile("bomb.png", out.getvalue(), "image/png")
    response = _post(_signed_in(alice), picture_file=upload)
    assert response.status_code == 400
    assert "at most 25 million pixels" in response.content.decode()
    assert not Profile.objects.get(user=alice).picture


def test_too_large_a_file_is_refused(alice):
    upload = SimpleUploadedFile("big.jpg", b"\xff" * (pictures.MAX_UPLOAD_BYTES + 1), "image/jpeg")
    response = _post(_signed_in(alice), picture_file=upload)
    assert response.status_code == 400
    assert "at most 5 MB" in response.content.decode()
    # Past the site's limit on a request's body: refused before any form reads it.
    upload = SimpleUploadedFile("huge.jpg", b"\xff" * (7 * 1024 * 1024), "image/jpeg")
    response = _post(_signed_in(alice), picture_file=upload, bio="words")
    assert response.status_code == 400
    assert "The request is too large." in response.content.decode()
    assert Profile.objects.get(user=alice).bio == ""


def test_a_new_picture_replaces_the_old_file_and_removing_goes_back_to_the_identicon(
    alice, django_capture_on_commit_callbacks
):
    client = _signed_in(alice)
    with django_capture_on_commit_callbacks(execute=True):
        _post(client, picture_file=_photo())
    first = Profile.objects.get(user=alice).picture
    storage, first_name = first.storage, first.name
    with django_capture_on_commit_callbacks(execute=True):
        _post(client, picture_file=_photo((300, 900), "PNG", "b.png"))
    second = Profile.objects.get(user=alice).picture.name
    assert second != first_name and storage.exists(second) and not storage.exists(first_name)
    page = client.get(reverse("player_page", args=["alice"])).content.decode()
    assert f'src="/media/{second}"' in page
    with django_capture_on_commit_callbacks(execute=True):
        _post(client, remove_picture="on")
    assert not Profile.objects.get(user=alice).picture and not storage.exists(second)
    page = client.get(reverse("player_page", args=["alice"])).content.decode()
    assert '<svg class="avatar"' in page


@pytest.fixture
def media(settings, tmp_path):
    """A folder of this test's own for the pictures' files."""
    settings.MEDIA_ROOT = str(tmp_path / "media")
    return Profile._meta.get_field("picture").storage


def _with_picture(user, django_capture_on_commit_callbacks) -> str:
    from accounts import services

    with django_capture_on_commit_callbacks(execute=True):
        services.save_identity(user, country="", bio="", picture=pictures.normalised(_photo()))
    return Profile.objects.get(user=user).picture.name


def test_deleting_an_account_deletes_its_picture_once_committed(
    alice, media, django_capture_on_commit_callbacks
):
    name = _with_picture(alice, django_capture_on_commit_callbacks)
    assert name and media.exists(name)
    with django_capture_on_commit_callbacks() as after_commit:
        alice.delete()
    assert media.exists(name)  # not before the deletion is committed
    for callback in after_commit:
        callback()
    assert not media.exists(name)


def test_a_picture_taken_away_anywhere_loses_its_file_but_not_when_rolled_back(
    alice, media, django_capture_on_commit_callbacks
):
    """The admin's form saves the model itself: the old file goes too, once
    committed; a rolled-back change keeps the file its row still names."""
    from django.db import transaction

    name = _with_picture(alice, django_capture_on_commit_callbacks)
    with pytest.raises(RuntimeError), transaction.atomic():
        profile = Profile.objects.get(user=alice)
        profile.picture = ""
        profile.save()
        raise RuntimeError("rolled back")
    assert media.exists(name)
    with django_capture_on_commit_callbacks(execute=True):
        profile = Profile.objects.get(user=alice)
        profile.picture = ""
        profile.save()
    assert not media.exists(name)
    # Saving the profile without its picture (another preference) deletes nothing.
    name = _with_picture(alice, django_capture_on_commit_callbacks)
    with django_capture_on_commit_callbacks(execute=True):
        Profile.objects.only("id", "user_id", "bio").get(user=alice).save(update_fields=["bio"])
        Profile.objects.get(user=alice).save(update_fields=["country"])
    assert media.exists(name)


def test_a_new_picture_whose_change_fails_leaves_no_file(alice, media, monkeypatch):
    from accounts import services

    def broken(self, *args, **kwargs):
        raise RuntimeError("the database went away")

    monkeypatch.setattr(Profile, "save", broken)
    with pytest.raises(RuntimeError):
        services.save_identity(alice, country="", bio="", picture=pictures.normalised(_photo()))
    assert not media.exists("pictures") or media.listdir("pictures") == ([], [])


def test_a_bad_country_is_refused(alice):
    response = _post(_signed_in(alice), country="XX", bio="words")
    assert response.status_code == 400
    assert Profile.objects.get(user=alice).bio == ""


def test_country_and_bio_show_on_the_player_page_escaped(alice, bob):
    bio = "<script>alert(1)</script>\r\n\r\n\r\n\r\nSecond\x07 line"
    response = _post(_signed_in(alice), country="CZ", bio=bio)
    assert response.status_code == 302
    assert Profile.objects.get(user=alice).bio == "<script>alert(1)</script>\n\nSecond line"
    page = _signed_in(bob).get(reverse("player_page", args=["alice"])).content.decode()
    assert "&lt;script&gt;alert(1)&lt;/script&gt;" in page and "<script>alert(1)" not in page
    assert "Czechia" in page and "\U0001f1e8\U0001f1ff" in page  # the flag, CZ


def test_the_identicon_is_the_usernames_own(alice):
    assert identicon_svg("alice", 96) == identicon_svg("alice", 96)
    assert identicon_svg("alice", 96) != identicon_svg("alicf", 96)
    page = Client().get(reverse("player_page", args=["alice"])).content.decode()
    assert str(identicon_svg("alice", 96)) in page


def test_the_profile_page_offers_the_identity_form(alice):
    page = _signed_in(alice).get(reverse("profile")).content.decode()
    assert 'enctype="multipart/form-data"' in page and 'name="picture_file"' in page
    assert 'name="remove_picture"' not in page  # no picture to remove yet


def _moderator(make_user, name="mod", group=True) -> Client:
    user = make_user(name)
    user.is_staff = True
    user.save()
    if group:
        user.groups.add(Group.objects.get(name="moderator"))
    return _signed_in(user)


def test_the_desk_removes_a_picture_and_a_bio_with_a_reason_in_the_audit(alice, make_user):
    _post(_signed_in(alice), picture_file=_photo(), bio="rude words")
    desk = _moderator(make_user)
    listing = desk.get(reverse("admin:accounts_profile_changelist")).content.decode()
    assert "Remove the picture" in listing and "Remove the bio" in listing
    picture_url = reverse("admin:players_remove_picture", args=[alice.pk])
    bio_url = reverse("admin:players_remove_bio", args=[alice.pk])
    response = desk.post(bio_url, {"reason": "x"})  # no real reason, no confirmation
    assert response.status_code == 200 and Profile.objects.get(user=alice).bio == "rude words"
    assert desk.post(bio_url, {"reason": "insults in the bio", "confirm": "on"}).status_code == 302
    assert (
        desk.post(picture_url, {"reason": "not a picture for all", "confirm": "on"}).status_code
        == 302
    )
    profile = Profile.objects.get(user=alice)
    assert profile.bio == "" and not profile.picture
    kinds = {a.kind: a for a in ModerationAction.objects.filter(user=alice)}
    assert set(kinds) == {"remove_picture", "remove_bio"}
    assert kinds["remove_bio"].details == {"bio": "rude words"}
    assert kinds["remove_bio"].reason == "insults in the bio"
    # Nothing left to remove: said on the page, nothing more recorded.
    again = desk.post(bio_url, {"reason": "insults in the bio", "confirm": "on"})
    assert "This player has no bio." in again.content.decode()
    assert ModerationAction.objects.count() == 2


def test_staff_outside_the_moderators_may_not_remove(alice, make_user):
    _post(_signed_in(alice), bio="words")
    staff = _moderator(make_user, "staff", group=False)
    url = reverse("admin:players_remove_bio", args=[alice.pk])
    response = staff.post(url, {"reason": "I do not like it", "confirm": "on"})
    assert response.status_code == 403
    assert Profile.objects.get(user=alice).bio == "words"
    assert not ModerationAction.objects.exists()
