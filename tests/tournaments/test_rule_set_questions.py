"""What a tournament asks its rule set instead of knowing rule sets by name (issue 37): the
option that prices a score unit (``RuleSet.point_price``), the deals after which every seat
of a table has dealt equally often (``RuleSet.deal_cycle``) and, in duplicate scoring, the
names of a deal's active positions (``RuleSet.positions``).

A rule set that answers differently from every registered one is a registered one's copy
under another name, registered for the engine only for one test (as ``tests/preview.py``
does) and taken out of the registry afterwards."""

from __future__ import annotations

import dataclasses
import math
import random
from collections import Counter, defaultdict
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

import pytest

import engine
from engine import rules as registry
from games.models import Hand
from tests.factories import UserFactory
from tests.tournaments.setup import RULES, make_field, play, seat
from tournaments.errors import InvalidInput, TournamentConflict
from tournaments.models import RoundSeat, RoundTable, Tournament
from tournaments.selectors import score_price
from tournaments.services import rounds, standings, tournaments

AnyRuleSet = engine.RuleSet[Any, Any, Any]
TRICKGAME = {"variant": "trickgame"}
PREFERANS = {"variant": "preferans", "convention": "sochi", "pool_target": 20, "whist_value": 10}


@contextmanager
def registered(copy: AnyRuleSet) -> Iterator[AnyRuleSet]:
    """``copy`` registered for the engine only while the block runs."""
    registry.register(copy, offered=False)
    try:
        yield copy
    finally:
        registry._REGISTRY.pop(copy.name, None)  # the registry has no unregister: tests only
        registry._ENGINE_ONLY.discard(copy.name)


def test_a_score_unit_is_priced_by_the_option_its_rule_set_names() -> None:
    """A copy of Preferans whose whists are priced by another option (``pool_target``, for
    the test's sake): the tournament's price is that option's value, not ``whist_value``."""
    copy = dataclasses.replace(
        engine.rule_set("preferans"), name="preferans-priced", point_price="pool_target"
    )
    with registered(copy):
        t = Tournament(rules={**PREFERANS, "variant": copy.name})
        assert score_price(t) == 20
    assert score_price(Tournament(rules=PREFERANS)) == 10
    assert score_price(Tournament(rules={"variant": "doppelkopf-ddv", "point_value": 7})) == 7
    assert score_price(Tournament(rules={"variant": "wien"})) == 1  # money already


def slow_dealer(base: AnyRuleSet) -> AnyRuleSet:
    """``base`` again as ``<name>-slow``, where every seat of a table deals twice in a row:
    a table of n seats deals equally after 2n deals."""

    class SlowDealer(type(base)):  # type: ignore[misc]
        def deal_cycle(self, seats: int) -> int:
            return 2 * seats

    fields = {f.name: getattr(base, f.name) for f in dataclasses.fields(base) if f.init}
    return SlowDealer(**{**fields, "name": f"{base.name}-slow"})  # type: ignore[no-any-return]


def test_the_deal_advice_comes_from_the_rule_sets_deal_cycle() -> None:
    wien = Tournament(rules={"variant": "wien"}, deals_per_round=9)
    rounds.check_deals(wien, [3, 3])
    with pytest.raises(TournamentConflict) as refused:
        rounds.check_deals(wien, [3, 3, 4])
    assert refused.value.code == "deals_not_divisible"
    assert refused.value.message == (
        "This round needs a table of 4, and 9 deals cannot be dealt equally there: use a "
        "multiple of 12 deals per round, or change the number of players so that only tables "
        "of 3 are needed."
    )
    with registered(slow_dealer(engine.rule_set("wien"))) as copy:
        slow = Tournament(rules={"variant": copy.name}, deals_per_round=9)
        with pytest.raises(TournamentConflict) as refused:
            rounds.check_deals(slow, [3, 3])  # 9 deals suit wien's tables of 3, not these
        assert refused.value.message == (
            "This round needs a table of 3, and 9 deals cannot be dealt equally there: use a "
            "multiple of 6 deals per round."
        )
        rounds.check_deals(Tournament(rules={"variant": copy.name}, deals_per_round=24), [3, 4])


#: The rule sets whose deals compare seat by seat (duplicate scoring is not refused for them).
DUPLICATE = [
    pytest.param(rs, id=rs.name, marks=() if rs.name == "wien" else pytest.mark.slow)
    for rs in engine.rule_sets()
    if rs.score_unit is None and rs.unlike_deals is None and rs.round_deals is None
]


@pytest.mark.django_db(transaction=True)
@pytest.mark.usefixtures("eager_tasks")
@pytest.mark.parametrize("rs", DUPLICATE)
def test_duplicate_boards_compare_the_rule_sets_positions(rs: AnyRuleSet) -> None:
    """Two tables of the rule set's preferred size play the same boards; each board's result
    at each table is one per active position, named as the rule set names them (a rule set
    of four active seats compares four)."""
    size = rs.table.players if rs.table.players in rs.table.seats else min(rs.table.seats)
    deals = math.lcm(3, rs.deal_cycle(size))
    f = make_field(2 * size, rules=rs.examples[0], scoring="duplicate", deals_per_round=deals)
    seat(f)
    play(f, 1, random.Random(37))
    sittings, boards, players = standings.inputs(f.tournament)
    assert len(players) == 2 * size
    # declarer games won: what the rule set answers of each whole result (random entries
    # seldom make a game: the declarers are there, the wins may be none)
    wins: Counter[int] = Counter()
    declared = 0
    for link in RoundTable.objects.filter(round__tournament_id=f.tournament_id):
        entry = dict(RoundSeat.objects.filter(round_table=link).values_list("seat", "entry_id"))
        for hand in Hand.objects.filter(table_id=link.table_id, status=Hand.Status.DONE):
            answer = rs.statistics(hand.result)
            declared += answer["declarer"] in entry
            if answer["declarer"] in entry and answer["made"] is True:
                wins[entry[answer["declarer"]]] += 1
    counted = Counter({p: n for s in sittings for p, n in s.declarer_wins.items() if n})
    assert counted == wins
    assert declared or rs.name != "wien"
    at: dict[tuple[int, int], Counter[str]] = defaultdict(Counter)
    for result in boards:
        at[(result.table, result.board)][result.direction] += 1
    assert len(at) == 2 * deals
    assert all(directions == Counter(rs.positions) for directions in at.values())
    assert len(rs.positions) == rs.table.players


@pytest.mark.django_db
def test_a_tournaments_deals_per_round_suit_a_table_its_rule_set_seats() -> None:
    """Each seat deals equally often at some table of the rule set (``RuleSet.deal_cycle`` of
    one of its table sizes), not at a fixed table of three: wien's tables of 3 and of 4 take 9
    or 4 deals, trickgame's tables of four take 4; a number that suits no table is a 400
    naming the multiples."""
    director = UserFactory.create(username="td")
    for rules, deals in ((RULES, 9), (RULES, 4), (TRICKGAME, 4)):
        t = tournaments.tournament_create(
            user=director, name=f"{rules['variant']} {deals}", rules=rules, deals_per_round=deals
        )
        assert t.deals_per_round == deals
    with pytest.raises(InvalidInput) as refused:
        tournaments.tournament_create(
            user=director, name="wien 10", rules=RULES, deals_per_round=10
        )
    assert refused.value.message == (
        "Each seat deals equally often: give a multiple of 3 (for a table of 3) or 4 (for a "
        "table of 4) deals per round, a multiple of 12 where any of them may be needed; 10 "
        "suits no table of wien."
    )
    assert refused.value.fields == {"deals_per_round": [refused.value.message]}
    t = tournaments.tournament_create(user=director, name="trick", rules=TRICKGAME)
    with pytest.raises(InvalidInput) as refused:
        tournaments.tournament_update(user=director, tournament=t, deals_per_round=6)
    assert refused.value.message == (
        "Each seat deals equally often: give a multiple of 4 (for a table of 4) deals per "
        "round; 6 suits no table of trickgame."
    )
