"""The double-dummy analysis of a finished hand (``engine.solver.analysis``): computed once by
a worker (``games.tasks.analyse_hand``, the ``bots`` queue) and kept on the hand.

What may be analysed is what may be read in full: a hosted hand once it is over and not
withheld (the record endpoint's rules, :func:`games.hands.hand_full_record`); a
recorded hand entered as a full record (hand-record.md form 2: ``deal`` and ``actions``). The
analysis shows every hand, so it is never given before then.
"""

from __future__ import annotations

from typing import Any

from django.utils import timezone
from django.utils.translation import gettext as _

from config.tasks import send
from engine.solver.analysis import analyse
from games.errors import TableConflict
from games.hands import hand_common, hand_full_record
from games.models import Hand, Table


def analysis_record(table: Table, hand: Hand) -> dict[str, Any]:
    """The full record the analysis reads; 409 when there is none to read yet (a hand in
    progress or withheld) or at all (a hand recorded by its score-sheet entry)."""
    if table.mode == Table.Mode.HOSTED:
        return hand_full_record(table, hand)
    entry = hand.entry or {}
    if "deal" not in entry or "actions" not in entry:
        raise TableConflict(
            _(
                "Hand {number} was recorded from its score sheet, without the cards: record it "
                "as a full record (deal and actions) to have it analysed."
            ).format(number=hand.number),
            code="no_deal",
        )
    return {**hand_common(table, hand), **entry}


def hand_analysis(table: Table, hand: Hand) -> dict[str, Any] | None:
    """The hand's analysis, or ``None`` while a worker computes it (asked for here once)."""
    analysis_record(table, hand)  # 409 unless the hand may be read in full
    if hand.analysis is not None:
        return dict(hand.analysis)
    # nothing written here: the hand is committed
    send("games.tasks.analyse_hand", hand.pk, hand.version)
    return None


def compute_analysis(hand_id: int, version: int) -> None:
    """The worker's part: analyse the hand (as it is at ``version``) and keep the answer.
    Safe to run twice; a hand changed since (a corrected recorded hand) is left alone."""
    hand = Hand.objects.select_related("table").filter(pk=hand_id, version=version).first()
    if hand is None or hand.analysis is not None:
        return
    answer = analyse(analysis_record(hand.table, hand))
    # updated_at too: readers keep a snapshot of a hand until it changes (selectors)
    Hand.objects.filter(pk=hand_id, version=version, analysis__isnull=True).update(
        analysis=answer, updated_at=timezone.now()
    )
