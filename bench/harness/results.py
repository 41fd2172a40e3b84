"""What a bench run found: per size, per job, the measured runs; medians for the report."""

import statistics
from dataclasses import dataclass, field
from typing import Optional

from .measure import Measurement

MEASURED = "measured"
NOT_BUILT = "not built"
FAILED = "failed"
TIMED_OUT = "timed out"


@dataclass
class Sample:
    """One run: the job (or pipeline) on a fresh copy, and the baseline timed beside it."""
    job: Measurement
    baseline: Optional[Measurement]
    work: int  # rows read, clicks deleted or lookups made (see Result.work_unit)
    baseline_rows: int
    written: int = 0  # rows the job inserted, updated or deleted (its `changes`)


@dataclass
class Result:
    job: str
    size: str
    state: str = MEASURED
    note: str = ""
    work_unit: str = "rows read"
    samples: list = field(default_factory=list)
    # A job measured the night after its first run (settings.SECOND_NIGHT_JOBS): that first
    # run's {"wall", "cpu", "rss_mb"}, measured once when its fixture was made.
    first_run: Optional[dict] = None

    @property
    def measured(self) -> bool:
        return self.state == MEASURED and bool(self.samples)

    def median(self, value) -> Optional[float]:
        values = [value(s) for s in self.samples]
        values = [v for v in values if v is not None]
        return statistics.median(values) if values else None

    @property
    def wall(self):
        return self.median(lambda s: s.job.wall)

    @property
    def cpu(self):
        return self.median(lambda s: s.job.cpu)

    @property
    def rss_mb(self):
        return self.median(lambda s: s.job.rss_mb)

    @property
    def work(self):
        return self.median(lambda s: s.work)

    @property
    def written(self):
        return self.median(lambda s: s.written)

    @property
    def work_per_second(self):
        return self.median(lambda s: s.work / s.job.wall if s.job.wall > 0 else None)

    @property
    def baseline_wall(self):
        return self.median(lambda s: s.baseline.wall if s.baseline else None)

    @property
    def baseline_cpu(self):
        return self.median(lambda s: s.baseline.cpu if s.baseline else None)

    @property
    def cpu_ratio(self):
        """Median job CPU time over median baseline CPU time: less moved by other load than wall."""
        if self.cpu is None or not self.baseline_cpu:
            return None
        return self.cpu / self.baseline_cpu

    @property
    def baseline_rows(self):
        return self.median(lambda s: s.baseline_rows if s.baseline else None)

    @property
    def ratio(self):
        """Median job wall time over median baseline wall time."""
        if self.wall is None or not self.baseline_wall:
            return None
        return self.wall / self.baseline_wall

    @property
    def loads(self):
        return [s.job.load1 for s in self.samples]
