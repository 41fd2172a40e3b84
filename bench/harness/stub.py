"""The loopback provider stub (`rinjobs-dev provider-stub`) that enrichment-fetch calls in the bench.

Until that command is built, `available` is false and enrichment-fetch is reported without a
provider; rerunning the bench after it lands measures it, with no change here.
"""

import socket
import subprocess
import time
from pathlib import Path


def dev_tool(rinjobs: Path) -> Path:
    """The binary with `seed` and `provider-stub`: `rinjobs-dev` beside `rinjobs`; before
    issue 33 moved them there, `rinjobs` itself (so that a bench of an older build still runs)."""
    dev = Path(rinjobs).parent / "rinjobs-dev"
    return dev if dev.exists() else Path(rinjobs)


def available(rinjobs: Path) -> bool:
    """Whether this build has the command (an unknown subcommand's `--help` prints the root help)."""
    done = subprocess.run([dev_tool(rinjobs), "provider-stub", "--help"], capture_output=True, text=True)
    help_text = done.stdout + done.stderr
    if not any(f"USAGE: {tool} provider-stub" in help_text for tool in ("rinjobs", "rinjobs-dev")):
        return False
    if "--port" not in help_text:
        raise RuntimeError("`rinjobs-dev provider-stub` has no --port option, which the bench passes")
    return True


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class ProviderStub:
    """Started for one measured run and stopped after it (its answers and counts start fresh)."""

    def __init__(self, rinjobs: Path, cwd: Path):
        self.port = free_port()
        self.process = subprocess.Popen(
            [dev_tool(rinjobs), "provider-stub", "--port", str(self.port)],
            cwd=cwd, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
        self._wait_until_listening()

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    def _wait_until_listening(self, seconds=20.0):
        deadline = time.monotonic() + seconds
        while time.monotonic() < deadline:
            if self.process.poll() is not None:
                raise RuntimeError(f"provider-stub exited {self.process.returncode}: {self.process.stderr.read()}")
            try:
                with socket.create_connection(("127.0.0.1", self.port), timeout=0.5):
                    return
            except OSError:
                time.sleep(0.1)
        self.stop()
        raise RuntimeError(f"provider-stub did not listen on port {self.port} within {seconds} s")

    def stop(self):
        if self.process.poll() is None:
            self.process.terminate()
            try:
                self.process.wait(timeout=10)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait()

    def __enter__(self):
        return self

    def __exit__(self, *_):
        self.stop()
