FROM python:3.11-slim

ENV PYTHONDONTWRITEBYTECODE=1 \
    PYTHONUNBUFFERED=1 \
    PIP_DISABLE_PIP_VERSION_CHECK=1 \
    STATIC_ROOT=/app/staticfiles

WORKDIR /app
# The locked runtime dependencies, each file checked against its hash (README, "Dependencies"),
# in their own layer; then the project itself, without resolving anything again.
COPY requirements/runtime.txt requirements/runtime.txt
RUN pip install --no-cache-dir --require-hashes -r requirements/runtime.txt
COPY . .
# gcc builds the compiled double-dummy search (engine/solver/_dd.c) and the arena keeper
# (config/_arenas.c) and leaves again; without them the engine would fall back to the
# pure-Python search, fifty times slower, and every request would cost more CPU. Installed in
# place (-e), as `make install` does: the servers import the project from /app, where a plain
# install would leave no compiled module (it puts them into site-packages only).
RUN apt-get update && apt-get install -y --no-install-recommends gcc libc6-dev \
 && pip install --no-cache-dir --no-deps -e . \
 && apt-get purge -y gcc libc6-dev && apt-get autoremove -y && rm -rf /var/lib/apt/lists/* \
 && python -c "from engine.solver.native import available; assert available" \
 && python -c "from config.arenas import available; assert available" \
 && pip check \
 && DEBUG=1 python manage.py collectstatic --noinput \
 && useradd --create-home app
USER app

EXPOSE 8000
CMD ["gunicorn", "config.wsgi:application", "-k", "gthread", "--workers", "3", "--threads", "2", "--bind=0.0.0.0:8000"]
