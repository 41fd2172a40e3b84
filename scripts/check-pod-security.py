#!/usr/bin/env python3
"""Every pod template under deploy/kubernetes/ against the Restricted Pod Security Standard
(https://kubernetes.io/docs/concepts/security/pod-security-standards/, every rule of Baseline
and Restricted, as the `restricted` level of Pod Security Admission enforces them) and our own
rules on top (scripts/test.sh):

- automountServiceAccountToken: false (no pod here calls the Kubernetes API);
- readOnlyRootFilesystem: true, and every emptyDir bounded by a sizeLimit;
- images by digest (`NAME@sha256:<64 hex>`), so that every pod runs the build that was checked;
- no secret in argv: no `$(VAR)` of a Secret's value in command or args (the kubelet expands
  it, and `ps` shows it to every user of the node), no password in a literal argument or `value`;
- the provider's key (the Secret key behind the variable that configmap.yaml's
  jobs.enrichment-fetch.provider.api_key_env names) only in pods that run enrichment-fetch.

Usage: check-pod-security.py [MANIFEST...] (default: deploy/kubernetes/*.yaml). Exit 1 with one
line per finding, naming the file, the object, the container and what to set.
check-pod-security.py --self-test: each rule, broken on purpose in a copy of
cronjob-hourly.yaml, must be found (and the copy itself must pass), so a rule cannot silently
stop checking."""
import glob
import re
import sys

import yaml  # PyYAML, which kubernetes-validate brings

# Where each workload kind keeps its pod template (metadata and spec).
TEMPLATE_PATHS = {
    "Pod": [],
    "Deployment": ["spec", "template"],
    "StatefulSet": ["spec", "template"],
    "DaemonSet": ["spec", "template"],
    "ReplicaSet": ["spec", "template"],
    "ReplicationController": ["spec", "template"],
    "Job": ["spec", "template"],
    "CronJob": ["spec", "jobTemplate", "spec", "template"],
    "PodTemplate": ["template"],
}
CONTAINER_LISTS = ["initContainers", "containers", "ephemeralContainers"]
# Baseline: the only sysctls a pod may set.
SAFE_SYSCTLS = {
    "kernel.shm_rmid_forced", "net.ipv4.ip_local_port_range", "net.ipv4.ip_unprivileged_port_start",
    "net.ipv4.tcp_syncookies", "net.ipv4.ping_group_range", "net.ipv4.ip_local_reserved_ports",
    "net.ipv4.tcp_keepalive_time", "net.ipv4.tcp_fin_timeout", "net.ipv4.tcp_keepalive_intvl",
    "net.ipv4.tcp_keepalive_probes",
}
SELINUX_TYPES = {"", "container_t", "container_init_t", "container_kvm_t", "container_engine_t"}
# Restricted: the only volume types.
VOLUME_TYPES = {"configMap", "csi", "downwardAPI", "emptyDir", "ephemeral", "persistentVolumeClaim",
                "projected", "secret"}
VOLUME_FIELDS = {"name"}
DIGEST = re.compile(r"@sha256:[0-9a-f]{64}$")
# A password in a literal: `scheme://user:password@`, or a `password=` (libpq key=value, query).
LITERAL_SECRET = re.compile(r"://[^/@\s:]+:[^/@\s]+@|password=", re.IGNORECASE)
VARIABLE_REFERENCE = re.compile(r"(?<!\$)\$\(([A-Za-z_][A-Za-z0-9_]*)\)")


def dig(value, path):
    for key in path:
        if not isinstance(value, dict):
            return None
        value = value.get(key)
    return value


def has_key(value, key):
    if isinstance(value, dict):
        return key in value or any(has_key(v, key) for v in value.values())
    return isinstance(value, list) and any(has_key(v, key) for v in value)


def provider_key_variable():
    """The variable configmap.yaml names for the provider's key, and whether each pipeline runs
    enrichment-fetch."""
    try:
        with open("deploy/kubernetes/configmap.yaml") as f:
            config = yaml.safe_load(yaml.safe_load(f)["data"]["pipelines.yaml"]) or {}
    except (OSError, KeyError, TypeError):
        return None, {}
    variable = dig(config, ["jobs", "enrichment-fetch", "provider", "api_key_env"])
    pipelines = {name: "enrichment-fetch" in (p.get("jobs") or []) for name, p in (config.get("pipelines") or {}).items()}
    return variable, pipelines


class Checker:
    def __init__(self):
        self.problems = []
        self.templates = 0
        self.key_variable, self.pipeline_fetches = provider_key_variable()
        self.provider_secrets = set()  # (secret, key) pairs that hold the provider's key
        self.pods = []  # (where, pod spec, runs enrichment-fetch) for the provider-key rule

    def problem(self, where, text):
        self.problems.append(f"{where}: {text}")

    def check_file(self, path):
        with open(path) as f:
            self.check_documents(path, [d for d in yaml.safe_load_all(f) if d])

    def check_documents(self, path, documents):
        for document in documents:
            kind = document.get("kind", "?")
            name = dig(document, ["metadata", "name"]) or "?"
            where = f"{path}: {kind}/{name}"
            if kind in TEMPLATE_PATHS:
                template = dig(document, TEMPLATE_PATHS[kind]) if TEMPLATE_PATHS[kind] else document
                if not isinstance(template, dict) or not isinstance(template.get("spec"), dict):
                    self.problem(where, "has no pod template where a " + kind + " keeps it")
                    continue
                self.check_pod(where, template.get("metadata") or {}, template["spec"])
            elif has_key(document, "containers"):
                self.problem(where, f"kind {kind} may hold a pod template this checker cannot find; teach it TEMPLATE_PATHS")

    def check_pod(self, where, metadata, spec):
        self.templates += 1
        pod_context = spec.get("securityContext") or {}
        for field in ["hostNetwork", "hostPID", "hostIPC"]:
            if spec.get(field):
                self.problem(where, f"{field}: true shares the node's namespace; remove it (Baseline: host namespaces)")
        if spec.get("automountServiceAccountToken") is not False:
            self.problem(where, "set automountServiceAccountToken: false (no pod here calls the Kubernetes API)")
        for sysctl in pod_context.get("sysctls") or []:
            if sysctl.get("name") not in SAFE_SYSCTLS:
                self.problem(where, f"sysctl {sysctl.get('name')} is not in the safe set (Baseline: sysctls)")
        self.check_selinux(where, pod_context)
        self.check_apparmor(where, metadata, pod_context)
        if dig(pod_context, ["windowsOptions", "hostProcess"]):
            self.problem(where, "windowsOptions.hostProcess: true; remove it (Baseline: HostProcess)")
        if pod_context.get("runAsUser") == 0:
            self.problem(where, "securityContext.runAsUser: 0 is root; use the image's user (Restricted: non-root user)")
        self.check_volumes(where, spec)
        containers = [(list_name, c) for list_name in CONTAINER_LISTS for c in spec.get(list_name) or []]
        if not containers:
            self.problem(where, "has no containers")
        for list_name, container in containers:
            self.check_container(f"{where}: {list_name} {container.get('name', '?')}", container, pod_context, metadata)
        args = [str(a) for _, c in containers for a in (c.get("command") or []) + (c.get("args") or [])]
        self.pods.append((where, spec, self.runs_enrichment(args)))
        self.collect_provider_secrets(containers)

    def check_container(self, where, container, pod_context, metadata):
        context = container.get("securityContext") or {}
        if context.get("privileged"):
            self.problem(where, "privileged: true; remove it (Baseline: privileged containers)")
        if context.get("allowPrivilegeEscalation") is not False:
            self.problem(where, "set securityContext.allowPrivilegeEscalation: false (Restricted: privilege escalation)")
        drop = dig(context, ["capabilities", "drop"]) or []
        if "ALL" not in drop:
            self.problem(where, "set securityContext.capabilities.drop: [ALL] (Restricted: capabilities)")
        for added in dig(context, ["capabilities", "add"]) or []:
            if added != "NET_BIND_SERVICE":
                self.problem(where, f"capabilities.add {added}: only NET_BIND_SERVICE may be added (Restricted: capabilities)")
        non_root = context.get("runAsNonRoot", pod_context.get("runAsNonRoot"))
        if non_root is not True:
            self.problem(where, "set runAsNonRoot: true, on the pod or the container (Restricted: running as non-root)")
        if context.get("runAsUser") == 0:
            self.problem(where, "runAsUser: 0 is root (Restricted: running as non-root user)")
        seccomp = dig(context, ["seccompProfile", "type"]) or dig(pod_context, ["seccompProfile", "type"])
        if seccomp not in ("RuntimeDefault", "Localhost"):
            self.problem(where, f"seccompProfile.type is {seccomp or 'unset'}; set RuntimeDefault on the pod (Restricted: seccomp)")
        if context.get("procMount", "Default") != "Default":
            self.problem(where, "procMount must be Default (Baseline: /proc mount type)")
        if dig(context, ["windowsOptions", "hostProcess"]):
            self.problem(where, "windowsOptions.hostProcess: true; remove it (Baseline: HostProcess)")
        self.check_selinux(where, context)
        self.check_apparmor(where, {}, context)
        for port in container.get("ports") or []:
            if port.get("hostPort"):
                self.problem(where, f"hostPort {port['hostPort']}: use a Service (Baseline: host ports)")
        if context.get("readOnlyRootFilesystem") is not True:
            self.problem(where, "set securityContext.readOnlyRootFilesystem: true, with an emptyDir where it must write")
        image = str(container.get("image", ""))
        if not DIGEST.search(image):
            self.problem(where, f"image {image!r} is not pinned: name it by digest, NAME@sha256:<64 hex>")
        self.check_argv(where, container)

    def check_selinux(self, where, context):
        options = context.get("seLinuxOptions") or {}
        if options.get("type", "") not in SELINUX_TYPES:
            self.problem(where, f"seLinuxOptions.type {options['type']} is not allowed (Baseline: SELinux)")
        for field in ["user", "role"]:
            if options.get(field):
                self.problem(where, f"seLinuxOptions.{field} must be unset (Baseline: SELinux)")

    def check_apparmor(self, where, metadata, context):
        profile = dig(context, ["appArmorProfile", "type"])
        if profile not in (None, "RuntimeDefault", "Localhost"):
            self.problem(where, f"appArmorProfile.type {profile} is not allowed (Baseline: AppArmor)")
        for key, value in (metadata.get("annotations") or {}).items():
            if key.startswith("container.apparmor.security.beta.kubernetes.io/"):
                if value != "runtime/default" and not str(value).startswith("localhost/"):
                    self.problem(where, f"annotation {key}: {value} is not allowed (Baseline: AppArmor)")

    def check_volumes(self, where, spec):
        for volume in spec.get("volumes") or []:
            types = set(volume) - VOLUME_FIELDS
            for kind in types - VOLUME_TYPES:
                self.problem(where, f"volume {volume.get('name')}: type {kind} is not allowed (Restricted: volume types; Baseline: hostPath)")
            if "emptyDir" in volume and not (volume["emptyDir"] or {}).get("sizeLimit"):
                self.problem(where, f"volume {volume.get('name')}: give the emptyDir a sizeLimit")

    def check_argv(self, where, container):
        secret_variables = {e["name"] for e in container.get("env") or [] if dig(e, ["valueFrom", "secretKeyRef"])}
        from_secret = any("secretRef" in source for source in container.get("envFrom") or [])
        for argument in [str(a) for a in (container.get("command") or []) + (container.get("args") or [])]:
            for variable in VARIABLE_REFERENCE.findall(argument):
                if variable in secret_variables or (from_secret and variable not in {e["name"] for e in container.get("env") or []}):
                    self.problem(where, f"argument {argument!r} puts the Secret's value in argv (ps shows it); read it from a file or the environment")
            if LITERAL_SECRET.search(argument):
                self.problem(where, f"an argument holds a password ({LITERAL_SECRET.search(argument).group(0)}…); take it from a Secret's file")
        for variable in container.get("env") or []:
            if "value" in variable and LITERAL_SECRET.search(str(variable["value"])):
                self.problem(where, f"env {variable['name']} holds a password in the manifest; take it from a Secret")

    def runs_enrichment(self, args):
        if "run" not in args:
            return False
        name = args[args.index("run") + 1] if args.index("run") + 1 < len(args) else ""
        if "pipeline" in args:
            return self.pipeline_fetches.get(name, False)
        return name == "enrichment-fetch"

    def collect_provider_secrets(self, containers):
        for _, container in containers:
            for variable in container.get("env") or []:
                ref = dig(variable, ["valueFrom", "secretKeyRef"])
                if ref and variable.get("name") == self.key_variable:
                    self.provider_secrets.add((ref.get("name"), ref.get("key")))

    def check_provider_key(self):
        """Only pods that run enrichment-fetch may see the provider's key: by env or as a file."""
        for where, spec, fetches in self.pods:
            if fetches:
                continue
            seen = set()
            for list_name in CONTAINER_LISTS:
                for container in spec.get(list_name) or []:
                    for variable in container.get("env") or []:
                        ref = dig(variable, ["valueFrom", "secretKeyRef"])
                        if ref:
                            seen.add((ref.get("name"), ref.get("key")))
                    for source in container.get("envFrom") or []:
                        if "secretRef" in source:
                            seen |= {(source["secretRef"].get("name"), key) for _, key in self.provider_secrets}
            for volume in spec.get("volumes") or []:
                sources = [volume["secret"]] if "secret" in volume else []
                sources += [s["secret"] for s in dig(volume, ["projected", "sources"]) or [] if "secret" in s]
                for source in sources:
                    name = source.get("secretName", source.get("name"))
                    items = source.get("items")
                    keys = [i.get("key") for i in items] if items else [key for _, key in self.provider_secrets]
                    seen |= {(name, key) for key in keys}
            for secret, key in sorted(seen & self.provider_secrets):
                self.problem(where, f"sees the provider's key (Secret {secret}, key {key}) but runs no enrichment-fetch; give it only to the pods that call the provider")


# One way to break each rule, and the words of the finding it must give.
def _set(path, value):
    def mutate(spec):
        target = spec
        for key in path[:-1]:
            target = target[key] if not isinstance(key, str) else target.setdefault(key, {})
        target[path[-1]] = value
    return mutate


def _container(key, value):
    return _set(["containers", 0, key], value)


BREAKAGES = [
    ("Baseline: host namespaces", _set(["hostPID"], True)),
    ("Baseline: privileged containers", _set(["containers", 0, "securityContext", "privileged"], True)),
    ("Restricted: capabilities", _set(["containers", 0, "securityContext", "capabilities", "add"], ["SYS_ADMIN"])),
    ("Restricted: capabilities", _set(["containers", 0, "securityContext", "capabilities", "drop"], ["NET_RAW"])),
    ("Restricted: privilege escalation", _set(["containers", 0, "securityContext", "allowPrivilegeEscalation"], True)),
    ("Restricted: running as non-root", _set(["securityContext", "runAsNonRoot"], False)),
    ("Restricted: running as non-root user", _set(["containers", 0, "securityContext", "runAsUser"], 0)),
    ("Restricted: seccomp", _set(["securityContext", "seccompProfile"], {"type": "Unconfined"})),
    ("Restricted: volume types", _set(["volumes", 0], {"name": "config", "hostPath": {"path": "/etc"}})),
    ("Baseline: host ports", _container("ports", [{"containerPort": 80, "hostPort": 80}])),
    ("Baseline: /proc mount type", _set(["containers", 0, "securityContext", "procMount"], "Unmasked")),
    ("Baseline: sysctls", _set(["securityContext", "sysctls"], [{"name": "kernel.msgmax", "value": "1"}])),
    ("Baseline: SELinux", _set(["securityContext", "seLinuxOptions"], {"type": "spc_t"})),
    ("Baseline: AppArmor", _set(["securityContext", "appArmorProfile"], {"type": "Unconfined"})),
    ("Baseline: HostProcess", _set(["securityContext", "windowsOptions"], {"hostProcess": True})),
    ("automountServiceAccountToken", _set(["automountServiceAccountToken"], True)),
    ("readOnlyRootFilesystem", _set(["containers", 0, "securityContext", "readOnlyRootFilesystem"], False)),
    ("by digest", _container("image", "registry.example.com/rin-jobs:latest")),
    ("in argv", lambda spec: (spec["containers"][0]["args"].append("$(DB)"), spec["containers"][0]["env"].append(
        {"name": "DB", "valueFrom": {"secretKeyRef": {"name": "rin-jobs", "key": "database-url"}}}))),
    ("holds a password", lambda spec: spec["containers"][0]["args"].append("--db=postgres://rin:hunter2@db/rin")),
    ("sizeLimit", lambda spec: spec["volumes"].append({"name": "tmp", "emptyDir": {}})),
    ("the provider's key", lambda spec: spec["volumes"][1]["secret"].pop("items")),
]


def self_test():
    import copy
    with open("deploy/kubernetes/cronjob-hourly.yaml") as f:
        original = yaml.safe_load(f)
    nightly_key = {"name": "RIN_ENRICH_API_KEY", "valueFrom": {"secretKeyRef": {"name": "rin-jobs", "key": "enrich-api-key"}}}
    # The provider-key rule learns which Secret key is the provider's from a pod that takes it.
    nightly = {"kind": "Pod", "metadata": {"name": "fetches"}, "spec": {"containers": [
        {"name": "c", "args": ["run", "enrichment-fetch"], "env": [nightly_key]}]}}
    failures = []
    for expected, breakage in [(None, lambda spec: None)] + BREAKAGES:
        document = copy.deepcopy(original)
        breakage(dig(document, TEMPLATE_PATHS["CronJob"])["spec"])
        checker = Checker()
        checker.check_documents("self-test", [document])
        checker.check_documents("self-test", [nightly])
        checker.check_provider_key()
        found = [p for p in checker.problems if not p.startswith("self-test: Pod/fetches")]
        if expected is None and found:
            failures.append(f"the unbroken copy of cronjob-hourly.yaml fails: {found}")
        elif expected is not None and not any(expected in p for p in found):
            failures.append(f"breaking '{expected}' was not found (findings: {found})")
    for failure in failures:
        print(f"check-pod-security --self-test: {failure}", file=sys.stderr)
    return 1 if failures else 0


def main():
    if sys.argv[1:] == ["--self-test"]:
        return self_test()
    paths = sys.argv[1:] or sorted(glob.glob("deploy/kubernetes/*.yaml"))
    checker = Checker()
    for path in paths:
        checker.check_file(path)
    checker.check_provider_key()
    if checker.templates == 0:
        checker.problem(" ".join(paths) or "deploy/kubernetes", "no pod template found")
    for problem in checker.problems:
        print(f"check-pod-security: {problem}", file=sys.stderr)
    return 1 if checker.problems else 0


if __name__ == "__main__":
    sys.exit(main())
