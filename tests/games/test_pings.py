"""Worker pings: the API → broker → worker → database path."""

import os
import time

import pytest
from pytest_django import DjangoCaptureOnCommitCallbacks
from rest_framework.test import APIClient

from clubs.models import User
from games import services
from games.models import WorkerPing
from tests.conftest import WorkerProcess
from tests.factories import UserFactory


@pytest.mark.django_db
@pytest.mark.usefixtures("eager_tasks")
def test_it_creates_a_ping_and_runs_it_after_commit(
    auth_client: APIClient, django_capture_on_commit_callbacks: DjangoCaptureOnCommitCallbacks
) -> None:
    with django_capture_on_commit_callbacks(execute=True) as callbacks:
        response = auth_client.post("/api/v1/pings/")
    assert response.status_code == 201
    assert len(callbacks) == 1
    body = response.json()
    assert body["status"] == "pending"
    assert body["api_pid"] == os.getpid()

    done = auth_client.get(f"/api/v1/pings/{body['id']}/").json()
    assert done["status"] == "done"
    assert done["worker_pid"] == os.getpid()  # eager: in-process
    assert done["worker_host"]


@pytest.mark.django_db
def test_completing_a_ping_twice_changes_nothing(user: User) -> None:
    ping = WorkerPing.objects.create(user=user, api_pid=1)
    first = services.ping_complete(ping_id=ping.pk)
    assert first is not None
    second = services.ping_complete(ping_id=ping.pk)
    assert second is not None
    assert (second.completed_at, second.worker_pid) == (first.completed_at, first.worker_pid)


@pytest.mark.django_db
def test_completing_a_missing_ping_is_a_no_op() -> None:
    assert services.ping_complete(ping_id=424242) is None


@pytest.mark.django_db
def test_it_lists_only_my_pings_paginated(auth_client: APIClient, user: User) -> None:
    other = UserFactory.create()
    WorkerPing.objects.create(user=other, api_pid=1)
    for _ in range(3):
        WorkerPing.objects.create(user=user, api_pid=1)
    body = auth_client.get("/api/v1/pings/", {"page_size": 2}).json()
    assert set(body) == {"count", "next", "previous", "results"}
    assert body["count"] == 3
    assert len(body["results"]) == 2
    assert body["next"]


@pytest.mark.django_db
def test_it_hides_other_users_pings(auth_client: APIClient) -> None:
    ping = WorkerPing.objects.create(user=UserFactory.create(), api_pid=1)
    assert auth_client.get(f"/api/v1/pings/{ping.pk}/").status_code == 404


@pytest.mark.django_db
def test_it_filters_pings_by_status(auth_client: APIClient, user: User) -> None:
    WorkerPing.objects.create(user=user, api_pid=1, status=WorkerPing.Status.DONE)
    WorkerPing.objects.create(user=user, api_pid=1)
    body = auth_client.get("/api/v1/pings/", {"status": "done"}).json()
    assert [ping["status"] for ping in body["results"]] == ["done"]


@pytest.mark.django_db
def test_it_requires_authentication_for_pings(api_client: APIClient) -> None:
    assert api_client.post("/api/v1/pings/").status_code == 401


@pytest.mark.services
@pytest.mark.django_db(transaction=True)
def test_a_separate_worker_process_completes_a_ping(
    celery_worker_process: WorkerProcess, auth_client: APIClient
) -> None:
    response = auth_client.post("/api/v1/pings/")
    assert response.status_code == 201
    ping_id = response.json()["id"]
    assert response.json()["api_pid"] == os.getpid()

    deadline = time.monotonic() + 30
    body = response.json()
    while body["status"] != "done":
        assert time.monotonic() < deadline, f"ping not done:\n{celery_worker_process.log()}"
        time.sleep(0.2)
        body = auth_client.get(f"/api/v1/pings/{ping_id}/").json()

    assert body["worker_pid"] != os.getpid()
    assert body["worker_pid"] == celery_worker_process.pid
    assert body["worker_host"]
