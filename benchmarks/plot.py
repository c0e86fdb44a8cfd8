"""Draw docs/benchmarks.png from benchmarks/results.json (needs matplotlib: the `bench` extra).

Usage: python benchmarks/plot.py [RESULTS.json] [OUT.png]
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt

HERE = Path(__file__).resolve().parent
SHORT = {
    "openai (deepcopy + _ensure_strict_json_schema)": "openai + deepcopy",
    "openai-agents (deepcopy + ensure_strict_json_schema)": "openai-agents + deepcopy",
    "pydantic-ai (_OpenAIJsonSchemaTransformer strict=True)": "pydantic-ai",
    "langchain-core (convert_to_openai_tool strict=True)": "langchain-core",
}
# Peers in colours other than toolcast's red.
PEER_COLORS = ("#1f77b4", "#ff7f0e", "#2ca02c", "#9467bd", "#8c564b", "#7f7f7f")


def main(argv: list[str]) -> int:
    src = Path(argv[0]) if argv else HERE / "results.json"
    dst = Path(argv[1]) if len(argv) > 1 else HERE.parent / "docs" / "benchmarks.png"
    res = json.loads(src.read_text())
    speed, peers, lin = res.get("speed"), res.get("peers"), res.get("linearity")
    panels = [p for p in (speed, lin) if p]
    fig, axes = plt.subplots(1, len(panels), figsize=(7.5 * len(panels), 5.2), squeeze=False)
    axes = list(axes[0])
    if speed:
        ax = axes.pop(0)
        sets = list(speed)
        series = {"toolcast": [speed[s]["ratio"] for s in sets]}
        if peers:
            for peer in peers["sets"][sets[0]]["us"]:
                if peer == "baseline":
                    continue
                # ("toolcast" there: the same build timed in the peers' process, beside them)
                series[SHORT.get(peer, peer) if peer != "toolcast" else "toolcast, in the peers' process"] = [
                    peers["sets"][s]["us"][peer] / peers["sets"][s]["us"]["baseline"] if s in peers["sets"] else float("nan")
                    for s in sets
                ]
        width = 0.8 / len(series)
        peer_colors = iter(PEER_COLORS)
        for i, (label, ys) in enumerate(series.items()):
            xs = [j + (i - (len(series) - 1) / 2) * width for j in range(len(sets))]
            toolcast = label.startswith("toolcast")
            ax.bar(xs, ys, width, label=label, zorder=3,
                   color=("#d62728" if label == "toolcast" else "#f4a6a6") if toolcast else next(peer_colors, None),
                   edgecolor="black" if toolcast else None)
        ax.axhline(1.0, color="grey", lw=1, ls=":", zorder=2)
        ax.axhline(1.5, color="#d62728", lw=1, ls="--", zorder=2, label="target 1.5×")
        ax.set_xticks(range(len(sets)), sets, rotation=30, ha="right")
        ax.set_yscale("log")
        ax.set_ylabel("time per schema ÷ json.loads(json.dumps(schema))")
        ax.set_title("Compile time relative to a JSON round-trip (lower is better)")
        ax.grid(axis="y", which="both", alpha=0.3, zorder=0)
        ax.legend(fontsize=8)
    if lin:
        ax = axes.pop(0)
        for label, v in lin.items():
            pts = v["points"]
            ax.plot([p["bytes"] / 1000 for p in pts], [p["toolcast_us"] for p in pts], marker="o",
                    label=f"{label} (exp. {v['exponent']:.2f})")
        first = next(iter(lin.values()))["points"]
        ax.plot([p["bytes"] / 1000 for p in first], [p["baseline_us"] for p in first], ls="--", color="grey",
                label="json round-trip (width curve)")
        ax.set_xscale("log")
        ax.set_yscale("log")
        ax.set_xlabel("schema size (KB of JSON)")
        ax.set_ylabel("toolcast compile_tool (µs)")
        ax.set_title("Compile time against schema size (log-log; slope 1 = linear)")
        ax.grid(which="both", alpha=0.3)
        ax.legend(fontsize=8)
    fig.suptitle(f"toolcast benchmarks — {res['meta']['date']}, {res['meta']['machine']}", fontsize=9)
    fig.tight_layout()
    dst.parent.mkdir(parents=True, exist_ok=True)
    fig.savefig(dst, dpi=110)
    print(f"wrote {dst}", file=sys.stderr)
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
