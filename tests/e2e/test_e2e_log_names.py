"""The move log names the one who moved once: in a game whose sentences name
the actor ("Bot 2 places …"), a bot's or the clock's move adds only who made
it ("(Bot)"), never the seat's name again ("Bot 2 (Bot) Bot 2 places …")."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import expect

from games.lobby import services as lobby
from games.models import Move
from games.play import services
from tests.e2e.helpers import log_in, make_player

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


@pytest.mark.parametrize("game_key", ["seven_dragons", "drako"])
def test_a_bots_move_names_the_bot_once(live_server, window, game_key):
    alice = make_player("alice")
    match = lobby.create_match(user=alice, game_key=game_key, n_seats=2)
    lobby.fill_with_bots(user=alice, match=match, level="random")
    match.refresh_from_db()
    bot = match.seats.get(is_bot=True)
    from games.engine import registry

    game = registry.get(game_key)
    for _ in range(4):  # alice and the bot take turns until the bot has moved
        services.play_bot_turns(match.pk, 2)
        if Move.objects.filter(match=match, actor_kind="bot").exists():
            break
        match.refresh_from_db()
        seat = match.seats.get(user=alice).index
        services.submit_action(
            match, alice, game.legal_actions(match.state, seat)[0], match.version
        )
    assert Move.objects.filter(match=match, actor_kind="bot").exists()
    name = bot.player_name

    person = window("alice")
    log_in(person.page, live_server.url, "alice")
    person.page.goto(f"{live_server.url}/m/{match.pk}/log/")
    lines = person.page.locator("li", has_text="(Bot)")
    expect(lines.first).to_be_visible()
    for text in lines.all_inner_texts():
        assert len(re.findall(re.escape(name), text)) <= 1, text
    person.assert_clean()
