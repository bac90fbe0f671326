"""Walk 27: the HTML report opened in an 800 px browser window was 868 px wide: the tuning
table's changes ("/sys/class/net/eth0/queues/rx-0/rps_cpus", "net.core.rps_sock_flow_entries")
are one word each to a browser, so the table could not be narrower than them and its last
column was cut at the window's edge. Long words now break at their separators; short words
never do (a browser told to break anywhere squeezed "Status" to "St/at/us")."""

from __future__ import annotations

import os
import shutil
import subprocess
from pathlib import Path

import pytest

from sbctune.export import export, gather
from sbctune.export.html_breaks import breakable
from tests.unit.export.seed_runs import seed_history

CHROMIUM = shutil.which("chromium") or ("/usr/bin/chromium" if os.name == "posix" else "")
# What the page measured, written into it by a script added to a copy of the report.
PROBE = (
    '<script>document.body.setAttribute("data-fit", '
    'document.documentElement.scrollWidth + "/" + document.documentElement.clientWidth)</script>'
)


def test_long_words_break_at_separators_and_short_words_stay_whole() -> None:
    path = "(/sys/class/net/eth0/queues/rx-0/rps_cpus): off → CPUs 0–3"
    out = breakable(path)
    assert out.replace("<wbr>", "") == path
    assert "/<wbr>sys/<wbr>class/<wbr>" in out and "off → CPUs 0–3" in out
    assert breakable("applied") == "applied" and breakable("a &amp; b") == "a &amp; b"
    long_entity = "net.core.rmem_max&amp;&#x27;net.core.wmem_max"
    assert breakable(long_entity).replace("<wbr>", "") == long_entity
    assert "&<wbr>" not in breakable(long_entity) and ";<wbr>" not in breakable(long_entity)


@pytest.mark.slow
@pytest.mark.skipif(not CHROMIUM or not Path(CHROMIUM).exists(), reason="chromium missing")
@pytest.mark.parametrize("width", [800, 1100])
def test_the_report_is_no_wider_than_a_small_window(tmp_path: Path, width: int) -> None:
    history, ids = seed_history(tmp_path / "history.sqlite3")
    with history:
        data = gather(history, ids)
    report = export("html", data, tmp_path / "report.html")
    html = report.read_text(encoding="utf-8")
    assert "rps_cpus" in html.replace("<wbr>", ""), "the tuning table holds a sysfs path"
    probe = tmp_path / "probe.html"
    probe.write_text(html.replace("</body>", PROBE + "</body>"), encoding="utf-8")
    profile = tmp_path / "chromium-profile"
    dom = subprocess.run(
        [CHROMIUM, "--headless", "--no-sandbox", "--disable-gpu", "--no-first-run",
         "--disable-background-networking", "--disable-component-update", "--disable-sync",
         f"--user-data-dir={profile}", f"--window-size={width},900", "--dump-dom",
         probe.as_uri()],
        capture_output=True, text=True, timeout=120,
    )  # fmt: skip
    assert dom.returncode == 0, dom.stderr[-2000:]
    _, found, rest = dom.stdout.partition('data-fit="')
    assert found, "the probe ran"
    page, window = (int(n) for n in rest.split('"', 1)[0].split("/"))
    assert page <= window, f"the page is {page} px wide in a {window} px window"
