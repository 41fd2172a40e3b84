"""bench/run.sh --erasure (issue 70): what a night costs when 1 % of the accounts were deleted.

From the fortnight's cached start (the seeded database after its first night and hour, on each
backend), on a fresh copy for every run: history-retention once at 03:45 after the first night
(erasure's first run walks every deletion the seed made and sweeps every table: a one-off that
both variants pay before what is measured), then day 1 of bench/day_of_changes.sql at noon, and
for the *deletion* variant 1 % of the live accounts deleted (`deleted_at`, `id % 100 = 37`) ten
minutes after it. The retention pipeline runs hourly (pipelines.yaml, `15 * * * *`), so the
deletions are erased by its next run, at 12:15, as in production, before the night; the run at
13:15 walks the last hour's deletions again (a write may commit up to `ChangeStamp.margin` after
the time it stamps). Those two runs are *the erasure hours*, run in both variants. Measured: the night, the nightly pipeline at 02:30 (with the
loopback provider) and history-retention at 03:15 after it; the erasure hour; and the two
together, which is also about what a night costs when the deletions land after the last hourly
run before the nightly (erasure then runs after it): the process's CPU, and
on PostgreSQL the server's (every PostgreSQL process, from /proc, as the fortnight counts it) and
the dead tuples the night left in `score_snapshots`' partitions and in every table
(`pg_stat_user_tables`). Erasure's first run (the *settle* above) is run once, and every
night starts from a copy of what it left; the check once, after the last deletion night.

The machine is a shared VM whose speed drifts by tens of percent over minutes (two identical
quiet nights at M differed by 40 %, BENCHMARKS.md), so the variants alternate within each pair
(quiet first in odd pairs, deletion first in even ones) and the ratio reported is the median of
the RUNS pairs' own ratios (beside the medians of each variant, and every pair's ratio); the
target (at most 1.2 ×) is the night's. `--runs 0` only prepares the cached starts.
"""

import statistics
import time

from . import settings
from .cache import checkpoint, remove_database
from .changes import day_of_changes
from .config import write_config
from .fortnight import PG_DB, Run, _checked, change_at, iso, night_now
from .measure import load_average, measure, run_checked

DELETED_SHARE_SQL = "UPDATE users SET deleted_at = {at} WHERE deleted_at IS NULL AND id % 100 = 37;\n"
# history-retention after the first night's hour, and after the measured night: the retention
# pipeline's :15 slot, after the nightly's 02:30.
SETTLE_AT = night_now(0) + 4_500
RETENTION_AFTER = 2_700
# The deletions at 12:10; the retention pipeline's next two runs.
DELETED_AFTER_CHANGES = 600
ERASURE_HOURS_AFTER_CHANGES = (900, 4_500)


class Erasure:
    def __init__(self, fortnight, runs: int, log):
        self.fortnight = fortnight
        self.runs = runs
        self.log = log
        self.rinjobs = fortnight.rinjobs
        self.cache = fortnight.cache

    def _retention(self, storage: str, at: int, postmaster=None) -> Run:
        # The provider's name, as the pipelines' one pipelines.yaml gives it: erasure hashes a
        # deleted contact's numbers under it. Nothing is asked of the provider.
        config = write_config(self.cache.scratch, storage, provider_url="http://127.0.0.1:9")

        def go():
            argv = [self.rinjobs, "run", "history-retention", "--config", str(config), "--now", iso(at), "--json"]
            m = _checked(measure(argv, cwd=self.cache.scratch, env=self.fortnight.runner.env,
                                 timeout=self.fortnight.timeout), f"history-retention at {iso(at)}")
            return Run(wall=m.wall, cpu=m.cpu, jobs={"history-retention": {"wall": m.wall, "cpu": m.cpu}},
                       load1=m.load1)

        return self.fortnight._with_server(postmaster, go)

    def _check(self, storage: str, at: int, postmaster=None) -> Run:
        def go():
            argv = [self.rinjobs, "erasure", "--db", storage, "--now", iso(at), "--json"]
            m = measure(argv, cwd=self.cache.scratch, env=self.fortnight.runner.env, timeout=self.fortnight.timeout)
            if m.exit_code not in (0, 1):
                raise RuntimeError(f"rinjobs erasure exited {m.exit_code}: {m.stderr[-2000:]}")
            return Run(wall=m.wall, cpu=m.cpu, load1=m.load1)

        return self.fortnight._with_server(postmaster, go)

    def _settle(self, storage: str, postmaster=None) -> Run:
        """Erasure's first run: every deletion the seed made, and the sweep of every table (what a
        week's sweep costs at this size). Both variants start from what it leaves."""
        return self._retention(storage, SETTLE_AT, postmaster)

    def _night(self, storage: str, apply, delete: bool, check: bool, postmaster=None, cluster=None) -> dict:
        apply(day_of_changes(self.cache.repo, 1, change_at(1), new_accounts=False))
        if delete:
            apply(DELETED_SHARE_SQL.format(at=change_at(1) + DELETED_AFTER_CHANGES))
        if postmaster:
            time.sleep(0.2)  # the changes' backends are reaped before the server's CPU is read
        hours = [self._retention(storage, change_at(1) + after, postmaster) for after in ERASURE_HOURS_AFTER_CHANGES]
        hour = Run(wall=sum(h.wall for h in hours), cpu=sum(h.cpu for h in hours),
                   jobs={"history-retention": {"cpu": sum(h.cpu for h in hours)}}, load1=hours[-1].load1)
        if postmaster:
            hour.server_cpu = sum(h.server_cpu for h in hours)
        nightly = self.fortnight._nightly(storage, 1, postmaster, cluster)
        retention = self._retention(storage, night_now(1) + RETENTION_AFTER, postmaster)
        result = {
            "nightly": nightly.__dict__, "retention": retention.__dict__, "hour": hour.__dict__,
            "cpu": nightly.cpu + retention.cpu, "wall": nightly.wall + retention.wall, "load": load_average(),
            "with_hour_cpu": nightly.cpu + retention.cpu + hour.cpu,
        }
        if postmaster:
            result["server_cpu"] = nightly.server_cpu + retention.server_cpu
            result["with_hour_server_cpu"] = result["server_cpu"] + hour.server_cpu
        if check:
            # The check a day later, every table read whole (its exit: 0 when nothing is left).
            result["check"] = self._check(storage, night_now(1) + 86_400 + 10_800, postmaster).__dict__
        return result

    def _pairs(self, backend: str, size, settle: Run, night) -> dict:
        runs = {"quiet": [], "deletion": []}
        for index in range(self.runs):
            order = ("quiet", "deletion") if index % 2 == 0 else ("deletion", "quiet")
            for variant in order:
                last = index == self.runs - 1 and variant == "deletion"
                result = night(variant == "deletion", last)
                runs[variant].append(result)
                server = f", server {result['server_cpu']:.2f} s" if "server_cpu" in result else ""
                self.log(f"  {backend} {size.name} run {index + 1} {variant}: the night (nightly + retention) "
                         f"{result['cpu']:.2f} s cpu{server} (retention {result['retention']['cpu']:.2f} s); "
                         f"the erasure hours {result['hour']['cpu']:.2f} s")
        summary = {"backend": backend, "size": size.name, "users": size.users, "runs": runs}
        for key in ("cpu", "server_cpu", "with_hour_cpu", "with_hour_server_cpu"):
            if key in runs["quiet"][0]:
                quiet = statistics.median(r[key] for r in runs["quiet"])
                deletion = statistics.median(r[key] for r in runs["deletion"])
                pairs = [d[key] / q[key] for q, d in zip(runs["quiet"], runs["deletion"])]
                summary[key] = {"quiet": quiet, "deletion": deletion, "ratio": statistics.median(pairs),
                                "ratio_of_medians": deletion / quiet, "pairs": pairs}
        summary["retention_cpu"] = {v: statistics.median(r["retention"]["cpu"] for r in runs[v]) for v in runs}
        summary["hour_cpu"] = {v: statistics.median(r["hour"]["cpu"] for r in runs[v]) for v in runs}
        if "server_cpu" in runs["quiet"][0]:
            summary["hour_server_cpu"] = {
                v: statistics.median(r["hour"]["server_cpu"] for r in runs[v]) for v in runs}
        check = runs["deletion"][-1]["check"]
        summary["settle"], summary["check"] = settle.__dict__, check
        summary["sweep_cpu"], summary["check_cpu"] = settle.cpu, check["cpu"]
        if "server_cpu" in runs["quiet"][0]:
            summary["sweep_server_cpu"], summary["check_server_cpu"] = settle.server_cpu, check["server_cpu"]
        summary["load"] = statistics.median(r["load"] for v in runs for r in runs[v])
        return summary

    def sqlite(self, size: settings.Size) -> dict:
        start, _, _ = self.fortnight._sqlite_start(size)
        if not self.runs:
            return None
        settled = self.cache.scratch_copy(start, "erasure-settled.sqlite")
        settle = self._settle(str(settled))
        checkpoint(settled)  # the copies below take the file alone

        def night(delete: bool, check: bool) -> dict:
            db = self.cache.scratch_copy(settled, "erasure.sqlite")
            try:
                return self._night(str(db), lambda sql: run_checked(["sqlite3", "-bail", db], input=sql), delete,
                                   check)
            finally:
                remove_database(db)

        try:
            return self._pairs("SQLite", size, settle, night)
        finally:
            remove_database(settled)

    def postgres(self, size: settings.Size) -> dict:
        from .pg_cluster import Cluster

        folder, _, running = self.fortnight._postgres_start(size)
        if running:
            running.stop()
        if not self.runs:
            return None
        settled = Cluster(data_from=folder / "data", profile=True)
        try:
            try:
                settled.create_profile(PG_DB)
                settle = self._settle(settled.url(PG_DB), settled.postmaster)
            finally:
                settled.halt()  # its data directory, stopped cleanly, is what every night copies
            summary = self._pairs("PostgreSQL", size, settle, self._postgres_night(settled))
        finally:
            settled.stop()
        summary["dead_tuples"] = {
            v: statistics.median(r["dead_tuples"]["score_snapshots"] for r in summary["runs"][v])
            for v in summary["runs"]}
        summary["dead_tuples_all"] = {
            v: statistics.median(r["dead_tuples"]["all"] for r in summary["runs"][v]) for v in summary["runs"]}
        return summary

    def _postgres_night(self, settled):
        """One night on a server started from a copy of `settled`'s data directory."""
        from .pg_cluster import Cluster, _without_pgoptions

        def night(delete: bool, check: bool) -> dict:
            cluster = Cluster(data_from=f"{settled.dir}/data", profile=True)
            try:
                cluster.create_profile(PG_DB)
                url = cluster.url(PG_DB)

                def apply(sql):
                    run_checked([f"{cluster.bin}/psql", "-q", "-X", "-v", "ON_ERROR_STOP=1", url], input=sql,
                                env=_without_pgoptions())

                result = self._night(url, apply, delete, check, cluster.postmaster, cluster)
                time.sleep(1.0)  # the statistics collector's view of the night's deletes
                out = run_checked(
                    [f"{cluster.bin}/psql", "-q", "-X", "-At", "-F", "|", url, "-c",
                     "SELECT coalesce(sum(n_dead_tup) FILTER (WHERE relname LIKE 'score_snapshots%'), 0), "
                     "coalesce(sum(n_dead_tup), 0) FROM pg_stat_user_tables"],
                    env=_without_pgoptions())
                snapshots, total = (int(v) for v in out.strip().split("|"))
                result["dead_tuples"] = {"score_snapshots": snapshots, "all": total}
                return result
            finally:
                cluster.stop()

        return night


def render(results: list, command: str, described: dict) -> str:
    results = [r for r in results if r]  # `--runs 0` prepares the starts and measures nothing
    lines = ["# A night with 1 % of the accounts deleted (issue 70)", "",
             f"Command: `{command}`. Machine: {described}.", "",
             "Each time: the median of the runs; each ratio: the median of the pairs' ratios (a pair's two "
             "nights run back to back, their order alternating). The night: the nightly pipeline and "
             "history-retention after it; target: the deletion night at most 1.2 × the quiet night. The erasure hours: the "
             "retention pipeline's two runs after the deletions (12:15, which erases them, and 13:15, which "
             "walks the last hour's deletions again).", "",
             "| backend | size | users | the night, rinjobs CPU quiet → deletion (ratio) | the night, server CPU "
             "quiet → deletion (ratio) | history-retention at 03:15 quiet → deletion | the erasure hours, rinjobs "
             "(server) quiet → deletion | night + hours, ratio rinjobs (server) | dead tuples in score_snapshots "
             "(all tables) | load |",
             "|---|---|---|---|---|---|---|---|---|---|"]
    for r in results:
        cpu = r["cpu"]
        server = (f"{r['server_cpu']['quiet']:.2f} → {r['server_cpu']['deletion']:.2f} s "
                  f"(**{r['server_cpu']['ratio']:.2f} ×**)") if "server_cpu" in r else "n/a"
        dead = (f"{r['dead_tuples']['quiet']:,.0f} → {r['dead_tuples']['deletion']:,.0f} "
                f"({r['dead_tuples_all']['quiet']:,.0f} → {r['dead_tuples_all']['deletion']:,.0f})") \
            if "dead_tuples" in r else "n/a"
        hour = f"{r['hour_cpu']['quiet']:.2f} → {r['hour_cpu']['deletion']:.2f} s"
        if "hour_server_cpu" in r:
            hour += f" ({r['hour_server_cpu']['quiet']:.2f} → {r['hour_server_cpu']['deletion']:.2f} s)"
        both = f"{r['with_hour_cpu']['ratio']:.2f} ×"
        if "with_hour_server_cpu" in r:
            both += f" ({r['with_hour_server_cpu']['ratio']:.2f} ×)"
        lines.append(
            f"| {r['backend']} | {r['size']} | {r['users']:,} | {cpu['quiet']:.2f} → {cpu['deletion']:.2f} s "
            f"(**{cpu['ratio']:.2f} ×**) | {server} | {r['retention_cpu']['quiet']:.2f} → "
            f"{r['retention_cpu']['deletion']:.2f} s | {hour} | {both} | {dead} | {r['load']:.2f} |")
    lines += ["", "Every pair's ratio, the night (in the order run):", ""]
    for r in results:
        for key, label in (("cpu", "rinjobs"), ("server_cpu", "server")):
            if key in r:
                pairs = ", ".join(f"{x:.2f}" for x in r[key]["pairs"])
                lines.append(f"- {r['backend']} {r['size']}, {label}: {pairs} (ratio of the medians "
                             f"{r[key]['ratio_of_medians']:.2f} ×)")
    lines += ["", "Erasure's first run (every deletion the seed made, and the sweep of every table: what the "
              "weekly sweep costs), once, and `rinjobs erasure` a day after the last deletion night (every "
              "table read whole):", ""]
    for r in results:
        server = (f"; server {r['sweep_server_cpu']:.2f} s and {r['check_server_cpu']:.2f} s"
                  if "sweep_server_cpu" in r else "")
        lines.append(f"- {r['backend']} {r['size']}: first run with the sweep {r['sweep_cpu']:.2f} s rinjobs CPU, "
                     f"the check {r['check_cpu']:.2f} s{server}")
    return "\n".join(lines) + "\n"
