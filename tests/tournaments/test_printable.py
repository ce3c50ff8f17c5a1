"""The printable standings: display names, times in the tournament's timezone, provisional
until the end, the tiebreak that decided each tie, an English page that says it is English,
a readable empty state, the entrants before the first result; and, in a real headless
Chromium (Debian's ``chromium`` package), a page that reads on a desktop and on a phone."""

from __future__ import annotations

import os
import shutil
import struct
import subprocess
import zlib
from pathlib import Path
from typing import Any
from zoneinfo import ZoneInfo

import pytest

from clubs.models import User
from tests.factories import UserFactory
from tests.helpers import client_for
from tests.tournaments.setup import make_field, seat
from tests.tournaments.test_lots_visibility import played
from tournaments import services
from tournaments.models import Tournament

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.usefixtures("eager_tasks")]

NAMES = [
    "Anna Berger",
    "Maximilian von Hohenzollern-Sigmaringen",
    "Zoë Österreicher",
    "Karl Brunner",
    "Berta Huber",
    "Franz Gruber",
    "Liesl Wagner",
    "Toni Pichler",
    "Resi Steiner",
]
ZONE = "Asia/Tokyo"


def named(players: list[User]) -> None:
    """Display names, which the players agreed to show in public (issue 39: else the public
    page shows their pseudonyms)."""
    for user, name in zip(players, NAMES, strict=False):
        User.objects.filter(pk=user.pk).update(display_name=name, public_name=True)


def finished(settings: Any) -> tuple[Tournament, dict[int, int]]:
    """The nine-player offline tournament of the lots tests, finished, with display names,
    a venue and the Tokyo timezone."""
    f, total = played(settings)
    named(f.players)
    Tournament.objects.filter(pk=f.tournament_id).update(timezone=ZONE, venue="Café Sperl")
    f.post("finish/")
    return f.tournament, total


def page(t: Tournament) -> str:
    answer = client_for(None).get(f"/api/v1/tournaments/{t.pk}/standings/print/")
    assert answer.status_code == 200
    return answer.content.decode()


def test_the_final_page_names_players_times_and_the_deciding_tiebreaks(settings) -> None:
    t, _ = finished(settings)
    html = page(t)
    assert '<html lang="en">' in html
    assert "Final standings" in html and "Provisional" not in html
    for name in NAMES:
        assert name in html
    assert "p001" not in html and "P001" not in html  # not the user names
    assert t.computed_at is not None
    as_of = t.computed_at.astimezone(ZoneInfo(ZONE)).strftime("%Y-%m-%d %H:%M")
    assert f"as of {as_of} JST" in html
    assert "Tie decided by" in html
    assert html.count('<td class="tie">lots</td>') == 6  # the -10, -20 and -25 pairs
    assert '<td class="tie">declarer wins 2</td>' in html
    assert '<td class="tie">declarer wins 1</td>' in html


def test_a_running_tournaments_page_is_provisional_and_breaks_no_tie_by_lots(settings) -> None:
    settings.STANDINGS_COALESCE_SECONDS = 0
    f, _ = played(settings)
    html = page(f.tournament)
    assert "Provisional standings" in html and "Final standings" not in html
    assert ">lots<" not in html
    assert "the draw is revealed at the end" in html


def test_the_entrants_are_listed_before_the_first_result(settings) -> None:
    settings.STANDINGS_COALESCE_SECONDS = 0
    f = make_field(6)
    named(f.players)
    anon = client_for(None)
    for moment in ("entered", "seated"):
        rows = anon.get(f.url + "standings/").json()["rows"]
        assert sorted(r["entry"] for r in rows) == sorted(e.pk for e in f.tournament.entries.all())
        assert {r["rank"] for r in rows} == {1} and {r["points"] for r in rows} == {"0"}
        html = page(f.tournament)
        assert "No results yet: these are the players entered so far." in html
        assert all(name in html for name in NAMES[:6])
        if moment == "entered":
            seat(f)


def test_an_empty_tournament_says_so() -> None:
    director = UserFactory.create(username="boss")
    t = services.tournament_create(user=director, name="Quiet Cup")
    services.tournament_open_registration(user=director, tournament=t)
    html = page(t)
    assert "Nobody has entered yet." in html
    assert "<table>" not in html


# --- a real browser ------------------------------------------------------------------------

CHROMIUM = shutil.which("chromium") or shutil.which("chromium-browser")


def png(path: Path) -> tuple[int, int, list[bytes]]:
    """Width, height and rows of RGB pixels of an 8-bit RGB or RGBA PNG (no dependency)."""
    data = path.read_bytes()
    assert data[:8] == b"\x89PNG\r\n\x1a\n"
    at, chunks, header = 8, b"", b""
    while at < len(data):
        (length,) = struct.unpack(">I", data[at : at + 4])
        kind, body = data[at + 4 : at + 8], data[at + 8 : at + 8 + length]
        if kind == b"IHDR":
            header = body
        elif kind == b"IDAT":
            chunks += body
        at += 12 + length
    width, height, depth, colour = struct.unpack(">IIBB", header[:10])
    assert depth == 8 and colour in (2, 6), (depth, colour)
    step = 3 if colour == 2 else 4
    raw, stride = zlib.decompress(chunks), width * step
    rows: list[bytes] = []
    previous = bytearray(stride)
    for y in range(height):
        kind, line = (
            raw[y * (stride + 1)],
            bytearray(raw[y * (stride + 1) + 1 : (y + 1) * (stride + 1)]),
        )
        for x in range(stride):
            left = line[x - step] if x >= step else 0
            up, corner = previous[x], previous[x - step] if x >= step else 0
            if kind == 1:
                line[x] = (line[x] + left) & 255
            elif kind == 2:
                line[x] = (line[x] + up) & 255
            elif kind == 3:
                line[x] = (line[x] + (left + up) // 2) & 255
            elif kind == 4:
                p = left + up - corner
                pa, pb, pc = abs(p - left), abs(p - up), abs(p - corner)
                line[x] = (
                    line[x] + (left if pa <= pb and pa <= pc else up if pb <= pc else corner)
                ) & 255
        previous = line
        rows.append(bytes(b for i in range(0, stride, step) for b in line[i : i + 3]))
    return width, height, rows


def chromium(*args: str) -> str:
    assert CHROMIUM is not None
    done = subprocess.run(
        [CHROMIUM, "--headless", "--no-sandbox", "--disable-gpu", "--hide-scrollbars", *args],
        capture_output=True,
        text=True,
        timeout=120,
        check=True,
    )
    return done.stdout


@pytest.mark.parametrize(
    ("device", "width", "height"), [("desktop", 1280, 800), ("phone", 390, 844)]
)
def test_the_printable_page_reads_in_a_real_browser(
    settings, live_server: Any, tmp_path: Path, device: str, width: int, height: int
) -> None:
    if CHROMIUM is None:  # CI installs it (.ci/run) and sets REQUIRE_SERVICES=1: no skip there
        if os.environ.get("REQUIRE_SERVICES") == "1":
            pytest.fail("REQUIRE_SERVICES=1 but Debian's chromium package is not installed")
        pytest.skip("needs Debian's chromium package (apt-get install chromium)")
    t, _ = finished(settings)
    url = f"{live_server.url}/api/v1/tournaments/{t.pk}/standings/print/"
    dom = chromium(f"--window-size={width},{height}", "--dump-dom", url)
    assert "Final standings" in dom
    assert all(name in dom for name in NAMES)
    shot = tmp_path / f"standings-{device}.png"
    chromium(f"--window-size={width},{height}", f"--screenshot={shot}", url)
    w, h, rows = png(shot)
    assert (w, h) == (width, height)
    colours = {row[i : i + 3] for row in rows[::7] for i in range(0, len(row), 21)}
    assert len(colours) > 5, "the screenshot is blank"
    # nothing runs off the right edge: the page's right margin stays white on every line
    # (an overflowing table would carry its borders and stripes across it)
    margin = {row[(w - 4) * 3 : w * 3] for row in rows}
    assert margin == {b"\xff" * 12}, f"something crosses the right margin at {device} width"
    keep = os.environ.get("PRINTABLE_SCREENSHOTS")  # a folder to keep them in, to look at
    if keep:
        shutil.copy(shot, Path(keep) / shot.name)
