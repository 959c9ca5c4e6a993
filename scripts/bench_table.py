#!/usr/bin/env python3
"""Turns Google Benchmark JSON files into markdown tables of trisect against its peers.

Benchmark names follow <operation>/<library>/<scene>/<variant>/t<threads>. For every
operation/scene/variant/threads group the table shows trisect's median time per iteration,
each peer's, and the ratio trisect / peer (below 1: trisect is faster). Medians come from the
`median` aggregates when the run was made with --benchmark_repetitions (and
--benchmark_report_aggregates_only), otherwise from the median of the plain runs.

A peer whose variant trisect does not have in that operation/scene/threads (build:
trisect `sah` beside Embree `medium` and `low`) gets a column "<peer> <variant>" compared
with trisect's one variant there. When the operations do not all have the same peers, each
operation gets a table of its own. Known counters become columns: exact fallbacks,
triangles per query (one value when every library agrees, else each library's), peers'
wrong / mismatched / disagreeing answers, SAH cost.

    scripts/bench_table.py bench/results/2026-11-22-predicates/predicates.json [--plot ratios.svg]
    scripts/bench_table.py run*/bvh_*.json --merge-into bvh_bunny_x16.json --plot bvh_bunny_x16.svg

Several JSON files are read as one run (the context is the first file's); --merge-into also
writes them out as one JSON file. Files may repeat benchmarks (the same programs run several
times, as this machine's timings drift from run to run): each benchmark's time is then the
median of its runs' medians.

--plot writes a bar chart of the ratios: with matplotlib when it is installed (any format it
knows), otherwise as a plain SVG drawn here (the file name should then end in .svg).
Standard library only.
"""

import argparse
import json
import math
import statistics
import sys
from collections import OrderedDict

REFERENCE = "trisect"
TO_NANOSECONDS = {"ns": 1.0, "us": 1e3, "ms": 1e6, "s": 1e9}


# Counters shown as columns: (key, column label, whose). `whose` is "reference" (trisect's
# value), "peers" (one column per peer, label formatted with {peer}), "each" (one column per
# library that has it) or "agree" (one column: the common value, or each library's when
# they differ).
COUNTERS = [
    ("exact_fallbacks_per_call", "exact fallbacks / call", "reference"),
    ("triangles_per_query", "triangles / query", "agree"),
    ("sah_cost", "{library} SAH cost", "each"),
    ("wrong_of_4096", "{library} wrong / 4096", "peers"),
    ("mismatched_queries", "{library} mismatched queries", "peers"),
    ("disagreements", "{library} disagreeing rays", "peers"),
]
COUNTER_KEYS = {key for key, _, _ in COUNTERS}


def read_runs(paths):
    """Returns (context, merged JSON document) of one or more benchmark JSON files. When there
    are several, the merged document keeps every file's context in "contexts" (a merged file
    read again keeps them)."""
    merged = None
    for path in paths:
        with open(path, encoding="utf-8") as handle:
            data = json.load(handle)
        contexts = data.get("contexts", [data.get("context", {})])
        if merged is None:
            merged = data
            merged["contexts"] = list(contexts)
        else:
            merged.setdefault("benchmarks", []).extend(data.get("benchmarks", []))
            merged["contexts"].extend(contexts)
    if len(merged["contexts"]) == 1:
        del merged["contexts"]
    return merged.get("context", {}), merged


def load_medians(data, time_field):
    """{run_name: (median ns, counters)} in the order of the file. A benchmark with medians
    from several runs (files read together) gets the median of those medians."""
    medians = OrderedDict()
    run_medians = OrderedDict()
    plain = OrderedDict()
    for entry in data.get("benchmarks", []):
        if entry.get("error_occurred"):
            continue
        name = entry.get("run_name", entry["name"])
        # Benchmarks registered with UseRealTime() carry a /real_time suffix.
        if name.endswith("/real_time"):
            name = name[: -len("/real_time")]
        nanoseconds = entry[time_field] * TO_NANOSECONDS[entry.get("time_unit", "ns")]
        counters = {key: value for key, value in entry.items() if key in COUNTER_KEYS}
        run_type = entry.get("run_type", "iteration")
        if run_type == "aggregate":
            if entry.get("aggregate_name") == "median":
                run_medians.setdefault(name, []).append((nanoseconds, counters))
        else:
            plain.setdefault(name, []).append((nanoseconds, counters))
    for name, runs in run_medians.items():
        medians[name] = (statistics.median(t for t, _ in runs), runs[-1][1])
    for name, runs in plain.items():
        if name not in medians:
            medians[name] = (statistics.median(t for t, _ in runs), runs[-1][1])
    return medians


def group_runs(medians):
    """{operation: {(scene, threads): {(library, variant): (ns, counters)}}} in file order."""
    operations = OrderedDict()
    for name, value in medians.items():
        # Google Benchmark appends its settings (/iterations:N, /real_time): not part of the name.
        parts = [part for part in name.split("/")
                 if not part.startswith("iterations:") and part not in ("real_time", "process_time")]
        if len(parts) != 5 or not parts[4].startswith("t"):
            print(f"bench_table: skipping {name!r} (not operation/library/scene/variant/tN)",
                  file=sys.stderr)
            continue
        operation, library, scene, variant, threads = parts
        groups = operations.setdefault(operation, OrderedDict())
        groups.setdefault((scene, threads), OrderedDict())[(library, variant)] = value
    return operations


def table_rows(groups):
    """Rows [(setting, reference (ns, counters) or None, {column: (ns, counters)})] and the
    peer columns, in order.

    A peer entry goes into the row of the same variant, as column `library`, when trisect has
    that variant in the group; otherwise into column "library variant" of each of trisect's
    rows when trisect has exactly one variant there (else into a row of its own)."""
    rows, columns = [], []
    for (scene, threads), entries in groups.items():
        reference_variants = [v for (lib, v) in entries if lib == REFERENCE]
        group_rows = OrderedDict()
        for variant in reference_variants:
            group_rows[variant] = (entries[(REFERENCE, variant)], OrderedDict())
        for (library, variant), value in entries.items():
            if library == REFERENCE:
                continue
            if variant in group_rows:
                column, targets = library, [variant]
            elif len(reference_variants) == 1:
                column, targets = f"{library} {variant}", reference_variants
            else:
                column, targets = library, [variant]
                group_rows.setdefault(variant, (None, OrderedDict()))
            if column not in columns:
                columns.append(column)
            for target in targets:
                group_rows[target][1][column] = value
        for variant, (reference, peers) in group_rows.items():
            rows.append((f"{scene}/{variant}/{threads}", reference, peers))
    return rows, columns


def time_unit(rows):
    """(label, divisor): ns unless times reach 100 us, then us, or ms from 100 ms."""
    largest = 0.0
    for _, _, reference, peers in rows:
        values = [v[0] for v in peers.values()] + ([reference[0]] if reference else [])
        largest = max([largest] + values)
    if largest >= 1e8:
        return "ms", 1e6
    if largest >= 1e5:
        return "us", 1e3
    return "ns", 1.0


def format_counter(value):
    if value == 0:
        return "0"
    if abs(value) >= 100:
        return f"{value:.0f}"
    return f"{value:.3g}"


def counters_in(row, library):
    """The counters of `library` in a table row (operation, setting, reference, peers)."""
    _, _, reference, peers = row
    if library == REFERENCE:
        return reference[1] if reference else {}
    return peers[library][1] if library in peers else {}


def markdown_table(rows, columns, ratio_label=None):
    """One markdown table; also returns [(label, ratio)] for the plot."""
    unit, divisor = time_unit(rows)
    libraries = [REFERENCE] + columns
    header = ["operation", "scene/variant/threads", f"{REFERENCE} {unit}"]
    for column in columns:
        header += [f"{column} {unit}", f"{REFERENCE} / {column}"]
    counter_columns = []  # (key, label, whose, library or None)
    for key, label, whose in COUNTERS:
        present = [lib for lib in libraries
                   if any(key in counters_in(row, lib) for row in rows)]
        if not present:
            continue
        if whose == "reference":
            if REFERENCE in present:
                counter_columns.append((key, label, whose, REFERENCE))
        elif whose == "agree":
            counter_columns.append((key, label, whose, None))
        else:
            for lib in present:
                if whose == "peers" and lib == REFERENCE:
                    continue
                counter_columns.append((key, label.format(library=lib), whose, lib))
    header += [label for _, label, _, _ in counter_columns]
    lines = ["| " + " | ".join(header) + " |",
             "|" + "|".join(["---"] * 2 + ["---:"] * (len(header) - 2)) + "|"]
    ratios = []
    for operation, setting, reference, peers in rows:
        row = [f"`{operation}`", setting,
               format_ns(reference[0] / divisor) if reference else "–"]
        for column in columns:
            if column in peers:
                row.append(format_ns(peers[column][0] / divisor))
                if reference:
                    ratio = reference[0] / peers[column][0]
                    row.append(f"{ratio:.2f}")
                    label = f"{operation} vs {column}"
                    if ratio_label is not None:
                        label = ratio_label(operation, setting, column)
                    ratios.append((label, ratio))
                else:
                    row.append("–")
            else:
                row += ["–", "–"]
        counters_of = {REFERENCE: reference[1] if reference else {}}
        counters_of.update({column: value[1] for column, value in peers.items()})
        for key, _, whose, library in counter_columns:
            if whose == "agree":
                values = OrderedDict((lib, c[key]) for lib, c in counters_of.items() if key in c)
                distinct = {format_counter(v) for v in values.values()}
                if not values:
                    row.append("–")
                elif len(distinct) == 1:
                    row.append(distinct.pop())
                else:
                    row.append(", ".join(f"{lib}: {format_counter(v)}"
                                         for lib, v in values.items()))
            else:
                value = counters_of.get(library, {}).get(key)
                row.append("–" if value is None else format_counter(value))
        lines.append("| " + " | ".join(row) + " |")
    return "\n".join(lines), ratios, unit


def markdown_tables(operations):
    """One table when every operation has the same peer columns, else one per operation."""
    per_operation = OrderedDict()
    for operation, groups in operations.items():
        rows, columns = table_rows(groups)
        per_operation[operation] = ([(operation,) + row for row in rows], columns)
    column_sets = {tuple(columns) for _, columns in per_operation.values()}
    many_rows = any(len(rows) > 1 for rows, _ in per_operation.values())

    def ratio_label(operation, setting, column):
        return f"{operation} {setting} vs {column}" if many_rows else f"{operation} vs {column}"

    if len(column_sets) <= 1:
        rows = [row for rows, _ in per_operation.values() for row in rows]
        columns = next(iter(per_operation.values()))[1] if per_operation else []
        table, ratios, _ = markdown_table(rows, columns, ratio_label)
        return table, ratios
    tables, ratios = [], []
    for operation, (rows, columns) in per_operation.items():
        table, operation_ratios, _ = markdown_table(rows, columns, ratio_label)
        tables.append(f"### `{operation}`\n\n{table}")
        ratios += operation_ratios
    return "\n\n".join(tables), ratios


def format_ns(value):
    if value >= 100:
        return f"{value:.0f}"
    if value >= 10:
        return f"{value:.1f}"
    return f"{value:.2f}"


def context_line(context, contexts=None):
    parts = []
    if "num_cpus" in context:
        parts.append(f"{context['num_cpus']} CPUs at {context.get('mhz_per_cpu', '?')} MHz")
    dates = sorted(c["date"] for c in contexts or [] if "date" in c)
    if len(dates) > 1:
        parts.append(f"{len(dates)} runs from {dates[0]} to {dates[-1]}")
    elif "date" in context:
        parts.append(f"run {context['date']}")
    if "library_build_type" in context:
        parts.append(f"Google Benchmark library built as {context['library_build_type']}")
    return "; ".join(parts)


# Ratios spanning more than this factor are drawn on a log scale (bars grow from 1).
LOG_SCALE_SPAN = 10.0


def uses_log_scale(ratios):
    values = [ratio for _, ratio in ratios if ratio > 0]
    return bool(values) and max(values) / min(values) > LOG_SCALE_SPAN


def plot_svg(ratios, path):
    """A horizontal bar chart of trisect / peer ratios, as plain SVG: linear from 0 when the
    ratios are within a factor LOG_SCALE_SPAN of each other, otherwise log-scaled bars from 1."""
    bar_height, gap, chart_width = 22, 8, 420
    # About 7 px per character at 13 px; never narrower than the original 260 px.
    label_width = max([260] + [7 * len(label) + 16 for label, _ in ratios])
    height = len(ratios) * (bar_height + gap) + 60
    title = f"median time per iteration, {REFERENCE} / peer (lower is faster)"
    log_scale = uses_log_scale(ratios)
    if log_scale:
        values = [ratio for _, ratio in ratios if ratio > 0]
        low = 10 ** math.floor(math.log10(min(values + [1.0])))
        high = 10 ** math.ceil(math.log10(max(values + [1.0])))
        span = math.log10(high) - math.log10(low)

        def x_of(value):
            return label_width + chart_width * (math.log10(value) - math.log10(low)) / span

        title += ", log scale"
    else:
        largest = max([ratio for _, ratio in ratios] + [1.0])
        scale = chart_width / (largest * 1.1)

        def x_of(value):
            return label_width + value * scale

    out = [f'<svg xmlns="http://www.w3.org/2000/svg" width="{label_width + chart_width + 80}" '
           f'height="{height}" font-family="sans-serif" font-size="13">',
           '<rect width="100%" height="100%" fill="white"/>',
           f'<text x="10" y="20" font-weight="bold">{title}</text>']
    if log_scale:
        tick = low
        while tick <= high * 1.0001:
            x = x_of(tick)
            out.append(f'<line x1="{x:.1f}" y1="30" x2="{x:.1f}" y2="{height - 20}" '
                       f'stroke="#cccccc"/>')
            if tick != 1:
                out.append(f'<text x="{x:.1f}" y="{height - 6}" text-anchor="middle" '
                           f'fill="#666666">{tick:g}</text>')
            tick *= 10
    one = x_of(1.0)
    for index, (label, ratio) in enumerate(ratios):
        y = 35 + index * (bar_height + gap)
        start, end = (min(one, x_of(ratio)), max(one, x_of(ratio))) if log_scale else \
            (label_width, x_of(ratio))
        out.append(f'<text x="{label_width - 8}" y="{y + 16}" text-anchor="end">{label}</text>')
        out.append(f'<rect x="{start:.1f}" y="{y}" width="{end - start:.1f}" '
                   f'height="{bar_height}" fill="#4878a8"/>')
        out.append(f'<text x="{max(end, one) + 6:.1f}" y="{y + 16}">{ratio:.2f}</text>')
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
    label = f"median time per iteration, {REFERENCE} / peer (lower is faster)"
    if uses_log_scale(ratios):
        axes.set_xscale("log")
        label += ", log scale"
    axes.set_xlabel(label)
    for y, value in enumerate(values):
        axes.text(value, y, f" {value:.2f}", va="center")
    figure.tight_layout()
    figure.savefig(path)


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("json", nargs="+",
                        help="Google Benchmark output (--benchmark_format=json); several are "
                             "read as one run")
    parser.add_argument("--plot", metavar="FILE", help="also draw the ratios into FILE")
    parser.add_argument("--merge-into", metavar="FILE",
                        help="also write the inputs as one JSON file (the first one's context)")
    parser.add_argument("--time", choices=("real", "cpu"), default="real",
                        help="which time to compare (default: real, the wall-clock time)")
    arguments = parser.parse_args()
    context, data = read_runs(arguments.json)
    if arguments.merge_into:
        with open(arguments.merge_into, "w", encoding="utf-8") as handle:
            json.dump(data, handle, indent=2)
            handle.write("\n")
    medians = load_medians(data, f"{arguments.time}_time")
    if not medians:
        sys.exit(f"bench_table: no benchmark results in {' '.join(arguments.json)}")
    table, ratios = markdown_tables(group_runs(medians))
    print(table)
    line = context_line(context, data.get("contexts"))
    if line:
        print(f"\nMedian {arguments.time} time per iteration; {line}.")
    if arguments.plot:
        plot(ratios, arguments.plot)


if __name__ == "__main__":
    main()
