"""The year's report (bench/run.sh --year, issue 51): per simulated month, the Done-when figures,
the end's checks, and the two backends against each other (issue 59)."""

import gzip
from datetime import datetime, timedelta
import statistics
from pathlib import Path

from .load import BURNER
from .year import COMPARED_NIGHTS, FILL_MARGIN, MILESTONE, RETENTION_JOB, window_days
from .year_db import outbox_key

TARGET_GROWTH = 0.10
TARGET_RATIO = 1.1
MB = 1e6


def _mean(values):
    values = [v for v in values if v is not None]
    return statistics.fmean(values) if values else None


def _people(sizes: dict) -> int:
    """Rows of users and contacts (deleted ones included: they stay in the tables)."""
    return sizes["tables"]["users"]["rows"] + sizes["tables"]["contacts"]["rows"]


def _people_on(sizes: dict, day: int):
    """Users + contacts on a night, linear between the nights the sizes were measured (the year
    adds both every day, so a night between two measures is close to the line)."""
    measured = sorted((int(d), _people(s)) for d, s in sizes.items())
    for (d0, p0), (d1, p1) in zip(measured, measured[1:]):
        if d0 <= day <= d1:
            return p0 + (p1 - p0) * (day - d0) / (d1 - d0) if d1 > d0 else p0
    return None


def figures(r: dict) -> dict:
    """The Done-when figures: size growth after the fill point beyond what users and contacts
    explain, and the last ten nights' cost against the ten after the fill point, as measured, per
    live user and per user + contact (the year signs up users and adds contacts every day: a night that costs
    more only because it serves more people is still flat, as the size's target counts it)."""
    nights = r["nights"]
    fill, last = r["fill"], len(nights)
    early = [n for n in nights if fill <= n["day"] < fill + COMPARED_NIGHTS]
    late = nights[-COMPARED_NIGHTS:]
    out = {"fill": fill, "early": [early[0]["day"], early[-1]["day"]] if early else None,
           "late": [late[0]["day"], late[-1]["day"]] if late else None,
           "filled": window_days(r["windows"]) + FILL_MARGIN <= fill}

    people_early = _mean(_people_on(r["sizes"], n["day"]) for n in early)
    people_late = _mean(_people_on(r["sizes"], n["day"]) for n in late)
    served = people_late / people_early if people_early and people_late else None
    out["people"] = {"early": people_early, "late": people_late, "ratio": served} if served else None
    # Every live account has its badge_counts row from its first night, and erasure removes it
    # (a year cached before the nights' output digests has no such count).
    users_early, users_late = (_mean((n.get("outputs") or {}).get("badge_counts", {}).get("rows") for n in span)
                               for span in (early, late))
    users = users_late / users_early if users_early and users_late else None
    out["users"] = {"early": users_early, "late": users_late, "ratio": users} if users else None

    def ratio(value):
        a, b = _mean(map(value, late)), _mean(map(value, early))
        x = a / b if a is not None and b else None
        return {"late": a, "early": b, "ratio": x, "per_user": x / users if x is not None and users else None,
                "per_person": x / served if x is not None and served else None}

    out["rows_read"] = ratio(lambda n: n["rows_read"])
    out["nightly_cpu"] = ratio(lambda n: n["runs"]["nightly"]["cpu"])
    out["nightly_wall"] = ratio(lambda n: n["runs"]["nightly"]["wall"])
    out["server_cpu"] = ratio(lambda n: n["runs"]["nightly"].get("server_cpu"))
    sizes = r["sizes"]
    at_fill, at_end = sizes.get(str(fill)), sizes.get(str(last))
    if at_fill and at_end:
        b0, b1 = at_fill["database_bytes"], at_end["database_bytes"]
        p0, p1 = _people(at_fill), _people(at_end)
        out["size"] = {"bytes_fill": b0, "bytes_end": b1, "people_fill": p0, "people_end": p1,
                       "raw_growth": b1 / b0 - 1, "explained": p1 / p0 - 1,
                       "growth_beyond": (b1 / p1) / (b0 / p0) - 1}
    return out


def render(results: list, command: str, described: dict) -> str:
    machine = ", ".join(f"{k} {' '.join(v) if isinstance(v, list) else v}" for k, v in described.items())
    lines = ["# A year of nights (issue 51)", "", f"`{command}`", "", machine, ""]
    if results:
        r = results[0]
        lines += [
            f"{r['days']} simulated days from the fortnight's cached first night, the same seed on each backend. "
            "Each day at noon UTC: the app takes the queued invite prompts (prompts shown + 1, every other one "
            "dismissed, the queue row deleted; every `score_milestone` row recorded first), the delivery service "
            "marks the outbox sent five minutes after each row's creation (users with id % 50 = 0: after three "
            "days), bench/day_of_changes.sql with that day's draw and the day's sign-ups; then the nightly "
            "pipeline at 02:30, the hourly at 03:00 and the retention pipeline at 03:15 UTC, with the jobs of "
            "pipelines.yaml:", ""]
        lines += [f"- {name}: {', '.join(jobs) or '(none)'}" for name, jobs in r["pipelines"].items()]
        windows = ", ".join(f"{t} {w}" for t, w in r["windows"].items())
        lines += ["", f"Windows ({r['windows_name']}): {windows}"
                  + ("" if r["retention_built"] else f" — **this build has no {RETENTION_JOB}: nothing was pruned**")
                  + ".", ""]
        lines += [_load(results), ""]
    for r in results:
        lines += _backend(r)
    if len(results) > 1:
        lines += _compare(results)
    return "\n".join(lines) + "\n"


def _load(results: list) -> str:
    """Alone or loaded, and how loaded: the same seed must tell users the same either way (issue 71)."""
    burners = results[0].get("burners", 0)
    how = (f"with {burners} CPU burner{'s' if burners > 1 else ''} beside it (`{' '.join(BURNER[:2])} "
           f"'{BURNER[2]}'`, on both backends)" if burners else "alone (no CPU burner beside it)")
    loads = [f"{r['backend']} {_median_load(r['nights'])}" for r in results if _median_load(r["nights"])]
    return (f"The year ran {how}; the 1-minute load average sampled once a night, median: "
            + (", ".join(loads) or "not recorded") + ".")


def _seconds_a_day(r: dict) -> list:
    nights = r["nights"]
    phases = {}
    for n in nights:
        for k, v in n["phases"].items():
            phases.setdefault(k, []).append(v)
    walls = [n["wall"] for n in nights]
    jobs = sum(statistics.fmean(phases.get(k, [0])) for k in ("nightly", "hourly", "retention"))
    total = statistics.fmean(walls)
    parts = ", ".join(f"{k} {statistics.fmean(v):.2f}" for k, v in phases.items())
    # A year: every day's phases but the sizes, which are measured 14 times (months, fill, end).
    sizes = statistics.fmean(phases.get("sizes", [0]))
    year = 365 * (total - sizes * len(phases.get("sizes", [])) / len(nights)) + 14 * sizes
    return [f"- a simulated day: **{total:.2f} s** on average (median {statistics.median(walls):.2f} s): the three "
            f"pipelines {jobs:.2f} s, the harness (changes, sign-ups, readouts, output digests, sizes) {total - jobs:.2f} s; "
            f"per phase (mean s; sizes on the nights measured): {parts}; the whole run {r.get('wall', 0) / 60:.1f} min, "
            f"its end's recompute check included (a 365-day year at this pace: about {year / 60:.0f} min and the check)"]


def _backend(r: dict) -> list:
    pg = r["backend"] == "PostgreSQL"
    out = [f"## {r['backend']} at {r['size']} ({r['users']:,} users seeded)", ""]
    out += _seconds_a_day(r)
    f = figures(r)
    note = "" if f["filled"] else " (the windows are not full within this run: the nights compared are as late as it allows)"
    if f["early"]:
        which = "just after the windows filled" if f["filled"] else "the earliest the run allows"
        out.append(f"- nights compared: {f['late'][0]}–{f['late'][1]} (the last ten) against "
                   f"{f['early'][0]}–{f['early'][1]} ({which}){note}; the 1-minute load on them, median: "
                   f"{_load_on(r, f['late'])} and {_load_on(r, f['early'])} (a decisive ratio has both alone)")

    if f.get("users") and f.get("people"):
        u, p = f["users"], f["people"]
        out.append(f"- served: live users (their `badge_counts` rows) {u['early']:,.0f} → {u['late']:,.0f} "
                   f"({u['ratio']:.3f}×); users + contacts (rows, deleted ones included, as the size's target "
                   f"counts them; linear between the measured nights) {p['early']:,.0f} → {p['late']:,.0f} "
                   f"({p['ratio']:.3f}×)")

    def ratio_line(label, key, unit="", fmt="{:,.2f}"):
        x = f[key]
        if x["ratio"] is None:
            return []
        met = "met" if x["ratio"] <= TARGET_RATIO else "NOT met"
        line = (f"- {label}: {fmt.format(x['late'])}{unit} against {fmt.format(x['early'])}{unit}: "
                f"**{x['ratio']:.3f}×** (target ≤ {TARGET_RATIO}×: {met})")
        for key, per in (("per_user", "per live user"), ("per_person", "per user + contact")):
            if x[key] is not None:
                line += f"; {per} **{x[key]:.3f}×** ({'met' if x[key] <= TARGET_RATIO else 'NOT met'})"
        return [line]

    out += ratio_line("the nightly's rows read", "rows_read", fmt="{:,.0f}")
    if pg:
        out += ratio_line("the nightly's server CPU", "server_cpu", " s")
    out += ratio_line("the nightly's rinjobs CPU", "nightly_cpu", " s")
    out += ratio_line("the nightly's wall", "nightly_wall", " s")
    out += _where_the_cost_went(r, f)
    s = f.get("size")
    if s:
        met = "met" if s["growth_beyond"] <= TARGET_GROWTH else "NOT met"
        out.append(
            f"- the database from night {f['fill']} to night {len(r['nights'])}: {s['bytes_fill'] / MB:,.1f} → "
            f"{s['bytes_end'] / MB:,.1f} MB ({s['raw_growth']:+.1%}); users + contacts (rows, deleted ones "
            f"included) {s['people_fill']:,} → {s['people_end']:,} ({s['explained']:+.1%}); bytes per user + contact "
            f"{s['bytes_fill'] / s['people_fill']:,.1f} → {s['bytes_end'] / s['people_end']:,.1f}: **{s['growth_beyond']:+.1%} "
            f"beyond what the added users and contacts explain** (target ≤ {TARGET_GROWTH:.0%}: {met})")
    out += _checks(r)
    out += ["", _month_table(r), "", _table_table(r), ""]
    return out


def _median_load(nights: list):
    sampled = [n["load"] for n in nights if n.get("load") is not None]
    return f"{statistics.median(sampled):.2f}" if sampled else None


def _load_on(r: dict, span: list) -> str:
    return _median_load([n for n in r["nights"] if span[0] <= n["day"] <= span[1]]) or "not recorded"


def _where_the_cost_went(r: dict, f: dict) -> list:
    """The same two sets of nights job by job, their medians (which a single heavy night does not
    move), and enrichment-fetch's due owners and lookups: what a ratio above the target comes from."""
    if not f["early"]:
        return []
    nights = {n["day"]: n for n in r["nights"]}
    early = [nights[d] for d in range(f["early"][0], f["early"][1] + 1) if d in nights]
    late = [nights[d] for d in range(f["late"][0], f["late"][1] + 1) if d in nights]

    def both(value):
        a = [value(n) for n in late if value(n) is not None]
        b = [value(n) for n in early if value(n) is not None]
        return (statistics.fmean(a), statistics.fmean(b)) if a and b else None

    def job(name, key):
        return lambda n: (n["runs"]["nightly"]["jobs"].get(name) or {}).get(key)

    jobs = sorted({j for n in late + early for j in n["runs"]["nightly"]["jobs"]})
    cells = []
    for name in jobs:
        x = both(job(name, "cpu"))
        if x and x[1]:
            cells.append(f"{name} {x[1]:.3f} → {x[0]:.3f} s ({x[0] / x[1]:.2f}×)")
    out = ["- job by job, rinjobs CPU (mean of the ten against the ten): " + ", ".join(cells)] if cells else []
    cpu = lambda n: n["runs"]["nightly"].get("server_cpu" if r["backend"] == "PostgreSQL" else "cpu")
    a = statistics.median(cpu(n) for n in late)
    b = statistics.median(cpu(n) for n in early)
    since_fill = [n for n in r["nights"] if n["day"] >= f["fill"]]
    typical = statistics.median(cpu(n) for n in since_fill)
    heavy = [n["day"] for n in since_fill if cpu(n) > 5 * typical]
    out.append(f"- the nightly's {'server' if r['backend'] == 'PostgreSQL' else 'rinjobs'} CPU, medians of the same "
               f"nights: {a:.2f} against {b:.2f} s ({a / b:.3f}×); nights since the fill over five times the "
               f"median: {', '.join(map(str, heavy)) or 'none'}")

    def enrichment(n) -> dict:
        return n["runs"]["nightly"]["jobs"].get("enrichment-fetch") or {}

    due = both(lambda n: ((enrichment(n).get("counts") or {}).get("read") or {}).get("users examined (due)", 0))
    def asked_of(n):
        value = (enrichment(n).get("details") or {}).get("lookups_requested")
        return None if value is None else float(value)

    asked = both(asked_of)
    if due and asked:
        out.append(f"- enrichment-fetch: owners examined because a cached answer expired (`due`) {due[1]:.1f} → "
                   f"{due[0]:.1f} a night, lookups asked of the provider {asked[1]:,.0f} → {asked[0]:,.0f} a night")
    return out


def _checks(r: dict) -> list:
    rc = r["recompute"]
    out = []
    if rc["equal"]:
        counts = ", ".join(f"{t} {v['rows']:,}" for t, v in rc["tables"].items())
        out.append(f"- after the year, one more day of changes and night {rc['night']}: every output table equals a "
                   f"`--full` recompute on a copy ({counts} rows)")
    else:
        bad = [f"{t}: {v['missing_count']:,} missing, {v['extra_count']:,} extra (e.g. missing {v['missing'][:2]}, "
               f"extra {v['extra'][:2]})" for t, v in rc["tables"].items() if not v["equal"]]
        out.append(f"- after the year, night {rc['night']} incremental against `--full` on a copy: **differs**: "
                   + "; ".join(bad))
    repeated = r["repeated_milestones"]
    out.append(f"- milestone prompts: {r['milestone_users']:,} users queued `{MILESTONE}`; "
               + ("**nobody twice**" if not repeated else
                  f"**{len(repeated)} users twice or more** (e.g. {dict(list(repeated.items())[:5])}: user → nights)"))
    dups = r["duplicates"]
    out.append(f"- outbox dedupe keys: {r['keys_written']:,} written; "
               + ("**none written twice**" if not dups else
                  f"**{len(dups)} written again** (e.g. {dups[:3]})"))
    dead = [(n["day"], n["dead_tuples"]) for n in r["nights"] if "dead_tuples" in n]
    if dead:
        worst = {t: max(d[t] for _, d in dead) for t in dead[0][1]}
        last = dead[-1][1]
        out.append("- dead tuples after the retention pipeline (n_dead_tup, partitions summed; the outbox's include "
                   "the delivery service's `sent_at` updates, which autovacuum clears): worst "
                   + ", ".join(f"{t} {v:,}" for t, v in worst.items()) + "; after the last night "
                   + ", ".join(f"{t} {v:,}" for t, v in last.items()))
    return out


def _months(r: dict) -> list:
    return sorted(int(d) for d in r["sizes"])


def _month_table(r: dict) -> str:
    pg = r["backend"] == "PostgreSQL"
    head = ["night", "date", "users + contacts", "database MB", "bytes per user + contact",
            "nightly rows read", "nightly wall s", "nightly CPU s"]
    head += ["nightly server CPU s", "retention server CPU s", "dead tuples: snapshots / outbox"] if pg else []
    head += ["retention wall s", "history-retention deleted: snapshots / outbox / suggestions / runs",
             "outbox unsent over a day"]
    lines = ["Per simulated month (the nights since the row before: medians; sizes at the night's end):", "",
             "| " + " | ".join(head) + " |", "|" + "---:|" * len(head)]
    nights = {n["day"]: n for n in r["nights"]}
    days = _months(r)
    for i, day in enumerate(days):
        s = r["sizes"][str(day)]
        span = [nights[d] for d in range((days[i - 1] + 1) if i else day, day + 1) if d in nights]

        def med(value):
            values = [value(n) for n in span if value(n) is not None]
            return statistics.median(values) if values else None

        def cell(value, fmt="{:.2f}"):
            return "–" if value is None else fmt.format(value)

        people = _people(s)
        date = nights[day]["date"] if day in nights else "start"
        cells = [str(day), date, f"{people:,}", f"{s['database_bytes'] / MB:,.1f}", f"{s['database_bytes'] / people:,.0f}",
                 cell(med(lambda n: n["rows_read"]), "{:,.0f}"), cell(med(lambda n: n["runs"]["nightly"]["wall"])),
                 cell(med(lambda n: n["runs"]["nightly"]["cpu"]))]
        if pg:
            dead = [n["dead_tuples"] for n in span if "dead_tuples" in n]
            cells += [cell(med(lambda n: n["runs"]["nightly"].get("server_cpu"))),
                      cell(med(lambda n: n["runs"]["retention"].get("server_cpu")), "{:.3f}"),
                      f"{max(d['score_snapshots'] for d in dead):,} / {max(d['notification_outbox'] for d in dead):,}"
                      if dead else "–"]
        cells.append(cell(med(lambda n: n["runs"]["retention"]["wall"])))
        cells += _retention_cells(span)
        lines.append("| " + " | ".join(cells) + " |")
    return "\n".join(lines)


def _retention_cells(span: list) -> list:
    """history-retention's deletions summed over the nights, and its unsent count at the last."""
    details = [(n["runs"]["retention"]["jobs"].get(RETENTION_JOB) or {}).get("details") or {} for n in span]
    if not any(details):
        return ["–", "–"]

    def total(key):
        return sum(int(d.get(key) or 0) for d in details)

    deleted = " / ".join(f"{total(k):,}" for k in
                         ("snapshots_deleted", "outbox_deleted", "suggestions_deleted", "runs_deleted"))
    return [deleted, f"{int(details[-1].get('outbox_unsent_over_a_day') or 0):,}"]


def _table_table(r: dict) -> str:
    """Each table's rows and MB at each measured night, the largest at the end first."""
    days = _months(r)
    end = r["sizes"][str(days[-1])]["tables"]
    names = sorted((t for t in end if any(r["sizes"][str(d)]["tables"].get(t, {}).get("rows") for d in days)),
                   key=lambda t: -end[t]["bytes"])
    lines = ["Each table (with its indexes" + (", partitions summed" if r["backend"] == "PostgreSQL" else "")
             + "): rows / MB at each night of the table above:", "",
             "| table | " + " | ".join(str(d) for d in days) + " |", "|---|" + "---:|" * len(days)]
    for t in names:
        cells = []
        for d in days:
            x = r["sizes"][str(d)]["tables"].get(t)
            cells.append("–" if not x else f"{x['rows']:,} / {x['bytes'] / MB:.2f}")
        lines.append(f"| {t} | " + " | ".join(cells) + " |")
    return "\n".join(lines)


def _compare(results: list) -> list:
    a, b = results[0], results[1]
    out = [f"## {a['backend']} against {b['backend']} (issue 59)", ""]
    na, nb = {n["day"]: n["notifications"] for n in a["nights"]}, {n["day"]: n["notifications"] for n in b["nights"]}
    days = sorted(set(na) & set(nb))
    differ = [d for d in days if na[d] != nb[d]]
    kinds = sorted({k for d in days for k in list(na[d]) + list(nb[d])})
    totals = ", ".join(f"{k} {sum(na[d].get(k, 0) for d in days):,} / {sum(nb[d].get(k, 0) for d in days):,}"
                       for k in kinds)
    out.append(f"- notifications queued per night, kind by kind: equal on {len(days) - len(differ)} of {len(days)} "
               f"nights; over the year ({a['backend']} / {b['backend']}): {totals}")
    if differ:
        out.append("- the first nights that differ: " + "; ".join(
            f"{d}: " + ", ".join(f"{k} {na[d].get(k, 0)}/{nb[d].get(k, 0)}" for k in kinds
                                  if na[d].get(k, 0) != nb[d].get(k, 0)) for d in differ[:8]))
    ka, kb = _keys(a), _keys(b)
    if ka is not None and kb is not None:
        only_a, only_b = ka - kb, kb - ka
        users = {k.split(":")[1] for k in only_a | only_b if k.count(":") >= 2}
        out.append(f"- dedupe keys (enrichment-fetch's run id aside): {len(only_a):,} only on {a['backend']}, "
                   f"{len(only_b):,} only on {b['backend']}, of {len(users):,} users"
                   + (f" (e.g. {sorted(only_a)[:2]} / {sorted(only_b)[:2]})" if only_a or only_b else ""))
    oa, ob = _outputs(a), _outputs(b)
    if oa is not None and ob is not None:
        first_kept = _first_snapshot_kept(a)
        cells = []
        for table in sorted(set(oa) | set(ob)):
            x, y = oa.get(table, set()), ob.get(table, set())
            if table == "score_snapshots":
                # Older days leave PostgreSQL a partition at a time: only the window compares.
                x, y = ({r for r in rows if r.split("|")[1] >= first_kept} for rows in (x, y))
                table = f"score_snapshots from {first_kept}"
            cells.append(f"{table} " + ("equal" if x == y else f"**{len(x - y):,} / {len(y - x):,} rows differ**"))
        out.append("- the output tables after the last night: " + ", ".join(cells))
    return out + _night_by_night(a, b) + [""]


OUTBOX_WRITTEN = "the night's outbox"


def _digests(r: dict) -> dict:
    """Night → what it compares by: each output table's digest and that of the outbox rows it wrote."""
    return {n["day"]: n["outputs"] | {OUTBOX_WRITTEN: n["outbox"]} for n in r["nights"] if "outputs" in n}


def _night_by_night(a: dict, b: dict) -> list:
    """Every output table and the outbox rows written, compared after each night: a difference on a
    night that later nights undo would not show after the last (issue 71)."""
    da, db = _digests(a), _digests(b)
    days = sorted(set(da) & set(db))
    if not days:
        return []
    differ = []
    for d in days:
        tables = [t for t in sorted(set(da[d]) | set(db[d])) if da[d].get(t) != db[d].get(t)]
        if tables:
            differ.append((d, tables))
    line = (f"- every output table and the night's outbox, night by night: equal on {len(days) - len(differ)} "
            f"of {len(days)} nights")
    if not differ:
        return [line]

    def rows(x, table):
        return f"{x[table]['rows']:,}" if table in x else "–"

    return [line + f"; the first that differ ({a['backend']} / {b['backend']} rows): " + "; ".join(
        f"{d}: " + ", ".join(f"{t} {rows(da[d], t)} / {rows(db[d], t)}" for t in tables)
        for d, tables in differ[:8])]


def _first_snapshot_kept(r) -> str:
    """The first day of the snapshot window after the last night: the days the history screen
    reads."""
    last = datetime.fromisoformat(r["nights"][-1]["date"]) if r["nights"] else None
    days = int(r["windows"]["score_snapshots"].rstrip("d"))
    return (last - timedelta(days=days)).date().isoformat() if last else ""


def _keys(r):
    path = Path(r["folder"]) / "keys.txt.gz"
    if not path.exists():
        return None
    with gzip.open(path, "rt") as f:
        return {outbox_key(line.split("\t")[0]) for line in f}


def _outputs(r):
    path = Path(r["folder"]) / "outputs.txt.gz"
    if not path.exists():
        return None
    tables = {}
    with gzip.open(path, "rt") as f:
        for line in f:
            table, row = line.rstrip("\n").split("\t", 1)
            tables.setdefault(table, set()).add(row)
    return tables


def raw(results: list) -> dict:
    return {f"{r['backend']} {r['size']}": r | {"figures": figures(r)} for r in results}
