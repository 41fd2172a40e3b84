"""The pipelines.yaml each measured run gets, written next to its scratch copy."""

import json
import re
from pathlib import Path

from . import settings


def production_nightly_jobs(repo: Path) -> list:
    """The nightly pipeline's job list as the repository's pipelines.yaml defines it."""
    text = (repo / "pipelines.yaml").read_text()
    match = re.search(r"^  nightly:\n(?:    .*\n)*?    jobs: \[([^\]]*)\]", text, re.MULTILINE)
    if not match:
        raise RuntimeError("pipelines.yaml: no `jobs: [...]` line under pipelines.nightly")
    return [job.strip() for job in match.group(1).split(",") if job.strip()]


def write_config(folder: Path, db: Path, provider_url=None, nightly_jobs=None) -> Path:
    # JSON strings are YAML double-quoted strings: any path or URL is written safely.
    lines = ["storage:", f"  url: {json.dumps(str(db))}", "jobs:"]
    if provider_url:
        lines += ["  enrichment-fetch:", "    provider:", f"      url: {json.dumps(provider_url)}"]
        lines += [f"      {key}: {value}" for key, value in settings.PROVIDER_SETTINGS.items()]
    else:
        lines += ["  enrichment-fetch: {}"]
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
