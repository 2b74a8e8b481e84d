"""Drako through the site: a defence is a turn of its own for the clock and the "your turn"
notice, the match never waits on a defender without a defence, and the reaction is
unmistakable on the defender's page only."""

import pytest
from django.test import Client
from django.urls import reverse

from games.catalog.drako.builders import card_id, position
from games.lobby import services as lobby
from games.models import Match, Notification, NotificationKind
from games.play import services

pytestmark = pytest.mark.django_db


@pytest.fixture
def drako_match(alice, bob):
    """alice plays the dragon (seat 0), bob the dwarves (seat 1)."""
    match = lobby.create_match(
        user=alice, game_key="drako", n_seats=2, options={"sides": "seat1_dragon"}
    )
    lobby.join_match(user=bob, match=match)
    match.refresh_from_db()
    return match


def arrange(match, dwarf_hand):
    state = position(
        dwarves={"fury": "1,0"},
        hands={"dragon": ["G04", "G02"], "dwarves": dwarf_hand},
        options=match.options,
    )
    Match.objects.filter(pk=match.pk).update(state=state)
    match.refresh_from_db()


def bite(match, alice):
    action = {"type": "play", "card": card_id("dragon", "G04"), "symbol": "BITE:2", "dwarf": "fury"}
    services.submit_action(match, alice, action, match.version)
    match.refresh_from_db()


def page(user, match):
    client = Client()
    client.force_login(user)
    return client.get(reverse("match_detail", args=[match.pk])).content.decode()


def test_the_reaction_is_the_defenders_turn_for_clock_and_notice(drako_match, alice, bob):
    match = drako_match
    arrange(match, ["W11", "W03"])
    bite(match, alice)
    assert match.waiting_on == bob and match.deadline is not None
    assert Notification.objects.filter(
        user=bob, match=match, kind=NotificationKind.YOUR_TURN, version=match.version
    ).exists()
    defender = page(bob, match)
    assert 'id="drako-reaction"' in defender and "You are attacked!" in defender
    assert 'data-path="defend-' in defender
    attacker = page(alice, match)
    assert 'id="drako-reaction"' not in attacker and 'id="choices"' not in attacker
    assert "may play a defence card" in attacker
    # The defender answers; the turn comes back to the dragon, with its clock.
    services.submit_action(match, bob, {"type": "no_defence"}, match.version)
    match.refresh_from_db()
    assert match.waiting_on == alice
    assert match.state["dwarves"]["fury"]["wounds"] == 2


def test_no_defence_no_wait(drako_match, alice, bob):
    match = drako_match
    arrange(match, ["W03", "W06"])
    bite(match, alice)
    assert match.waiting_on == alice
    assert not Notification.objects.filter(
        user=bob, match=match, kind=NotificationKind.YOUR_TURN, version=match.version
    ).exists()
    assert match.state["dwarves"]["fury"]["wounds"] == 2


def test_the_board_offers_the_clicks_where_they_happen(drako_match, alice):
    match = drako_match
    arrange(match, ["W03"])
    client = Client()
    client.force_login(alice)
    bite_card = card_id("dragon", "G04")
    html = client.get(reverse("match_detail", args=[match.pk])).content.decode()
    assert f'data-path="card-{bite_card}"' in html and 'id="my-secrets"' in html
    html = client.get(
        reverse("match_panel", args=[match.pk]), {"path": f"card-{card_id('dragon', 'G02')}"}
    ).content.decode()
    assert html.count('class="target"') >= 10  # hexes to walk to, highlighted on the board
    html = client.get(
        reverse("match_panel", args=[match.pk]), {"path": f"card-{bite_card}"}
    ).content.decode()
    assert f'data-path="card-{bite_card}.dwarf-fury"' in html


# -- Every sentence in every language ----------------------------------------------------------


def _random_events_and_views():
    from games.catalog.drako.rules import GAME
    from games.engine.rng import Rng

    events, views = {}, []
    for i in range(40):
        options = GAME.option_matrix(2)[i % 12]
        state = GAME.setup(2, options, f"sentences-{i}")
        for event in GAME.opening_events(state):
            events.setdefault(event["type"], event)
        rng = Rng.from_seed(f"sentences-{i}")
        while state["phase"] != "over":
            seat = GAME.current_seats(state)[0]
            legal = GAME.legal_actions(state, seat)
            views.append((GAME.view(state, seat), legal))
            state, new = GAME.apply(state, seat, legal[rng.below(len(legal))])
            for event in new:
                events.setdefault(event["type"], event)
    return events, views


@pytest.mark.parametrize("language", ["pl", "cs"])
def test_every_sentence_and_click_is_translated(language):
    from django.utils import translation

    from games.catalog.drako import presenter

    events, views = _random_events_and_views()
    assert len(events) >= 25
    names = ["Ala", "Ola"]
    for kind, event in events.items():
        english = presenter.describe_event(event, names)
        assert english and english != kind.replace("_", " "), kind
        with translation.override(language):
            local = presenter.describe_event(event, names)
        assert local and local != english, (kind, local)
    seen = set()
    for view, legal in views[::7]:
        for action in legal:
            if action["type"] in seen and action["type"] != "play":
                continue
            seen.add(action["type"])
            english = presenter.action_steps(action, view)
            with translation.override(language):
                local = presenter.action_steps(action, view)
            assert [k for k, _l in local] == [k for k, _l in english]
            for (_k, en), (_k2, lo) in zip(english, local, strict=True):
                assert lo != en or en.startswith(("Morin", "Urpen", "Brald")), (action, lo)


@pytest.mark.parametrize("language", ["pl", "cs"])
def test_the_drako_catalogue_is_complete(language):
    from pathlib import Path

    from tests.web.test_i18n import PLACEHOLDER, parse_po

    path = Path("games/catalog/drako/locale") / language / "LC_MESSAGES" / "django.po"
    header, *messages = parse_po(path)
    assert "fuzzy" not in header.flags and f"Language: {language}\n" in header.msgstr[0]
    assert len(messages) > 150
    for entry in messages:
        assert "fuzzy" not in entry.flags, entry.msgid
        assert all(entry.msgstr.values()), entry.msgid
        wanted = set(PLACEHOLDER.findall(entry.msgid))
        for text in entry.msgstr.values():
            assert set(PLACEHOLDER.findall(text)) == wanted, (entry.msgid, text)
    assert path.with_suffix(".mo").exists()
