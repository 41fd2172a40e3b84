"""Writes the latest run into BENCHMARKS.md, between the markers; the text around them is kept."""

from pathlib import Path

from . import settings
from .targets import evaluate, layout_ratio, shard_efficiency

BEGIN = "<!-- bench:begin: written by bench/run.sh; edits between these markers are overwritten -->"
END = "<!-- bench:end -->"


def _seconds(value):
    return "—" if value is None else f"{value:.2f} s"


def _count(value):
    return "—" if value is None else f"{value:,.0f}"


def _job_row(r) -> str:
    if not r.measured:
        return f"| {r.job} | {r.state} | | | | | | | | | | {r.note} |"
    baseline = _seconds(r.baseline_wall) if r.baseline_wall else "—"
    ratio = f"{r.ratio:.2f} ×" if r.ratio is not None else "—"
    cpu_ratio = f"{r.cpu_ratio:.2f} ×" if r.cpu_ratio is not None else "—"
    low, high = min(r.loads), max(r.loads)
    notes = [f"load {low:.1f}" if f"{low:.1f}" == f"{high:.1f}" else f"load {low:.1f}–{high:.1f}"]
    notes += [r.note] if r.note else []
    return (f"| {r.job} | {_seconds(r.wall)} | {_seconds(r.cpu)} | {_count(r.work)} {r.work_unit} "
            f"| {_count(r.work_per_second)} | {_count(r.written)} | {r.rss_mb:.1f} MB | {baseline} | {_count(r.baseline_rows)} "
            f"| {ratio} | {cpu_ratio} | {'; '.join(notes)} |")


def _size_section(size, facts, results) -> list:
    s = settings.SIZES[size]
    lines = [
        f"### {size}: {s.users:,} users, {facts['contacts']:,} contacts, {facts['file_mb']:,.0f} MB file",
        "",
        "| job | wall | CPU | work | per second | rows written | peak RSS | baseline | baseline rows | job / baseline "
        "| CPU / baseline CPU | notes |",
        "|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---|",
    ]
    lines += [_job_row(results[job]) for job in results]
    return lines + [""]


def _layout_section(size, production, clustered) -> list:
    lines = [
        f"### {size}: creation-order against clustered contact ids",
        "",
        "Every table above runs on creation-order ids (production's layout). Here each job that "
        "reads contacts also runs on a file seeded with `--contact-ids clustered` (the same rows, "
        "one run of ids per user).",
        "",
        "| job | CPU, creation order | CPU, clustered | ratio | wall, creation order | wall, clustered | notes |",
        "|---|---:|---:|---:|---:|---:|---|",
    ]
    for job, other in clustered.items():
        mine = production.get(job)
        ratio = layout_ratio(mine, other)
        if ratio is None:
            state = other.state if not other.measured else (mine.state if mine else "not measured")
            lines.append(f"| {job} | | | {state} | | | {other.note} |")
            continue
        lines.append(f"| {job} | {_seconds(mine.cpu)} | {_seconds(other.cpu)} | {ratio:.2f} × "
                     f"| {_seconds(mine.wall)} | {_seconds(other.wall)} | load {min(other.loads):.1f}–{max(other.loads):.1f} |")
        if mine.first_run and other.first_run:
            a, b = mine.first_run, other.first_run
            lines.append(f"| {job}, its first run | {_seconds(a['cpu'])} | {_seconds(b['cpu'])} | "
                         f"{a['cpu'] / b['cpu']:.2f} × | {_seconds(a['wall'])} | {_seconds(b['wall'])} | "
                         f"once, when the fixture was made |")
    return lines + [""]


def _shard_section(size, production, sharded) -> list:
    counts = settings.SHARD_COUNTS
    lines = [
        f"### {size}: one shard alone",
        "",
        "Each per-user job also runs as `--shard 0/N` alone on the same file; efficiency is the "
        "whole run's CPU / (N × the shard's CPU): 1 when N workers together do the work of one.",
        "",
        "| job | whole run CPU | " + " | ".join(f"0/{n} CPU | efficiency" for n in counts) + " |",
        "|---|---:|" + "---:|---:|" * len(counts),
    ]
    for job, by_count in sharded.items():
        whole = production.get(job)
        cells = []
        for n in counts:
            one = by_count.get(n)
            e = shard_efficiency(whole, one, n)
            cells += [_seconds(one.cpu) if one and one.measured else (one.state if one else "—"),
                      f"{e:.2f}" if e is not None else "—"]
        lines.append(f"| {job} | {_seconds(whole.cpu) if whole and whole.measured else '—'} | "
                     + " | ".join(cells) + " |")
    return lines + [""]


def _runs_section(results) -> list:
    lines = ["<details><summary>Every run (wall, CPU, peak RSS, 1-minute load average before it)</summary>", ""]
    for size, by_job in results.items():
        for job, r in by_job.items():
            for i, s in enumerate(r.samples, 1):
                b = f"; baseline {s.baseline.wall:.2f} s (load {s.baseline.load1:.2f})" if s.baseline else ""
                lines.append(f"- {size} {job} #{i}: {s.job.wall:.2f} s, CPU {s.job.cpu:.2f} s, "
                             f"{s.job.rss_mb:.1f} MB, load {s.job.load1:.2f}{b}")
    return lines + ["", "</details>", ""]


def render(machine, command, runs, facts, results, clustered=None, sharded=None) -> str:
    clustered = clustered or {}
    sharded = sharded or {}
    lines = [
        BEGIN,
        GENERATED_HEADING,
        "",
        f"`{command}` on {machine['date']}, commit {machine['commit']}; medians of {runs} run{'s' if runs > 1 else ''}, "
        "each on a fresh copy of the cached database.",
        "",
        f"- Machine: {machine['cpus']} × {machine['cpu']}, {machine['memory']} memory, {machine['kernel']}",
        f"- {machine['swift']}; sqlite3 {machine['sqlite3']}; `rinjobs` built with `-c release --static-swift-stdlib` (scripts/build-release.sh)",
        f"- Load average when the run ended: {' '.join(machine['load'])} (1, 5, 15 min). The machine "
        "is shared: other builds ran beside the bench, so the numbers are noisy; each run's load is "
        "listed below.",
        "",
        "### Targets",
        "",
        "| target | measured | status |",
        "|---|---:|---|",
    ]
    lines += [f"| {v.target} | {v.measured} | {v.status} |" for v in evaluate(results, clustered, sharded)]
    lines.append("")
    for size in results:
        lines += _size_section(size, facts[size], results[size])
        if size in clustered:
            lines += _layout_section(size, results[size], clustered[size])
        if size in sharded:
            lines += _shard_section(size, results[size], sharded[size])
    lines += _runs_section(results)
    if clustered:
        lines += _runs_section({f"{size} clustered": by_job for size, by_job in clustered.items()})
    if sharded:
        lines += _runs_section({f"{size} shard 0/{n}": {job: by_n[n] for job, by_n in by_job.items()}
                                for size, by_job in sharded.items() for n in settings.SHARD_COUNTS})
    lines.append(END)
    return "\n".join(lines)


GENERATED_HEADING = "## Latest run"


def _split(path: Path):
    """The text before the markers, between them and after them. Text between them that this
    module did not write (it always starts with GENERATED_HEADING) is hand-written: the run stops
    before it could be lost, and asks for it to be moved out of the markers."""
    text = path.read_text() if path.exists() else f"# Benchmarks\n\n{BEGIN}\n{END}\n"
    if BEGIN not in text or END not in text:
        text = text.rstrip("\n") + f"\n\n{BEGIN}\n{END}\n"
    head, rest = text.split(BEGIN, 1)
    current, tail = rest.split(END, 1)
    if current.strip() and not current.strip().startswith(GENERATED_HEADING):
        raise SystemExit(f"bench: {path} holds text between the bench: markers that bench/run.sh did not write "
                         f"(it starts {current.strip()[:60]!r}); move it out of the markers and run again")
    return head, tail


def check(path: Path):
    """Before measuring: stops at once when `write` would refuse, not after hours of runs."""
    _split(path)


def write(path: Path, generated: str):
    """Replaces what is between the markers, and only that; the text around them is kept."""
    head, tail = _split(path)
    path.write_text(head + generated + tail)
