"""A fortnight report's steady nights, as issue 74 judges them: per night the whole PostgreSQL
server's CPU per user and each job's share, each job's wall on PostgreSQL against SQLite's (when
the report holds both backends at a size), and what enrichment-fetch's refresh costs.

The refresh's share is measured, not fitted: give a report and the report of the same nights run
with `--without-refresh` (every expiry and due time a year later, so nothing is refreshed), and
each night's difference of the server's CPU is the refresh's.

  python3 bench/tools/steady_night.py CACHE/fortnight-A.json [CACHE/fortnight-A-without-refresh.json …]
"""
import json
import statistics
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
from harness.settings import SIZES  # noqa: E402

ENRICHMENT = "enrichment-fetch"


def lookups(job: dict) -> int:
    return int((job.get("details") or {}).get("lookups_requested", 0))


def steady_nights(series: dict) -> list:
    return [n for n in series["nights"] if n["nightly"] and n["nightly"].get("jobs")]


def server_cpu(night: dict) -> float:
    return sum(job.get("server_cpu", 0.0) for job in night["nightly"]["jobs"].values())


def postgres_nights(name: str, series: dict):
    users = SIZES[name.split()[-1]].users
    nights = steady_nights(series)
    refresh = "refresh postponed" if series.get("without_refresh") else "with the refresh"
    print(f"{name}: {len(nights)} steady nights, {users:,} users, {refresh}")
    jobs = list(nights[0]["nightly"]["jobs"]) if nights else []
    print("  night  server s  ms/user  " + "  ".join(f"{j[:14]:>14}" for j in jobs) + "  lookups")
    for n in nights:
        run = n["nightly"]
        per_job = "  ".join(f"{run['jobs'][j].get('server_cpu', 0.0):14.3f}" for j in jobs)
        asked = lookups(run["jobs"].get(ENRICHMENT, {}))
        server = server_cpu(n)
        print(f"  {n['day']:5d}  {server:8.3f}  {server / users * 1000:7.3f}  {per_job}  {asked:7d}")
    if nights:
        median = statistics.median(server_cpu(n) for n in nights)
        print(f"  median server CPU {median / users * 1000:.3f} ms per user")


def refresh_share(name: str, with_refresh: dict, without: dict):
    """Each night's server CPU with the refresh less the same night's without it."""
    users = SIZES[name.split()[-1]].users
    print(f"{name}: the refresh's share, ms per user (with − without = share)")
    for a, b in zip(steady_nights(with_refresh), steady_nights(without)):
        x, y = server_cpu(a) / users * 1000, server_cpu(b) / users * 1000
        print(f"  night {a['day']}: {x:.3f} − {y:.3f} = {x - y:.3f}")


def wall_ratios(size: str, sqlite: dict, postgres: dict):
    """Each job's median wall over the steady nights, PostgreSQL against SQLite."""
    def medians(series):
        nights = [n["nightly"] for n in series["nights"] if n["nightly"] and n["nightly"].get("jobs")]
        jobs = nights[0]["jobs"] if nights else {}
        out = {j: statistics.median(r["jobs"][j]["wall"] for r in nights if j in r["jobs"]) for j in jobs}
        out["nightly"] = statistics.median(r["wall"] for r in nights) if nights else 0.0
        return out

    lite, pg = medians(sqlite), medians(postgres)
    print(f"walls at {size}, medians of the steady nights (s): job, SQLite, PostgreSQL, ratio")
    for job in lite:
        if job in pg and lite[job] > 0:
            print(f"  {job:20} {lite[job]:8.3f} {pg[job]:8.3f} {pg[job] / lite[job]:6.2f} ×")


def main():
    postgres = {True: {}, False: {}}  # without_refresh -> size name -> series, in the order given
    for path in sys.argv[1:]:
        print(f"== {path}")
        data = json.load(open(path))
        for name, series in data.items():
            if name.startswith("PostgreSQL"):
                postgres_nights(name, series)
                postgres[bool(series.get("without_refresh"))].setdefault(name, series)
        for name, series in data.items():
            if name.startswith("SQLite"):
                other = "PostgreSQL " + name.split()[-1]
                if other in data:
                    wall_ratios(name.split()[-1], series, data[other])
    for name, series in postgres[False].items():
        if name in postgres[True]:
            refresh_share(name, series, postgres[True][name])


if __name__ == "__main__":
    main()
