"""The pipelines.yaml each measured run gets, written next to its scratch copy."""

import json
import re
from pathlib import Path

from . import settings


def production_nightly_jobs(repo: Path) -> list:
    """The nightly pipeline's job list as the repository's pipelines.yaml defines it."""
    return production_pipeline_jobs(repo, settings.NIGHTLY)


def production_pipeline_jobs(repo: Path, pipeline: str) -> list:
    """A pipeline's job list as the repository's pipelines.yaml defines it."""
    text = (repo / "pipelines.yaml").read_text()
    match = re.search(rf"^  {re.escape(pipeline)}:\n(?:    .*\n)*?    jobs: \[([^\]]*)\]", text, re.MULTILINE)
    if not match:
        raise RuntimeError(f"pipelines.yaml: no `jobs: [...]` line under pipelines.{pipeline}")
    return [job.strip() for job in match.group(1).split(",") if job.strip()]


def write_config(folder: Path, db: Path, provider_url=None, nightly_jobs=None, full_every=None) -> Path:
    """`full_every` (text such as "28d"), when given, is the periodic pass of both jobs that have one."""
    # JSON strings are YAML double-quoted strings: any path or URL is written safely.
    lines = ["storage:", f"  url: {json.dumps(str(db))}", "jobs:"]
    periodic = [f"    full_every: {json.dumps(full_every)}"] if full_every else []
    if provider_url or full_every:
        lines += ["  enrichment-fetch:"] + periodic
    if provider_url:
        lines += ["    provider:", f"      url: {json.dumps(provider_url)}"]
        lines += [f"      {key}: {value}" for key, value in settings.PROVIDER_SETTINGS.items()]
    if not provider_url and not full_every:
        lines += ["  enrichment-fetch: {}"]
    if full_every:
        lines += ["  circle-patterns:"] + periodic
    if nightly_jobs:
        lines += [
            "pipelines:",
            "  nightly:",
            '    schedule: "30 2 * * *"',
            "    timezone: UTC",
            f"    jobs: [{', '.join(nightly_jobs)}]",
        ]
    path = folder / "pipelines.yaml"
    path.write_text("\n".join(lines) + "\n")
    return path
