"""E-mails the clubs app sends, through Django's e-mail framework.

The backend comes from settings (``EMAIL_BACKEND``; the console unless configured), the
sender is ``DEFAULT_FROM_EMAIL`` and links start with ``PUBLIC_BASE_URL``. A message is
built by a *body builder* (a function returning a :class:`Mail`: subject and plain-text
body, filled in from a template) and handed to :func:`send`, or to :func:`send_on_commit`
from inside a service's transaction so nothing goes out for a change that is rolled back.

A body builder speaks the active language: the caller renders each message inside
``translation.override(config.i18n.language_for(recipient, club))``, so that every recipient
reads their own language (their preference, else the club's), not the sender's.

Each recipient gets a message of their own: no one sees the others' addresses.
"""

from __future__ import annotations

import datetime as dt
import logging
import zoneinfo
from collections.abc import Iterable, Mapping
from dataclasses import dataclass

from django.conf import settings
from django.core.mail import EmailMessage
from django.db import transaction
from django.utils import dateformat
from django.utils.translation import gettext as _
from django.utils.translation import pgettext, pgettext_lazy

from clubs.models import User

logger = logging.getLogger(__name__)

SIGNATURE = "\n\n-- \nPréférence\n"


@dataclass(frozen=True, slots=True)
class Mail:
    """A message ready to send: its subject line and plain-text body."""

    subject: str
    body: str


def recipients(to: str | Iterable[str]) -> list[str]:
    """The addresses in ``to`` (one address or several), blanks and repeats dropped,
    compared case-insensitively."""
    addresses = [to] if isinstance(to, str) else list(to)
    seen: set[str] = set()
    out: list[str] = []
    for address in addresses:
        address = (address or "").strip()
        if address and address.lower() not in seen:
            seen.add(address.lower())
            out.append(address)
    return out


def send(to: str | Iterable[str], subject: str, body: str) -> int:
    """Send ``body`` under ``subject`` to every address in ``to``, one message each; returns
    how many were sent. Line breaks in the subject become spaces (names people typed end up
    there). Failures of the backend propagate."""
    subject = " ".join(subject.split())
    sent = 0
    for address in recipients(to):
        message = EmailMessage(
            subject=subject, body=body, from_email=settings.DEFAULT_FROM_EMAIL, to=[address]
        )
        sent += message.send()
    return sent


def send_mail(to: str | Iterable[str], mail: Mail) -> int:
    """:func:`send` for a built :class:`Mail`."""
    return send(to, mail.subject, mail.body)


def send_on_commit(to: str | Iterable[str], mail: Mail) -> None:
    """Send ``mail`` once the current transaction commits (at once outside one); a failing
    backend is logged and does not undo the committed change."""
    addresses = recipients(to)
    if not addresses:
        return
    transaction.on_commit(lambda: send_mail(addresses, mail), robust=True)


def render(template: str, values: Mapping[str, object]) -> str:
    """Fill ``{name}`` placeholders in ``template`` (``str.format``, the template translated
    first); a missing value is an error, so a message never goes out with a hole in it."""
    return template.format(**{k: str(v) for k, v in values.items()})


def link(path: str) -> str:
    """An absolute link to ``path`` (``/api/v1/…``) on this server, as people reach it."""
    return settings.PUBLIC_BASE_URL.rstrip("/") + "/" + path.lstrip("/")


def when(moment: dt.datetime, timezone_name: str) -> str:
    """``moment`` as a person reads it in ``timezone_name``, in the active language: ``Friday
    14 March 2025, 19:30 (Europe/Vienna)``, in German ``Freitag, 14.03.2025, 19:30
    (Europe/Vienna)``; an unknown zone falls back to UTC."""
    try:
        zone = zoneinfo.ZoneInfo(timezone_name)
    except (zoneinfo.ZoneInfoNotFoundError, ValueError):
        zone, timezone_name = zoneinfo.ZoneInfo("UTC"), "UTC"
    # Translators: how e-mails write a date and time, in Django's date format characters: l the
    # weekday, j the day (d with a leading zero), F the month (m as a number), Y the year, H:i
    # the hours and minutes. German: "l, d.m.Y, H:i" (Freitag, 14.03.2025, 19:30).
    pattern = pgettext("date and time in an e-mail", "l j F Y, H:i")
    return f"{dateformat.format(moment.astimezone(zone), pattern)} ({timezone_name})"


def owner_of(address: str) -> User | None:
    """The account that has confirmed ``address`` (in any case), whose language an e-mail to
    that address speaks; None when no account has (an invitation to a newcomer then speaks
    the club's language). An unconfirmed address says nothing: anyone may type it."""
    address = address.strip()
    if not address:
        return None
    return User.objects.filter(email__iexact=address, email_verified_at__isnull=False).first()


# ---------------------------------------------------------------------------------------------
# body builders

#: How an invitation names the role it gives: "… to join the club as {role}".
INVITED_AS = {
    "member": pgettext_lazy("invited as", "a member"),
    "scorer": pgettext_lazy("invited as", "a scorer"),
    "admin": pgettext_lazy("invited as", "an admin"),
}


def email_verification_mail(
    *, user: str, email: str, token: str, url: str, expires_at: dt.datetime
) -> Mail:
    """Asks the owner of an address to confirm it for an account, with the signed token and
    until when it is valid (in UTC: the account has no time zone). In the active language."""
    values = {
        "user": user,
        "email": email,
        "token": token,
        "request": f'POST {url}\n    {{"token": "{token}"}}',
        "expires": when(expires_at, "UTC"),
    }
    subject = _("Confirm your e-mail address")
    body = _(
        """Hello {user},

please confirm that {email} is your address for your Préférence account: enter this
confirmation code in the app, or send it yourself with

    {request}

Confirmation code: {token}
The code is valid until {expires}.

Until the address is confirmed, invitations sent to it do not show in your account.
If you did not ask for this, ignore this e-mail: the address stays unconfirmed."""
    )
    return Mail(subject=render(subject, values), body=render(body, values) + SIGNATURE)


def invitation_mail(
    *,
    club_name: str,
    role: str,
    url: str,
    code: str,
    expires_at: dt.datetime,
    timezone_name: str,
    inviter: str,
) -> Mail:
    """The invitation to join a club: who invites, as what, the link and code, and until
    when it is valid (in the club's time zone). In the active language."""
    values = {
        "club": club_name,
        "role": INVITED_AS.get(role, role),
        "url": url,
        "accept": f"POST {url}accept/",
        "code": code,
        "expires": when(expires_at, timezone_name),
        "inviter": inviter or _("An organiser"),
    }
    subject = _("You are invited to join {club}")
    body = _(
        """Hello,

{inviter} invites you to join {club} as {role}.

To accept, sign in (or register) and accept the invitation:

    {accept}

Open the link to see the invitation:

    {url}

Invitation code: {code}
The invitation is valid until {expires}.

If you do not know {club}, ignore this e-mail."""
    )
    return Mail(subject=render(subject, values), body=render(body, values) + SIGNATURE)


def join_request_mail(
    *, club_name: str, user: str, message: str, request_id: int, requests_url: str
) -> Mail:
    """Tells a club's owners and admins that someone asks to join. In the active language."""
    said = _('Their message: "{message}"').format(message=message) if message else ""
    values = {
        "club": club_name,
        "user": user,
        "message": f"\n\n{said}" if said else "",
        "request_id": request_id,
        "accept": f"POST {requests_url}{request_id}/accept/",
        "decline": f"POST {requests_url}{request_id}/decline/",
        "pending": f"{requests_url}?status=pending",
    }
    subject = _("{user} asks to join {club}")
    body = _(
        """Hello,

{user} asks to join {club}.{message}

Accept or decline the request (number {request_id}) with

    {accept}
    {decline}

and see every pending request at

    {pending}"""
    )
    return Mail(subject=render(subject, values), body=render(body, values) + SIGNATURE)


def join_accepted_mail(*, club_name: str, user: str, club_url: str) -> Mail:
    """Tells someone who asked to join that they are in. In the active language."""
    values = {"club": club_name, "user": user, "url": club_url}
    subject = _("Welcome to {club}")
    body = _(
        """Hello {user},

your request to join {club} has been accepted: you are a member now.

The club: {url}"""
    )
    return Mail(subject=render(subject, values), body=render(body, values) + SIGNATURE)
