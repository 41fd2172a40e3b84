"""bench/services.sh --curve (issue 40): the pacing curve. For each setting of the job's pacing
(`storage.nice_ratio` 0, 0.25, 0.5, 1, 2 with no load limit, then `storage.max_load` at a few
values with no nice ratio), on the services' prepared cluster of `--size` with the services' load
at `--rate` transactions a second:

- the services alone (once: the load does not depend on the job's settings): p50, p99, failed;
- the nightly beside the load, with the setting: its wall, the services' p99 while it ran, failed
  transactions, and the time it paused or slept by reason;
- the nightly alone after as long a load as the one beside saw (equal work, issue 40's decision 1),
  with the same setting: its wall.

Writes OUT.md (the table), OUT.json (the figures) and OUT.png (the curve: the services' p99 beside
the nightly against the nightly's wall, one point per setting), OUT being `--out` (default
docs/services-curve). The PNG is drawn by bench/harness/plot_curve.py with matplotlib, Debian's
python3-matplotlib (scripts/setup.sh) when this Python has none.
"""

import argparse
import json
import os
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from . import settings
from .measure import load_average, measure
from .services import (NIGHTLY, KeptCluster, checked, failed, latencies, nightly_argv, prepare, start_services)


def main(argv):
    p = argparse.ArgumentParser(prog="bench/services.sh --curve", description=__doc__)
    p.add_argument("--size", default="M", choices=list(settings.SIZES))
    p.add_argument("--rate", type=int, default=100, help="service transactions a second (pgbench -R)")
    p.add_argument("--clients", type=int, default=4)
    p.add_argument("--warm-up", type=int, default=10, dest="warm_up",
                   help="seconds of the services' load before each nightly")
    p.add_argument("--nice-ratios", default="0,0.25,0.5,1,2", dest="nice_ratios")
    p.add_argument("--max-loads", default="1,2,4", dest="max_loads",
                   help="storage.max_load values, each with nice_ratio 0; empty for none")
    p.add_argument("--alone-seconds", type=int, default=60, dest="alone_seconds",
                   help="how long the services run alone for their own p99")
    p.add_argument("--out", default="docs/services-curve", help="OUT.md, OUT.json and OUT.png")
    p.add_argument("--rinjobs", required=True, help=argparse.SUPPRESS)
    args = p.parse_args(argv)
    log = lambda m: print(m, file=sys.stderr, flush=True)
    repo = Path(__file__).resolve().parents[2]
    size = settings.SIZES[args.size]
    rinjobs = str(Path(args.rinjobs).resolve())
    points = [{"nice_ratio": float(r), "max_load": None} for r in args.nice_ratios.split(",") if r]
    points += [{"nice_ratio": 0.0, "max_load": int(m)} for m in args.max_loads.split(",") if m]
    # The prepared cluster is the one bench/services.sh measures (same first night, same key).
    prepared = prepare(repo, size, rinjobs, config_text(None), log)
    scratch = Path(tempfile.mkdtemp(prefix="rin-bench-curve-"))
    cluster = KeptCluster(prepared / "data", durable=True)
    started = time.time()
    load_start = load_average()
    try:
        cluster.sql("DROP DATABASE IF EXISTS rin_run")
        alone = services_alone(cluster, scratch, size, args, log)
        results = []
        for i, point in enumerate(points, 1):
            log(f"curve: point {i} of {len(points)}: {label(point)}")
            results.append(measure_point(cluster, scratch, size, args, rinjobs, point, log))
        cluster.sql("DROP DATABASE IF EXISTS rin_run")
    finally:
        cluster.stop()
        shutil.rmtree(scratch, ignore_errors=True)
    data = {
        "size": size.name, "users": size.users, "rate": args.rate, "clients": args.clients,
        "warm_up": args.warm_up, "services_alone": alone, "points": results,
        "load_average": [load_start, load_average()], "minutes": round((time.time() - started) / 60, 1),
    }
    out = Path(args.out)
    if not out.is_absolute():
        out = repo / out
    out.parent.mkdir(parents=True, exist_ok=True)
    out.with_suffix(".json").write_text(json.dumps(data, indent=2) + "\n")
    table = render(data)
    out.with_suffix(".md").write_text(table + "\n")
    plot(out.with_suffix(".json"), out.with_suffix(".png"), log)
    print(table)


def config_text(point):
    """The nightly's pipelines.yaml; `point` adds its pacing under `storage:` (the URL comes
    from `--db`)."""
    text = ("pipelines:\n  nightly:\n    schedule: \"30 2 * * *\"\n"
            f"    jobs: [{', '.join(NIGHTLY)}]\n")
    if point is None:
        return text
    storage = f"storage:\n  nice_ratio: {point['nice_ratio']}\n"
    if point["max_load"] is not None:
        storage += f"  max_load: {point['max_load']}\n"
    return storage + text


def label(point):
    if point["max_load"] is not None:
        return f"max_load {point['max_load']}"
    return f"nice_ratio {point['nice_ratio']:g}"


def fresh_copy(cluster):
    cluster.copy_of("rin_seeded", "rin_run")
    cluster.sql("CHECKPOINT")


def services_alone(cluster, scratch, size, args, log):
    fresh_copy(cluster)
    proc, prefix = start_services(cluster, scratch, size, args, "rin_run", args.alone_seconds, "alone")
    out, err = proc.communicate()
    only = latencies(prefix, None)
    only["failed"] = failed(out, err)
    log(f"curve: services alone p50 {only['p50']:.1f} ms, p99 {only['p99']:.1f} ms, {only['failed']} failed")
    return only


def measure_point(cluster, scratch, size, args, rinjobs, point, log):
    """The nightly beside the load, then alone after as long a load, both with `point`'s pacing."""
    config = scratch / "pipelines.yaml"
    config.write_text(config_text(point))
    tag = label(point).replace(" ", "-")
    fresh_copy(cluster)
    # Long enough for the slowest pacing (nice_ratio 2 triples the nightly); stopped at its end.
    proc, prefix = start_services(cluster, scratch, size, args, "rin_run", 24 * 3600, f"beside-{tag}")
    time.sleep(args.warm_up)
    start = time.time()
    beside = checked(measure(nightly_argv(rinjobs, config, cluster.url("rin_run"), settings.NEXT_NIGHT_NOW)),
                     f"nightly beside the services, {label(point)}")
    window = (start, time.time())
    # The load's length is not known ahead (pacing and pauses stretch the nightly): it is
    # stopped a few seconds after the nightly, whose window the latencies are taken in. A stopped
    # pgbench prints no summary; a failed transaction aborts its client, which stderr says.
    time.sleep(5)
    proc.terminate()
    out, err = proc.communicate()
    during = latencies(prefix, window)
    during["failed"] = failed(out, err)
    paused = paused_by_reason(beside.stdout)
    log(f"curve: {label(point)}: nightly beside {beside.wall:.1f} s, services p99 {during['p99']:.1f} ms, "
        f"{during['failed']} failed, paused {paused}")

    fresh_copy(cluster)
    proc, _ = start_services(cluster, scratch, size, args, "rin_run", args.warm_up + beside.wall, f"same-{tag}")
    proc.communicate()
    alone = checked(measure(nightly_argv(rinjobs, config, cluster.url("rin_run"), settings.NEXT_NIGHT_NOW)),
                    f"nightly alone after the same load, {label(point)}")
    log(f"curve: {label(point)}: nightly alone after the same load {alone.wall:.1f} s")
    cluster.sql("DROP DATABASE rin_run")
    return dict(point, label=label(point), nightly_beside_s=round(beside.wall, 2),
                nightly_alone_s=round(alone.wall, 2), services_beside=during, paused_beside=paused,
                gave_way=beside.stderr.count("gave way: the batch"))


def paused_by_reason(pipeline_json):
    """Seconds paused by reason, summed over the nightly's jobs (`--json` of `pipeline run`)."""
    try:
        runs = json.loads(pipeline_json).get("runs", [])
    except ValueError:
        return {}
    total = {}
    for job in (j for r in runs for j in r.get("jobs", [])):
        for reason, seconds in (job.get("paused") or {}).get("seconds", {}).items():
            total[reason] = round(total.get(reason, 0) + seconds, 3)
    return total


def render(data):
    alone = data["services_alone"]
    unpaced = next((p["nightly_beside_s"] for p in data["points"]
                    if p["nice_ratio"] == 0 and p["max_load"] is None), None)
    lines = [
        f"Pacing curve at {data['size']} ({data['users']:,} users), PostgreSQL, services load "
        f"`bench/services.pgbench` at {data['rate']} transactions/s ({data['clients']} clients); the nightly is "
        f"the next night after a first one, after {data['warm_up']} s of the load. Services alone: p50 "
        f"{alone['p50']:.1f} ms, p99 {alone['p99']:.1f} ms ({alone['count']} tx, {alone['failed']} failed).",
        "",
        "| setting | nightly beside (s) | alone after the same load (s) | beside / alone | wall / unpaced | "
        "services p99 beside (ms) | p99 beside / alone | failed | paused or slept (s, by reason) |",
        "|---|---|---|---|---|---|---|---|---|",
    ]
    for p in data["points"]:
        s = p["services_beside"]
        cost = f"{p['nightly_beside_s'] / unpaced:.2f}" if unpaced else "–"
        paused = ", ".join(f"{k} {v:.1f}" for k, v in sorted(p["paused_beside"].items())) or "–"
        lines.append(
            f"| {p['label']} | {p['nightly_beside_s']:.1f} | {p['nightly_alone_s']:.1f} | "
            f"{p['nightly_beside_s'] / p['nightly_alone_s']:.2f} | {cost} | {s['p99']:.1f} | "
            f"{s['p99'] / alone['p99']:.2f} | {s['failed']} | {paused} |")
    la = data["load_average"]
    lines += ["", f"Load average (1 min) at the start and the end: {la[0]:.2f}, {la[1]:.2f}; "
              f"{data['minutes']} minutes in all."]
    return "\n".join(lines)


def plot(data_path, png_path, log):
    """Draws the PNG with a Python that has matplotlib: this one, else Debian's."""
    script = Path(__file__).resolve().parent / "plot_curve.py"
    for python in (sys.executable, "/usr/bin/python3"):
        if not os.path.exists(python):
            continue
        has = subprocess.run([python, "-c", "import matplotlib"], capture_output=True).returncode == 0
        if has:
            subprocess.run([python, str(script), str(data_path), str(png_path)], check=True)
            log(f"curve: wrote {png_path}")
            return
    log("curve: no matplotlib (install python3-matplotlib: scripts/setup.sh); no PNG drawn")
