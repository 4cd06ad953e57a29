"""Writes docs/conformance.md from the harness's results: per broker and
version, each case, its result and the broker's timer granularity, the
differences a case writes down as known, and what the brokers did that
their documentation does not say (conformance/FINDINGS.md). Rows of a
broker not run this time are kept from the page as it was."""

import argparse
import json
from pathlib import Path

HEAD = """# Conformance: the engine against real brokers

Written by `conformance/run.sh` (see [`conformance/README.md`](../conformance/README.md)):
each case is a scenario file run by real clients on a real broker and by
`lease-sim`, compared per message (deliveries, overlapping runs, each ack's
outcome, dead letters) and per delivery time, within the broker's timer
granularity, from the case's first delivery. A known difference is one the
case's folder writes down (`known-differences.json`) with its reason; only
its exact text is excused.

| broker | version | case | result | timer granularity |
|---|---|---|---|---|
"""


def rows_of(result):
    out = []
    for c in result["cases"]:
        if c["ok"]:
            verdict = "agrees" + (" (known difference)" if c.get("known") else "")
        elif any("engine could not run" in d for d in c["differences"]):
            verdict = "recorded; no preset in the engine yet"
        else:
            verdict = "differs: " + "; ".join(d.split(": ", 1)[1] for d in c["differences"])
        verdict = verdict.replace("|", "\\|").replace("\n", " ")
        out.append(f"| {result['broker']} | {result['version']} | `{c['case']}` | {verdict} "
                   f"| {result['granularity_ms']} ms |")
    return out


def main():
    p = argparse.ArgumentParser()
    p.add_argument("--results", required=True)
    p.add_argument("--out", required=True)
    p.add_argument("--findings", required=True)
    a = p.parse_args()
    results = {}
    for f in sorted(Path(a.results).glob("*.json")):
        r = json.loads(f.read_text())
        results[r["broker"]] = r
    kept = []
    kept_known = []
    out = Path(a.out)
    if out.exists():
        for line in out.read_text().splitlines():
            # A known difference of a broker not run this time is kept too.
            if line.startswith("- **") and ", `" in line:
                broker = line[4:].split(",", 1)[0]
                if broker not in results:
                    kept_known.append(line)
                continue
            cells = [x.strip() for x in line.split("|")]
            if len(cells) > 5 and line.startswith("| ") and cells[1] not in ("broker", "---") \
                    and not cells[1].startswith("-") and cells[1] not in results \
                    and cells[3].startswith("`"):
                kept.append(line)
    rows = kept + [row for b in sorted(results) for row in rows_of(results[b])]
    rows.sort(key=lambda r: r.split("|")[1].strip())
    known = list(kept_known)
    for b in sorted(results):
        for c in results[b]["cases"]:
            for k in c.get("known", []):
                known.append(f"- **{b}, `{c['case']}`**: {k['difference'].split(': ', 1)[1]}. {k['why']}")
    text = HEAD + "\n".join(rows) + "\n"
    known.sort(key=lambda k: k[4:].split(",", 1)[0])
    if known:
        text += "\n## Known differences\n\n" + "\n".join(known) + "\n"
    text += "\n" + Path(a.findings).read_text()
    out.write_text(text)


if __name__ == "__main__":
    main()
