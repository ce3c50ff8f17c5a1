FROM python:3.11-slim

ENV PYTHONDONTWRITEBYTECODE=1 \
    PYTHONUNBUFFERED=1 \
    PIP_DISABLE_PIP_VERSION_CHECK=1 \
    STATIC_ROOT=/app/staticfiles

WORKDIR /app
COPY pyproject.toml README.md ./
COPY . .
RUN pip install --no-cache-dir . \
 && DEBUG=1 python manage.py collectstatic --noinput \
 && useradd --create-home app
USER app

EXPOSE 8000
CMD ["gunicorn", "config.wsgi:application", "-k", "gthread", "--workers", "3", "--threads", "2", "--bind=0.0.0.0:8000"]
