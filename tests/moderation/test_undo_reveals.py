"""A moderator's undo never shows a roll or a draw again.

The position is rebuilt from the match's own seed, so a move that rolled a
die, drew a card or tile, or told a player a secret, taken back, would deal
the same again, as the players already saw it. For every game with random
or hidden draws the moderator's undo of such a move is refused and changes
nothing; moves that revealed nothing can still be taken back.
"""

import pytest

from core import errors
from games.engine import registry
from games.engine.replay import replay
from games.lobby import services as lobby
from games.models import MatchStatus
from games.moderation import actions as moderation
from games.play import services

pytestmark = pytest.mark.django_db
REASON = "players asked for it"
GAMES = ["nogi", "drakon", "drakon_classic", "seven_dragons", "drako", "hatchlings"]


def snapshot(match):
    match.refresh_from_db()
    return match.version, match.state, match.status


def start(key, make_user):
    game = registry.get(key)
    users = [make_user(f"{key}{i}") for i in range(game.min_players)]
    match = lobby.create_match(user=users[0], game_key=key, n_seats=game.min_players)
    for user in users[1:]:
        lobby.join_match(user=user, match=match)
    match.refresh_from_db()
    assert match.status == MatchStatus.ACTIVE
    return game, match, {seat.index: seat.user for seat in match.seats.all()}


def revealing(match, last) -> bool:
    return any(event.get("private_to") is not None for event in last.events)


def play_until(game, match, users, wanted, limit=400):
    """Play legal moves until ``wanted(rng_moved, last_move)``; the last move."""
    for step in range(limit):
        match.refresh_from_db()
        seats = game.current_seats(match.state)
        assert seats, "the match ended first"
        seat = seats[0]
        legal = game.legal_actions(match.state, seat)
        before = match.state.get("rng")
        services.submit_action(match, users[seat], legal[step % len(legal)], match.version)
        match.refresh_from_db()
        last = match.moves.order_by("-seq").first()
        if wanted(match.state.get("rng") != before, last):
            return last
    pytest.fail("no such move came")


@pytest.mark.parametrize("key", GAMES)
def test_a_move_that_drew_or_rolled_is_not_undone_by_a_moderator(key, make_user, moderator):
    game, match, users = start(key, make_user)
    last = play_until(game, match, users, lambda moved, last: moved or revealing(match, last))
    before = snapshot(match)
    with pytest.raises(errors.Conflict, match="revealed a roll, a draw or a secret"):
        moderation.undo_moves(moderator, match, 1, REASON)
    assert snapshot(match) == before
    # Taking back more moves, the revealing one among them, is refused too.
    if len([m for m in match.moves.all() if m.actor_kind == "player"]) >= 2:
        with pytest.raises(errors.Conflict):
            moderation.undo_moves(moderator, match, 2, REASON)
    assert snapshot(match) == before, last.events


def test_a_move_that_revealed_nothing_can_still_be_undone(make_user, moderator):
    """Drakon: a move that rolls nothing and draws nothing (a step in the lair)."""
    game, match, users = start("drakon", make_user)
    last = play_until(
        game, match, users, lambda moved, last: not moved and not revealing(match, last)
    )
    version = match.version
    state_before = replay(
        game,
        match.n_seats,
        match.options,
        match.seed,
        list(match.moves.order_by("seq").values_list("seat", "action"))[:-1],
        match.rules_version,
    )
    try:
        moderation.undo_moves(moderator, match, 1, REASON)
    except errors.Conflict:
        pytest.fail(f"refused a move that revealed nothing: {last.action} {last.events}")
    match.refresh_from_db()
    assert match.version == version + 1 and match.state == state_before


def test_a_drako_defence_the_attacker_saw_is_not_undone(make_user, moderator):
    """A defence card played from the hand: its player knew it, but the other side
    saw it when it was played. Taken back, the card would go back to a hand the
    other side now knows, so the undo is refused, though nothing was rolled or
    drawn and no private line was written."""
    game, match, users = start("drako", make_user)
    for step in range(400):
        match.refresh_from_db()
        seat = game.current_seats(match.state)[0]
        legal = game.legal_actions(match.state, seat)
        defences = [action for action in legal if action.get("type") == "defend"]
        action = defences[0] if defences else legal[step % len(legal)]
        before = match.state.get("rng")
        services.submit_action(match, users[seat], action, match.version)
        match.refresh_from_db()
        last = match.moves.order_by("-seq").first()
        if defences and match.state.get("rng") == before and not revealing(match, last):
            break
    else:
        pytest.fail("no defence came")
    assert last.action["type"] == "defend"
    before = snapshot(match)
    with pytest.raises(errors.Conflict, match="revealed a roll, a draw or a secret"):
        moderation.undo_moves(moderator, match, 1, REASON)
    assert snapshot(match) == before
