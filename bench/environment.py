"""Where a benchmark ran: machine, interpreter and code version, so a number can be traced to its conditions."""

from __future__ import annotations

import hashlib
import json
import os
import platform
import resource
import shlex
import subprocess
import sys
from pathlib import Path
from typing import Any

from bench.data import REPO_ROOT


def total_memory_gb() -> float | None:
    try:
        for line in Path("/proc/meminfo").read_text().splitlines():
            if line.startswith("MemTotal:"):
                return round(int(line.split()[1]) / 1024 / 1024, 1)
    except OSError:
        return None
    return None


def cpu_model() -> str:
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                return line.split(":", 1)[1].strip()
    except OSError:
        pass
    return platform.processor() or platform.machine()


def machine() -> dict[str, object]:
    cores = os.cpu_count() or 1
    memory = total_memory_gb()
    summary = f"{cores} cores ({cpu_model()}), {memory} GB RAM, {platform.system()} {platform.release()}, " \
              f"Python {platform.python_version()}"
    return {"cores": cores, "cpu": cpu_model(), "memory_gb": memory, "system": platform.platform(),
            "python": platform.python_version(), "summary": summary}


def git_version() -> str:
    """Short commit, plus ``+dirty:<hash of the diff>`` when tracked files have uncommitted changes: two runs with the
    same label ran the same code."""
    try:
        commit = subprocess.run(["git", "rev-parse", "--short", "HEAD"], cwd=REPO_ROOT, capture_output=True,
                                text=True, timeout=10).stdout.strip()
        diff = subprocess.run(["git", "diff", "HEAD"], cwd=REPO_ROOT, capture_output=True, timeout=30).stdout
    except (OSError, subprocess.SubprocessError):
        return "unknown"
    if not commit:
        return "unknown"
    return f"{commit}+dirty:{hashlib.sha1(diff).hexdigest()[:8]}" if diff.strip() else commit


def command_line(module: str) -> str:
    return shlex.join(["python", "-m", module, *sys.argv[1:]])


def code_changed_lines(start: str, end: str, consequence: str) -> list[str]:
    """The warning a report carries when the tree changed while the benchmark ran (its processes import the code
    afresh, so they may have run different versions); nothing when it did not."""
    if start == end:
        return []
    return ["", f"**The code changed during this run ({start} -> {end})**: {consequence} Run again on a quiet tree."]


def max_rss_mb() -> float:
    """This process's peak resident memory so far, in MB."""
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024  # Linux reports KiB


def run_child(module: str, spec: dict[str, Any], timeout_s: float = 7200) -> dict[str, Any]:
    """Run ``python -m module --child SPEC`` in a fresh process (so its peak memory is its own) and return the JSON
    object it prints last."""
    completed = subprocess.run([sys.executable, "-m", module, "--child", json.dumps(spec)], cwd=REPO_ROOT,
                               capture_output=True, text=True, timeout=timeout_s)
    if completed.returncode != 0:
        raise RuntimeError(f"{module} child failed: {completed.stderr[-2000:]}")
    return json.loads(completed.stdout.strip().splitlines()[-1])
