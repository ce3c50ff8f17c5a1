"""``trickgame``: a small trick game of four, registered by the test suite only (issue 37,
"the proof"). It exists to show that a new game touches only its own package and one
registration line: everything the server, the schema and the clients know of it comes
through the seam (``engine.ruleset.RuleSet``) from this package.

The rules. Four players, all of whom play (the dealer last); 16 cards, the jack, queen, king
and ace of clubs, spades, diamonds and hearts (J < Q < K < A), four to each player in two
packets of two. One round of bids from forehand: each player bids how many of the four tricks
he will take (0 to 4); the dealer, bidding last, may not bring the bids to exactly 4 (*the
hook*). The first trick is led by the highest bidder, the first of equal bids (or by
forehand, ``lead: "forehand"``); then by the winner of the last trick. Follow suit; no
trumps; the highest card of the led suit wins.

A player who takes exactly his bid is *exact*: each player who missed his bid pays him
``(bid + 1) × trick_value`` (``why`` ``exact``); an exact bid of 0 (*nil*) is also paid
``nil_bonus`` by each other player (``why`` ``nil``). Players pay one another: nothing
carries between deals. The game is ``quiet`` when every bid is 0, a ``sweep`` (the premium
game) when someone bids all four tricks, else a ``contest`` of the highest bid; its
declarer is the highest bidder.

Modules, as an ``engine/rules/<name>/`` package would have them: ``rules`` (the options),
``hand`` (the deck, the actions, the hand state, legal actions, apply, views), ``results``
(the score-sheet entry and the settlement), ``schema`` (the API shapes), ``ruleset``
(:data:`RULE_SET`), ``registered`` (importing it registers the rule set:
``tests/settings.py`` does, before the settings read the registry).
"""

from __future__ import annotations

from tests.trickgame.ruleset import RULE_SET, TrickGame

__all__ = ["RULE_SET", "TrickGame"]
