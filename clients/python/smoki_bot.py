"""Smoki's reference bot client: follows the API's event stream and plays.

    python smoki_bot.py --url https://smoki.example --token smk_… [--accept-from ann,bob]

It logs in with a personal access token (scopes ``match:read``,
``match:play``, ``challenge:read``, ``challenge:write``; a bot account's
``bot:play`` instead of the first two), reads the matches waiting for it
once, then follows ``GET /api/v1/stream`` and acts on what it hears: a
challenge is accepted or declined by the settings, and whenever it is to
move (a ``your_turn`` event, or a ``move`` event with ``my_turn``) it reads
the match, asks its engine for an action and plays it by id. It never
polls: every request but the first list answers an event. A dropped stream
is resumed from the last event's id, so nothing is missed or seen twice.

The engine is pluggable (``--engine module:function``): a function
``(game_key, seat, view, legal) -> action`` given the seat's view and the
legal actions exactly as the API sends them (``legal`` is a list of plain
JSON actions), returning one of them. The default is the rules package's
heuristic bot (``pip install`` the smoki-rules wheel, ``make rules-wheel``):
its choice from the API's view is the choice the site's own bot makes, since
the API's views and actions are the package's.

Standard library only.
"""

from __future__ import annotations

import argparse
import contextlib
import hashlib
import importlib
import json
import re
import sys
import time
import urllib.error
import urllib.parse
import urllib.request
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field


def action_id(action) -> str:
    """The API's id of an action: the same digest the site computes."""
    text = json.dumps(action, sort_keys=True, separators=(",", ":"))
    return hashlib.sha256(text.encode()).hexdigest()[:16]


class ApiError(Exception):
    def __init__(self, status: int, body: dict):
        super().__init__(f"{status}: {body}")
        self.status, self.body = status, body

    @property
    def code(self) -> str:
        return (self.body.get("error") or {}).get("code", "")


class Api:
    """The REST calls the bot makes (``url``) and its stream (``stream_url``,
    the same site unless the stream is served apart)."""

    def __init__(self, url: str, token: str, stream_url: str | None = None):
        self.url = url.rstrip("/") + "/api/v1"
        self.stream_url = (stream_url or url).rstrip("/") + "/api/v1/stream"
        self.token = token
        self.calls: dict[str, int] = {}

    def _request(self, method: str, path: str, body=None, key: str | None = None):
        """One call; past a rate limit (429), again after its ``Retry-After``."""
        name = method + " " + re.sub(r"/[0-9]+", "/{id}", path)
        self.calls[name] = self.calls.get(name, 0) + 1
        for _attempt in range(10):
            try:
                return self._send(method, path, body, key)
            except ApiError as error:
                if error.status != 429:
                    raise
                time.sleep(min(60, int(error.body["error"].get("retry_after", 5)) + 1))
        raise ApiError(429, {"error": {"code": "rate_limited"}})

    def _send(self, method: str, path: str, body, key: str | None):
        request = urllib.request.Request(
            self.url + path,
            method=method,
            data=None if body is None else json.dumps(body).encode(),
            headers={"Authorization": f"Bearer {self.token}", "Content-Type": "application/json"},
        )
        if key:
            request.add_header("Idempotency-Key", key)
        try:
            with urllib.request.urlopen(request, timeout=30) as answer:
                return json.load(answer)
        except urllib.error.HTTPError as error:
            try:
                detail = json.load(error)
            except ValueError:
                detail = {}
            raise ApiError(error.code, detail) from None

    def get(self, path: str):
        return self._request("GET", path)

    def post(self, path: str, body=None, key: str | None = None):
        return self._request("POST", path, body or {}, key)

    def events(self, since: int | None) -> Iterator[dict]:
        """The stream's events from ``since`` on (a keep-alive yields {})."""
        query = "" if since is None else "?since=" + urllib.parse.quote(str(since))
        request = urllib.request.Request(
            self.stream_url + query, headers={"Authorization": f"Bearer {self.token}"}
        )
        try:
            answer = urllib.request.urlopen(request, timeout=60)
        except urllib.error.HTTPError as error:
            raise ApiError(error.code, json.load(error)) from None
        with answer:
            for line in answer:
                yield json.loads(line) if line.strip() else {}


def heuristic(game_key: str, seat: int, view: dict, legal: list, level: str = "heuristic"):
    """The rules package's own bot, choosing from the seat's view alone.

    The package's bots read a position only through ``view(state, seat)``
    and ``legal_actions(state, seat)`` (what the conformance kit proves), or
    through a faster part of the view built from the state (a bot module's
    ``sight_view``, or Drakon's ``sight_of``, equal to the view's values), so
    answering those with what the API sent makes them choose exactly as they
    do on the site."""
    from games.engine import bots, registry
    from games.engine.rng import Rng

    module = bots.bot_module(game_key)
    games = {id(g): g for g in [registry.get(game_key), getattr(module, "GAME", None)]}
    games.update({id(g): g for g in getattr(module, "GAMES_BY_EDITION", {}).values()})
    games.pop(id(None), None)
    seen = {k: v for k, v in view.items() if not k.startswith("_")}
    with _answering(games.values(), seen, legal), _sighted(module, seen):
        rng = Rng.from_seed(f"{game_key}:{view.get('_version')}:{seat}")
        return module.choose(seen, seat, rng, level=level)


@contextlib.contextmanager
def _answering(games, view: dict, legal: list):
    games = list(games)
    for game in games:
        game.view = lambda state, seat: view
        game.legal_actions = lambda state, seat: legal
    try:
        yield
    finally:
        for game in games:
            del game.view, game.legal_actions


@contextlib.contextmanager
def _sighted(module, view: dict):
    """The bot's fast sight of the position answered from the API's view."""
    if hasattr(module, "sight_of"):  # Drakon: the view's rooms indexed by cell
        name, answer = "sight_of", lambda game, state, seat: module.Sight(view)
    elif hasattr(module, "sight_view"):  # a part of the view; the whole one holds it
        name, answer = "sight_view", lambda state, seat: view
    else:
        yield
        return
    kept = getattr(module, name)
    setattr(module, name, answer)
    try:
        yield
    finally:
        setattr(module, name, kept)


def load_engine(spec: str) -> Callable:
    if spec == "heuristic":
        return heuristic
    module, _, name = spec.partition(":")
    return getattr(importlib.import_module(module), name)


@dataclass
class Settings:
    accept_from: set[str] = field(default_factory=set)  # empty: anyone
    accept_games: set[str] = field(default_factory=set)  # empty: every game
    stop_after: int = 0  # finished matches, then exit (0: never)


class Bot:
    def __init__(self, api: Api, engine: Callable, settings: Settings, log=print):
        self.api, self.engine, self.settings, self.log = api, engine, settings, log
        self.last_id: int | None = None
        self.seen_version: dict[int, int] = {}  # match -> the newest version acted on
        self.finished: set[int] = set()
        self.connections = 0
        self.moves = 0

    def run(self) -> None:
        """Follow the stream until ``stop_after`` matches have finished."""
        while not self.done():
            try:
                self.follow()
            except ApiError as error:
                if error.status in (401, 403):
                    raise
                self.log(f"stream refused ({error.code}); trying again shortly")
                time.sleep(2)
            except (OSError, ValueError) as error:
                self.log(f"stream lost ({error}); resuming after event {self.last_id}")
                time.sleep(1)

    def done(self) -> bool:
        return bool(self.settings.stop_after) and len(self.finished) >= self.settings.stop_after

    def follow(self) -> None:
        stream = self.api.events(self.last_id)
        self.connections += 1
        first = next(stream)  # the stream is open: nothing can be missed now
        self.catch_up()
        if first:
            self.handle(first)
        for event in stream:
            if event:
                self.handle(event)
            if self.done():
                return

    def catch_up(self) -> None:
        """Once per connection: the challenges and turns already waiting."""
        if self.last_id is None:
            for row in self.api.get("/matches"):
                if row["my_turn"]:
                    self.play(row["id"])
            with contextlib.suppress(ApiError):
                for match in self.api.get("/challenges")["invitations"]:
                    self.answer_challenge(match["id"], match["game"], match["seats"])

    def handle(self, event: dict) -> None:
        self.last_id = event.get("id", self.last_id)
        kind = event.get("type")
        if kind == "challenge_received":
            self.answer_challenge(event["match"], event["game"], event["seats"])
        elif kind == "your_turn" or (kind == "move" and event.get("my_turn")):
            if event["version"] > self.seen_version.get(event["match"], -1):
                self.play(event["match"])
        elif kind == "match_finished":
            self.finished.add(event["match"])
            self.log(f"match {event['match']} ({event['game']}) is over: {event['result']}")

    def answer_challenge(self, match_id: int, game: str, seats: list) -> None:
        players = {seat["player"] for seat in seats if seat["player"]}
        wanted = (not self.settings.accept_games or game in self.settings.accept_games) and (
            not self.settings.accept_from or players & self.settings.accept_from
        )
        with contextlib.suppress(ApiError):  # taken, withdrawn: nothing to do
            self.api.post(f"/matches/{match_id}/{'join' if wanted else 'decline'}")
            self.log(f"{'accepted' if wanted else 'declined'} a {game} match, {match_id}")

    def play(self, match_id: int) -> None:
        """Read the match and play one action if it is this seat's turn. A
        turn of several actions goes on when the stream tells of this move
        (``my_turn`` is still true): no second read to find out."""
        match = self.api.get(f"/matches/{match_id}")
        self.seen_version[match_id] = match["version"]
        if not match["legal_actions"]:
            return
        legal = [item["action"] for item in match["legal_actions"]]
        action = self.engine(match["game"], match["my_seat"], match["view"], legal)
        try:
            self.api.post(
                f"/matches/{match_id}/actions",
                {"action_id": action_id(action), "version": match["version"]},
                key=f"{match_id}-{match['version']}",
            )
            self.moves += 1
        except ApiError as error:
            # The match moved on, or ended, meanwhile: the stream tells what next.
            if error.code not in ("stale_version", "forbidden", "conflict", "deadline_passed"):
                raise


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--url", required=True, help="the site, e.g. https://smoki.example")
    parser.add_argument("--stream-url", help="where the stream is served, if not --url")
    parser.add_argument("--token", required=True)
    parser.add_argument("--engine", default="heuristic", help="heuristic, or module:function")
    parser.add_argument("--accept-from", default="", help="usernames, comma-separated")
    parser.add_argument("--accept-games", default="", help="game keys, comma-separated")
    parser.add_argument("--stop-after", type=int, default=0, help="finished matches, then exit")
    args = parser.parse_args(argv)
    split = lambda text: {part for part in text.split(",") if part}  # noqa: E731
    bot = Bot(
        Api(args.url, args.token, args.stream_url),
        load_engine(args.engine),
        Settings(split(args.accept_from), split(args.accept_games), args.stop_after),
        log=lambda text: print(text, file=sys.stderr, flush=True),
    )
    bot.run()
    summary = {"moves": bot.moves, "finished": sorted(bot.finished)}
    print(json.dumps({**summary, "connections": bot.connections, "calls": bot.api.calls}))
    return 0


if __name__ == "__main__":
    sys.exit(main())
