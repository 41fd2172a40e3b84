"""What the bench measures: sizes, clocks, jobs and the provider settings (issue 8, docs/CONTRACT.md §6)."""

from dataclasses import dataclass
from datetime import datetime

# The six jobs of docs/CONTRACT.md §3, in the order the report lists them. Each has a baseline in
# bench/baselines/JOB.sql. A job this build has not built yet is reported as "not built".
JOBS = [
    "daily-score",
    "circle-patterns",
    "enrichment-fetch",
    "upcoming-birthdays",
    "attribution-expiry",
    "badge-recount",
]

# The pseudo-job name under which `--jobs` selects the nightly pipeline.
NIGHTLY = "nightly"

# Jobs measured twice (issue 17): as a first night on the seeded file (the job's own row), and
# as the next night, after that first run and the day of changes, under this pseudo-job name.
NEXT_NIGHT_OF = {"circle-patterns next night": "circle-patterns"}
# The next night's CPU as a share of the first night's, at most (issue 17).
NEXT_NIGHT_SHARE_TARGET = 0.10


@dataclass(frozen=True)
class Size:
    name: str
    users: int
    # Expired invite clicks in the attribution-expiry fixture: 1 million at M (the issue's
    # target), scaled with the users elsewhere so that L/M compares like with like.
    expired_clicks: int


SIZES = {
    "S": Size("S", 2_000, 100_000),
    "M": Size("M", 20_000, 1_000_000),
    "L": Size("L", 80_000, 4_000_000),
}

# Fixed seed and clock: the same arguments give byte-identical tables, so a cached file stays
# valid until the seeder or the schema changes (the cache stamp records a hash of both).
SEED = 8
SEED_NOW = "2026-11-22T00:00:00Z"
# The jobs' clock: the nightly pipeline's slot (02:30 UTC) on the seeded day.
RUN_NOW = "2026-11-22T02:30:00Z"


def epoch(instant: str) -> int:
    return int(datetime.fromisoformat(instant.replace("Z", "+00:00")).timestamp())


DAY = 86_400
# attribution-expiry's cutoff with the default 7-day window: RUN_NOW - 7 days.
CLICK_CUTOFF_EPOCH = epoch(RUN_NOW) - 7 * DAY
# The seeder places clicks over the 30 days before SEED_NOW; the fixture's added clicks too.
CLICKS_FROM_EPOCH = epoch(SEED_NOW) - 30 * DAY

# The provider as configured for the bench: the loopback stub, production batch size and
# concurrency, and a request rate limit high enough never to be the bottleneck (the target
# measures our end-to-end throughput, not the limiter: 600 requests/minute would cap it at 800
# lookups/s).
PROVIDER_KEY_ENV = "RIN_BENCH_PROVIDER_KEY"
PROVIDER_SETTINGS = {
    "name": "bench-stub",
    "api_key_env": PROVIDER_KEY_ENV,
    "batch_size": 80,
    "requests_per_minute": 1_000_000,
}

# enrichment-fetch is measured on one shard of the users (`--shard 0/40`), the same fraction at
# every size, so L still does 4 × M's work. A first run after seeding looks up every key it has
# never seen: about 8.5 million at M (over 20 minutes a run at 6,000 lookups/s) and 34 million
# at L; a fortieth keeps three runs per size within the bench's hour. Lookups per second, peak
# RSS and L/M are what its targets ask, and a shard measures them the same way.
ENRICHMENT_SHARD = "0/40"

# The nightly pipeline is measured the night after a first night: a cached fixture is the seeded
# file after one `pipeline run nightly` at RUN_NOW (its enrichment-fetch looks up every key, the
# expensive once-only backfill), and each measured run is the next night, NEXT_NIGHT_NOW.
NEXT_NIGHT_NOW = "2026-11-23T02:30:00Z"
# Jobs that keep what they derived for the next night (daily-score: `score_contact_facts`;
# badge-recount: `badge_counts`, so a second run writes only the drift) are measured as the
# nightly is, the night after their first run with the day of changes between; the first run,
# made once with the cached fixture, is reported beside it (issue 16 asks badge-recount's target
# of a second run, at L).
SECOND_NIGHT_JOBS = ("daily-score", "badge-recount")
# Its target is at M; at L the first night alone would take well over an hour.
NIGHTLY_SIZES = ("S", "M")

# How `rinjobs-dev seed` hands out contact ids (docs/CONTRACT.md §6): every measurement runs on the
# production layout (ids in creation order across users); at the sizes of `--compare-layouts`
# (default M) each job that reads contacts also runs on the clustered layout (one run of ids per
# user), and the report gives the CPU ratio: what the job's cost owes to clustered ids.
CREATION_ORDER = "creation-order"
CLUSTERED = "clustered"
DEFAULT_LAYOUT_SIZES = ("M",)
# attribution-expiry reads invite clicks only: the contact layout cannot change its work.
LAYOUT_JOBS = [job for job in JOBS if job != "attribution-expiry"]

# Shard efficiency (issue 16): at the sizes of `--shards` (default M) each per-user job also runs
# as `--shard 0/N` alone; efficiency = the whole run's CPU / (N × that one shard's CPU), 1 when
# N workers together do the work of one.
SHARD_JOBS = ["daily-score", "upcoming-birthdays", "badge-recount", "circle-patterns"]
SHARD_COUNTS = (2, 4, 8)
DEFAULT_SHARD_SIZES = ("M",)
SHARD_EFFICIENCY_TARGET = 0.87

# A measured process that runs longer than this is stopped and reported as timed out.
DEFAULT_TIMEOUT_SECONDS = 3_600
