"""Run refassist's benchmarks and write their figures into docs/benchmarks.md.

    .venv/bin/python benchmarks/run.py                 # every benchmark, several runs each
    .venv/bin/python benchmarks/run.py --quick         # a smoke run: one short run of each
    .venv/bin/python benchmarks/run.py --only turn --only resolution
    .venv/bin/python benchmarks/run.py --runs 5 --no-doc

Benchmarks (``--only NAME``):

* ``turn``        a whole 12-player turn on the Solomani Rim: intake of 12 sheets from an
                  mbox, resolve, 13 PDFs and 12 e-mails, as commands and stage by stage;
* ``resolution``  64 computer players on the Solomani Rim for 200 turns: orders, checks,
                  rules and the master written every turn;
* ``sheetio``     a turn sheet written and read (refassist's reader against python-calamine),
                  and the 64-player master written and read (A/B against the alternatives);
* ``reports``     a player's PDF, the fast path against the naive single-pass render;
* ``players``     ``refassist report --mail`` on games of 3, 6, 12 and 24 players: how its
                  time and peak memory grow with the players;
* ``imperium``    an Imperium 3rd Millennium war between two computer sides on the default
                  map, every turn through sheets, intake, resolve and reports;
* ``campaign``    a Full Thrust campaign at 8 commanders, week by week (each with its battles
                  step) through sheets, intake, resolve and reports;
* ``war``         Millennium Wars' training scenario between two computer sides, exchange by
                  exchange (impulse, reaction) through sheets, intake, resolve and reports;
* ``millenium``   a whole game of Millenium between the two computer sides (both set-ups and
                  twenty game turns) through sheets, intake, resolve and reports;
* ``messages``    the worst one player's messages can do to the others' reports (pages and
                  the report step, against a one-line greeting).

Each run is a fresh child process (its peak memory is its own); figures are medians with
min-max over the runs, and ratios come from A/B pairs measured in the same run.  The real
sector file lives in ``../shared/sectors/solomani-rim.tab`` beside the repository; without it
the benchmarks that need it are skipped with a message.  Nothing here asserts a speed: this
measures, the tests check behaviour.

docs/benchmarks.md keeps its prose; only the blocks between ``<!-- run.py: NAME -->`` and
``<!-- /run.py: NAME -->`` are replaced (``machine`` and one per benchmark run).
"""

from __future__ import annotations

import argparse
import json
import re
import subprocess
import sys
import tempfile
import time
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

REPO = Path(__file__).resolve().parents[1]
if str(REPO) not in sys.path:
    sys.path.insert(0, str(REPO))

from benchmarks.measure import load_average, machine, median, spread  # noqa: E402

SECTOR = REPO.parent / "shared" / "sectors" / "solomani-rim.tab"
DOC = REPO / "docs" / "benchmarks.md"
NAMES = (
    "turn",
    "resolution",
    "sheetio",
    "reports",
    "players",
    "imperium",
    "campaign",
    "war",
    "millenium",
    "messages",
)
#: Benchmarks that play on the real sector file (the others need nothing beside the project).
NEED_SECTOR = ("turn", "resolution", "sheetio", "reports", "players")
SEED = 7


class Plan:
    """How big and how often: the full benchmark, or the quick smoke run."""

    def __init__(self, quick: bool, runs: int | None) -> None:
        self.quick = quick
        self.runs = runs or (1 if quick else 3)
        self.turn_players = 12
        self.warm_turns = 4 if quick else 20
        self.scale_players = 64
        self.scale_turns = 15 if quick else 200
        self.master_turns = 5 if quick else 60
        self.report_players = 2 if quick else 12
        #: The games of the ``players`` benchmark.
        self.player_counts = (2, 3, 4) if quick else (3, 6, 12, 24)
        self.repeat = 1 if quick else 3
        self.imperium_turns = 5 if quick else 30
        self.campaign_steps = 4 if quick else 9
        self.war_steps = 6 if quick else 80  # the whole training scenario is 61 exchanges
        self.millenium_steps = 4 if quick else 22  # two set-ups and twenty game turns
        #: Steps of each game also played as the referee's commands (`stepwise.as_commands`).
        self.samples = 1 if quick else 5


# -- children: one benchmark run each ---------------------------------------------------------


def child(name: str, work: Path, plan: Plan, result: Path) -> None:
    """Run one benchmark run in this (fresh) process and write its figures as JSON."""
    prepared = work / "prepared" / "game"
    mbox = work / "prepared" / "mail" / "orders.mbox"
    run_dir = Path(tempfile.mkdtemp(prefix=f"{name}-", dir=work))
    data: dict[str, Any]
    if name == "prepare":
        from benchmarks.scenario import mailbox_of_sheets, turn_game

        started = time.perf_counter()
        game = turn_game(prepared, SECTOR, plan.turn_players, plan.warm_turns, SEED)
        mailbox_of_sheets(game, mbox, SEED)
        # The game as the referee left it last week: last turn's reports written, so the
        # printed map's drawing is in the game's map cache (it never changes, so every turn
        # after a game's first finds it there) and the archive site exists.
        from refassist.report.game_reports import write_reports

        write_reports(game)
        data = {"seconds": time.perf_counter() - started, "year": game.load_state().year}
    elif name == "turn":
        from benchmarks import turn_bench

        data = {
            "commands": turn_bench.commands(prepared, run_dir, mbox),
            "stages": turn_bench.in_process(prepared, run_dir, mbox),
        }
    elif name == "resolution":
        from benchmarks import resolution_bench

        data = resolution_bench.run(SECTOR, plan.scale_players, plan.scale_turns, SEED, run_dir)
    elif name == "sheetio":
        from benchmarks import sheetio_bench
        from benchmarks.resolution_bench import HOUSE_RULES
        from benchmarks.scenario import advance, computer_state

        sheets = sorted((work / "prepared" / "mail" / "filled").glob("*.xlsx"))
        data = {
            "turn_sheets": sheetio_bench.turn_sheets(prepared, sheets, plan.repeat),
            "corpus": sheetio_bench.corpus(run_dir),
        }
        ruleset, state, rules = computer_state(SECTOR, plan.scale_players, SEED, HOUSE_RULES)
        state = advance(ruleset, state, plan.master_turns, SEED, rules)
        data["master"] = sheetio_bench.master_workbook(state, run_dir, plan.repeat)
        data["master"]["year"] = state.year
    elif name == "reports":
        from benchmarks import pdf_bench

        data = pdf_bench.run(prepared, run_dir, mbox, plan.report_players)
    elif name == "players":
        from benchmarks import players_bench

        data = players_bench.run(work, run_dir, SECTOR, plan.warm_turns, SEED, plan.player_counts)
    elif name == "imperium":
        from benchmarks import imperium_bench

        data = imperium_bench.run(plan.imperium_turns, SEED, run_dir, plan.samples)
    elif name == "campaign":
        from benchmarks import campaign_bench

        data = campaign_bench.run(plan.campaign_steps, SEED, run_dir, plan.samples)
    elif name == "war":
        from benchmarks import war_bench

        data = war_bench.run(plan.war_steps, SEED, run_dir, plan.samples)
    elif name == "millenium":
        from benchmarks import millenium_bench

        data = millenium_bench.run(plan.millenium_steps, SEED, run_dir, plan.samples)
    elif name == "messages":
        from benchmarks import message_bench

        data = message_bench.run(run_dir, SEED)
    else:
        raise SystemExit(f"unknown benchmark {name!r}; choose from {', '.join(NAMES)}")
    result.write_text(json.dumps(data), encoding="utf-8")


def spawn(name: str, work: Path, plan: Plan, number: int) -> dict[str, Any]:
    """One run in a fresh child process; its figures."""
    result = work / f"{name}-{number}.json"
    args = [sys.executable, __file__, "--child", name, "--work", str(work), "--result", str(result)]
    if plan.quick:
        args.append("--quick")
    started = time.perf_counter()
    done = subprocess.run(args, cwd=REPO, capture_output=True, text=True)
    if done.returncode != 0:
        raise SystemExit(f"benchmark {name} run {number} failed:\n{done.stderr[-3000:]}")
    data = json.loads(result.read_text(encoding="utf-8"))
    data["_wall"] = time.perf_counter() - started
    return data


# -- figures to Markdown ----------------------------------------------------------------------


def _met(ok: bool) -> str:
    return "met" if ok else "**not met**"


def _pct(part: float, whole: float) -> str:
    return f"{100 * part / whole:.0f}%" if whole else "-"


def turn_markdown(runs: list[dict[str, Any]], plan: Plan, year: int) -> str:
    cmd = [r["commands"] for r in runs]
    lines = [
        f"Game: {plan.turn_players} players on the Solomani Rim, the turn of year {year} "
        f"({plan.warm_turns} turns played before it), {len(runs)} run(s); every run on a fresh "
        f"copy of the same game and mailbox ({cmd[0]['pdfs']} PDFs and {cmd[0]['emails']} "
        "e-mails written).",
        "",
        "| command | wall time, median (min-max) | peak memory |",
        "|---|---|---|",
    ]
    labels = {
        "intake": f"`refassist intake GAME orders.mbox` ({plan.turn_players} sheets)",
        "resolve": "`refassist resolve GAME`",
        "report": "`refassist report GAME --mail`",
    }
    for name, label in labels.items():
        lines.append(
            f"| {label} | {spread([c[name]['seconds'] for c in cmd])} | "
            f"{spread([c[name]['peak_mb'] for c in cmd], 'MB', 0)} |"
        )
    totals = [c["total"] for c in cmd]
    report = [c["report"]["seconds"] for c in cmd]
    report_peak = max(c["report"]["peak_mb"] for c in cmd)
    lines += [
        f"| **the turn** | **{spread(totals)}** | |",
        "",
        f"Targets: the turn at most 15 s wall (the first target): {_met(median(totals) <= 15)}; "
        f"at most 6 s (issue 21): {_met(median(totals) <= 6)}; the report stage at most "
        f"3.5 s: {_met(median(report) <= 3.5)}; its peak memory at most 185 MB (what it was "
        f"when issue 21 was filed): {_met(report_peak <= 185)}.",
        "",
        "The same turn in one process through the library, by stage (medians over the runs; "
        "a stage's parts are timed inside it, the rest is what it does besides):",
        "",
        "| stage | part | seconds | share of the stage |",
        "|---|---|---|---|",
    ]
    stages = [r["stages"] for r in runs]
    for stage in ("intake", "resolve", "report"):
        total = median([s[stage]["total"] for s in stages])
        lines.append(f"| **{stage}** | whole stage | **{total:.2f}** | |")
        parts = sorted(
            {k for s in stages for k in s[stage] if k not in ("total", "battles")},
            key=lambda k: -median([s[stage].get(k, 0.0) for s in stages]),
        )
        accounted = 0.0
        for part in parts:
            value = median([s[stage].get(part, 0.0) for s in stages])
            accounted += value
            lines.append(f"| | {part} | {value:.2f} | {_pct(value, total)} |")
        lines.append(
            f"| | everything else | {total - accounted:.2f} | {_pct(total - accounted, total)} |"
        )
    battles = median([s["resolve"].get("battles", 0) for s in stages])
    lines += [
        "",
        f"The turn resolved {battles:.0f} battles; peak memory of the one-process run "
        f"{median([s['peak_mb']['total'] for s in stages]):.0f} MB.",
    ]
    return "\n".join(lines)


def _window(values: list[float], start: int, size: int = 20) -> float:
    part = values[start : start + size]
    return median(part) if part else 0.0


def resolution_markdown(runs: list[dict[str, Any]], plan: Plan) -> str:
    turns = runs[0]["turns"]
    engine = ("check", "rules", "master")
    resolution = [sum(sum(r["parts"][p]) for p in engine) for r in runs]
    totals = [sum(sum(r["parts"][p]) for p in r["parts"]) for r in runs]
    lines = [
        f"Game: {plan.scale_players} computer players on the Solomani Rim (house rule "
        f"`homeworld_min_distance = 3`), {turns} turns, {len(runs)} run(s) of the same "
        "seeded game.  Timed per turn: every player's orders, the order checker on them, the "
        "rules, and the master workbook written to disk.  *Resolution* is what "
        "`refassist resolve` does with the orders (check, rules, master); the computer "
        "players' thinking is timed beside it (in a real game the orders come from people).",
        "",
        "| figure | median (min-max) over the runs |",
        "|---|---|",
        f"| resolution, all {turns} turns (check + rules + master) | **{spread(resolution)}** |",
        f"| with the computer players' orders, all {turns} turns | {spread(totals)} |",
    ]
    for part, label in (
        ("orders", "computer players' orders, per turn"),
        ("check", "order checker, per turn"),
        ("rules", "rules (resolve), per turn"),
        ("master", "master workbook written, per turn"),
    ):
        lines.append(f"| {label} | {spread([median(r['parts'][part]) for r in runs], 's', 3)} |")
    per_turn = [[sum(values) for values in zip(*r["parts"].values(), strict=True)] for r in runs]
    windows = sorted({0, max(0, turns // 2 - 10), max(0, turns - 20)})
    for start in windows:
        label = f"a turn, turns {start + 1}-{min(turns, start + 20)}"
        lines.append(f"| {label} | {spread([_window(t, start) for t in per_turn], 's', 3)} |")
    lines.append(f"| peak memory | {spread([r['peak_mb'] for r in runs], 'MB', 0)} |")
    for at in (turns // 4, turns // 2, 3 * turns // 4, turns):
        if at:
            lines.append(
                f"| memory in use after turn {at} | "
                f"{spread([r['rss'][at - 1] for r in runs], 'MB', 0)} |"
            )
    limit = 60 * turns / 200
    target = "met" if median(resolution) <= limit else "**not met**"
    also = "within" if median(totals) <= limit else "beyond"
    first = runs[0]
    lines += [
        "",
        f"Target: resolution in at most 60 s for 200 turns ({limit:.0f} s for {turns}): "
        f"{target}; with the computer players' orders the game is {also} that figure.",
        "",
        f"What the game did: {median(first['battles']):.0f} battles a turn (median; "
        f"{max(first['battles'])} at most), {first['players'][-1]} players left at the end, "
        f"{first['squadrons'][-1]} squadrons and monitors in play at the end (at most "
        f"{max(first['squadrons'])}), {first['sightings']} last-seen records, master "
        f"{first['master_kb']:.0f} kB" + (f"; {first['finished']}" if first["finished"] else ""),
    ]
    return "\n".join(lines)


def sheetio_markdown(runs: list[dict[str, Any]]) -> str:
    ts = [r["turn_sheets"] for r in runs]
    ms = [r["master"] for r in runs]

    def flat(items: list[dict[str, Any]], key: str) -> list[float]:
        return [v for item in items for v in item[key]]

    read_a = flat(ts, "read_refassist")
    read_b = flat(ts, "read_calamine")
    ratio_read = median(read_a) / median(read_b) if median(read_b) else 0.0
    m_write_a = flat(ms, "write_refassist")
    m_write_b = flat(ms, "write_cell_by_cell")
    m_read_a = flat(ms, "read_refassist")
    m_read_c = flat(ms, "read_calamine_values")
    m_read_o = flat(ms, "read_openpyxl_values")
    rows = ms[0]["rows"]
    lines = [
        f"Turn sheets: the {len(ts[0]['read_refassist']) // max(1, len(runs))} reads per run "
        f"are the turn benchmark's filled-in sheets (about {ts[0]['size_kb']:.0f} kB each).",
        "",
        "| turn sheet | per sheet, median (min-max) |",
        "|---|---|",
        f"| write (refassist's writer, xlsxwriter) | {spread(flat(ts, 'write'), 's', 3)} |",
        f"| read: refassist's reader (checks, openpyxl, orders parsed) | "
        f"{spread(read_a, 's', 3)} |",
        f"| read: python-calamine, the values of the two sheets needed | "
        f"{spread(read_b, 's', 4)} |",
        "",
        f"calamine reads the values {ratio_read:.0f}x faster; of "
        f"{ts[0]['cells_compared']} input cells compared, {ts[0]['cells_differing']} differ "
        "in value" + (f" (e.g. {ts[0]['examples'][0]})" if ts[0]["examples"] else "") + ".",
        "",
        "The same two readers on the hostile-input corpus (`tests/corpus/make_corpus.py`; "
        "the checks of `workbook/sheetio.py` that come before openpyxl kept for both):",
        "",
        "| corpus files (.xlsx, .xlsm) | count |",
        "|---|---|",
        *(f"| {k.replace('_', ' ')} | {v} |" for k, v in runs[0]["corpus"]["counts"].items()),
        "",
        *(f"- {e}" for e in runs[0]["corpus"]["examples"]),
        "",
        f"Master workbook: the 64-player game in year {ms[0]['year']} "
        f"({', '.join(f'{k} {v}' for k, v in rows.items() if v > 100)} rows).",
        "",
        "| master workbook | median (min-max) | A/B |",
        "|---|---|---|",
        f"| write: refassist (structure by xlsxwriter, rows spliced in) | "
        f"{spread(m_write_a, 's', 3)} | "
        f"{median(m_write_b) / median(m_write_a):.1f}x faster |",
        f"| write: xlsxwriter cell by cell (the writer before) | {spread(m_write_b, 's', 3)} | |",
        f"| read: refassist (python-calamine, schema checks, state built) | "
        f"{spread(m_read_a, 's', 3)} | |",
        f"| read: python-calamine, values only | {spread(m_read_c, 's', 3)} | "
        f"{median(m_read_o) / median(m_read_c):.1f}x faster than openpyxl |",
        f"| read: openpyxl read-only, values only | {spread(m_read_o, 's', 3)} | |",
        "",
        f"Same values from both readers: {'yes' if all(m['same_values'] for m in ms) else 'NO'}; "
        f"state read back equal to the state written: "
        f"{'yes' if all(m['round_trip'] for m in ms) else 'NO'}; file "
        f"{ms[0]['size_kb']:.0f} kB (cell by cell: {ms[0]['size_cells_kb']:.0f} kB).",
    ]
    return "\n".join(lines)


def reports_markdown(runs: list[dict[str, Any]]) -> str:
    naive = [v for r in runs for v in r["naive"]]
    fast = [v for r in runs for v in r["fast"]]
    share = [r["turn_share"] for r in runs]
    first = [r["first"] for r in runs if "first" in r]
    first_drawn = [r["first"] + r["first_base"] for r in runs if "first_base" in r]
    pages = [p for r in runs for p in r["pages"]]
    ratio = median(naive) / median(share) if median(share) else 0.0
    return "\n".join(
        [
            f"Reports of year {runs[0]['year']} in the turn benchmark's game, "
            f"{len(runs[0]['naive'])} players, {min(pages)}-{max(pages)} pages each, "
            f"{len(runs)} run(s); naive and fast rendered alternately in one process.",
            "",
            "| render | per player report, median (min-max) |",
            "|---|---|",
            f"| naive single pass: maps inline as SVG, one WeasyPrint render | {spread(naive)} |",
            f"| fast, one report | {spread(fast)} |",
            f"| fast, share of a turn including the shared base maps | **{spread(share)}** |",
            f"| the first report of a fresh process (imports, fonts, templates; the base maps "
            f"from the game's cache, as on every turn after the first) | "
            f"{spread(first) if first else 'not measured'} |",
            f"| the same with the base maps drawn (a game's first reports: the first report, "
            f"then the drawing of its base pages timed apart) | "
            f"{spread(first_drawn) if first_drawn else 'not measured'} |",
            "",
            f"Speed-up (naive against fast turn share, medians of the same runs): "
            f"**{ratio:.1f}x**.",
            "",
            f"Targets (issue 21): a report's share of a turn at most 0.3 s: "
            f"{_met(median(share) <= 0.3)}; at least 12x faster than naive: {_met(ratio >= 12)}; "
            f"the first report of a fresh process at most 1.5 s: "
            f"{_met(bool(first) and median(first) <= 1.5)}.",
        ]
    )


def players_markdown(runs: list[dict[str, Any]], plan: Plan) -> str:
    """The report command by player count, and whether its peak memory grows at most
    linearly: the memory each player added costs must not rise with the players (the last
    step's per-player growth at most the first's, with 0.25 MB a player for the noise of
    reading a peak)."""
    by_count = [r["reports"] for r in runs]
    counts = [int(n) for n in by_count[0]]
    peaks = {n: median([r[str(n)]["peak_mb"] for r in by_count]) for n in counts}
    lines = [
        f"Games of {', '.join(map(str, counts))} players on the Solomani Rim, "
        f"{plan.warm_turns} turns played, {len(runs)} run(s); `refassist report GAME --mail` "
        "on a fresh copy of each (peak memory as the kernel reports it, its report workers "
        "included).",
        "",
        "| players | wall time, median (min-max) | peak memory | per player added |",
        "|---|---|---|---|",
    ]
    growth: list[float] = []
    for i, n in enumerate(counts):
        added = ""
        if i:
            step = (peaks[n] - peaks[counts[i - 1]]) / (n - counts[i - 1])
            growth.append(step)
            added = f"{step:+.2f} MB"
        lines.append(
            f"| {n} | {spread([r[str(n)]['seconds'] for r in by_count])} | "
            f"{spread([r[str(n)]['peak_mb'] for r in by_count], 'MB', 0)} | {added} |"
        )
    if len(growth) >= 2:
        linear = growth[-1] <= max(growth[0], 0.0) + 0.25
        lines += [
            "",
            f"Target (issue 21): the report stage's peak memory growing at most linearly with "
            f"the players: {_met(linear)} (each player from {counts[-2]} to {counts[-1]} adds "
            f"{growth[-1]:.2f} MB, from {counts[0]} to {counts[1]} {growth[0]:.2f} MB).",
        ]
    return "\n".join(lines)


def imperium_markdown(runs: list[dict[str, Any]]) -> str:
    first = runs[0]
    stages = {name: [v for r in runs for v in r["parts"][name]] for name in first["parts"]}
    totals = [
        sum(r["parts"][name][i] for name in r["parts"]) for r in runs for i in range(r["turns"])
    ]
    pages = [p for r in runs for p in r["pages"]]
    battles = first["battles"]
    rows = [
        f"An Imperium 3rd Millennium campaign between two computer sides on The Frontier, "
        f"{first['turns']} turns ({len(runs)} run(s) of the same seeded game; it ended at "
        f"{first['last']}; wars decided: {', '.join(first['results']) or 'none'}), "
        f"{sum(battles)} space battles, reports of {min(pages)}-{max(pages)} pages.",
        "",
        "| stage, per turn | median (min-max) |",
        "|---|---|",
    ]
    for name, values in stages.items():
        rows.append(f"| {name} | {spread(values)} |")
    shares = [
        r["parts"]["reports"][i] / sum(r["parts"][name][i] for name in r["parts"])
        for r in runs
        for i in range(r["turns"])
    ]
    rows += [
        f"| **whole turn** | **{spread(totals)}** |",
        *command_rows(runs, "turn"),
        "",
        f"Peak memory of the run: {max(r['peak_mb'] for r in runs):.0f} MB.",
        "",
        half_target(shares, "a turn", runs),
    ]
    return "\n".join(rows)


def campaign_markdown(runs: list[dict[str, Any]]) -> str:
    """A week at 8 commanders: each week step with the battles step that followed it."""
    first = runs[0]
    weeks: list[float] = []
    report_share: list[float] = []
    for r in runs:
        keys = r["steps"]
        for i, key in enumerate(keys):
            if not key.isdigit() or key == "0":
                continue
            idx = [i] + ([i + 1] if i + 1 < len(keys) and keys[i + 1] == f"{key}-battles" else [])
            total = sum(r["parts"][n][j] for n in r["parts"] for j in idx)
            weeks.append(total)
            report_share.append(sum(r["parts"]["reports"][j] for j in idx) / total)
    stages = {name: [v for r in runs for v in r["parts"][name]] for name in first["parts"]}
    pages = [p for r in runs for p in r["pages"]]
    rows = [
        f"A Full Thrust campaign between 8 computer commanders on the Kell Marches: steps "
        f"{', '.join(first['steps'])} ({len(runs)} run(s) of the same seeded game), "
        f"{first['battles']} battles left for the table and settled by the demo's stand-in, "
        f"{first['ships']} ships at the end, reports of {min(pages)}-{max(pages)} pages.",
        "",
        "| stage, per step | median (min-max) |",
        "|---|---|",
    ]
    for name, values in stages.items():
        rows.append(f"| {name} | {spread(values)} |")
    rows += [
        f"| **a week (with its battles step)** | **{spread(weeks)}** |",
        *command_rows(runs, "step"),
        "",
        f"Reports are {min(report_share):.0%}-{max(report_share):.0%} of a week. Peak memory "
        f"of the run: {max(r['peak_mb'] for r in runs):.0f} MB.",
        "",
        half_target(report_share, "a week", runs),
    ]
    return "\n".join(rows)


def stage_rows(runs: list[dict[str, Any]], per: str) -> list[str]:
    """The stage-by-stage table of a step-by-step game benchmark (`stepwise.play_steps`):
    each stage's seconds per ``per`` (a step, an exchange), median and range over the runs."""
    first = runs[0]
    stages = {name: [v for r in runs for v in r["parts"][name]] for name in first["parts"]}
    rows = [f"| stage, per {per} | median (min-max) |", "|---|---|"]
    rows += [f"| {name} | {spread(values)} |" for name, values in stages.items()]
    return rows


def step_totals(runs: list[dict[str, Any]]) -> list[float]:
    """Each step's seconds, all stages together, over every run."""
    return [sum(r["parts"][n][i] for n in r["parts"]) for r in runs for i in range(len(r["steps"]))]


def command_rows(runs: list[dict[str, Any]], per: str) -> list[str]:
    """The steps sampled through each run and played as the referee's three commands
    (`stepwise.as_commands`): each command's seconds per ``per``, median and range."""
    samples = [c for r in runs for c in r.get("commands", [])]
    if not samples:
        return []
    labels = {
        "intake": "`refassist intake GAME SHEETS`",
        "resolve": "`refassist resolve GAME --now`",
        "report": "`refassist report GAME --mail`",
    }
    return [
        "",
        f"The same game as the referee plays it: {len(samples)} {per}s sampled through the "
        "runs, each on a copy of the game as three commands, each its own process (as the "
        "12-player turn is measured, section 1):",
        "",
        f"| command, per {per} | median (min-max) |",
        "|---|---|",
        *(f"| {label} | {spread([c[name] for c in samples])} |" for name, label in labels.items()),
        f"| **the {per} as commands** | **{spread([sum(c.values()) for c in samples])}** |",
    ]


def half_target(shares: list[float], unit: str, runs: list[dict[str, Any]] | None = None) -> str:
    """Issue 21's target for every game's benchmark line: the reports at most half of the
    referee's work of a ``unit``.  Judged on the commands where ``runs`` sampled them (the
    figures the 12-player turn is judged on); the share in one process is said beside it."""
    commands = [c["report"] / sum(c.values()) for r in runs or [] for c in r.get("commands", [])]
    head = f"Target (issue 21): the report stage at most half of {unit}"
    if not commands:
        return f"{head}: {_met(median(shares) <= 0.5)} (median share {median(shares):.0%})."
    return (
        f"{head}, as the referee runs it: {_met(median(commands) <= 0.5)} (median share of "
        f"the commands {median(commands):.0%}; in one process, where the rules run warm and "
        f"each report stage forks fresh workers, {median(shares):.0%})."
    )


def millenium_markdown(runs: list[dict[str, Any]]) -> str:
    """A step of Millenium (a set-up or one side's game turn), stage by stage."""
    first = runs[0]
    steps = step_totals(runs)
    shares = [
        r["parts"]["reports"][i] / sum(r["parts"][n][i] for n in r["parts"])
        for r in runs
        for i in range(len(r["steps"]))
    ]
    pages = [p for r in runs for p in r["pages"]]
    rows = [
        f"Millenium between the two computer sides: {len(first['steps'])} steps "
        f"({first['steps'][0]} to {first['steps'][-1]}; {len(runs)} run(s) of the same seeded "
        f"game), {first['battles']} battles fought on the hex map, reports of "
        f"{min(pages)}-{max(pages)} pages. {first['finished'] or 'Not finished.'}",
        "",
        *stage_rows(runs, "step"),
    ]
    rows += [
        f"| **a step (a set-up or a game turn)** | **{spread(steps)}** |",
        *command_rows(runs, "step"),
        "",
        f"Reports are {min(shares):.0%}-{max(shares):.0%} of a step. Peak memory of the run: "
        f"{max(r['peak_mb'] for r in runs):.0f} MB.",
        "",
        half_target(shares, "a step", runs),
    ]
    return "\n".join(rows)


def war_markdown(runs: list[dict[str, Any]]) -> str:
    """An exchange of Millennium Wars, and a game turn (the exchanges between two turns'
    first impulses)."""
    first = runs[0]
    exchanges = step_totals(runs)
    turns: list[float] = []
    shares: list[float] = []
    for r in runs:
        by_turn: dict[str, list[int]] = {}
        for i, key in enumerate(r["steps"]):
            by_turn.setdefault(key.split("-")[0], []).append(i)
        for idx in by_turn.values():
            total = sum(r["parts"][n][i] for n in r["parts"] for i in idx)
            turns.append(total)
            shares.append(sum(r["parts"]["reports"][i] for i in idx) / total)
    pages = [p for r in runs for p in r["pages"]]
    rows = [
        f"Millennium Wars' training scenario between two computer sides: "
        f"{len(first['steps'])} exchanges ({first['steps'][0]} to {first['steps'][-1]}; "
        f"{len(runs)} run(s) of the same seeded war), {first['attacks']} attacks fought, "
        f"reports of {min(pages)}-{max(pages)} pages. {first['finished'] or 'Not finished.'}",
        "",
        *stage_rows(runs, "exchange"),
    ]
    rows += [
        f"| **an exchange** | **{spread(exchanges)}** |",
        f"| **a game turn (all its exchanges)** | **{spread(turns)}** |",
        *command_rows(runs, "exchange"),
        "",
        f"Reports are {min(shares):.0%}-{max(shares):.0%} of a game turn. Peak memory "
        f"of the run: {max(r['peak_mb'] for r in runs):.0f} MB.",
        "",
        half_target(shares, "a game turn", runs),
    ]
    return "\n".join(rows)


def messages_markdown(runs: list[dict[str, Any]]) -> str:
    quiet, flood = runs[0]["quiet"], runs[0]["flood"]
    rows = [
        f"Ann sends {runs[0]['rows']} messages to every player, {flood['chars_sent']} characters "
        "in all, nearly all new lines (the most the sheet accepts), against a one-line "
        f"greeting; 3 players, {len(runs)} run(s).",
        "",
        "| | greeting | flood |",
        "|---|---|---|",
        f"| Bob's report, pages | {quiet['pages']} | {flood['pages']} |",
        f"| lines of Ann's delivered | {quiet['lines_delivered']} | {flood['lines_delivered']} |",
        "| report step (4 PDFs) | "
        f"{spread([r['quiet']['seconds'] for r in runs])} | "
        f"{spread([r['flood']['seconds'] for r in runs])} |",
    ]
    return "\n".join(rows)


# -- the document -----------------------------------------------------------------------------


def replace_block(text: str, name: str, body: str) -> str:
    """``text`` with the generated block ``name`` replaced (appended if missing)."""
    begin, end = f"<!-- run.py: {name} -->", f"<!-- /run.py: {name} -->"
    block = f"{begin}\n{body.strip()}\n{end}"
    pattern = re.compile(re.escape(begin) + r".*?" + re.escape(end), re.DOTALL)
    if pattern.search(text):
        return pattern.sub(lambda _: block, text, count=1)
    return text.rstrip() + "\n\n" + block + "\n"


def machine_block(plan: Plan, started: datetime, load_before: str) -> str:
    mode = "quick smoke run" if plan.quick else f"{plan.runs} runs of each benchmark"
    return (
        f"**Machine**: {machine()}.  \n"
        f"**Date**: {started:%Y-%m-%d %H:%M} UTC ({mode}); load average before the runs "
        f"{load_before}, after {load_average()}."
    )


# -- main -------------------------------------------------------------------------------------


def compile_bytecode() -> None:
    """Write refassist's bytecode (its ``__pycache__``), as pip does when it installs the
    package, so a command timed here starts as it does on a referee's machine.  Where
    ``PYTHONDONTWRITEBYTECODE`` is set (some CI and sandbox images), Python never writes it
    itself and every command compiled refassist's sources again: about 0.2 s of each."""
    import compileall

    compileall.compile_dir(REPO / "refassist", quiet=1)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="one short run of each benchmark")
    parser.add_argument("--only", action="append", choices=NAMES, help="run only this one")
    parser.add_argument("--runs", type=int, help="runs of each benchmark (default 3, quick 1)")
    parser.add_argument("--doc", type=Path, default=DOC, help="the Markdown file to update")
    parser.add_argument("--no-doc", action="store_true", help="print, do not write the doc")
    parser.add_argument("--child", help=argparse.SUPPRESS)
    parser.add_argument("--work", type=Path, help=argparse.SUPPRESS)
    parser.add_argument("--result", type=Path, help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    plan = Plan(args.quick, args.runs)
    if args.child:
        child(args.child, args.work, plan, args.result)
        return 0
    wanted = list(dict.fromkeys(args.only or NAMES))
    if not SECTOR.is_file():
        skipped = [name for name in wanted if name in NEED_SECTOR]
        wanted = [name for name in wanted if name not in NEED_SECTOR]
        print(
            f"skipped {', '.join(skipped)}: the real sector file {SECTOR} is not there "
            "(they play on the Solomani Rim; put shared/sectors/ beside the repository and "
            "run again)"
        )
        if not wanted:
            return 0
    compile_bytecode()
    started = datetime.now(UTC)
    load_before = load_average()
    blocks: dict[str, str] = {}
    with tempfile.TemporaryDirectory(prefix="refassist-bench-") as tmp:
        work = Path(tmp)
        year = 0
        if set(wanted) & {"turn", "sheetio", "reports"}:
            print(f"preparing the {plan.turn_players}-player game...", flush=True)
            prepared = spawn("prepare", work, plan, 0)
            year = prepared["year"]
            print(f"  year {year} reached in {prepared['seconds']:.0f} s", flush=True)
        for name in wanted:
            runs = []
            for number in range(1, plan.runs + 1):
                print(f"{name}: run {number} of {plan.runs}...", flush=True)
                runs.append(spawn(name, work, plan, number))
                print(f"  {runs[-1]['_wall']:.0f} s", flush=True)
            if name == "turn":
                blocks[name] = turn_markdown(runs, plan, year)
            elif name == "resolution":
                blocks[name] = resolution_markdown(runs, plan)
            elif name == "sheetio":
                blocks[name] = sheetio_markdown(runs)
            elif name == "players":
                blocks[name] = players_markdown(runs, plan)
            elif name == "imperium":
                blocks[name] = imperium_markdown(runs)
            elif name == "campaign":
                blocks[name] = campaign_markdown(runs)
            elif name == "war":
                blocks[name] = war_markdown(runs)
            elif name == "millenium":
                blocks[name] = millenium_markdown(runs)
            elif name == "messages":
                blocks[name] = messages_markdown(runs)
            else:
                blocks[name] = reports_markdown(runs)
            print(blocks[name] + "\n", flush=True)
    blocks["machine"] = machine_block(plan, started, load_before)
    print(blocks["machine"])
    if not args.no_doc:
        text = args.doc.read_text(encoding="utf-8") if args.doc.exists() else "# Benchmarks\n"
        for name, body in blocks.items():
            text = replace_block(text, name, body)
        args.doc.write_text(text, encoding="utf-8")
        print(f"\nwrote {args.doc}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
