#===- autodiff_compare/report.py - the table, JSON and plot ---------------===#
#
# What a run reports: the table of times and tape bytes per kernel and
# route, the JSON file (--json) and the plot (--plot, with matplotlib).
#
#===----------------------------------------------------------------------===#
import json

from .common import Failure


def fmt_number(x):
    """Three significant digits, never in exponent form (999.6 is "1000",
    where "%.3g" would write "1e+03")."""
    text = "%.3g" % x
    return "%.0f" % x if "e" in text else text


def fmt_time(s):
    for unit, scale in (("s", 1.0), ("ms", 1e-3), ("us", 1e-6), ("ns", 1e-9)):
        if s >= scale or unit == "ns":
            return "%s %s" % (fmt_number(s / scale), unit)
    return "?"


def fmt_bytes(n):
    if n < 1024:
        return "%d B" % n
    for unit in ("KiB", "MiB", "GiB", "TiB"):
        n /= 1024.0
        if n < 1024 or unit == "TiB":
            return "%s %s" % (fmt_number(n), unit)


def fmt_ratio(x):
    return fmt_number(x)


def table(rows, header):
    widths = [max(len(str(r[i])) for r in rows + [header])
              for i in range(len(header))]
    out = []
    for r in [header] + rows:
        cells = []
        for i, c in enumerate(r):
            c = str(c)
            cells.append(c.ljust(widths[i]) if i < 2 else c.rjust(widths[i]))
        out.append("  ".join(cells).rstrip())
    return "\n".join(out)


def print_report(res, routes, args):
    """The table and the legend of the routes."""
    rows = []
    for x in res:
        rows.append([x["kernel"], x["route"], fmt_time(x["primal_s"]),
                     fmt_time(x["gradient_s"]), fmt_ratio(x["ratio"]),
                     fmt_ratio(x["vs_after"]), fmt_bytes(x["tape_bytes"])])
    print()
    print(table(rows, ["kernel", "route", "primal", "gradient",
                       "gradient/primal", "vs after", "tape"]))
    print()
    print("routes (%s time, median of %d run%s):" % (
        args.clock, args.reps, "" if args.reps == 1 else "s"))
    width = max(len(r.name) for r in routes)
    for r in routes:
        print("  %s  %s" % (r.name.ljust(width), r.description))
    print("vs after: the route's gradient time / that of `after`; tape: peak "
          "heap bytes a gradient call allocates")


def write_json(path, args, routes, summaries, res):
    with open(path, "w") as f:
        json.dump({"input": args.input, "clock": args.clock,
                   "reps": args.reps, "min_time_s": args.min_time,
                   "routes": [{"name": r.name,
                               "description": r.description}
                              for r in routes],
                   "check": summaries, "results": res}, f, indent=1)


def plot(path, res, routes, kernels, title):
    try:
        import matplotlib
        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
        import matplotlib.ticker
    except ImportError:
        raise Failure("--plot needs matplotlib (Debian: apt-get install "
                      "python3-matplotlib)")
    names = [k.name for k in kernels]
    by = {(x["kernel"], x["route"]): x for x in res}
    fig, axes = plt.subplots(1, 2, figsize=(max(8, 2.2 * len(names) + 4), 4.2))
    width = 0.8 / len(routes)
    for ax, key, label in (
            (axes[0], "ratio", "gradient time / primal time"),
            (axes[1], "tape_bytes", "peak heap bytes per gradient call")):
        values = [by[(n, r.name)][key] for r in routes for n in names]
        positive = [v for v in values if v > 0]
        log = bool(positive) and max(positive) / min(positive) > 30
        for j, r in enumerate(routes):
            xs = [i + (j - (len(routes) - 1) / 2) * width
                  for i in range(len(names))]
            ys = [by[(n, r.name)][key] for n in names]
            bars = ax.bar(xs, ys, width, label=r.name)
            texts = [fmt_ratio(y) if key == "ratio" else fmt_bytes(y)
                     for y in ys]
            ax.bar_label(bars, texts, fontsize=7, padding=1)
        if log:
            ax.set_yscale("symlog" if min(values) <= 0 else "log")
        if key == "tape_bytes":
            ax.yaxis.set_major_formatter(matplotlib.ticker.FuncFormatter(
                lambda v, _: fmt_bytes(int(v)) if v >= 1 else "0"))
        ax.set_xticks(range(len(names)))
        ax.set_xticklabels(names)
        ax.set_title(label, fontsize=10)
        ax.margins(y=0.15)
    axes[0].legend(fontsize=8)
    fig.suptitle(title, fontsize=10)
    fig.tight_layout()
    fig.savefig(path, dpi=110)
    plt.close(fig)
