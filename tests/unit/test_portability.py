"""The code a Windows or macOS user runs (the core and the GUI) uses no POSIX-only calls.

The packaged app is built and smoke-tested on Linux only, so this reads the source instead:
every use of a POSIX-only module, function, constant or keyword must sit behind a guard that
the Windows path skips: an ``if``/conditional expression testing the platform or
``hasattr``/``getattr``, a ``try`` catching ImportError/AttributeError/NotImplementedError, a
``with contextlib.suppress(...)`` of those, or a line marked ``# posix-only: <why>`` (for a
guard the check cannot see, e.g. an early return). The virtual Pi lab (app/lab/) is Linux
only by design and says so at run time (sbctune.lab.system.require_supported); it is skipped.
What cannot be checked statically is listed in README.md (the packaging section) as a manual
release check.
"""

from __future__ import annotations

import ast
from collections.abc import Iterator
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
CHECKED = [ROOT / "app", ROOT / "ui"]
LINUX_ONLY = [ROOT / "app" / "lab"]
MARKER = "# posix-only:"

POSIX_MODULES = {
    "fcntl", "termios", "tty", "pty", "pwd", "grp", "resource", "posix", "crypt", "syslog",
    "spwd", "nis", "readline",
}  # fmt: skip
POSIX_ATTRIBUTES = {
    "os": {
        "fork", "forkpty", "setsid", "getsid", "getuid", "geteuid", "getgid", "getegid",
        "setuid", "setgid", "seteuid", "setegid", "getgroups", "killpg", "getpgid", "setpgid",
        "setpgrp", "getpgrp", "chown", "lchown", "fchown", "mkfifo", "mknod", "getloadavg",
        "uname", "sysconf", "statvfs", "wait3", "wait4", "WNOHANG", "openpty", "pipe2",
        "sched_getaffinity", "sched_setaffinity", "nice", "chroot", "getpriority",
        "setpriority", "O_NONBLOCK", "O_NOFOLLOW", "posix_spawn",
    },
    "signal": {
        "SIGKILL", "SIGHUP", "SIGUSR1", "SIGUSR2", "SIGCHLD", "SIGALRM", "SIGQUIT", "SIGPIPE",
        "SIGSTOP", "SIGCONT", "SIGTSTP", "SIGWINCH", "alarm", "setitimer", "getitimer", "pause",
        "pthread_kill", "pthread_sigmask", "siginterrupt", "sigwait",
    },
    "socket": {
        "AF_UNIX", "SO_REUSEPORT", "TCP_INFO", "TCP_CONGESTION", "SO_BINDTODEVICE",
        "TCP_QUICKACK", "TCP_USER_TIMEOUT", "TCP_NOTSENT_LOWAT", "MSG_ZEROCOPY",
        "IP_MULTICAST_ALL",
    },
    "select": {"epoll", "poll", "kqueue"},
    "asyncio": {"get_child_watcher", "set_child_watcher", "start_unix_server",
                "open_unix_connection"},
}  # fmt: skip
# Event-loop methods the Windows (proactor / qasync) loop lacks, whatever the receiver.
POSIX_METHODS = {"add_signal_handler", "remove_signal_handler", "add_reader", "add_writer"}
POSIX_KEYWORDS = {"preexec_fn", "pass_fds"}
# Hand-made per-user folders: platformdirs (sbctune.paths) knows each OS's place.
HANDMADE_DIRS = ("XDG_", "APPDATA", "LOCALAPPDATA", ".config/", ".local/share",
                 "Library/Application Support")  # fmt: skip
GUARD_WORDS = ("platform", "os.name", "hasattr", "getattr", "frozen", "IS_WINDOWS", "POSIX")
GUARD_EXCEPTIONS = {"ImportError", "ModuleNotFoundError", "AttributeError", "NotImplementedError"}


def _sources() -> Iterator[Path]:
    for root in CHECKED:
        for path in sorted(root.rglob("*.py")):
            if any(path.is_relative_to(skip) for skip in LINUX_ONLY):
                continue
            yield path


def _names(node: ast.expr | None) -> set[str]:
    if node is None:
        return set()
    return {n.id if isinstance(n, ast.Name) else n.attr for n in ast.walk(node)
            if isinstance(n, ast.Name | ast.Attribute)}  # fmt: skip


def _guards(node: ast.AST, source: str) -> bool:
    if isinstance(node, ast.If | ast.IfExp | ast.While):
        test = ast.get_source_segment(source, node.test) or ""
        return any(word in test for word in GUARD_WORDS)
    if isinstance(node, ast.Try):
        return any(_names(h.type) & GUARD_EXCEPTIONS for h in node.handlers)
    if isinstance(node, ast.With | ast.AsyncWith):
        for item in node.items:
            call = item.context_expr
            if (
                isinstance(call, ast.Call)
                and "suppress" in _names(call.func)
                and set().union(*(_names(arg) for arg in call.args)) & GUARD_EXCEPTIONS
            ):
                return True
    return False


class _Finder(ast.NodeVisitor):
    def __init__(self, path: Path, source: str) -> None:
        self.path = path
        self.source = source
        self.lines = source.splitlines()
        self.stack: list[ast.AST] = []
        self.found: list[str] = []

    def visit(self, node: ast.AST) -> None:
        self.stack.append(node)
        super().visit(node)
        self.stack.pop()

    def _report(self, node: ast.AST, what: str) -> None:
        line = getattr(node, "lineno", 0)
        if MARKER in self.lines[line - 1]:
            return
        # A guard counts for what is inside its body, not for its own test expression.
        if any(_guards(parent, self.source) for parent in self.stack[:-1]):
            return
        self.found.append(f"{self.path.relative_to(ROOT)}:{line}: {what}")

    def visit_Import(self, node: ast.Import) -> None:
        for alias in node.names:
            if alias.name.split(".")[0] in POSIX_MODULES:
                self._report(node, f"import {alias.name}")
        self.generic_visit(node)

    def visit_ImportFrom(self, node: ast.ImportFrom) -> None:
        module = (node.module or "").split(".")[0]
        if node.level == 0 and module in POSIX_MODULES:
            self._report(node, f"from {node.module} import ...")
        for alias in node.names:
            if alias.name in POSIX_ATTRIBUTES.get(module, set()):
                self._report(node, f"from {module} import {alias.name}")
        self.generic_visit(node)

    def visit_Attribute(self, node: ast.Attribute) -> None:
        if isinstance(node.value, ast.Name) and node.attr in POSIX_ATTRIBUTES.get(
            node.value.id, set()
        ):
            self._report(node, f"{node.value.id}.{node.attr}")
        elif node.attr in POSIX_METHODS:
            self._report(node, f".{node.attr}()")
        self.generic_visit(node)

    def visit_Call(self, node: ast.Call) -> None:
        for keyword in node.keywords:
            if keyword.arg in POSIX_KEYWORDS:
                self._report(node, f"{keyword.arg}=")
        for arg in node.args:
            if isinstance(arg, ast.Constant) and arg.value == "fork":
                self._report(node, "the 'fork' start method")
        self.generic_visit(node)

    def visit_Constant(self, node: ast.Constant) -> None:
        if isinstance(node.value, str) and any(d in node.value for d in HANDMADE_DIRS):
            self._report(node, f"hand-made user folder {node.value!r} (use sbctune.paths)")


def _findings(path: Path) -> list[str]:
    source = path.read_text(encoding="utf-8")
    finder = _Finder(path, source)
    finder.visit(ast.parse(source, str(path)))
    return finder.found


def test_core_and_gui_use_no_unguarded_posix_only_calls() -> None:
    found = [line for path in _sources() for line in _findings(path)]
    assert not found, (
        "POSIX-only calls on a path the Windows/macOS app takes; guard them (platform "
        f"check, hasattr, try/except ImportError) or mark `{MARKER} why`:\n" + "\n".join(found)
    )


def test_paths_come_from_platformdirs() -> None:
    source = (ROOT / "app" / "paths.py").read_text(encoding="utf-8")
    assert "platformdirs.user_data_path" in source


@pytest.mark.parametrize(
    ("snippet", "flagged"),
    [
        ("import os\nos.setsid()\n", True),
        ("import fcntl\n", True),
        ("import signal\nsignal.SIGKILL\n", True),
        ("loop.add_signal_handler(2, f)\n", True),
        ("subprocess.Popen(['x'], preexec_fn=f)\n", True),
        ("p = '~/.config/sbctune'\n", True),
        ("import sys, os\nif sys.platform != 'win32':\n    os.setsid()\n", False),
        ("import os\nuid = os.getuid() if hasattr(os, 'getuid') else 0\n", False),
        ("try:\n    import fcntl\nexcept ImportError:\n    fcntl = None\n", False),
        ("import contextlib\nwith contextlib.suppress(NotImplementedError):\n"
         "    loop.add_signal_handler(2, f)\n", False),
        ("import os\nos.setsid()  # posix-only: the caller checked\n", False),
        ("import os\nif os.getuid() == 0:\n    pass\n", True),
    ],
)  # fmt: skip
def test_the_check_tells_guarded_from_unguarded(
    tmp_path: Path, snippet: str, flagged: bool
) -> None:
    path = ROOT / "app" / "_probe_portability.py"  # a path under ROOT, never written
    finder = _Finder(path, snippet)
    finder.visit(ast.parse(snippet))
    assert bool(finder.found) is flagged, finder.found
