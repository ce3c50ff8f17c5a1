"""The name and tag of every operation in the schema, in one place.

Client generators turn an ``operationId`` into a function name and a tag into a module or
class (openapi-python-client: ``api/<tag>/<operation_id>.py``; OpenAPI Generator: one
``<Tag>Api`` class per tag; openapi-typescript: ``operations["<operation_id>"]``), so these
names are part of the API: once released they stay (``tests/config/test_schema_snapshot.py``
compares them with ``docs/openapi-released.yaml``).

The rule: ``<resource>_<verb>``, the resource plural and snake_case as in the path, the verb
one of ``list``, ``create``, ``get``, ``update`` (PATCH), or the command the operation
performs (``close``, ``seat``, ``accept``, …); a document of a resource is
``<resource>_get_<document>`` (``tables_get_sheet``). The tag is the resource the
operationId names (``evening_tables_list`` is ``evening tables``, not ``evening rounds``), so
a resource's documents and commands sit with it (``tables_get_settlement``,
``evenings_get_settlement``, ``tournaments_get_settlement``); a tag that holds several small
resources lists them in :data:`GROUPS` (``tests/config/test_operation_names.py`` checks
both). The schema hook :func:`config.api.schema.finish_schema` applies the table and refuses
an operation missing from it, so a new endpoint names itself here.
"""

from __future__ import annotations

#: Tag → what the group holds, in the order the documentation shows them.
TAGS: dict[str, str] = {
    "auth": "Sign up, sign in, refresh a token, sign out and confirm an e-mail address.",
    "me": "The signed-in player: profile, everything that is theirs across clubs, the export "
    "of their data and erasing their account.",
    "rules": "The rule sets a table may play by: their options, defaults, table shapes and "
    "bot levels.",
    "tables": "Card tables: recorded score sheets and hosted online tables.",
    "hands": "The hands of a table: score-sheet entries, deals, moves and views.",
    "series": "Series of tables whose balances are settled together.",
    "clubs": "Clubs, their settings and their calendar of evenings.",
    "members": "A club's members and their roles.",
    "invitations": "Invitations into a club, by e-mail or link.",
    "join requests": "Players asking to join a club.",
    "guests": "Players without an account who sit in at a club's evenings.",
    "evening series": "Recurring club evenings.",
    "evenings": "Club evenings: planning, closing and settlement.",
    "attendance": "Who comes to an evening and who is checked in.",
    "evening rounds": "The rounds of a club evening: seating, starting and swapping players.",
    "evening tables": "The card tables of a club evening, of every round.",
    "seasons": "Leagues over a club's evenings and their standings.",
    "ratings": "A club's player ratings.",
    "calendars": "Personal calendar feeds (iCalendar) of the club evenings of your clubs.",
    "devices": "Your phones and browsers that receive push notifications (APNs, FCM, Web "
    "Push), the notifications sent to you, and the server's Web Push key.",
    "tournaments": "Tournaments, their directors and lifecycle, standings, prize settlement "
    "and exports (hands and standings as files).",
    "entries": "Players entered in a tournament and their results.",
    "tournament invitations": "Invitations to direct or to play in a tournament, answered by "
    "the invited person.",
    "tournament rounds": "A tournament's rounds: seating, starting, closing and boards.",
    "tournament tables": "The tables of a tournament round and who sits where.",
    "totals": "Table totals entered and confirmed in a tournament round.",
    "cups": "Cups and ranking lists over many tournaments: the cup, its directors and "
    "lifecycle, its events (tournaments on this server and imported ones) and their results, "
    "its players and their histories, standings, the final, exports, your own cups and a "
    "tournament's cups.",
    "webhooks": "Notifications of tournament events to other servers.",
    "cup webhooks": "Notifications of a cup's events (new standings, the end) to other servers.",
    "root": "The API's entry point.",
    "pings": "A round trip through a worker, to see that the service works.",
}

#: Tags that hold resources besides the one they name: tag → those resources (the first part
#: of their operationIds).
GROUPS: dict[str, tuple[str, ...]] = {
    "auth": ("accounts", "tokens", "emails"),
    "me": (
        "my_clubs",
        "my_evenings",
        "my_exports",
        "my_invitations",
        "my_tables",
        "my_tournaments",
    ),
    "calendars": ("calendar_feeds",),
    "attendance": ("attendances", "check_ins"),
    "webhooks": ("webhook_deliveries",),
    "cup webhooks": ("cup_webhook_deliveries",),
    "devices": ("inbox", "web_push_key"),
    "cups": ("cup_events", "cup_players", "my_cups", "tournament_cups"),
}

_CLUB = "/api/v1/clubs/{club_id}"
_EVENING = _CLUB + "/evenings/{evening_id}"
_TABLE = "/api/v1/tables/{table_id}"
_TOURNAMENT = "/api/v1/tournaments/{tournament_id}"
_ROUND = _TOURNAMENT + "/rounds/{round_number}"
_CUP = "/api/v1/cups/{cup_id}"
_CUP_EVENT = _CUP + "/events/{event_id}"
_CUP_PLAYER = _CUP + "/players/{player_id}"
_CUP_WEBHOOKS = "/api/v1/cups/{cup_id}/webhooks/"
_CUP_WEBHOOK = _CUP_WEBHOOKS + "{webhook_id}/"

#: (method, path) → (operationId, tag).
OPERATIONS: dict[tuple[str, str], tuple[str, str]] = {
    ("GET", "/api/v1/"): ("root_get", "root"),
    ("POST", "/api/v1/auth/register/"): ("accounts_register", "auth"),
    ("POST", "/api/v1/auth/token/"): ("tokens_create", "auth"),
    ("POST", "/api/v1/auth/token/refresh/"): ("tokens_refresh", "auth"),
    ("POST", "/api/v1/auth/token/revoke/"): ("tokens_revoke", "auth"),
    ("POST", "/api/v1/auth/token/revoke-all/"): ("tokens_revoke_all", "auth"),
    ("POST", "/api/v1/auth/email/verify/"): ("emails_verify", "auth"),
    # The signed-in player.
    ("GET", "/api/v1/me/"): ("me_get", "me"),
    ("PATCH", "/api/v1/me/"): ("me_update", "me"),
    ("DELETE", "/api/v1/me/"): ("me_erase", "me"),
    ("GET", "/api/v1/me/export/"): ("me_export", "me"),
    ("GET", "/api/v1/me/exports/{export_id}/"): ("my_exports_get", "me"),
    ("GET", "/api/v1/me/exports/{export_id}/download/"): ("my_exports_download", "me"),
    ("POST", "/api/v1/me/email/resend/"): ("me_resend_email_verification", "me"),
    ("GET", "/api/v1/me/clubs/"): ("my_clubs_list", "me"),
    ("GET", "/api/v1/me/evenings/"): ("my_evenings_list", "me"),
    ("GET", "/api/v1/me/invitations/"): ("my_invitations_list", "me"),
    ("GET", "/api/v1/me/tables/"): ("my_tables_list", "me"),
    ("GET", "/api/v1/me/tournaments/"): ("my_tournaments_list", "me"),
    # Calendars.
    ("GET", "/api/v1/me/calendar-feeds/"): ("calendar_feeds_list", "calendars"),
    ("POST", "/api/v1/me/calendar-feeds/"): ("calendar_feeds_create", "calendars"),
    ("DELETE", "/api/v1/me/calendar-feeds/{feed_id}/"): ("calendar_feeds_revoke", "calendars"),
    ("GET", "/api/v1/me/devices/"): ("devices_list", "devices"),
    ("POST", "/api/v1/me/devices/"): ("devices_register", "devices"),
    ("DELETE", "/api/v1/me/devices/{device_id}/"): ("devices_revoke", "devices"),
    ("GET", "/api/v1/me/inbox/"): ("inbox_list", "devices"),
    ("GET", "/api/v1/push/web-push-key/"): ("web_push_key_retrieve", "devices"),
    ("GET", "/api/v1/calendar/{token}.ics"): ("calendar_feeds_download", "calendars"),
    ("GET", _CLUB + "/calendar.ics"): ("clubs_download_calendar", "clubs"),
    # Tables and hands.
    # The rule sets (public).
    ("GET", "/api/v1/rules/"): ("rules_list", "rules"),
    ("GET", "/api/v1/rules/{variant}/"): ("rules_get", "rules"),
    ("GET", "/api/v1/tables/"): ("tables_list", "tables"),
    ("POST", "/api/v1/tables/"): ("tables_create", "tables"),
    ("GET", _TABLE + "/"): ("tables_get", "tables"),
    ("GET", _TABLE + "/audit/"): ("tables_list_audit", "tables"),
    ("GET", _TABLE + "/balances/"): ("tables_get_balances", "tables"),
    ("POST", _TABLE + "/close/"): ("tables_close", "tables"),
    ("POST", _TABLE + "/reopen/"): ("tables_reopen", "tables"),
    ("POST", _TABLE + "/back/"): ("tables_come_back", "tables"),
    ("GET", _TABLE + "/ledger/"): ("tables_list_ledger", "tables"),
    ("GET", _TABLE + "/settlement/"): ("tables_get_settlement", "tables"),
    ("GET", _TABLE + "/sheet/"): ("tables_get_sheet", "tables"),
    ("GET", _TABLE + "/sheet.csv"): ("tables_get_sheet_csv", "tables"),
    ("GET", _TABLE + "/hands/"): ("hands_list", "hands"),
    ("POST", _TABLE + "/hands/"): ("hands_create", "hands"),
    ("GET", _TABLE + "/hands/{number}/"): ("hands_get", "hands"),
    ("PUT", _TABLE + "/hands/{number}/"): ("hands_correct", "hands"),
    ("DELETE", _TABLE + "/hands/{number}/"): ("hands_delete", "hands"),
    ("POST", _TABLE + "/hands/{number}/actions/"): ("hands_act", "hands"),
    ("POST", _TABLE + "/hands/{number}/confirm/"): ("hands_confirm", "hands"),
    ("GET", _TABLE + "/hands/{number}/events/"): ("hands_get_events", "hands"),
    ("GET", _TABLE + "/hands/{number}/record/"): ("hands_get_record", "hands"),
    ("GET", _TABLE + "/hands/{number}/analysis/"): ("hands_get_analysis", "hands"),
    ("GET", _TABLE + "/hands/{number}/hint/"): ("hands_get_hint", "hands"),
    ("GET", _TABLE + "/hands/{number}/view/"): ("hands_get_view", "hands"),
    ("GET", "/api/v1/series/"): ("series_list", "series"),
    ("POST", "/api/v1/series/"): ("series_create", "series"),
    ("GET", "/api/v1/series/{series_id}/"): ("series_get", "series"),
    # Clubs.
    ("GET", "/api/v1/clubs/"): ("clubs_list", "clubs"),
    ("POST", "/api/v1/clubs/"): ("clubs_create", "clubs"),
    ("GET", _CLUB + "/"): ("clubs_get", "clubs"),
    ("PATCH", _CLUB + "/"): ("clubs_update", "clubs"),
    ("POST", _CLUB + "/leave/"): ("clubs_leave", "clubs"),
    ("POST", _CLUB + "/transfer-ownership/"): ("clubs_transfer_ownership", "clubs"),
    ("GET", _CLUB + "/members/"): ("members_list", "members"),
    ("PATCH", _CLUB + "/members/{user_id}/"): ("members_update", "members"),
    ("DELETE", _CLUB + "/members/{user_id}/"): ("members_remove", "members"),
    ("GET", _CLUB + "/members/{user_id}/export/"): ("members_export", "members"),
    ("GET", _CLUB + "/invitations/"): ("invitations_list", "invitations"),
    ("POST", _CLUB + "/invitations/"): ("invitations_create", "invitations"),
    ("DELETE", _CLUB + "/invitations/{invitation_id}/"): ("invitations_revoke", "invitations"),
    ("GET", "/api/v1/invitations/{code}/"): ("invitations_get", "invitations"),
    ("POST", "/api/v1/invitations/{code}/accept/"): ("invitations_accept", "invitations"),
    ("GET", _CLUB + "/join-requests/"): ("join_requests_list", "join requests"),
    ("POST", _CLUB + "/join-requests/"): ("join_requests_create", "join requests"),
    ("DELETE", _CLUB + "/join-requests/{request_id}/"): (
        "join_requests_withdraw",
        "join requests",
    ),
    ("POST", _CLUB + "/join-requests/{request_id}/accept/"): (
        "join_requests_accept",
        "join requests",
    ),
    ("POST", _CLUB + "/join-requests/{request_id}/decline/"): (
        "join_requests_decline",
        "join requests",
    ),
    ("GET", _CLUB + "/guests/"): ("guests_list", "guests"),
    ("POST", _CLUB + "/guests/"): ("guests_create", "guests"),
    ("POST", _CLUB + "/guests/{guest_id}/merge/"): ("guests_merge", "guests"),
    # Evenings.
    ("GET", _CLUB + "/evening-series/"): ("evening_series_list", "evening series"),
    ("POST", _CLUB + "/evening-series/"): ("evening_series_create", "evening series"),
    ("GET", _CLUB + "/evening-series/{series_id}/"): ("evening_series_get", "evening series"),
    ("PATCH", _CLUB + "/evening-series/{series_id}/"): (
        "evening_series_update",
        "evening series",
    ),
    ("DELETE", _CLUB + "/evening-series/{series_id}/"): ("evening_series_end", "evening series"),
    ("GET", _CLUB + "/evenings/"): ("evenings_list", "evenings"),
    ("POST", _CLUB + "/evenings/"): ("evenings_create", "evenings"),
    ("GET", _EVENING + "/"): ("evenings_get", "evenings"),
    ("PATCH", _EVENING + "/"): ("evenings_update", "evenings"),
    ("POST", _EVENING + "/cancel/"): ("evenings_cancel", "evenings"),
    ("POST", _EVENING + "/close/"): ("evenings_close", "evenings"),
    ("GET", _EVENING + "/settlement/"): ("evenings_get_settlement", "evenings"),
    ("GET", _EVENING + "/settlement.csv"): ("evenings_get_settlement_csv", "evenings"),
    ("PUT", _EVENING + "/attendance/"): ("attendances_reply", "attendance"),
    ("GET", _EVENING + "/attendances/"): ("attendances_list", "attendance"),
    ("POST", _EVENING + "/check-ins/"): ("check_ins_create", "attendance"),
    ("DELETE", _EVENING + "/check-ins/{attendance_id}/"): ("check_ins_undo", "attendance"),
    ("POST", _EVENING + "/check-ins/{attendance_id}/leave/"): ("check_ins_leave", "attendance"),
    ("GET", _EVENING + "/rounds/"): ("evening_rounds_list", "evening rounds"),
    ("POST", _EVENING + "/rounds/"): ("evening_rounds_plan", "evening rounds"),
    ("GET", _EVENING + "/rounds/{round_number}/"): ("evening_rounds_get", "evening rounds"),
    ("DELETE", _EVENING + "/rounds/{round_number}/"): (
        "evening_rounds_discard",
        "evening rounds",
    ),
    ("POST", _EVENING + "/rounds/{round_number}/start/"): (
        "evening_rounds_start",
        "evening rounds",
    ),
    ("POST", _EVENING + "/rounds/{round_number}/swap/"): ("evening_rounds_swap", "evening rounds"),
    ("GET", _EVENING + "/tables/"): ("evening_tables_list", "evening tables"),
    # Seasons and ratings.
    ("GET", _CLUB + "/seasons/"): ("seasons_list", "seasons"),
    ("POST", _CLUB + "/seasons/"): ("seasons_create", "seasons"),
    ("GET", _CLUB + "/seasons/{season_id}/"): ("seasons_get", "seasons"),
    ("PATCH", _CLUB + "/seasons/{season_id}/"): ("seasons_update", "seasons"),
    ("DELETE", _CLUB + "/seasons/{season_id}/"): ("seasons_delete", "seasons"),
    ("POST", _CLUB + "/seasons/{season_id}/recompute/"): ("seasons_recompute", "seasons"),
    ("GET", _CLUB + "/seasons/{season_id}/standings/"): ("seasons_get_standings", "seasons"),
    ("GET", _CLUB + "/ratings/"): ("ratings_list", "ratings"),
    ("GET", _CLUB + "/ratings/history/"): ("ratings_list_history", "ratings"),
    # Tournaments.
    ("GET", "/api/v1/tournaments/"): ("tournaments_list", "tournaments"),
    ("POST", "/api/v1/tournaments/"): ("tournaments_create", "tournaments"),
    ("GET", _TOURNAMENT + "/"): ("tournaments_get", "tournaments"),
    ("PATCH", _TOURNAMENT + "/"): ("tournaments_update", "tournaments"),
    ("DELETE", _TOURNAMENT + "/"): ("tournaments_delete", "tournaments"),
    ("GET", _TOURNAMENT + "/me/"): ("tournaments_get_mine", "tournaments"),
    ("GET", _TOURNAMENT + "/log/"): ("tournaments_get_log", "tournaments"),
    ("POST", _TOURNAMENT + "/directors/"): ("tournaments_add_director", "tournaments"),
    ("DELETE", _TOURNAMENT + "/directors/{user_id}/"): (
        "tournaments_remove_director",
        "tournaments",
    ),
    ("POST", _TOURNAMENT + "/open-registration/"): (
        "tournaments_open_registration",
        "tournaments",
    ),
    ("POST", _TOURNAMENT + "/open-check-in/"): ("tournaments_open_check_in", "tournaments"),
    ("POST", _TOURNAMENT + "/finish/"): ("tournaments_finish", "tournaments"),
    ("POST", _TOURNAMENT + "/reopen/"): ("tournaments_reopen", "tournaments"),
    ("GET", "/api/v1/me/tournament-invitations/"): (
        "tournament_invitations_list",
        "tournament invitations",
    ),
    ("POST", "/api/v1/me/tournament-invitations/{invitation_id}/accept/"): (
        "tournament_invitations_accept",
        "tournament invitations",
    ),
    ("POST", "/api/v1/me/tournament-invitations/{invitation_id}/decline/"): (
        "tournament_invitations_decline",
        "tournament invitations",
    ),
    ("GET", _TOURNAMENT + "/entries/"): ("entries_list", "entries"),
    ("POST", _TOURNAMENT + "/entries/"): ("entries_create", "entries"),
    ("GET", _TOURNAMENT + "/entries/{entry_id}/"): ("entries_get", "entries"),
    ("POST", _TOURNAMENT + "/entries/{entry_id}/check-in/"): ("entries_check_in", "entries"),
    ("POST", _TOURNAMENT + "/entries/{entry_id}/withdraw/"): ("entries_withdraw", "entries"),
    ("POST", _TOURNAMENT + "/entries/{entry_id}/warn/"): ("entries_warn", "entries"),
    ("GET", _TOURNAMENT + "/entries/{entry_id}/results/"): ("entries_get_results", "entries"),
    ("GET", _TOURNAMENT + "/rounds/"): ("tournament_rounds_list", "tournament rounds"),
    ("POST", _TOURNAMENT + "/rounds/"): ("tournament_rounds_seat", "tournament rounds"),
    ("GET", _ROUND + "/"): ("tournament_rounds_get", "tournament rounds"),
    ("GET", _ROUND + "/boards/"): ("tournament_rounds_get_boards", "tournament rounds"),
    ("POST", _ROUND + "/start/"): ("tournament_rounds_start", "tournament rounds"),
    ("POST", _ROUND + "/close/"): ("tournament_rounds_close", "tournament rounds"),
    ("POST", _ROUND + "/clock/"): ("tournament_rounds_set_clock", "tournament rounds"),
    ("GET", _ROUND + "/tables/{table_number}/"): ("tournament_tables_get", "tournament tables"),
    ("GET", _ROUND + "/tables/{table_number}/totals/"): ("totals_get", "totals"),
    ("PUT", _ROUND + "/tables/{table_number}/totals/"): ("totals_enter", "totals"),
    ("POST", _ROUND + "/tables/{table_number}/totals/confirm/"): ("totals_confirm", "totals"),
    ("POST", _ROUND + "/tables/{table_number}/hands/{number}/adjust/"): (
        "tournament_tables_adjust_hand",
        "tournament tables",
    ),
    # A tournament's documents: standings, settlement and files (as a table's sheet and an
    # evening's settlement sit with their resource).
    ("GET", _TOURNAMENT + "/standings/"): ("tournaments_get_standings", "tournaments"),
    ("POST", _TOURNAMENT + "/standings/recompute/"): (
        "tournaments_recompute_standings",
        "tournaments",
    ),
    ("GET", _TOURNAMENT + "/settlement/"): ("tournaments_get_settlement", "tournaments"),
    ("GET", _TOURNAMENT + "/standings/print/"): ("tournaments_print_standings", "tournaments"),
    ("GET", _TOURNAMENT + "/export/standings.json"): (
        "tournaments_export_standings",
        "tournaments",
    ),
    ("GET", _TOURNAMENT + "/export/standings.csv"): (
        "tournaments_export_standings_csv",
        "tournaments",
    ),
    ("GET", _TOURNAMENT + "/export/hands.json"): ("tournaments_export_hands", "tournaments"),
    ("GET", _TOURNAMENT + "/export/hands.csv"): ("tournaments_export_hands_csv", "tournaments"),
    ("GET", _TOURNAMENT + "/webhooks/"): ("webhooks_list", "webhooks"),
    ("POST", _TOURNAMENT + "/webhooks/"): ("webhooks_create", "webhooks"),
    ("GET", _TOURNAMENT + "/webhooks/{webhook_id}/"): ("webhooks_get", "webhooks"),
    ("PATCH", _TOURNAMENT + "/webhooks/{webhook_id}/"): ("webhooks_update", "webhooks"),
    ("DELETE", _TOURNAMENT + "/webhooks/{webhook_id}/"): ("webhooks_delete", "webhooks"),
    ("POST", _TOURNAMENT + "/webhooks/{webhook_id}/test/"): ("webhooks_test", "webhooks"),
    ("POST", _TOURNAMENT + "/webhooks/{webhook_id}/rotate-secret/"): (
        "webhooks_rotate_secret",
        "webhooks",
    ),
    ("GET", _TOURNAMENT + "/webhooks/{webhook_id}/deliveries/"): (
        "webhook_deliveries_list",
        "webhooks",
    ),
    ("POST", _TOURNAMENT + "/webhooks/{webhook_id}/deliveries/{delivery_id}/replay/"): (
        "webhook_deliveries_replay",
        "webhooks",
    ),
    # A cup's webhooks (the same endpoints as a tournament's).
    ("GET", _CUP_WEBHOOKS): ("cup_webhooks_list", "cup webhooks"),
    ("POST", _CUP_WEBHOOKS): ("cup_webhooks_create", "cup webhooks"),
    ("GET", _CUP_WEBHOOK): ("cup_webhooks_get", "cup webhooks"),
    ("PATCH", _CUP_WEBHOOK): ("cup_webhooks_update", "cup webhooks"),
    ("DELETE", _CUP_WEBHOOK): ("cup_webhooks_delete", "cup webhooks"),
    ("POST", _CUP_WEBHOOK + "test/"): ("cup_webhooks_test", "cup webhooks"),
    ("POST", _CUP_WEBHOOK + "rotate-secret/"): ("cup_webhooks_rotate_secret", "cup webhooks"),
    ("GET", _CUP_WEBHOOK + "deliveries/"): ("cup_webhook_deliveries_list", "cup webhooks"),
    ("POST", _CUP_WEBHOOK + "deliveries/{delivery_id}/replay/"): (
        "cup_webhook_deliveries_replay",
        "cup webhooks",
    ),
    # Cups and ranking lists.
    ("GET", "/api/v1/cups/"): ("cups_list", "cups"),
    ("POST", "/api/v1/cups/"): ("cups_create", "cups"),
    ("GET", _CUP + "/"): ("cups_get", "cups"),
    ("PATCH", _CUP + "/"): ("cups_update", "cups"),
    ("DELETE", _CUP + "/"): ("cups_delete", "cups"),
    ("POST", _CUP + "/open/"): ("cups_open", "cups"),
    ("POST", _CUP + "/finish/"): ("cups_finish", "cups"),
    ("POST", _CUP + "/reopen/"): ("cups_reopen", "cups"),
    ("POST", _CUP + "/directors/"): ("cups_add_director", "cups"),
    ("DELETE", _CUP + "/directors/{user_id}/"): ("cups_remove_director", "cups"),
    ("GET", _CUP + "/log/"): ("cups_list_log", "cups"),
    ("GET", _CUP + "/standings/"): ("cups_get_standings", "cups"),
    ("GET", _CUP + "/standings/print/"): ("cups_print_standings", "cups"),
    ("GET", _CUP + "/final/"): ("cups_get_final", "cups"),
    ("GET", _CUP + "/export/standings.json"): ("cups_export_standings", "cups"),
    ("GET", _CUP + "/export/standings.csv"): ("cups_export_standings_csv", "cups"),
    ("POST", _CUP + "/imports/"): ("cup_events_import", "cups"),
    ("GET", _CUP + "/events/"): ("cup_events_list", "cups"),
    ("POST", _CUP + "/events/"): ("cup_events_create", "cups"),
    ("GET", _CUP_EVENT + "/"): ("cup_events_get", "cups"),
    ("DELETE", _CUP_EVENT + "/"): ("cup_events_delete", "cups"),
    ("POST", _CUP_EVENT + "/accept/"): ("cup_events_accept", "cups"),
    ("POST", _CUP_EVENT + "/decline/"): ("cup_events_decline", "cups"),
    ("GET", _CUP_EVENT + "/results/"): ("cup_events_list_results", "cups"),
    ("PUT", _CUP_EVENT + "/results/"): ("cup_events_replace_results", "cups"),
    ("GET", _CUP + "/players/"): ("cup_players_list", "cups"),
    ("GET", _CUP_PLAYER + "/"): ("cup_players_get", "cups"),
    ("PATCH", _CUP_PLAYER + "/"): ("cup_players_update", "cups"),
    ("POST", _CUP_PLAYER + "/merge/"): ("cup_players_merge", "cups"),
    ("GET", _CUP_PLAYER + "/history/"): ("cup_players_get_history", "cups"),
    ("GET", "/api/v1/me/cups/"): ("my_cups_list", "cups"),
    ("GET", _TOURNAMENT + "/cups/"): ("tournament_cups_list", "cups"),
    # Pings.
    ("GET", "/api/v1/pings/"): ("pings_list", "pings"),
    ("POST", "/api/v1/pings/"): ("pings_create", "pings"),
    ("GET", "/api/v1/pings/{ping_id}/"): ("pings_get", "pings"),
}
