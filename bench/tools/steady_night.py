"""A fortnight report's steady nights, as issue 74 judges them: per night the whole PostgreSQL
server's CPU per user and each job's share, each job's wall on PostgreSQL against SQLite's (when
the report holds both backends at a size), and what enrichment-fetch's refresh costs.

The refresh's share is measured, not assumed: over the report's nights enrichment-fetch's server
CPU is fitted to the lookups it asked (least squares, `a + b × lookups`), so `b` is what a key
asked costs the server and `b × lookups` the night's refresh; the rest is what the night costs
without it. Nights differ in how many keys the owner phase brings due, which is what makes the
slope measurable; with fewer than three nights it is not given.

  python3 bench/tools/steady_night.py CACHE/fortnight-A.json [CACHE/fortnight-B.json …]
"""
import json
import statistics
import sys

ENRICHMENT = "enrichment-fetch"
# The details key of the lookups enrichment-fetch asked, as its JSON summary spells it.
LOOKUP_KEYS = ("lookups_requested", "lookupsRequested")


def lookups(job: dict) -> int:
    details = job.get("details") or {}
    for key in LOOKUP_KEYS:
        if key in details:
            return int(details[key])
    return 0


def fit(points):
    """Least squares `y = a + b x`; None when x does not vary."""
    xs, ys = [p[0] for p in points], [p[1] for p in points]
    if len(points) < 3 or max(xs) == min(xs):
        return None
    mx, my = statistics.fmean(xs), statistics.fmean(ys)
    b = sum((x - mx) * (y - my) for x, y in points) / sum((x - mx) ** 2 for x in xs)
    return my - b * mx, b


def users_of(name: str) -> int:
    sizes = {"S": 2_000, "M": 20_000, "L": 80_000}  # bench/harness/settings.py SIZES
    return sizes[name.split()[-1]]


def postgres_nights(name: str, series: dict):
    users = users_of(name)
    nights = [n for n in series["nights"] if n["nightly"] and n["nightly"].get("jobs")]
    print(f"{name}: {len(nights)} steady nights, {users:,} users")
    jobs = list(nights[0]["nightly"]["jobs"]) if nights else []
    print("  night  server s  ms/user  " + "  ".join(f"{j[:14]:>14}" for j in jobs) + "  lookups")
    points = []
    for n in nights:
        run = n["nightly"]
        server = sum(run["jobs"][j].get("server_cpu", 0.0) for j in jobs)
        per_job = "  ".join(f"{run['jobs'][j].get('server_cpu', 0.0):14.3f}" for j in jobs)
        asked = lookups(run["jobs"].get(ENRICHMENT, {}))
        points.append((asked, run["jobs"].get(ENRICHMENT, {}).get("server_cpu", 0.0), server))
        print(f"  {n['day']:5d}  {server:8.3f}  {server / users * 1000:7.3f}  {per_job}  {asked:7d}")
    line = fit([(x, y) for x, y, _ in points])
    if line:
        a, b = line
        print(f"  enrichment-fetch server CPU = {a:.3f} s + {b * 1e6:.1f} µs × lookups asked")
        for (asked, _, server), n in zip(points, nights):
            refresh = b * asked
            print(f"    night {n['day']}: refresh {refresh:.3f} s; the night without it "
                  f"{server - refresh:.3f} s = {(server - refresh) / users * 1000:.3f} ms per user")
        medians = statistics.median(s for _, _, s in points), statistics.median(b * x for x, _, _ in points)
        print(f"  medians: server {medians[0] / users * 1000:.3f} ms per user, of which the refresh "
              f"{medians[1] / users * 1000:.3f}, the rest {(medians[0] - medians[1]) / users * 1000:.3f}")
    elif points:
        print(f"  median server CPU {statistics.median(s for _, _, s in points) / users * 1000:.3f} ms per user "
              "(refresh slope needs three nights with different lookups)")


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
    for path in sys.argv[1:]:
        print(f"== {path}")
        data = json.load(open(path))
        for name, series in data.items():
            if name.startswith("PostgreSQL"):
                postgres_nights(name, series)
        for name, series in data.items():
            if name.startswith("SQLite"):
                other = "PostgreSQL " + name.split()[-1]
                if other in data:
                    wall_ratios(name.split()[-1], series, data[other])


if __name__ == "__main__":
    main()
