"""Matches, their seats and their append-only move log.

The rules never live here: a match stores the game's plain-JSON state and the
service layer (services.py) is the only writer. Models hold data and the few
invariants that must hold whoever writes.
"""

from datetime import timedelta

from django.conf import settings
from django.db import models
from django.db.models import Q
from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _


class MatchStatus(models.TextChoices):
    OPEN = "open", _("Waiting for players")
    ACTIVE = "active", _("In play")
    FINISHED = "finished", _("Finished")
    ABORTED = "aborted", _("Aborted")


#: A match's result's ``details["reason"]`` when it was aborted because it
#: ended before each seat had moved (``games.play.services.abort_early``).
EARLY_END = "early"


class Visibility(models.TextChoices):
    PUBLIC = "public", _("Public")
    PRIVATE = "private", _("Private (invitation only)")
    # Listed to the creator's friends, who may join; private to anyone else
    # (docs/community.md).
    FRIENDS = "friends", _("Friends only (my friends may join)")


TIME_PER_MOVE_CHOICES = [
    (timedelta(hours=12), _("12 hours")),
    (timedelta(days=1), _("1 day")),
    (timedelta(days=2), _("2 days")),
    (timedelta(days=3), _("3 days")),
    (timedelta(days=5), _("5 days")),
    (timedelta(days=7), _("7 days")),
    (timedelta(days=14), _("14 days")),
]


class TakeoverLevel(models.TextChoices):
    """The bot that plays a seat its player left to the bots: out of time too
    often, resigned, or replaced by a moderator (``Match.takeover_level``)."""

    HEURISTIC = "heuristic", _("heuristic bot")
    STRONG = "strong", _("strong bot")


class TimeoutPolicy(models.TextChoices):
    BOT_STRIKES = "bot_strikes", _("A bot moves for the late player, who gets a strike")
    LOSS = "loss", _("Loss on time (two players only)")


TIME_BANK_CHOICES = [
    (timedelta(0), _("No time bank")),
    (timedelta(days=1), _("1 day")),
    (timedelta(days=3), _("3 days")),
    (timedelta(days=7), _("7 days")),
    (timedelta(days=14), _("14 days")),
]
TIME_BANK_INCREMENT_CHOICES = [
    (timedelta(0), _("Nothing")),
    (timedelta(hours=1), _("1 hour")),
    (timedelta(hours=6), _("6 hours")),
    (timedelta(hours=12), _("12 hours")),
    (timedelta(days=1), _("1 day")),
]
STRIKES_BEFORE_BOT = 3


class Match(models.Model):
    game_key = models.CharField(max_length=32)
    rules_version = models.PositiveIntegerField()
    options = models.JSONField(default=dict)
    n_seats = models.PositiveSmallIntegerField()
    # The seed is committed to by its hash from the start and revealed when
    # the match ends, so anyone can replay the log and check every roll.
    seed = models.CharField(max_length=64)
    seed_hash = models.CharField(max_length=64)
    state = models.JSONField(null=True, blank=True)
    version = models.PositiveIntegerField(default=0)
    status = models.CharField(max_length=10, choices=MatchStatus.choices, default=MatchStatus.OPEN)
    visibility = models.CharField(
        max_length=10, choices=Visibility.choices, default=Visibility.PUBLIC
    )
    time_per_move = models.DurationField(default=timedelta(days=3))
    # An optional reserve each seat starts with, spent when a move takes longer
    # than the time per move, and topped up by the increment after each move.
    time_bank = models.DurationField(default=timedelta(0))
    time_bank_increment = models.DurationField(default=timedelta(0))
    timeout_policy = models.CharField(
        max_length=12, choices=TimeoutPolicy.choices, default=TimeoutPolicy.BOT_STRIKES
    )
    # The level a seat's bot plays at once its player has left it to the bots.
    takeover_level = models.CharField(
        max_length=16, choices=TakeoverLevel.choices, default=TakeoverLevel.HEURISTIC
    )
    # Whether a player's vacation stops this match's clock (a creator or an
    # organiser may forbid it: docs/correspondence.md), and whether a player's
    # own weekend days do (games.play.weekends).
    vacation_allowed = models.BooleanField(default=True)
    weekend_pause = models.BooleanField(default=False)
    # The clock of the current turn: when it began and how long it was paused
    # (vacations). deadline = start + paused + time per move + the seat's bank.
    turn_started_at = models.DateTimeField(null=True, blank=True)
    turn_paused = models.DurationField(default=timedelta(0))
    deadline = models.DateTimeField(null=True, blank=True)
    # When the sweep must next look at this match: the earliest unsent
    # reminder or the deadline. Null when nobody is to move.
    wake_at = models.DateTimeField(null=True, blank=True)
    # Who the clock is running for (None for a bot or nobody): for the lobby's
    # "my turn" list and the moderators' "waiting on whom" filter.
    waiting_on = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="matches_waiting",
    )
    # Set while a bot must move and no worker has played it yet: the outbox
    # relay hands the match to a worker again if it is still set a short while
    # later (the broker may have lost the first hand-over).
    bots_due_at = models.DateTimeField(null=True, blank=True)
    invite_token = models.CharField(max_length=32)
    result = models.JSONField(null=True, blank=True)
    # A player's request to take back their last move: {"seat", "seq", "agreed": [seats]}.
    undo_request = models.JSONField(null=True, blank=True)
    # Set by the first chat message: a match whose players never wrote (most
    # of them) draws its panel without asking for its chat.
    has_chat = models.BooleanField(default=False)
    # Rated matches change the players' ratings when they finish (players/ratings.py).
    rated = models.BooleanField(default=False)
    # Once a public match is finished its players may let anyone signed in
    # comment on its replay (games/history/comments.py); by default only they do.
    public_replay_comments = models.BooleanField(default=False)
    # An open match may ask joiners for a rating in this range (for its game).
    min_rating = models.IntegerField(null=True, blank=True)
    max_rating = models.IntegerField(null=True, blank=True)
    # The share (percent) of finished matches a joiner must have completed in
    # the last 90 days (games.play.reliability); None: no minimum.
    min_reliability = models.PositiveSmallIntegerField(null=True, blank=True)
    # A rematch: the same game, seats, options and clock as the finished match.
    rematch_of = models.ForeignKey(
        "self", on_delete=models.SET_NULL, null=True, blank=True, related_name="rematches"
    )
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="created_matches"
    )
    created_at = models.DateTimeField(auto_now_add=True)
    updated_at = models.DateTimeField(auto_now=True)
    started_at = models.DateTimeField(null=True, blank=True)
    finished_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        verbose_name_plural = "matches"
        permissions = [("moderate_match", "Can take moderator actions on matches")]
        # Every move and timeout changes indexed columns (the deadline, wake_at,
        # waiting_on), so PostgreSQL writes an entry in every index of this
        # table each time: only indexes a query uses are kept. The status and
        # the invite token are declared here rather than with db_index/unique,
        # which would add a second, LIKE-only (varchar_pattern_ops) copy of
        # each; the game key, a handful of values, is not indexed.
        constraints = [
            models.UniqueConstraint(fields=["invite_token"], name="match_invite_token_unique"),
        ]
        indexes = [
            models.Index(fields=["status"], name="match_status"),
            models.Index(
                fields=["wake_at"],
                name="match_active_wake_at",
                condition=Q(status="active", wake_at__isnull=False),
            ),
            models.Index(
                fields=["bots_due_at"],
                name="match_bots_due",
                condition=Q(status="active", bots_due_at__isnull=False),
            ),
            # A player's most urgent match waiting for them (the "next match
            # waiting" button): one index step, however many they have.
            models.Index(
                fields=["waiting_on", "deadline"],
                name="match_waiting_on_deadline",
                condition=Q(status="active"),
            ),
        ]

    def __str__(self):
        return f"#{self.pk} {self.game_key}"

    @property
    def is_over(self) -> bool:
        return self.status in (MatchStatus.FINISHED, MatchStatus.ABORTED)

    @property
    def resigning_ends_it(self) -> bool:
        """A resignation ends a two-player match at once, whatever the timeout
        policy; in a larger match a bot plays the seat on (``safety.resign``)."""
        return self.n_seats == 2

    @property
    def ended_early_by(self) -> int | None:
        """The seat whose resignation or loss on time ended the match before
        each seat had moved (``services.abort_early``: aborted, unrated), or
        None. Ladders and tournaments score such a match as that seat's forfeit."""
        if self.status != MatchStatus.ABORTED:
            return None
        details = (self.result or {}).get("details") or {}
        seat = details.get("seat") if details.get("reason") == EARLY_END else None
        return seat if isinstance(seat, int) else None

    @property
    def seed_revealed(self) -> bool:
        return self.is_over

    @property
    def stamp(self) -> str:
        """Changes whenever anything a page shows of the match may have changed."""
        return self.stamp_of(
            self.version, self.status, self.deadline, self.undo_request, self.updated_at
        )

    # The columns ``stamp_of`` reads: the poll loads these alone.
    STAMP_FIELDS = ("version", "status", "deadline", "undo_request", "updated_at")

    @staticmethod
    def stamp_of(version: int, status: str, deadline, undo_request=None, updated_at=None) -> str:
        """The stamp from its columns (the poll reads only these). A request to
        take back a move, and each agreement to it, changes it too; so does
        ``updated_at``, which joins, leaves and chat messages bump without a
        new version."""
        undo = len(undo_request.get("agreed", [])) + 1 if undo_request else 0
        touched = int(updated_at.timestamp() * 1_000_000) if updated_at else 0
        return f"{version}-{status}-{deadline.timestamp() if deadline else 0:.0f}-{undo}-{touched}"

    def seats_to_move(self, game) -> list[int]:
        """``game.current_seats`` of the current state, asked once per version:
        a move asks it before applying, to settle the clock, for the bots and
        for the answer's panel."""
        key = (self.version, id(self.state))
        cached = self.__dict__.get("_seats_to_move")
        if cached is None or cached[0] != key:
            cached = (key, list(game.current_seats(self.state)))
            self.__dict__["_seats_to_move"] = cached
        return cached[1]


class SeatStatus(models.TextChoices):
    PLAYING = "playing", _("Playing")
    RESIGNED = "resigned", _("Resigned")
    TIMED_OUT = "timed_out", _("Timed out")
    BOT = "bot", _("Replaced by a bot")


class Seat(models.Model):
    match = models.ForeignKey(Match, on_delete=models.CASCADE, related_name="seats")
    index = models.PositiveSmallIntegerField()
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.PROTECT,
        null=True,
        blank=True,
        related_name="seats",
    )
    is_bot = models.BooleanField(default=False)
    bot_level = models.CharField(max_length=16, default="heuristic")
    joined_at = models.DateTimeField(auto_now_add=True)
    strikes = models.PositiveSmallIntegerField(default=0)
    bank_left = models.DurationField(default=timedelta(0))
    # The last time this player opened the match page (not a background poll):
    # a "your turn" email is not sent to someone who was just looking.
    last_seen_at = models.DateTimeField(null=True, blank=True)
    status = models.CharField(max_length=10, choices=SeatStatus.choices, default=SeatStatus.PLAYING)
    rank = models.PositiveSmallIntegerField(null=True, blank=True)
    score = models.IntegerField(null=True, blank=True)

    class Meta:
        ordering = ["index"]
        constraints = [
            models.UniqueConstraint(fields=["match", "index"], name="seat_unique_index"),
            models.UniqueConstraint(
                fields=["match", "user"],
                condition=Q(user__isnull=False),
                name="seat_one_per_user",
            ),
        ]

    def __str__(self):
        return f"{self.match} seat {self.index + 1}"

    @property
    def played_by_bot(self) -> bool:
        return self.is_bot or self.status in (SeatStatus.BOT, SeatStatus.RESIGNED)

    @property
    def sight(self) -> int | None:
        """The seat whose secrets its player sees: their own, until they resign.

        A resignation in a match of three or more leaves the seat to a bot that
        plays on; the seat's goal, its hand and the bot's later draws are then
        no longer the player's, who could pass them on to someone still at the
        table. From then on every channel (the page, its fragments and polls,
        the log, the replay, the record, the emails and their pictures) shows
        them what a spectator sees (None)."""
        return None if self.status == SeatStatus.RESIGNED else self.index

    @property
    def player_name(self) -> str:
        """The player's own name, without saying who plays the seat now: the log
        speaks of what the player did ("Ann resigned"), not "Ann (bot)"."""
        if self.user_id is None:
            return gettext("Bot %(n)s") % {"n": self.index + 1}
        profile = getattr(self.user, "profile", None)
        return profile.name if profile else self.user.username

    @property
    def display_name(self) -> str:
        """How pages, logs and emails name the seat's player."""
        name = self.player_name
        return f"{name} (bot)" if self.user_id is not None and self.played_by_bot else name


class ActorKind(models.TextChoices):
    PLAYER = "player", _("Player")
    BOT = "bot", _("Bot")
    TIMEOUT = "timeout", _("Timeout")
    MODERATOR = "moderator", _("Moderator")
    GAME = "game", _("Game")  # the opening entry: what setup dealt or rolled


class AppendOnlyQuerySet(models.QuerySet):
    """Logs that are never rewritten: bulk updates and deletes are refused."""

    def update(self, **kwargs):
        raise PermissionError("This log is append-only.")

    def delete(self):
        raise PermissionError("This log is append-only.")


class Move(models.Model):
    match = models.ForeignKey(Match, on_delete=models.PROTECT, related_name="moves")
    seq = models.PositiveIntegerField(
        help_text="0 for the opening (the first deal or roll), 1 for the first move; "
        "equals the version after it"
    )
    # None for the opening and for a moderator's entry (action types "_opening", "_moderation").
    seat = models.PositiveSmallIntegerField(null=True, blank=True)
    action = models.JSONField()
    events = models.JSONField(default=list)
    actor_kind = models.CharField(max_length=10, choices=ActorKind.choices)
    actor = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.PROTECT, null=True, blank=True
    )
    created_at = models.DateTimeField(auto_now_add=True)

    objects = AppendOnlyQuerySet.as_manager()

    class Meta:
        ordering = ["match", "seq"]
        constraints = [
            models.UniqueConstraint(fields=["match", "seq"], name="move_unique_seq"),
        ]

    def __str__(self):
        return f"{self.match} move {self.seq}"

    def save(self, *args, **kwargs):
        if self.pk is not None:
            raise PermissionError("The move log is append-only.")
        super().save(*args, **kwargs)

    def delete(self, *args, **kwargs):
        raise PermissionError("The move log is append-only.")


class Invitation(models.Model):
    match = models.ForeignKey(Match, on_delete=models.CASCADE, related_name="invitations")
    invited_user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="invitations"
    )
    invited_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="+"
    )
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["match", "invited_user"], name="invitation_once"),
        ]

    def __str__(self):
        return f"{self.invited_user} to {self.match}"


class NotificationKind(models.TextChoices):
    YOUR_TURN = "your_turn", _("It is your turn")
    REMINDER = "reminder", _("Your time is running out")
    TIMED_OUT = "timed_out", _("You ran out of time")
    MATCH_STARTED = "match_started", _("A match started")
    MATCH_FINISHED = "match_finished", _("A match finished")
    INVITATION = "invitation", _("You are invited")
    MODERATION = "moderation", _("A moderator changed your match")
    UNDO_REQUEST = "undo_request", _("A player asks to take back a move")
    MENTION = "mention", _("A player mentions you in a match chat")


class DeliveryStatus(models.TextChoices):
    PENDING = "pending", _("Waiting to be sent")
    SENDING = "sending", _("Being sent")
    SENT = "sent", _("Sent")
    FAILED = "failed", _("Failed")
    DIGEST = "digest", _("Waiting for the daily digest")
    IN_DIGEST = "in_digest", _("Sent in a digest")
    SKIPPED = "skipped", _("Not emailed")


class Notification(models.Model):
    """An outbox row: written in the same transaction as the change that causes
    it, unique per (user, match, kind, version, tag) so it exists once, then
    delivered by a worker that records the outcome. It is also the in-app
    notification behind the bell: at most one unread row per (user, match,
    kind), updated by each new event of that kind."""

    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="notifications"
    )
    # Null for news not about one match (a kind another app registers), which
    # says what it is about in ``about`` instead
    # (``games.dispatch.notifications.queue_news``).
    match = models.ForeignKey(
        Match, on_delete=models.CASCADE, null=True, blank=True, related_name="notifications"
    )
    about = models.JSONField(null=True, blank=True)
    # A ``NotificationKind`` about a match, or a kind of news another app
    # registered (``games.dispatch.kinds``): no choices here, so an app's
    # kinds need no migration of this one.
    kind = models.CharField(max_length=16)
    version = models.PositiveIntegerField()
    # Distinguishes several notifications of one kind at one version, e.g. the
    # 24-hour and the 2-hour reminder.
    tag = models.CharField(max_length=16, blank=True, default="")
    created_at = models.DateTimeField(auto_now_add=True)
    status = models.CharField(
        max_length=10, choices=DeliveryStatus.choices, default=DeliveryStatus.PENDING
    )
    attempts = models.PositiveSmallIntegerField(default=0)
    # When the outbox relay hands a still-pending row to a worker: a short
    # while after it was written (the commit's own hand-over normally got
    # there first), or the next retry after a failed send.
    next_attempt_at = models.DateTimeField(null=True, blank=True)
    claimed_at = models.DateTimeField(null=True, blank=True)
    sent_at = models.DateTimeField(null=True, blank=True)
    last_error = models.TextField(blank=True, default="")
    read_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["-created_at"]
        constraints = [
            models.UniqueConstraint(
                fields=["user", "match", "kind", "version", "tag"], name="notification_once"
            ),
            # News without a match exists once per (user, kind, tag).
            models.UniqueConstraint(
                fields=["user", "kind", "tag"],
                condition=Q(match__isnull=True),
                name="notification_once_without_match",
            ),
            # One unread entry per match and kind: a new event updates it
            # (games.dispatch.notifications.queue).
            models.UniqueConstraint(
                fields=["user", "match", "kind"],
                condition=Q(read_at__isnull=True),
                name="notification_one_unread",
            ),
        ]
        indexes = [
            models.Index(
                fields=["user", "created_at"],
                name="notification_unread",
                condition=Q(read_at__isnull=True),
            ),
            models.Index(
                fields=["next_attempt_at"],
                name="notification_to_relay",
                condition=Q(status__in=["pending", "digest"], next_attempt_at__isnull=False),
            ),
        ]
        permissions = [("resend_email", "Can send a failed email again")]

    def __str__(self):
        return f"{self.kind} to {self.user} for {self.match}"


class PushSubscription(models.Model):
    """One device's web-push subscription (the browser's Push API): where to
    send, the keys to encrypt for it (RFC 8291), and which kinds of
    notification the player wants on it. Removed when its push service
    answers 404 or 410 (the browser dropped it)."""

    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="push_subscriptions"
    )
    endpoint = models.URLField(max_length=1000, unique=True)
    p256dh = models.CharField(max_length=200)
    auth = models.CharField(max_length=100)
    # The kinds (``Notification.kind``) sent to this device; the seam where
    # per-channel preferences plug in.
    kinds = models.JSONField(default=list)
    created_at = models.DateTimeField(auto_now_add=True)
    last_success_at = models.DateTimeField(null=True, blank=True)

    def __str__(self):
        return f"push to {self.user} ({self.endpoint[:40]})"


class Webhook(models.Model):
    """A player's endpoint that gets their notifications as posts: Discord,
    Slack, or a generic JSON one signed the Standard Webhooks way with
    ``secret`` (``games.correspondence.webhooks``). ``personal`` False: an
    organiser's webhook on a competition (the tournaments app links it),
    which gets that competition's feed, never the organiser's own news."""

    class Kind(models.TextChoices):
        DISCORD = "discord", "Discord"
        SLACK = "slack", "Slack"
        GENERIC = "generic", _("Generic (JSON, signed)")

    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="webhooks"
    )
    kind = models.CharField(max_length=10, choices=Kind.choices)
    url = models.URLField(max_length=1000)
    secret = models.CharField(max_length=100)
    # As ``PushSubscription.kinds``: the kinds posted here.
    kinds = models.JSONField(default=list)
    personal = models.BooleanField(default=True)
    created_at = models.DateTimeField(auto_now_add=True)
    last_success_at = models.DateTimeField(null=True, blank=True)

    def __str__(self):
        return f"{self.kind} webhook of {self.user}"


class Channel(models.TextChoices):
    PUSH = "push", _("Push notification")
    WEBHOOK = "webhook", _("Webhook")


class ChannelDelivery(models.Model):
    """The outbox row of one notification on one channel other than email
    (a device's push subscription): written in the notification's
    transaction, once per (notification, channel, target, version, tag), and
    delivered, retried and settled as an email is (``games.correspondence.push``)."""

    # None for an event of a competition's feed (a tournament's webhook),
    # which is no player's notification: ``event`` then holds its words.
    notification = models.ForeignKey(
        Notification,
        on_delete=models.CASCADE,
        related_name="channel_deliveries",
        null=True,
        blank=True,
    )
    event = models.JSONField(null=True, blank=True)
    channel = models.CharField(max_length=10, choices=Channel.choices)
    # The subscription's id; kept (no foreign key) after it is removed, so
    # the row still says where it went.
    target_id = models.PositiveIntegerField()
    version = models.PositiveIntegerField()
    tag = models.CharField(max_length=16, blank=True, default="")
    status = models.CharField(
        max_length=10, choices=DeliveryStatus.choices, default=DeliveryStatus.PENDING
    )
    attempts = models.PositiveSmallIntegerField(default=0)
    next_attempt_at = models.DateTimeField(null=True, blank=True)
    claimed_at = models.DateTimeField(null=True, blank=True)
    sent_at = models.DateTimeField(null=True, blank=True)
    last_error = models.TextField(blank=True, default="")
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        constraints = [
            models.UniqueConstraint(
                fields=["notification", "channel", "target_id", "version", "tag"],
                name="channel_delivery_once",
            ),
            # A feed's event, once per webhook, version and tag.
            models.UniqueConstraint(
                fields=["channel", "target_id", "version", "tag"],
                condition=Q(notification__isnull=True),
                name="channel_delivery_feed_once",
            ),
        ]
        indexes = [
            models.Index(
                fields=["next_attempt_at"],
                name="channel_delivery_to_relay",
                condition=Q(status="pending", next_attempt_at__isnull=False),
            )
        ]

    def __str__(self):
        return f"{self.channel} {self.target_id} for notification {self.notification_id}"


CHAT_MAX_LENGTH = 500


NOTE_MAX_LENGTH = 5000


class Note(models.Model):
    """A player's private notes on a match: kept with the match, seen by their author alone."""

    match = models.ForeignKey(Match, on_delete=models.CASCADE, related_name="notes")
    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE)
    text = models.TextField(max_length=NOTE_MAX_LENGTH, blank=True)
    updated_at = models.DateTimeField(auto_now=True)

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["match", "user"], name="note_one_per_player")
        ]

    def __str__(self):
        return f"{self.match} notes of {self.user_id}"


class ChatMessage(models.Model):
    """A line of match chat. Hidden by a moderator, it stays for the audit but
    no longer reaches players' pages."""

    match = models.ForeignKey(Match, on_delete=models.CASCADE, related_name="chat")
    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.PROTECT)
    text = models.CharField(max_length=CHAT_MAX_LENGTH)
    created_at = models.DateTimeField(auto_now_add=True, db_index=True)
    hidden_at = models.DateTimeField(null=True, blank=True)
    hidden_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.PROTECT,
        null=True,
        blank=True,
        related_name="+",
    )

    class Meta:
        ordering = ["created_at"]
        permissions = [("moderate_chat", "Can hide chat messages")]

    def __str__(self):
        return f"{self.user}: {self.text[:40]}"


class Hint(models.Model):
    """The strong bot's suggestion a player asked for in a practice match
    (``games.play.hints``): kept, one per seat and version, so the match's
    log and its replay say that hints were used, and where."""

    match = models.ForeignKey(Match, on_delete=models.CASCADE, related_name="hints")
    seat = models.PositiveSmallIntegerField()
    version = models.PositiveIntegerField()
    action = models.JSONField()
    # The search's estimate for the suggested choice (0 to 1), if it searched.
    chance = models.FloatField(null=True, blank=True)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["version", "seat"]
        constraints = [
            models.UniqueConstraint(fields=["match", "seat", "version"], name="hint_once_a_turn")
        ]

    def __str__(self):
        return f"{self.match} hint for seat {self.seat} at version {self.version}"


class ReviewStatus(models.TextChoices):
    PENDING = "pending", _("Being computed")
    READY = "ready", _("Ready")
    FAILED = "failed", _("Failed")


class MatchReview(models.Model):
    """The computer review of a finished match (``games.play.reviews``): one
    per match, asked for once and kept. ``decisions`` holds every decision
    of every seat as ``games.engine.review.Decision.to_json`` gives it."""

    match = models.OneToOneField(Match, on_delete=models.CASCADE, related_name="review")
    status = models.CharField(
        max_length=8, choices=ReviewStatus.choices, default=ReviewStatus.PENDING
    )
    requested_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, blank=True
    )
    requested_at = models.DateTimeField(auto_now_add=True)
    # When the task last took it (a pending review not taken for a while is
    # handed over again when asked for again).
    queued_at = models.DateTimeField(null=True, blank=True)
    finished_at = models.DateTimeField(null=True, blank=True)
    # The work per decision it was computed with, the game's caps applied
    # (games.engine.review.work): {"iterations": n, "samples": n, "luck_samples": n}.
    budget = models.JSONField(default=dict)
    decisions = models.JSONField(default=list)

    def __str__(self):
        return f"review of {self.match} ({self.status})"


#: A replay comment's longest text, as a chat message's.
REPLAY_COMMENT_MAX_LENGTH = 500


class ReplayComment(models.Model):
    """A comment on one step of a finished match's replay (games/history/comments.py).
    Moderated as chat is: hidden by a moderator, it stays for the audit but
    no longer reaches the replay."""

    match = models.ForeignKey(Match, on_delete=models.CASCADE, related_name="replay_comments")
    step = models.PositiveIntegerField()
    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="+")
    text = models.CharField(max_length=REPLAY_COMMENT_MAX_LENGTH)
    created_at = models.DateTimeField(auto_now_add=True)
    hidden_at = models.DateTimeField(null=True, blank=True)
    hidden_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.PROTECT,
        null=True,
        blank=True,
        related_name="+",
    )

    class Meta:
        ordering = ["step", "created_at", "pk"]
        indexes = [models.Index(fields=["match", "step"], name="replay_comment_match_step")]

    def __str__(self):
        return f"{self.user} at step {self.step}: {self.text[:40]}"


class Report(models.Model):
    """A player's report of a message, a player or a match, for moderators."""

    reporter = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="reports_made"
    )
    match = models.ForeignKey(Match, on_delete=models.CASCADE, related_name="reports")
    message = models.ForeignKey(
        ChatMessage, on_delete=models.CASCADE, null=True, blank=True, related_name="reports"
    )
    reported_user = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.PROTECT,
        null=True,
        blank=True,
        related_name="reports_received",
    )
    reason = models.CharField(max_length=300)
    created_at = models.DateTimeField(auto_now_add=True)
    resolved_at = models.DateTimeField(null=True, blank=True)
    resolved_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.PROTECT,
        null=True,
        blank=True,
        related_name="+",
    )
    resolution = models.CharField(max_length=300, blank=True, default="")

    class Meta:
        ordering = ["-created_at"]
        indexes = [
            models.Index(
                fields=["created_at"], name="report_open", condition=Q(resolved_at__isnull=True)
            )
        ]

    def __str__(self):
        return f"report by {self.reporter} on {self.match}"

    @property
    def is_open(self) -> bool:
        return self.resolved_at is None


class ModerationAction(models.Model):
    """The append-only audit of everything a moderator did: who, what, to which
    match or user, why, the match version before and after, and when."""

    class Kind(models.TextChoices):
        ABORT = "abort", _("Abort the match")
        EXTEND = "extend", _("Extend the deadline")
        FORCE_TIMEOUT = "force_timeout", _("Force the timeout now")
        REPLACE_WITH_BOT = "replace_with_bot", _("Replace a seat with a bot")
        REINSTATE = "reinstate", _("Give a bot-held seat back to its player")
        ADJUDICATE = "adjudicate", _("Adjudicate the result")
        CORRECT_RESULT = "correct_result", _("Correct a finished match's result")
        UNDO = "undo", _("Undo moves")
        HIDE_MESSAGE = "hide_message", _("Hide a chat message")
        HIDE_COMMENT = "hide_comment", _("Hide a replay comment")
        RESOLVE_REPORT = "resolve_report", _("Resolve a report")
        DEACTIVATE_USER = "deactivate_user", _("Deactivate a user")
        RESEND_EMAIL = "resend_email", _("Send a failed email again")

    moderator = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.PROTECT)
    # One of ``Kind`` or a kind another app registered
    # (``games.moderation.audit.register_kinds``): no choices here, so an
    # app's kinds need no migration of this one.
    kind = models.CharField(max_length=20)
    match = models.ForeignKey(
        Match, on_delete=models.PROTECT, null=True, blank=True, related_name="moderation"
    )
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.PROTECT,
        null=True,
        blank=True,
        related_name="moderation_received",
    )
    reason = models.TextField()
    version_before = models.PositiveIntegerField(null=True, blank=True)
    version_after = models.PositiveIntegerField(null=True, blank=True)
    details = models.JSONField(default=dict, blank=True)
    created_at = models.DateTimeField(auto_now_add=True)

    objects = AppendOnlyQuerySet.as_manager()

    class Meta:
        ordering = ["-created_at"]
        permissions = [
            ("deactivate_user", "Can deactivate users"),
            ("resolve_report", "Can resolve reports"),
        ]

    def __str__(self):
        return f"{self.moderator} {self.kind} {self.match or self.user}"

    def save(self, *args, **kwargs):
        if self.pk is not None:
            raise PermissionError("The moderation log is append-only.")
        super().save(*args, **kwargs)

    def delete(self, *args, **kwargs):
        raise PermissionError("The moderation log is append-only.")


def pending_undo(match: Match) -> dict | None:
    """The open request to take back a move, if it still concerns the last move.

    Here (not in the selectors) because the notifications, below them, ask it too.
    """
    request = match.undo_request
    if not request or match.status != MatchStatus.ACTIVE:
        return None
    return request if request.get("seq") == match.version else None


def undo_judges(seats, seat_index: int) -> list[int]:
    """The human players who must agree to take back ``seat_index``'s move."""
    return [s.index for s in seats if s.index != seat_index and s.user_id and not s.played_by_bot]
