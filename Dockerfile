# Image of the Thermal Workbench services: the note search API (3000), the MCP tool server (3001)
# and JupyterLab (8888). docker-compose.yml runs one container per service from this image.
FROM python:3.11-slim

ENV PYTHONDONTWRITEBYTECODE=1 \
    PYTHONUNBUFFERED=1 \
    PIP_NO_CACHE_DIR=1 \
    PIP_DISABLE_PIP_VERSION_CHECK=1 \
    WORKBENCH_HOME=/data \
    HF_HUB_OFFLINE=1

WORKDIR /app

# dependencies first (cached while only the code changes)
COPY pyproject.toml README.md ./
COPY workbench ./workbench
RUN pip install ".[serve,notebooks]"

# examples, notebooks and docs (.dockerignore keeps tests, caches and virtualenvs out)
COPY . .

RUN useradd --create-home --uid 1000 workbench \
    && mkdir -p /data /app/notebooks \
    && chown -R workbench /data /app/notebooks
USER workbench

EXPOSE 3000 3001 8888
CMD ["workbench", "serve", "--host", "0.0.0.0", "--port", "3000"]
