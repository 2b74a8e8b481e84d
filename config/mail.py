"""Email printed to the console, readable: the embedded default (``consolemail://``).

Django's console backend prints the MIME message as it would be sent, so
text in Polish or Czech is quoted-printable and every long line, links
included, is broken with ``=`` at 76 characters: a copied confirmation link
is dead. This one prints the headers a person reads and the plain-text body
as written, each link whole on its line, and names the other parts (the HTML
alternative) without printing them.
"""

from __future__ import annotations

from django.core.mail.backends.console import EmailBackend

SHOWN_HEADERS = ("List-Unsubscribe",)


class ConsoleEmailBackend(EmailBackend):
    def write_message(self, message):
        lines = [
            f"Subject: {message.subject}",
            f"From: {message.from_email}",
            f"To: {', '.join(message.to)}",
        ]
        if message.cc:
            lines.append(f"Cc: {', '.join(message.cc)}")
        for name, value in message.extra_headers.items():
            if name in SHOWN_HEADERS:
                lines.append(f"{name}: {value}")
        lines += ["", message.body.rstrip("\n")]
        for alternative in getattr(message, "alternatives", []):
            mimetype = getattr(alternative, "mimetype", None) or alternative[1]
            lines.append(f"[and a {mimetype} part, not shown]")
        for attachment in message.attachments:
            name = getattr(attachment, "filename", None) or "attachment"
            lines.append(f"[attachment: {name}]")
        self.stream.write("\n".join(lines) + "\n")
        self.stream.write("-" * 79 + "\n")
