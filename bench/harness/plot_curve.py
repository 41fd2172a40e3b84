"""Draws the pacing curve of bench/services.sh --curve (issue 40) from its JSON:
  python3 bench/harness/plot_curve.py docs/services-curve.json docs/services-curve.png
Left: the services' p99 beside the nightly against the nightly's wall beside the load, one point
per setting, with the target (2x the services' p99 alone). Right: the same two, as ratios, by
nice_ratio (the cost to the nightly and the gain for the services). Needs matplotlib only."""

import json
import sys

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402


def main(data_path, png_path):
    data = json.loads(open(data_path).read())
    alone = data["services_alone"]["p99"]
    points = data["points"]
    nice = [p for p in points if p["max_load"] is None]
    loads = [p for p in points if p["max_load"] is not None]
    fig, (left, right) = plt.subplots(1, 2, figsize=(12, 4.8))

    for series, marker, name in ((nice, "o-", "nice_ratio"), (loads, "s--", "max_load")):
        if not series:
            continue
        series = sorted(series, key=lambda p: p["nightly_beside_s"])
        left.plot([p["nightly_beside_s"] for p in series], [p["services_beside"]["p99"] for p in series],
                  marker, label=name)
        for p in series:
            left.annotate(p["label"], (p["nightly_beside_s"], p["services_beside"]["p99"]),
                          textcoords="offset points", xytext=(4, 4), fontsize=8)
    left.axhline(2 * alone, color="red", linestyle=":", label=f"target: 2x alone ({2 * alone:.1f} ms)")
    left.axhline(alone, color="grey", linestyle=":", label=f"services alone ({alone:.1f} ms)")
    p99s = [p["services_beside"]["p99"] for p in points] + [alone]
    if max(p99s) > 20 * min(p99s):
        left.set_yscale("log")  # a stalled point would flatten the others into the axis
    left.set_xlabel("nightly's wall beside the services (s)")
    left.set_ylabel("services' p99 beside the nightly (ms)")
    left.set_title("Cost and gain of each setting")
    left.legend(fontsize=8)

    unpaced = next((p["nightly_beside_s"] for p in nice if p["nice_ratio"] == 0), None)
    nice = sorted(nice, key=lambda p: p["nice_ratio"])
    ratios = [p["nice_ratio"] for p in nice]
    right.plot(ratios, [p["services_beside"]["p99"] / alone for p in nice], "o-", label="services' p99 / alone")
    if unpaced:
        right.plot(ratios, [p["nightly_beside_s"] / unpaced for p in nice], "s-", label="nightly's wall / unpaced")
    right.axhline(2, color="red", linestyle=":", label="2x")
    right.set_xlabel("storage.nice_ratio")
    right.set_ylabel("ratio")
    right.set_title("Along nice_ratio")
    right.legend(fontsize=8)

    fig.suptitle(f"Pacing beside the services at {data['size']} ({data['users']:,} users), "
                 f"{data['rate']} services transactions/s, PostgreSQL")
    fig.tight_layout()
    fig.savefig(png_path, dpi=100)


if __name__ == "__main__":
    main(sys.argv[1], sys.argv[2])
