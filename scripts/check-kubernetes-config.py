#!/usr/bin/env python3
"""The Kubernetes ConfigMap's pipelines.yaml against the CronJobs that use it (scripts/test.sh):
`rinjobs validate` accepts it, and every pipeline a CronJob runs (`pipeline run NAME`) is in it,
with the CronJob's schedule; the freshness and erasure checks' CronJobs (`freshness`, `erasure`)
have the schedules of the crontab's lines for them (`rinjobs crontab` of the same pipelines.yaml). Until issue 41 the
ConfigMap had no pipelines, so every pod would have exited 64.
Usage: check-kubernetes-config.py RINJOBS"""
import glob
import subprocess
import sys
import tempfile

import yaml  # PyYAML, which kubernetes-validate brings

rinjobs = sys.argv[1]
with open("deploy/kubernetes/configmap.yaml") as f:
    text = yaml.safe_load(f)["data"]["pipelines.yaml"]
with tempfile.NamedTemporaryFile("w", suffix=".yaml") as config:
    config.write(text)
    config.flush()
    subprocess.run([rinjobs, "validate", "--config", config.name], check=True, stdout=subprocess.DEVNULL)
    crontab = subprocess.run([rinjobs, "crontab", "--config", config.name], check=True, capture_output=True,
                             text=True).stdout
def schedules(check):
    return [" ".join(line.split()[:5]) for line in crontab.splitlines()
            if not line.startswith("#") and f'"$RINJOBS" {check} ' in line]


checks = {check: schedules(check) for check in ("freshness", "erasure")}
pipelines = yaml.safe_load(text).get("pipelines") or {}
problems = []
for path in sorted(glob.glob("deploy/kubernetes/cronjob-*.yaml")):
    with open(path) as f:
        cronjob = yaml.safe_load(f)
    container = cronjob["spec"]["jobTemplate"]["spec"]["template"]["spec"]["containers"][0]
    args = container["args"]
    if args[0] in checks:
        if cronjob["spec"]["schedule"] not in checks[args[0]]:
            problems.append(f"{path}: schedule {cronjob['spec']['schedule']!r} differs from the crontab's {args[0]} line {checks[args[0]]}")
        continue
    name = args[args.index("run") + 1]
    if name not in pipelines:
        problems.append(f"{path}: runs pipeline '{name}', which configmap.yaml's pipelines.yaml lacks")
    elif pipelines[name].get("schedule") != cronjob["spec"]["schedule"]:
        problems.append(f"{path}: schedule {cronjob['spec']['schedule']!r} differs from the ConfigMap's {pipelines[name].get('schedule')!r}")
for problem in problems:
    print(f"check-kubernetes-config: {problem}; make the two agree", file=sys.stderr)
sys.exit(1 if problems else 0)
