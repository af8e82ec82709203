#!/usr/bin/env python3
"""The live half of check-fleet (tests/fleet/fleet.sh), stdlib only.

  fleet_check.py up URL SECONDS
      until URL answers 200 (a daemon that just started)
  fleet_check.py dashboard DASHBOARD.json RULES.yml METRICS.prom
      the dashboard's shape, and every metric its queries name is one the
      sidecar writes (METRICS.prom), a recording rule, or Prometheus's own
  fleet_check.py live PROM_URL DASHBOARD.json EXE SECONDS
      until Prometheus has the decode loop's same-epoch-write counter and
      HipvisNewFindingGroup fires for it (/api/v1/alerts and /api/v1/rules),
      with every rule healthy; then every dashboard query runs without error
      and the findings panels have data

Each check prints "ok ..." or "FAIL ..."; the exit status is the number of
failures (0: all passed).
"""
import json
import re
import sys
import time
import urllib.parse
import urllib.request

fails = 0


def check(cond, what, detail=""):
    global fails
    if cond:
        print(f"  ok   {what}")
    else:
        fails += 1
        print(f"  FAIL {what}{': ' + detail if detail else ''}")
    return cond


def get(url, timeout=5):
    with urllib.request.urlopen(url, timeout=timeout) as r:
        return r.status, r.read()


def api(prom, path, **params):
    url = prom + path + ("?" + urllib.parse.urlencode(params) if params else "")
    try:
        _, body = get(url)
        return json.loads(body)
    except urllib.error.HTTPError as e:  # 400 carries the error in JSON
        try:
            return json.loads(e.read())
        except ValueError:
            return {"status": "error", "error": str(e)}
    except (OSError, ValueError) as e:
        return {"status": "error", "error": str(e)}


def up(url, seconds):
    end = time.monotonic() + seconds
    while time.monotonic() < end:
        try:
            if get(url, timeout=2)[0] == 200:
                return 0
        except OSError:
            pass
        time.sleep(0.2)
    return 1


def targets(dash):
    """(panel title, expr) of every query of the dashboard."""
    out = []
    for p in dash.get("panels", []):
        for t in p.get("targets", []):
            out.append((p.get("title", ""), t.get("expr", "")))
    for a in dash.get("annotations", {}).get("list", []):
        if a.get("expr"):
            out.append(("annotation " + a.get("name", ""), a["expr"]))
    return out


# Grafana's variables, as Grafana would expand them for a 1 h range.
def expand(expr):
    return (expr.replace("$__rate_interval", "1m").replace("$__range", "1h")
            .replace("$instance", ".*"))


NAME = re.compile(r"\b([a-zA-Z_:][a-zA-Z0-9_:]*)\s*(?=\{|\[|\)|$)")
PROMQL_WORDS = {"sum", "by", "rate", "increase", "count", "max", "min", "avg", "without", "on", "ignoring",
                "group_left", "group_right", "and", "or", "unless", "offset", "time", "max_over_time"}


def metric_names(expr):
    """Metric names in a PromQL expression: identifiers followed by a selector,
    a range, or ending the expression, that are not functions or keywords."""
    e = re.sub(r'"[^"]*"', '""', expand(expr))
    e = re.sub(r"\{[^}]*\}", "{}", e)
    e = re.sub(r"\b(by|without|on|ignoring|group_left|group_right)\s*\([^)]*\)", " ", e)
    names = set()
    for m in NAME.finditer(e):
        n = m.group(1)
        rest = e[m.end():]
        if n in PROMQL_WORDS or rest.startswith("("):
            continue
        names.add(n)
    return names


def dashboard(path, rules, prom_file):
    dash = json.load(open(path))
    check(dash.get("uid") and dash.get("title"), "dashboard has a uid and a title")
    ids = [p["id"] for p in dash["panels"]]
    check(len(ids) == len(set(ids)), "dashboard panel ids are unique")
    vars_ = {v["name"] for v in dash.get("templating", {}).get("list", [])}
    check({"datasource", "instance"} <= vars_, "dashboard has the datasource and host variables", str(vars_))
    titles = " | ".join(p.get("title", "") for p in dash["panels"]).lower()
    for want in ("by rule and host", "drop ratio", "sidecar lag"):
        check(want in titles, f"dashboard has a '{want}' panel")
    written = set()
    for line in open(prom_file):
        m = re.match(r"([a-zA-Z_:][a-zA-Z0-9_:]*)[{ ]", line)
        if m and not line.startswith("#"):
            written.add(m.group(1))
    recorded = set(re.findall(r"^\s*- record:\s*(\S+)", open(rules).read(), re.M))
    known = written | recorded | {"ALERTS", "node_textfile_mtime_seconds", "up"}
    for title, expr in targets(dash):
        unknown = metric_names(expr) - known
        check(not unknown and expr, f"dashboard '{title}': names only known series", f"{sorted(unknown)} in {expr}")


def live(prom, dash_path, exe, seconds):
    end = time.monotonic() + seconds
    q = 'hipvis_findings_total{rule="same-epoch-write"} > 0'
    found = None
    while time.monotonic() < end:
        r = api(prom, "/api/v1/query", query=q)
        if r.get("status") == "success" and r["data"]["result"]:
            found = r["data"]["result"]
            break
        time.sleep(0.5)
    check(found, "Prometheus scraped the sidecar's same-epoch-write counter through node_exporter",
          f"no result for {q} in {seconds} s")
    if found:
        labels = found[0]["metric"]
        check(labels.get("exe", "").endswith(exe) and labels.get("job") == "node",
              f"... with the process's exe and the scrape's job ({labels.get('exe')}, {labels.get('job')})")
    firing = None
    while time.monotonic() < end:
        r = api(prom, "/api/v1/alerts")
        for a in r.get("data", {}).get("alerts", []) if r.get("status") == "success" else []:
            if a["labels"].get("alertname") == "HipvisNewFindingGroup" and a.get("state") == "firing":
                firing = a
        if firing:
            break
        time.sleep(0.5)
    check(firing, "HipvisNewFindingGroup is firing (/api/v1/alerts)", f"not firing within {seconds} s")
    if firing:
        # The answer itself, for whoever reads the log: what a fleet's
        # Alertmanager would be handed.
        print("  /api/v1/alerts: " + json.dumps({k: firing.get(k) for k in ("labels", "state", "activeAt", "value")},
                                                sort_keys=True))
        lb = firing["labels"]
        check(lb.get("severity") == "warning" and lb.get("exe", "").endswith(exe) and lb.get("pid"),
              f"... for the decode loop's warning group (severity={lb.get('severity')}, exe={lb.get('exe')}, "
              f"pid={lb.get('pid')})")
        check(exe in firing.get("annotations", {}).get("summary", ""), "... its summary names the program",
              firing.get("annotations", {}).get("summary", ""))
    r = api(prom, "/api/v1/rules")
    rules = [x for g in r.get("data", {}).get("groups", []) for x in g.get("rules", [])]
    state = {x["name"]: x.get("state") for x in rules if x.get("type") == "alerting"}
    check(state.get("HipvisNewFindingGroup") == "firing", "/api/v1/rules: HipvisNewFindingGroup state firing",
          str(state.get("HipvisNewFindingGroup")))
    unhealthy = [(x["name"], x.get("lastError")) for x in rules if x.get("health") != "ok"]
    check(rules and not unhealthy, f"/api/v1/rules: all {len(rules)} rules evaluate without error", str(unhealthy))
    quiet = [n for n, s in state.items() if n != "HipvisNewFindingGroup" and s == "firing"]
    check(not quiet, "no other hipvis alert fires on a healthy sidecar", str(quiet))
    dash = json.load(open(dash_path))
    for title, expr in targets(dash):
        r = api(prom, "/api/v1/query", query=expand(expr))
        ok = r.get("status") == "success"
        has = ok and bool(r["data"]["result"])
        if title.startswith("Finding groups by rule") or title.startswith("Findings by rule"):
            check(has, f"dashboard '{title}' has data", r.get("error", "empty result"))
        else:
            check(ok, f"dashboard '{title}' query runs", r.get("error", ""))


def main(argv):
    if len(argv) >= 3 and argv[0] == "up":
        return up(argv[1], float(argv[2]))
    if len(argv) == 4 and argv[0] == "dashboard":
        dashboard(*argv[1:])
    elif len(argv) == 5 and argv[0] == "live":
        live(argv[1], argv[2], argv[3], float(argv[4]))
    else:
        print(__doc__, file=sys.stderr)
        return 2
    return fails


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
