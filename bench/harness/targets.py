"""The issue's targets, each checked against this run's medians: met, not met, or why not measured."""

from dataclasses import dataclass

from . import settings

MET, NOT_MET = "met", "**not met**"


@dataclass
class Verdict:
    target: str
    measured: str
    status: str


def _result(results, size, job):
    return results.get(size, {}).get(job)


def _unmeasured(results, size, job) -> str:
    result = _result(results, size, job)
    if result is None:
        return f"not measured ({size} not in this run)" if size not in results else "not measured (not selected)"
    return f"not measured ({result.state}{': ' + result.note if result.note and not result.measured else ''})"


def _check(target, value, limit, at_most=True, unit="×", fmt="{:.2f}"):
    ok = value <= limit if at_most else value >= limit
    return Verdict(target, f"{fmt.format(value)} {unit}".strip(), MET if ok else NOT_MET)


def layout_ratio(production, clustered):
    """CPU on creation-order contact ids over CPU on clustered ids, or None."""
    if production and clustered and production.measured and clustered.measured and clustered.cpu:
        return production.cpu / clustered.cpu
    return None


def shard_efficiency(whole, one_shard, count):
    """The whole run's CPU / (count × one shard's CPU), or None."""
    if whole and one_shard and whole.measured and one_shard.measured and one_shard.cpu:
        return whole.cpu / (count * one_shard.cpu)
    return None


def evaluate(results, clustered=None, sharded=None) -> list:
    verdicts = []
    clustered = clustered or {}
    sharded = sharded or {}
    for job in settings.SHARD_JOBS:
        for n in settings.SHARD_COUNTS:
            target = f"{job}: shard efficiency at N = {n} ≥ {settings.SHARD_EFFICIENCY_TARGET} at M (SQLite, CPU)"
            e = shard_efficiency(_result(results, "M", job), sharded.get("M", {}).get(job, {}).get(n), n)
            if e is not None:
                verdicts.append(_check(target, e, settings.SHARD_EFFICIENCY_TARGET, at_most=False, unit=""))
            elif "M" in results and "M" not in sharded:
                verdicts.append(Verdict(target, "—", "not measured (M not in --shards)"))
            else:
                verdicts.append(Verdict(target, "—", _unmeasured(results, "M", job)))
    for job in settings.LAYOUT_JOBS:
        target = f"{job}: CPU on creation-order contact ids ≤ 1.2 × clustered ids at M"
        ratio = layout_ratio(_result(results, "M", job), clustered.get("M", {}).get(job))
        if ratio is not None:
            verdicts.append(_check(target, ratio, 1.2))
        elif "M" in results and "M" not in clustered:
            verdicts.append(Verdict(target, "—", "not measured (M not in --compare-layouts)"))
        else:
            verdicts.append(Verdict(target, "—", _unmeasured(results, "M", job)))

    def ratio_target(job, limit, what="baseline", size="M"):
        target = f"{job} ≤ {limit} × {what} at {size}"
        r = _result(results, size, job)
        if r and r.measured and r.ratio is not None:
            v = _check(target, r.ratio, limit)
            if r.cpu_ratio is not None:
                v.measured += f" (CPU {r.cpu_ratio:.2f} ×)"
            verdicts.append(v)
        else:
            verdicts.append(Verdict(target, "—", _unmeasured(results, size, job)))

    for job in ("daily-score", "upcoming-birthdays"):
        ratio_target(job, 1.5)
    # A second run, where the counts are stored and only the drift is written (issue 16).
    ratio_target("badge-recount", 1.5, "baseline (a second run)", size="L")
    ratio_target("circle-patterns", 10, "baseline (its first night)")
    for night, job in settings.NEXT_NIGHT_OF.items():
        share = settings.NEXT_NIGHT_SHARE_TARGET
        target = f"{night}: CPU ≤ {share:.0%} of the first night's at M (after the day of changes)"
        first, next_night = _result(results, "M", job), _result(results, "M", night)
        if first and next_night and first.measured and next_night.measured and first.cpu:
            v = _check(target, next_night.cpu / first.cpu * 100, share * 100, unit="%", fmt="{:.1f}")
            v.measured += f" ({next_night.cpu:.2f} s of {first.cpu:.2f} s CPU)"
            verdicts.append(v)
        else:
            verdicts.append(Verdict(target, "—", _unmeasured(results, "M", night if first else job)))
    ratio_target("attribution-expiry", 2, "one sqlite3 `DELETE` (1 million expired clicks)")

    target = "enrichment-fetch ≥ 5,000 lookups/s against the loopback stub, at M"
    r = _result(results, "M", "enrichment-fetch")
    if r and r.measured and r.work:
        v = _check(target, r.work_per_second, 5_000, at_most=False, unit="lookups/s", fmt="{:,.0f}")
        v.measured += f" (users of shard {settings.ENRICHMENT_SHARD})"
        verdicts.append(v)
    elif r and r.measured:
        verdicts.append(Verdict(target, "0 lookups", f"not measured ({r.note or 'no lookups made'})"))
    else:
        verdicts.append(Verdict(target, "—", _unmeasured(results, "M", "enrichment-fetch")))

    for job in settings.JOBS:
        target = f"{job}: peak RSS ≤ 150 MB at M"
        r = _result(results, "M", job)
        if r and r.measured:
            verdicts.append(_check(target, r.rss_mb, 150, unit="MB", fmt="{:.1f}"))
        else:
            verdicts.append(Verdict(target, "—", _unmeasured(results, "M", job)))

    for job in settings.JOBS:
        m, l = _result(results, "M", job), _result(results, "L", job)
        rss_target = f"{job}: peak RSS at L ≤ 1.1 × M"
        time_target = f"{job}: time at L ≤ 4.4 × M"
        if m and l and m.measured and l.measured:
            verdicts.append(_check(rss_target, l.rss_mb / m.rss_mb, 1.1))
            v = _check(time_target, l.wall / m.wall, 4.4)
            if l.cpu and m.cpu:
                v.measured += f" (CPU {l.cpu / m.cpu:.2f} ×)"
            verdicts.append(v)
        else:
            missing = "L" if not (l and l.measured) else "M"
            reason = _unmeasured(results, missing, job)
            verdicts.append(Verdict(rss_target, "—", reason))
            verdicts.append(Verdict(time_target, "—", reason))

    target = "nightly pipeline at M ≤ 30 s"
    r = _result(results, "M", settings.NIGHTLY)
    if r and r.measured:
        v = _check(target, r.wall, 30, unit="s", fmt="{:.1f}")
        if "left out" in r.note:
            v.status += f" (partial: {r.note})"
        verdicts.append(v)
    else:
        verdicts.append(Verdict(target, "—", _unmeasured(results, "M", settings.NIGHTLY)))
    return verdicts
