"""Games routes: tables and their hands, series, worker pings (``docs/games.md``)."""

from django.urls import path
from rest_framework.routers import SimpleRouter

from games.api import views
from games.api.events import HandEventsView

router = SimpleRouter()
router.register("pings", views.WorkerPingViewSet, basename="ping")
router.register("tables", views.TableViewSet, basename="table")
router.register("series", views.SeriesViewSet, basename="series")

TABLE = "tables/<id:table_id>/"
HAND = TABLE + "hands/<num:number>/"

urlpatterns = router.urls
urlpatterns += [
    path(TABLE + "ledger/", views.TableLedgerView.as_view(), name="table-ledger"),
    path(TABLE + "audit/", views.TableAuditView.as_view(), name="table-audit"),
    path(TABLE + "hands/", views.HandListView.as_view(), name="hand-list"),
    path(HAND, views.HandDetailView.as_view(), name="hand-detail"),
    path(HAND + "confirm/", views.HandConfirmView.as_view(), name="hand-confirm"),
    path(HAND + "view/", views.HandSeatView.as_view(), name="hand-view"),
    path(HAND + "actions/", views.HandActionView.as_view(), name="hand-actions"),
    path(HAND + "record/", views.HandRecordView.as_view(), name="hand-record"),
    path(HAND + "events/", HandEventsView.as_view(), name="hand-events"),
]
