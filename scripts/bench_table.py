#!/usr/bin/env python3
"""Turns a Google Benchmark JSON file into a markdown table of trisect against its peers.

Benchmark names follow <operation>/<library>/<scene>/<variant>/t<threads>. For every
operation/scene/variant/threads group the table shows trisect's median time per call, each
peer's, and the ratio trisect / peer (below 1: trisect is faster). Medians come from the
`median` aggregates when the run was made with --benchmark_repetitions (and
--benchmark_report_aggregates_only), otherwise from the median of the plain runs.

    scripts/bench_table.py bench/results/predicates.json [--plot ratios.svg]

--plot writes a bar chart of the ratios: with matplotlib when it is installed (any format it
knows), otherwise as a plain SVG drawn here (the file name should then end in .svg).
Standard library only.
"""

import argparse
import json
import statistics
import sys
from collections import OrderedDict

REFERENCE = "trisect"
TO_NANOSECONDS = {"ns": 1.0, "us": 1e3, "ms": 1e6, "s": 1e9}


def load_medians(path, time_field):
    """Returns (context, {run_name: (median ns, counters)}) in the order of the file."""
    with open(path, encoding="utf-8") as handle:
        data = json.load(handle)
    medians = OrderedDict()
    plain = OrderedDict()
    for entry in data.get("benchmarks", []):
        if entry.get("error_occurred"):
            continue
        name = entry.get("run_name", entry["name"])
        nanoseconds = entry[time_field] * TO_NANOSECONDS[entry.get("time_unit", "ns")]
        counters = {
            key: value
            for key, value in entry.items()
            if key in ("exact_fallbacks_per_call", "wrong_of_4096")
        }
        run_type = entry.get("run_type", "iteration")
        if run_type == "aggregate":
            if entry.get("aggregate_name") == "median":
                medians[name] = (nanoseconds, counters)
        else:
            plain.setdefault(name, []).append((nanoseconds, counters))
    for name, runs in plain.items():
        if name not in medians:
            medians[name] = (statistics.median(t for t, _ in runs), runs[-1][1])
    return data.get("context", {}), medians


def group_runs(medians):
    """{(operation, scene/variant/threads): {library: (ns, counters)}} in file order."""
    groups = OrderedDict()
    for name, value in medians.items():
        parts = name.split("/")
        if len(parts) < 5:
            print(f"bench_table: skipping {name!r} (not operation/library/scene/variant/tN)",
                  file=sys.stderr)
            continue
        operation, library = parts[0], parts[1]
        setting = "/".join(parts[2:])
        groups.setdefault((operation, setting), OrderedDict())[library] = value
    return groups


def format_ns(value):
    if value >= 100:
        return f"{value:.0f}"
    if value >= 10:
        return f"{value:.1f}"
    return f"{value:.2f}"


def markdown_table(groups):
    peers = []
    for libraries in groups.values():
        for library in libraries:
            if library != REFERENCE and library not in peers:
                peers.append(library)
    header = ["operation", "scene/variant/threads", f"{REFERENCE} ns"]
    for peer in peers:
        header += [f"{peer} ns", f"{REFERENCE} / {peer}"]
    header += ["exact fallbacks / call"]
    header += [f"{peer} wrong / 4096" for peer in peers]
    lines = ["| " + " | ".join(header) + " |",
             "|" + "|".join(["---"] * 2 + ["---:"] * (len(header) - 2)) + "|"]
    ratios = []
    for (operation, setting), libraries in groups.items():
        reference = libraries.get(REFERENCE)
        row = [f"`{operation}`", setting, format_ns(reference[0]) if reference else "–"]
        for peer in peers:
            if peer in libraries:
                row.append(format_ns(libraries[peer][0]))
                if reference:
                    ratio = reference[0] / libraries[peer][0]
                    row.append(f"{ratio:.2f}")
                    ratios.append((f"{operation} vs {peer}", ratio))
                else:
                    row.append("–")
            else:
                row += ["–", "–"]
        fallbacks = reference[1].get("exact_fallbacks_per_call") if reference else None
        row.append("–" if fallbacks is None else f"{fallbacks:.3g}")
        for peer in peers:
            wrong = libraries.get(peer, (0, {}))[1].get("wrong_of_4096")
            row.append("–" if wrong is None else f"{wrong:.0f}")
        lines.append("| " + " | ".join(row) + " |")
    return "\n".join(lines), ratios


def context_line(context):
    parts = []
    if "num_cpus" in context:
        parts.append(f"{context['num_cpus']} CPUs at {context.get('mhz_per_cpu', '?')} MHz")
    if "date" in context:
        parts.append(f"run {context['date']}")
    if "library_build_type" in context:
        parts.append(f"Google Benchmark library built as {context['library_build_type']}")
    return "; ".join(parts)


def plot_svg(ratios, path):
    """A horizontal bar chart of trisect / peer ratios, as plain SVG."""
    bar_height, gap, label_width, chart_width = 22, 8, 260, 420
    largest = max([ratio for _, ratio in ratios] + [1.0])
    scale = chart_width / (largest * 1.1)
    height = len(ratios) * (bar_height + gap) + 60
    out = [f'<svg xmlns="http://www.w3.org/2000/svg" width="{label_width + chart_width + 80}" '
           f'height="{height}" font-family="sans-serif" font-size="13">',
           '<rect width="100%" height="100%" fill="white"/>',
           f'<text x="10" y="20" font-weight="bold">median time per call, {REFERENCE} / peer '
           f'(lower is faster)</text>']
    for index, (label, ratio) in enumerate(ratios):
        y = 35 + index * (bar_height + gap)
        out.append(f'<text x="{label_width - 8}" y="{y + 16}" text-anchor="end">{label}</text>')
        out.append(f'<rect x="{label_width}" y="{y}" width="{ratio * scale:.1f}" '
                   f'height="{bar_height}" fill="#4878a8"/>')
        out.append(f'<text x="{label_width + ratio * scale + 6:.1f}" y="{y + 16}">'
                   f'{ratio:.2f}</text>')
    one = label_width + scale
    out.append(f'<line x1="{one:.1f}" y1="30" x2="{one:.1f}" y2="{height - 20}" '
               f'stroke="#c03030" stroke-dasharray="4 3"/>')
    out.append(f'<text x="{one:.1f}" y="{height - 6}" text-anchor="middle" fill="#c03030">1</text>')
    out.append("</svg>")
    with open(path, "w", encoding="utf-8") as handle:
        handle.write("\n".join(out) + "\n")


def plot(ratios, path):
    try:
        import matplotlib  # optional

        matplotlib.use("Agg")
        import matplotlib.pyplot as pyplot
    except ImportError:
        if not path.endswith(".svg"):
            sys.exit("bench_table: matplotlib is not installed; use a .svg name for --plot")
        plot_svg(ratios, path)
        return
    labels = [label for label, _ in ratios]
    values = [ratio for _, ratio in ratios]
    figure, axes = pyplot.subplots(figsize=(8, 0.45 * len(values) + 1.2))
    axes.barh(labels, values, color="#4878a8")
    axes.axvline(1.0, color="#c03030", linestyle="--")
    axes.invert_yaxis()
    axes.set_xlabel(f"median time per call, {REFERENCE} / peer (lower is faster)")
    for y, value in enumerate(values):
        axes.text(value, y, f" {value:.2f}", va="center")
    figure.tight_layout()
    figure.savefig(path)


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("json", help="Google Benchmark output (--benchmark_format=json)")
    parser.add_argument("--plot", metavar="FILE", help="also draw the ratios into FILE")
    parser.add_argument("--time", choices=("real", "cpu"), default="real",
                        help="which time to compare (default: real, the wall-clock time)")
    arguments = parser.parse_args()
    context, medians = load_medians(arguments.json, f"{arguments.time}_time")
    if not medians:
        sys.exit(f"bench_table: no benchmark results in {arguments.json}")
    table, ratios = markdown_table(group_runs(medians))
    print(table)
    line = context_line(context)
    if line:
        print(f"\nMedian {arguments.time} time per call; {line}.")
    if arguments.plot:
        plot(ratios, arguments.plot)


if __name__ == "__main__":
    main()
