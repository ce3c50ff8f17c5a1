"""Games routes: the rule sets, tables and their hands, series, worker pings
(``docs/games.md``)."""

from django.urls import path
from rest_framework.routers import SimpleRouter

from games import selectors
from games.api import views
from games.api.events import HandEventsView
from games.api.rules import RuleSetDetailView, RuleSetListView
from games.api.serializers import AuditEntrySerializer, LedgerEntrySerializer
from games.models import AuditEntry, LedgerEntry

router = SimpleRouter(use_regex_path=False)  # ids through the <id:…> converter
router.register("pings", views.WorkerPingViewSet, basename="ping")
router.register("tables", views.TableViewSet, basename="table")
router.register("series", views.SeriesViewSet, basename="series")

TABLE = "tables/<id:table_id>/"
HAND = TABLE + "hands/<num:number>/"

urlpatterns = router.urls
urlpatterns += [
    path("rules/", RuleSetListView.as_view(), name="rule-set-list"),
    path("rules/<str:variant>/", RuleSetDetailView.as_view(), name="rule-set-detail"),
    path(
        TABLE + "ledger/",
        views.TableLogView.as_view(
            select=selectors.ledger_for_table,
            queryset=LedgerEntry.objects.none(),
            serializer_class=LedgerEntrySerializer,
            filterset_class=views.LedgerFilter,
            summary="A table's ledger",
            description="Every money movement at the table, oldest first.",
        ),
        name="table-ledger",
    ),
    path(
        TABLE + "audit/",
        views.TableLogView.as_view(
            select=selectors.audit_for_table,
            queryset=AuditEntry.objects.none(),
            serializer_class=AuditEntrySerializer,
            filterset_class=views.AuditFilter,
            summary="A table's audit log",
            description=(
                "Who recorded, edited, deleted, confirmed, started and closed what, newest first."
            ),
        ),
        name="table-audit",
    ),
    path(TABLE + "sheet.csv", views.TableSheetCSVView.as_view(), name="table-sheet-csv"),
    path(TABLE + "hands/", views.HandListView.as_view(), name="hand-list"),
    path(HAND, views.HandDetailView.as_view(), name="hand-detail"),
    path(HAND + "confirm/", views.HandConfirmView.as_view(), name="hand-confirm"),
    path(HAND + "view/", views.HandSeatView.as_view(), name="hand-view"),
    path(HAND + "actions/", views.HandActionView.as_view(), name="hand-actions"),
    path(HAND + "record/", views.HandRecordView.as_view(), name="hand-record"),
    path(HAND + "analysis/", views.HandAnalysisView.as_view(), name="hand-analysis"),
    path(HAND + "hint/", views.HandHintView.as_view(), name="hand-hint"),
    path(HAND + "events/", HandEventsView.as_view(), name="hand-events"),
]
