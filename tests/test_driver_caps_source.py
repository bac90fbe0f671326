"""The driver capability table against the kernel source it cites: every function, ops table and
macro named in resources/tuning/driver_caps.json exists in the Debian source version the table was
generated from, and each hand-written fact's key text is in the cited function.

Fetches linux-source-6.1 and -6.12 once (apt-get download, ~300 MB, ~25 s) into
~/.cache/sbctune/kernel-src, and linux-source-5.10 (bullseye-security, 122 MB, ~15 s) because
hand facts cite it (audit 28), and linux-source-7.2 (trixie-backports, 165 MB, ~40 s) for the
same reason (audit 31); later runs read the cache (under a second).
"""

from __future__ import annotations

import json
import re
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "scripts"))

import kernel_source  # noqa: E402
import regen_driver_caps  # noqa: E402

TABLE: dict[str, Any] = json.loads(
    (ROOT / "resources/tuning/driver_caps.json").read_text(encoding="utf-8")
)


# the driver's own source, and the device trees a board's fact cites (stmmac on the RK3588,
# the JH7110 under riscv)
GLOBS = (
    *regen_driver_caps.GLOBS,
    "arch/arm64/boot/dts/*",
    "arch/riscv/boot/dts/*",
    "include/linux/interrupt.h",
    "net/ethtool/*",  # ethnl_set_eee (audit 19), ethnl_set_rings
    "drivers/pci/probe.c",  # the pci=pcie_bus_* policies (audit 23)
    "net/mac80211/iface.c",  # Wi-Fi TX queues by access category (audit 27)
    "drivers/base/cpu.c",  # the isolated and nohz_full CPU lists (audit 41)
    "kernel/sched/isolation.c",  # nohz_full= and the housekeeping masks (audit 41)
    "drivers/misc/*",  # mainline's RP1 (drivers/misc/rp1, 7.2): rp1_irq_chip (audit 46)
)


def dt_node_text(text: str, label: str) -> str | None:
    """The text of the device-tree node labelled `label` (`label: name {` ... its `};`)."""
    begin = re.search(rf"(?m)^\s*{re.escape(label)}:\s*[\w,@.-]+\s*\{{", text)
    if begin is None:
        return None
    depth, at = 0, begin.end() - 1
    for at in range(begin.end() - 1, len(text)):
        depth += {"{": 1, "}": -1}.get(text[at], 0)
        if depth == 0:
            break
    return text[begin.start() : at + 1]


def cited_series() -> set[str]:
    """The table's series, and the other trees ("cited_kernels": 5.10, audit 28; 7.2, audit 31)
    that a hand fact cites: a tree no fact cites is not fetched (CI downloads them only for
    their facts)."""
    cited = {s for facts in TABLE["hand"].values() for f in facts for s in f["kernels"]}
    return set(TABLE["kernels"]) | (cited & set(TABLE.get("cited_kernels", {})))


@pytest.fixture(scope="module")
def trees() -> dict[str, Path]:
    roots = {}
    known = {**TABLE.get("cited_kernels", {}), **TABLE["kernels"]}
    for series in sorted(cited_series()):
        info = known[series]
        source = kernel_source.obtain(series, GLOBS, version=info["version"])
        assert source.version == info["version"]
        roots[series] = source.root
    return roots


def test_a_fact_of_an_older_tree_is_dated_and_its_tree_is_fetchable() -> None:
    """A hand fact citing a tree the table is not generated from (5.10; 7.2, audit 31) holds
    only by its release range (driver_caps_build._carried): a fact of an older tree must say
    where it ends ("until"), one of a newer tree where it begins ("since"), each with the
    commit and its sources, and its tree must be one kernel_source can fetch."""
    cited = set(TABLE.get("cited_kernels", {}))
    assert cited <= set(kernel_source.CITED) and not cited & set(TABLE["kernels"])
    newest = max(_series_key(s) for s in TABLE["kernels"])
    dated = [(d, f) for d, facts in TABLE["hand"].items() for f in facts
             if set(f["kernels"]) & cited]  # fmt: skip
    assert dated, "audit 28: stmmac's EBUSY and lan78xx's EDOM frame cite 5.10"
    assert any(_series_key(s) > newest for _d, f in dated for s in f["kernels"]), "audit 31: 7.2"
    for driver, fact in dated:
        assert set(fact["kernels"]) <= cited, (driver, fact["fact"])  # never mixed with 6.1
        (series,) = fact["kernels"]
        end = "since" if _series_key(series) > newest else "until"
        if end == "since" and "since" not in fact:  # a stable fix: dated by its patch levels
            patch = fact["patch"]  # (r8169's RTL8168h EEE, 7.2.10: audit 34b row 9)
            assert patch["first"].get(series) and patch["sources"], (driver, fact["fact"])
            continue
        assert fact[end]["release"] and len(fact[end]["commit"]) >= 12, (driver, fact["fact"])
        assert fact[end]["sources"], (driver, fact["fact"])
        if end == "since":  # newer than the table: the change came after the newest series
            assert _series_key(fact["since"]["release"]) > newest, (driver, fact["fact"])


def _series_key(series: str) -> tuple[int, int]:
    major, minor = series.split(".")[:2]
    return int(major), int(minor)


def _generated_citations() -> Iterator[tuple[str, str, str, str]]:
    """(driver, series, file, symbol) for every generated fact that names a function."""
    for driver, by_series in TABLE["drivers"].items():
        for series, facts in by_series.items():
            for function, file in facts["defined_in"].items():
                yield driver, series, file, function
            for table, file in facts["ops_tables"].items():
                yield driver, series, file, table
                for bound in facts.get("ops_bound_in", {}).get(table, []):
                    yield driver, series, bound["file"], bound["function"]  # asix: ax88178_bind
            for ring in facts["ring_max"].values():
                yield driver, series, ring["file"], ring["function"]
            for alloc in facts["netdev"]:
                if alloc["function"]:
                    yield driver, series, alloc["file"], alloc["function"]
            yield from _mtu_citations(driver, series, facts.get("mtu") or {})


def _mtu_citations(
    driver: str, series: str, mtu: dict[str, Any]
) -> Iterator[tuple[str, str, str, str]]:
    """The MTU limits the generator read (scripts/regen_mtu.py, audit 29): each limit's
    function, the one that applies it (mac80211's ieee80211_if_add), every assignment read."""
    for limit in (mtu.get("max"), mtu.get("edom_frame_extra")):
        if limit:
            yield driver, series, limit["file"], limit["function"]
            if limit.get("via"):
                yield driver, series, limit["via"]["file"], limit["via"]["function"]
    for seen in mtu.get("seen", []):
        if seen["function"]:
            yield driver, series, seen["file"], seen["function"]


def test_every_generated_citation_exists_in_its_source(trees: dict[str, Path]) -> None:
    cited: dict[tuple[str, str], set[str]] = {}  # (series, file) -> symbols
    for _driver, series, file, symbol in _generated_citations():
        cited.setdefault((series, file), set()).add(symbol)
    missing = []
    for (series, file), symbols in cited.items():
        text = (trees[series] / file).read_text(errors="replace", encoding="utf-8")
        missing += [f"{series}: {s} not in {file}" for s in sorted(symbols)
                    if regen_driver_caps.symbol_text(text, s) is None]  # fmt: skip
    assert sum(len(s) for s in cited.values()) > 1000  # the table is not empty
    assert missing == []


def test_every_hand_fact_is_in_the_function_it_cites(trees: dict[str, Path]) -> None:
    wrong = []
    for driver, facts in TABLE["hand"].items():
        for fact in facts:
            if fact.get("tree", "debian") != "debian":
                continue  # another tree's source: test_facts_of_another_tree_say_where_they_are
            for series in fact["kernels"]:
                path = trees[series] / fact["file"]
                text = path.read_text(errors="replace", encoding="utf-8") if path.is_file() else ""
                if fact["file"].endswith((".dts", ".dtsi")):
                    body = dt_node_text(text, fact["symbol"])
                else:
                    body = regen_driver_caps.symbol_text(text, fact["symbol"])
                token = fact["contains"]
                if body is None:
                    wrong.append(f"{driver} {series}: no {fact['symbol']} in {fact['file']}")
                elif token.startswith("!") and token[1:] in body:
                    wrong.append(f"{driver} {series}: {fact['symbol']} has {token[1:]}")
                elif not token.startswith("!") and token not in body:
                    wrong.append(f"{driver} {series}: {fact['symbol']} lacks {token!r}")
    assert wrong == []


def test_the_pasted_drivers_are_all_in_the_table() -> None:
    for driver in TABLE["pasted"]:
        assert set(TABLE["drivers"][driver]) == set(TABLE["kernels"]), driver


def test_a_hand_fact_that_the_source_does_not_hold_is_caught(trees: dict[str, Path]) -> None:
    text = (trees["6.1"] / "drivers/net/ethernet/realtek/r8169_main.c").read_text(encoding="utf-8")
    body = regen_driver_caps.symbol_text(text, "rtl_get_coalesce")
    assert body is not None and "rtl_is_8125" in body
    assert regen_driver_caps.symbol_text(text, "rtl_no_such_function") is None


def test_a_string_table_is_read_to_its_end_only(trees: dict[str, Path]) -> None:
    """A hand fact may cite a file-scope string table (audit 9b: atlantic's private flags):
    its body is the initialiser, not the rest of the file."""
    path = "drivers/net/ethernet/aquantia/atlantic/aq_ethtool.c"
    for series in ("6.1", "6.12"):
        text = (trees[series] / path).read_text(encoding="utf-8")
        body = regen_driver_caps.symbol_text(text, "aq_ethtool_priv_flag_names")
        assert body is not None and '"DMASystemLoopback",' in body, series
        assert '"PHYExternalLoopback",' in body and "aq_ethtool_n_stats" not in body, series


def test_facts_of_another_tree_say_where_they_are() -> None:
    """Facts read in the Raspberry Pi tree (not in Debian's source, so not checked above) name
    the repository, the commit read, the kernels that carry them, and Debian's source lacks
    them (else they would be upstream facts)."""
    other = [(d, f) for d, facts in TABLE["hand"].items() for f in facts if f.get("tree")]
    assert other, "the RP1 macb facts are in the table"
    for driver, fact in other:
        assert fact["tree"] == "raspberrypi/linux", driver
        assert len(fact["commit"]) == 40 and fact["carried_by"], driver
        assert fact["file"] and fact["symbol"] and fact["contains"], driver


def test_the_rpi_trees_macb_facts_are_not_in_debians_source(trees: dict[str, Path]) -> None:
    for series, root in trees.items():
        text = (root / "drivers/net/ethernet/cadence/macb_main.c").read_text(encoding="utf-8")
        assert regen_driver_caps.symbol_text(text, "gem_set_coalesce") is None, series
        body = regen_driver_caps.symbol_text(text, "gem_ethtool_ops")
        assert body is not None and "coalesce" not in body, series


def test_rpi_facts_say_which_branches_carry_them_and_how_that_is_known() -> None:
    """A Raspberry Pi tree fact read at one stored commit says which rpi-N.y branches carry it:
    a branch range ("from", "without") only with the public sources that show it (a merged
    pull request, a real paste with its kernel), else no range and "unknown" in its words."""
    ranged = [(d, f) for d, facts in TABLE["hand"].items() for f in facts
              if f.get("tree") and f.get("rpi_series")]  # fmt: skip
    assert any(f["rpi_series"].get("from") for _d, f in ranged), "macb EEE: rpi-6.18.y on"
    for driver, fact in ranged:
        span = fact["rpi_series"]
        assert span["seen_at"] == fact["commit"], driver
        if span.get("from") or span.get("without"):
            assert all(s.startswith(("https://", "upstream: ")) for s in span["sources"]), driver
            assert f"rpi-{span['from']}.y" in fact["carried_by"], driver
        else:
            assert "unknown" in fact["carried_by"], driver


def test_a_device_tree_fact_is_read_in_its_own_node(trees: dict[str, Path]) -> None:
    """A board's fact (stmmac on the RK3588: two queues each way) is checked in the labelled
    node only, not anywhere in the file."""
    dtsi = trees["6.12"] / "arch/arm64/boot/dts/rockchip/rk3588-base.dtsi"
    node = dt_node_text(dtsi.read_text(encoding="utf-8"), "gmac1_mtl_rx_setup")
    assert node is not None and "snps,rx-queues-to-use = <2>;" in node
    assert "tx-queues-to-use" not in node and node.rstrip().endswith("}")
    assert dt_node_text(dtsi.read_text(encoding="utf-8"), "no_such_label") is None


def test_the_rpi_trees_lan78xx_tso_rule_is_not_in_debians_source(trees: dict[str, Path]) -> None:
    """Audit 7a row 6: the Raspberry Pi tree's enable_tso is its own; Debian's lan78xx_bind sets
    TSO and TSO6 whenever DEFAULT_TSO_CSUM_ENABLE (so the fact must stay a tree fact)."""
    for series, root in trees.items():
        text = (root / "drivers/net/usb/lan78xx.c").read_text(encoding="utf-8")
        body = regen_driver_caps.symbol_text(text, "lan78xx_bind")
        assert body is not None and "enable_tso" not in text, series
        assert "NETIF_F_TSO | NETIF_F_TSO6 | NETIF_F_SG" in body, series


def test_every_name_a_driver_is_seen_as_is_in_its_source(trees: dict[str, Path]) -> None:
    """`seen_as` (stmmac, audit 7b row 9): each name is a `.name = "..."` of a glue driver, or a
    #define'd string (stmmac_ethtool.c's "st_gmac", stmmac.h's "stmmaceth"), in the cited
    file's directory, in every series the fact names."""
    missing = []
    for driver, facts in TABLE["hand"].items():
        for fact in (f for f in facts if f["fact"] == "seen_as"):
            for series in fact["kernels"]:
                folder = (trees[series] / fact["file"]).parent
                text = "\n".join(p.read_text(errors="replace", encoding="utf-8")
                                 for p in sorted(folder.glob("*.[ch]")))  # fmt: skip
                for name in fact["value"]:
                    quoted = re.escape(f'"{name}"')
                    if not re.search(rf"(\.name\s*=\s*|#define\s+\w+\s+){quoted}", text):
                        missing.append(f"{driver} {series}: {name}")
    assert missing == []


def test_every_software_irq_coalescing_default_is_in_the_table(trees: dict[str, Path]) -> None:
    """Audit 34a row 3: a pasted driver whose source calls netdev_sw_irq_coalesce_default_on
    (gro_flush_timeout 20000, napi_defer_hard_irqs 1 from probe) has the hand fact
    `sw_irq_coalesce_default` from the first tree that calls it (r8169 and macb: 6.12;
    bcmgenet: 7.2, from 6.17), read in the files the table cites for the driver's ethtool_ops."""
    call = "netdev_sw_irq_coalesce_default_on("
    first: dict[str, str] = {}
    for driver in TABLE["pasted"]:
        files = {
            f for s in TABLE["kernels"] for f in TABLE["drivers"][driver][s]["ops_tables"].values()
        }
        for series in sorted(trees, key=_series_key):
            texts = [(trees[series] / f).read_text(errors="replace", encoding="utf-8")
                     for f in sorted(files) if (trees[series] / f).is_file()]  # fmt: skip
            if any(call in text for text in texts) and driver not in first:
                first[driver] = series
    held = {driver: min(f["kernels"], key=_series_key) for driver, facts in TABLE["hand"].items()
            for f in facts if f["fact"] == "sw_irq_coalesce_default"}  # fmt: skip
    assert first.get("bcmgenet") == "7.2" and first.get("macb") == "6.12"
    assert held == first
