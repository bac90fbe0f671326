"""Many reads in ONE SSH round trip, with outputs split reliably.

The remote shell runs each step with its stdout and stderr captured to temporary files, then
prints a header line (`<nonce> <index> <exit code> <stdout bytes> <stderr bytes>`) followed by
exactly that many bytes of each. Framing by length means any output, including binary data or
text that looks like a header, arrives intact. The script goes to `sh -s` on stdin, so nothing
of it appears in the remote process list.
"""

from __future__ import annotations

import secrets
from collections.abc import Sequence
from dataclasses import dataclass

from sbctune.limits import MAX_OUTPUT_BYTES, keeps_tail
from sbctune.remote.quoting import join

EXIT_MISSING = 127  # POSIX shells: command not found
EXIT_TIMEOUT = 124  # coreutils/busybox `timeout`


@dataclass(frozen=True)
class Step:
    """One command of a batch. `key` names its result (defaults to the command line)."""

    argv: tuple[str, ...]
    key: str = ""
    timeout: float | None = None
    max_bytes: int = MAX_OUTPUT_BYTES
    """The Pi sends at most this much of the output (a log: its end; else its start)."""

    @property
    def keeps_tail(self) -> bool:
        return keeps_tail(self.name)

    @property
    def name(self) -> str:
        return self.key or " ".join(self.argv)


def command(*argv: str, key: str = "", timeout: float | None = None) -> Step:
    return Step(tuple(argv), key, timeout)


def read_file(path: str, key: str = "") -> Step:
    return Step(("cat", "--", path), key or path)


@dataclass(frozen=True)
class StepResult:
    step: Step
    exit_code: int
    stdout: bytes
    stderr: bytes
    truncated: bool = False
    """The output was longer than ``step.max_bytes``: only its start (a log: its end) is here."""

    @property
    def ok(self) -> bool:
        return self.exit_code == 0

    @property
    def missing(self) -> bool:
        """The tool does not exist on the Pi (e.g. no `lsusb` on Alpine)."""
        return self.exit_code == EXIT_MISSING

    @property
    def timed_out(self) -> bool:
        return self.exit_code == EXIT_TIMEOUT

    @property
    def text(self) -> str:
        return self.stdout.decode("utf-8", errors="replace")

    @property
    def error_text(self) -> str:
        return self.stderr.decode("utf-8", errors="replace")


class BatchFramingError(Exception):
    """The batch output could not be split (the remote shell died mid-way, or not POSIX)."""


def build_script(steps: Sequence[Step], nonce: str, *, parallel: bool = False) -> str:
    """The shell script of a batch. `parallel` runs every step at once (read-only batches:
    the inventory's commands do not depend on one another) and prints their outputs in order
    once all are done; otherwise each step runs and prints before the next starts."""
    lines = [
        # Files a step writes on the Pi (session files, /etc/sysctl.d, boot files) get 0644
        # and folders 0755 whatever the login's umask is: never writable by other users.
        "umask 022",
        "t=$(mktemp -d 2>/dev/null || mktemp -d -t sbctune.XXXXXX) || exit 97",
        "trap 'rm -rf \"$t\"' EXIT",
        "if command -v timeout >/dev/null 2>&1; then has_timeout=1; else has_timeout=0; fi",
        "own=0",
        # Each output passes through head -c / tail -c on the Pi: one byte over the limit tells
        # the PC it was cut, and a 1 GiB dmesg never crosses the link (README: Limits).
        # Few processes per step (one wc for both sizes, `read` for the exit code): on a slow
        # Pi or an emulated one each process costs tens of milliseconds. Each step has its own
        # files ($t/o3, $t/e3 ...), so steps may run side by side.
        "sbctune_run() {",
        "  i=$1; limit=$2; cap=$3; cut=head; shift 3",
        '  [ "$1" = tail ] && cut=tail; shift',
        '  : >"$t/rc$i"',
        # A step of a parallel batch runs in a subshell of its own: there the kernel caps its
        # output files (ulimit -f, 512- or 1024-byte blocks: at least `cap` bytes) instead
        # of a `head` process per step, a third of a batch's CPU on the Pi. SIGXFSZ is
        # ignored (no core dump): a write past the cap fails and the command stops, as it
        # did on head's closed pipe. A log keeps its end (tail reads it all), as before.
        '  if [ "$own" = 1 ] && [ "$cut" = head ] && ulimit -f $((cap / 512 + 1)) 2>/dev/null',
        "  then",
        "    trap '' XFSZ",
        '    if [ "$limit" != 0 ] && [ "$has_timeout" = 1 ]; then',
        '      timeout -k 2 "$limit" "$@" >"$t/o$i" 2>"$t/e$i" </dev/null',
        "    else",
        '      "$@" >"$t/o$i" 2>"$t/e$i" </dev/null',
        "    fi",
        '    echo $? >"$t/rc$i"',
        "    return",
        "  fi",
        "  {",
        '    if [ "$limit" != 0 ] && [ "$has_timeout" = 1 ]; then',
        '      timeout -k 2 "$limit" "$@" 2>"$t/e$i" </dev/null',
        "    else",
        '      "$@" 2>"$t/e$i" </dev/null',
        "    fi",
        '    echo $? >"$t/rc$i"',
        '  } | "$cut" -c "$cap" >"$t/o$i"',
        "}",
        "sbctune_emit() {",
        "  i=$1; cap=$2",
        '  rc=; read -r rc 2>/dev/null <"$t/rc$i"; [ -n "$rc" ] || rc=141',
        '  no=; ne=; wc -c "$t/o$i" "$t/e$i" >"$t/n$i" 2>/dev/null',
        '  { read -r no _; read -r ne _; } <"$t/n$i"',
        '  ef="$t/e$i"',
        '  if [ "${ne:-0}" -gt "$cap" ]; then',
        '    head -c "$cap" "$t/e$i" >"$t/x$i"; ef="$t/x$i"; ne=$cap',
        "  fi",
        f'  printf \'%s %s %s %s %s\\n\' {nonce} "$i" "$rc" "${{no:-0}}" "${{ne:-0}}"',
        '  cat "$t/o$i" "$ef"',
        "}",
        # Parallel batches: one `wc` sizes every output and one `cat` sends them all, each
        # after its header (written by printf, a builtin, to $t/h3): two processes per batch,
        # not two per step, which is a third of a batch's processes on a slow Pi.
        "sbctune_head() {",
        "  i=$1; cap=$2",
        '  rc=; read -r rc 2>/dev/null <"$t/rc$i"; [ -n "$rc" ] || rc=141',
        "  no=; ne=; read -r no _ <&3; read -r ne _ <&3",
        '  ef="$t/e$i"',
        '  if [ "${ne:-0}" -gt "$cap" ]; then',
        '    head -c "$cap" "$t/e$i" >"$t/x$i"; ef="$t/x$i"; ne=$cap',
        "  fi",
        f'  printf \'%s %s %s %s %s\\n\' {nonce} "$i" "$rc" "${{no:-0}}" "${{ne:-0}}" >"$t/h$i"',
        "}",
    ]
    runs = []
    for index, step in enumerate(steps):
        limit = 0 if step.timeout is None else max(1, round(step.timeout))
        end = "tail" if step.keeps_tail else "head"
        cap = step.max_bytes + 1
        runs.append((f"sbctune_run {index} {limit} {cap} {end} {join(step.argv)}", index, cap))
    if parallel:
        lines.append("own=1")  # each step in a subshell of its own (sbctune_run)
        lines += [f"{run} &" for run, _i, _c in runs]
        lines.append("wait")
        # wc lists its files in order, one line each: every file must exist to keep them aligned.
        lines += [f': >>"$t/o{index}"; : >>"$t/e{index}"' for _run, index, _cap in runs]
        sized = " ".join(f'"$t/o{index}" "$t/e{index}"' for _run, index, _cap in runs)
        lines += [f'wc -c {sized} >"$t/n" 2>/dev/null', 'exec 3<"$t/n"', "set --"]
        for _run, index, cap in runs:
            lines += [f'sbctune_head {index} {cap}; set -- "$@" "$t/h{index}" "$t/o{index}" "$ef"']
        lines += ["exec 3<&-", 'cat "$@"']
    else:
        for run, index, cap in runs:
            lines += [run, f"sbctune_emit {index} {cap}"]
    return "\n".join(lines) + "\n"


def new_nonce() -> str:
    return "sbctune-" + secrets.token_hex(12)


def split_output(
    steps: Sequence[Step], nonce: str, data: bytes, *, parallel: bool = False
) -> list[StepResult]:
    """Cut the framed output back into one result per step (`parallel`: as `build_script`
    ran them)."""
    results: list[StepResult] = []
    pos = 0
    nonce_bytes = nonce.encode()
    for index, step in enumerate(steps):
        end = data.find(b"\n", pos)
        if end < 0:
            raise BatchFramingError(f"output ended before step {index} ({step.name})")
        fields = data[pos:end].split()
        if len(fields) != 5 or fields[0] != nonce_bytes or fields[1] != str(index).encode():
            raise BatchFramingError(f"unexpected header before step {index} ({step.name})")
        try:
            rc, out_len, err_len = (int(f) for f in fields[2:])
        except ValueError as exc:
            raise BatchFramingError(f"bad header for step {index}: {exc}") from None
        pos = end + 1
        stdout = data[pos : pos + out_len]
        stderr = data[pos + out_len : pos + out_len + err_len]
        if len(stdout) != out_len or len(stderr) != err_len:
            raise BatchFramingError(f"output of step {index} ({step.name}) is truncated")
        pos += out_len + err_len
        results.append(_capped(step, rc, stdout, stderr, parallel and not step.keeps_tail))
    return results


_SIGPIPE_EXIT = 141  # 128 + SIGPIPE: what a command cut off by `head -c` exits with


def _capped(step: Step, rc: int, stdout: bytes, stderr: bytes, sized: bool = False) -> StepResult:
    """A result with the limit's extra bytes removed and the cut noted. `sized`: the step's
    output file had the size limit (a parallel batch), where a command cut off exits as its
    failed write makes it (cat 1, yes 1 ...), not by SIGPIPE."""
    cut = len(stdout) > step.max_bytes
    if cut:
        stdout = stdout[-step.max_bytes :] if step.keeps_tail else stdout[: step.max_bytes]
        stopped = sized or rc == _SIGPIPE_EXIT
        rc = 0 if stopped else rc  # we stopped its output; the command did not fail
    return StepResult(step, rc, stdout, stderr[: step.max_bytes], cut)


# Small files by glob (sysfs values), in one step: "path NUL content NUL" for each match.
# Shell builtins only (no cat/tr per file): a Pi's sysfs has hundreds of these one-line
# files, and two processes for each (fork + exec) made this the slowest step of inspect.
# printf %s cannot print a NUL byte, which keeps the framing intact.
_GLOB_READER = (
    'for f in "$@"; do for g in $f; do [ -f "$g" ] && [ -r "$g" ] || continue; '
    "printf '%s\\0' \"$g\"; "
    '{ while IFS= read -r l || [ -n "$l" ]; do printf \'%s\\n\' "$l"; done; } <"$g" '
    "2>/dev/null; printf '\\0'; done; done"
)


def read_globs(patterns: Sequence[str], key: str) -> Step:
    """One step reading every regular file matching the shell globs (values without NULs)."""
    return Step(("sh", "-c", _GLOB_READER, "sh", *patterns), key)


def split_globs(data: bytes) -> dict[str, str]:
    """The output of a `read_globs` step as {path: content}."""
    parts = data.split(b"\0")
    files: dict[str, str] = {}
    for path, content in zip(parts[0::2], parts[1::2], strict=False):
        if path:
            files[path.decode("utf-8", errors="replace")] = content.decode(
                "utf-8", errors="replace"
            )
    return files
