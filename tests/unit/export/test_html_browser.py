"""The HTML report in a real browser (Debian's chromium, headless): it renders offline, the
key numbers are in the page, it prints to PDF, and it loads nothing from elsewhere."""

from __future__ import annotations

import os
import re
import shutil
import subprocess
from pathlib import Path

import pytest

from sbctune.export import export, gather
from tests.unit.export.seed_runs import seed_history

# On Windows only a Windows browser on PATH: Wine would also reach Linux's /usr/bin/chromium
# through drive Z:, which cannot open the report's file:///Z:/ address.
CHROMIUM = shutil.which("chromium") or ("/usr/bin/chromium" if os.name == "posix" else "")
pytestmark = [
    pytest.mark.slow,
    pytest.mark.skipif(
        not CHROMIUM or not Path(CHROMIUM).exists(), reason="chromium is not installed"
    ),
]


def _chromium(tmp_path: Path, *args: str) -> subprocess.CompletedProcess[str]:
    profile = tmp_path / "chromium-profile"
    profile.mkdir(exist_ok=True)
    return subprocess.run(
        [CHROMIUM, "--headless", "--no-sandbox", "--disable-gpu", "--disable-quic",
         "--no-first-run", "--disable-background-networking", "--disable-component-update",
         "--disable-sync", f"--user-data-dir={profile}", *args],
        capture_output=True, text=True, timeout=120,
    )  # fmt: skip


def test_report_renders_with_the_key_numbers(tmp_path: Path) -> None:
    history, ids = seed_history(tmp_path / "history.sqlite3")
    with history:
        data = gather(history, ids)
    report = export("html", data, tmp_path / "report.html")
    html = report.read_text(encoding="utf-8")
    # Self-contained: no scripts, nothing fetched from elsewhere.
    assert "<script" not in html
    assert not re.search(r"""(src|href)\s*=\s*["']?(https?:)?//""", html)
    assert not re.search(r"url\(\s*['\"]?(https?:)?//", html)

    dom = _chromium(tmp_path, "--dump-dom", report.as_uri())
    assert dom.returncode == 0, dom.stderr[-2000:]
    page = dom.stdout.replace("&nbsp;", " ").replace("\xa0", " ")  # a figure kept together
    for figure in ("736 Mbit/s", "949 Mbit/s", "163 Mbit/s", "538 Mbit/s", "+213 Mbit/s"):
        assert figure in page, figure
    assert "ASIX AX88179" in page and "Realtek RTL8153" in page
    assert "Receive packet steering" in page  # a kept tweak, by its title
    assert data.recommendations and data.recommendations[0].title in page
    assert page.count("<svg") == 3  # one chart per mode, inline

    shot = tmp_path / "report.png"
    result = _chromium(tmp_path, "--window-size=1100,3400", f"--screenshot={shot}", report.as_uri())
    assert result.returncode == 0 and shot.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    assert shot.stat().st_size > 100_000  # a page of tables and charts, not a blank one

    pdf = tmp_path / "report.pdf"
    result = _chromium(tmp_path, "--no-pdf-header-footer", f"--print-to-pdf={pdf}", report.as_uri())
    assert result.returncode == 0 and pdf.read_bytes()[:5] == b"%PDF-"
    pages = len(re.findall(rb"/Type\s*/Page[^s]", pdf.read_bytes()))
    assert 2 <= pages <= 8, pages
