"""Bots: policies that choose one of the legal actions. ``random_bot`` plays on the state;
the levels ``heuristic`` and ``pimc`` (``heuristic``, ``pimc``) see only a seat's view, read
into a ``belief`` by the rule set; ``levels`` finds a level by name, ``arena`` plays them
against each other."""
