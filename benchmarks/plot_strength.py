"""Plot the search agent's win rate against its iterations per move, as an SVG file.

    python benchmarks/plot_strength.py RESULTS.txt [RESULTS.txt ...] -o docs/_static/strength.svg

The input is what ``benchmarks/bench_search.py`` prints: one line per pairing and budget,
``KEY ... N it  G games  wins W  rate ...``.  Lines with the same pairing and budget are
added up (runs with different ``--seed`` values are more games of one point).  Each pairing
is drawn as a line of points with its Wilson 95% interval, iterations on a log scale, and a
dashed line at the fair share (50% for two players, 33% for three).

Plain SVG written by hand, so that the benchmarks need nothing beyond the library.
"""

from __future__ import annotations

import argparse
import math
import re
import sys
from collections import defaultdict

from cardrules.simulation import wilson_interval

LINE = re.compile(r"^(?P<key>\w+)\s.*?\s(?P<it>\d+) it\s+(?P<games>\d+) games\s+wins\s+(?P<wins>[\d.]+)")
LABELS = {
    "aegis": "Aegis",
    "gunsore": "Gunsore",
    "haggis2": "Haggis, 2 players",
    "haggis3": "Haggis, 3 players",
}
FAIR = {"haggis3": 1 / 3}
COLOURS = ["#1b6ca8", "#c0392b", "#27ae60", "#8e44ad", "#d35400"]


def read(paths: list[str]) -> dict[str, dict[int, list[float]]]:
    """``{pairing: {iterations: [games, wins]}}`` from bench_search output files."""
    points: dict[str, dict[int, list[float]]] = defaultdict(lambda: defaultdict(lambda: [0, 0.0]))
    for path in paths:
        with open(path, encoding="utf-8") as f:
            for line in f:
                m = LINE.match(line)
                if m and m["key"] in LABELS:
                    point = points[m["key"]][int(m["it"])]
                    point[0] += int(m["games"])
                    point[1] += float(m["wins"])
    return points


def svg(points: dict[str, dict[int, list[float]]], width: int = 640, height: int = 400) -> str:
    left, right, top, bottom = 56, 170, 20, 44
    its = [it for series in points.values() for it in series]
    lo_x, hi_x = math.log10(min(its)) - 0.1, math.log10(max(its)) + 0.1
    plot_w, plot_h = width - left - right, height - top - bottom

    def x(it: float) -> float:
        return left + (math.log10(it) - lo_x) / (hi_x - lo_x) * plot_w

    def y(rate: float) -> float:
        return top + (1 - rate) * plot_h

    out = [
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{height}" '
        f'viewBox="0 0 {width} {height}" font-family="sans-serif" font-size="12">',
        f'<rect x="{left}" y="{top}" width="{plot_w}" height="{plot_h}" fill="none" stroke="#888"/>',
    ]
    for tick in range(0, 11, 2):
        r = tick / 10
        out.append(f'<line x1="{left}" x2="{left + plot_w}" y1="{y(r):.1f}" y2="{y(r):.1f}" stroke="#eee"/>')
        out.append(f'<text x="{left - 6}" y="{y(r) + 4:.1f}" text-anchor="end">{tick * 10}%</text>')
    decade = 10 ** math.floor(lo_x)
    while decade <= 10**hi_x:
        for m in (1, 3):
            it = decade * m
            if lo_x <= math.log10(it) <= hi_x:
                out.append(
                    f'<line x1="{x(it):.1f}" x2="{x(it):.1f}" y1="{top}" y2="{top + plot_h}" stroke="#eee"/>'
                )
                out.append(
                    f'<text x="{x(it):.1f}" y="{top + plot_h + 16}" text-anchor="middle">{it:g}</text>'
                )
        decade *= 10
    out.append(
        f'<text x="{left + plot_w / 2}" y="{height - 8}" text-anchor="middle">'
        "iterations per move (log scale)</text>"
    )
    out.append(
        f'<text transform="translate(14 {top + plot_h / 2}) rotate(-90)" text-anchor="middle">'
        "wins against GreedyAgent (95% interval)</text>"
    )
    for i, key in enumerate(k for k in LABELS if k in points):
        colour = COLOURS[i % len(COLOURS)]
        fair = FAIR.get(key, 0.5)
        out.append(
            f'<line x1="{left}" x2="{left + plot_w}" y1="{y(fair):.1f}" y2="{y(fair):.1f}" '
            f'stroke="{colour}" stroke-dasharray="4 4" stroke-opacity="0.5"/>'
        )
        series = sorted(points[key].items())
        path = " ".join(f"{x(it):.1f},{y(w / g):.1f}" for it, (g, w) in series)
        out.append(f'<polyline points="{path}" fill="none" stroke="{colour}" stroke-width="2"/>')
        for it, (g, w) in series:
            lo, hi = wilson_interval(w, int(g))
            out.append(
                f'<line x1="{x(it):.1f}" x2="{x(it):.1f}" y1="{y(lo):.1f}" y2="{y(hi):.1f}" stroke="{colour}"/>'
            )
            out.append(f'<circle cx="{x(it):.1f}" cy="{y(w / g):.1f}" r="3.5" fill="{colour}"/>')
        ly = top + 16 + 20 * i
        out.append(f'<line x1="{width - right + 12}" x2="{width - right + 32}" y1="{ly - 4}" y2="{ly - 4}" '
                   f'stroke="{colour}" stroke-width="2"/>')  # fmt: skip
        out.append(f'<text x="{width - right + 38}" y="{ly}">{LABELS[key]}</text>')
    out.append(
        f'<text x="{width - right + 12}" y="{top + 16 + 20 * len(points) + 8}" fill="#666">'
        "dashed: a fair share</text>"
    )
    out.append("</svg>")
    return "\n".join(out) + "\n"


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("results", nargs="+", help="files of bench_search.py output")
    ap.add_argument("-o", "--output", default="-", help="the SVG file (default: standard output)")
    args = ap.parse_args(argv)
    points = read(args.results)
    if not points:
        print("no bench_search.py result lines in the input", file=sys.stderr)
        return 1
    text = svg(points)
    if args.output == "-":
        sys.stdout.write(text)
    else:
        with open(args.output, "w", encoding="utf-8") as f:
            f.write(text)
    for key, series in points.items():
        for it, (g, w) in sorted(series.items()):
            lo, hi = wilson_interval(w, int(g))
            print(
                f"{key:8} {it:>5} it  {int(g):>4} games  rate {w / g:.3f} [{lo:.3f}, {hi:.3f}]",
                file=sys.stderr,
            )
    return 0


if __name__ == "__main__":
    sys.exit(main())
