"""Bots: policies that choose one of ``legal_actions(state)``. Stronger bots come with the
solver; they see only what ``engine.views.view`` shows their seat."""
