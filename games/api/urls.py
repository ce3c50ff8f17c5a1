"""Games routes."""

from rest_framework.routers import SimpleRouter

from games.api.views import WorkerPingViewSet

router = SimpleRouter()
router.register("pings", WorkerPingViewSet, basename="ping")

urlpatterns = router.urls
