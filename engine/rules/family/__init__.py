"""The talon family: one machinery for the three-hand talon games of ``spec/next/`` (``kurz`` and
the Austrian family), each rule set giving only its data (not a rule set itself: nothing here
is registered; ``tests/engine/test_seam.py`` knows it as a library).

Terms: *Lizitieren* (auction), *Talon* (the two cards dealt to the table; *widow* in the
American game), *Handspiel* (a game without the talon, ``h``), *mitgehen / zu Hause bleiben*
(play / stay home), *Einladung* (invitation), *aufgeben* (giving up), *Kontra / Rekontra*,
*Bête* (a forced player's penalty), *Ante* (every seat's payment into a short pot).

A rule set is a :class:`engine.rules.family.spec.Family` value: its ladder and auction, the
contracts a winner may declare, which optional steps it asks (talon choice, defence,
invitation, give-up, no-aces, contra), its obligations and its settlement as a
:class:`engine.transfers.Book` of transfers. The rest is here, once:

- ``game``: the contract of a deal (:class:`Game`) and a rule set's options (:class:`Rules`);
- ``actions``: the family's action shapes (``talon``, ``give_up``, ``no_aces``, ``contra``,
  ``recontra``, ``offer``, ``second``, ``forced``, ``hand_contract``) and its vocabulary;
- ``hand``: :class:`Hand`, the one machine of a deal (the shared ``CardBoard`` plus the phases),
  driven by the validating path (through :class:`State`) and the fast path alike;
- ``state``: the immutable hand state; ``views``: ``view`` and ``known``;
- ``outcome``: the score-sheet entry; ``settle``: the pot, antes and results;
- ``messages``: the family's refusals (``engine.errors.Message``, codes ``family_…``);
  ``labels``: the display labels of its words (``RuleSet.labels``);
- ``ruleset``: :class:`FamilyRuleSet`, all of it behind ``engine.ruleset.RuleSet``.
"""
