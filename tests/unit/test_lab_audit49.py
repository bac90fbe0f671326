"""Issue 21, audit49 (resources/tuning/driver_caps_audit49.md): the generator read as the outside
checker would, against the C shapes the kernel's source uses.

Row 1: a module's object list naming a Makefile variable (6.1 drivers/net/ethernet/freescale/
enetc/Makefile `fsl-enetc-y := enetc_pf.o $(common-objs)`, liquidio the same) lost the files it
names, enetc_ethtool.c among them: fsl_enetc and liquidio were generated with no ethtool_ops,
and the planner told the user "the fsl_enetc driver has no set_coalesce ... Operation not
supported".
Row 2: 6.12 moved those files into library modules (fsl-enetc-core, liquidio-core) whose
function binds the table (enetc_ethtool.c enetc_set_ethtool_ops, called by enetc_pf.c
enetc_pf_netdev_setup): the same false "no ops".
Row 3: supported_coalesce_params through a driver macro (hns3_ethtool.c HNS3_ETHTOOL_COALESCE,
lio_ethtool.c LIO_ETHTOOL_COALESCE) was read as no flag at all; and the planner took only
ETHTOOL_COALESCE_USE_ADAPTIVE_RX for adaptive RX, not ETHTOOL_COALESCE_USE_ADAPTIVE (both
directions, include/linux/ethtool.h).
Row 4: 6.1's net/mac80211/iface.c ieee80211_if_add gives IEEE80211_NUM_ACS TX queues only to a
driver without wake_tx_queue whose hw->queues is at least 4; the table said "multiqueue" for
every mac80211 driver (mt76x0u, rtw88, ath9k, ath10k, iwlwifi ... have wake_tx_queue;
zd1211rw sets hw->queues = 1), so XPS was planned on one queue (xps_cpus_store: ENOENT).
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

import pytest

from sbctune.inventory.model import Board, Inventory, Nic
from sbctune.lab.ethtool_table import single_queue
from sbctune.remote import batch
from sbctune.remote.batch import StepResult
from sbctune.resources import resource_root
from sbctune.tuning import catalog, driver_caps
from sbctune.tuning.kinds import PLANNERS, Context
from sbctune.tuning.model import PlannedTweak
from sbctune.tuning.probe import Facts, Read

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "scripts"))
import regen_driver_caps  # noqa: E402

TABLE = json.loads((resource_root() / "tuning" / "driver_caps.json").read_text(encoding="utf-8"))
# ethtool's ioctl print of `-c` (ethtool 4.19/5.4): the same lines whatever the driver
IOCTL_PRINT = ROOT / "tests/captures/ethtool_versions/stmmac_ioctl_show_coalesce_2021.txt"

_TABLE_C = """
static const struct ethtool_ops drv_ethtool_ops = {
\t.supported_coalesce_params = DRV_COALESCE,
\t.get_ringparam\t= drv_get_ringparam,
\t.get_coalesce\t= drv_get_coalesce,
\t.set_coalesce\t= drv_set_coalesce,
};

static void drv_get_ringparam(struct net_device *ndev, struct ethtool_ringparam *ring)
{
\tring->rx_max_pending = DRV_MAX_RXD;
}

static int drv_get_coalesce(struct net_device *ndev, struct ethtool_coalesce *c)
{
\treturn 0;
}

static int drv_set_coalesce(struct net_device *ndev, struct ethtool_coalesce *c)
{
\treturn 0;
}

void drv_set_ethtool_ops(struct net_device *ndev)
{
\tndev->ethtool_ops = &drv_ethtool_ops;
}
"""
_HEADER = """#define DRV_MAX_RXD 1024
#define DRV_COALESCE (ETHTOOL_COALESCE_USECS | \\
\t\t      ETHTOOL_COALESCE_MAX_FRAMES)
"""
_PROBE_C = """
static int drv_probe(struct pci_dev *pdev)
{
\tstruct net_device *ndev = alloc_etherdev_mq(sizeof(int), 8);
\tdrv_set_ethtool_ops(ndev);
\treturn 0;
}
"""


def _tree(tmp_path: Path, makefile: str) -> Path:
    folder = tmp_path / "drivers" / "net" / "ethernet" / "vendor"
    folder.mkdir(parents=True)
    (folder / "Makefile").write_text(makefile, encoding="utf-8")
    (folder / "drv_ethtool.c").write_text(_TABLE_C, encoding="utf-8")
    (folder / "drv_main.c").write_text(_PROBE_C, encoding="utf-8")
    (folder / "drv.h").write_text(_HEADER, encoding="utf-8")
    return tmp_path


def _read_as_the_kernel_builds_it(facts: dict[str, object] | None) -> None:
    assert facts is not None
    assert facts["has"] == {
        "rings": ["get_ringparam"],
        "coalesce": ["get_coalesce", "set_coalesce"],
        "pause": [],
        "eee": [],
        "channels": [],
        "rxfh": [],
    }
    # row 3: the flags through the driver's own macro
    assert facts["coalesce_params"] == ["ETHTOOL_COALESCE_MAX_FRAMES", "ETHTOOL_COALESCE_USECS"]
    rings = facts["ring_max"]
    assert isinstance(rings, dict) and rings["rx"]["max"] == 1024


def test_row1_a_makefile_variable_in_the_object_list_is_expanded(tmp_path: Path) -> None:
    """6.1's enetc Makefile: the ethtool file is built in through `$(common-objs)`."""
    tree = _tree(
        tmp_path,
        "common-objs := drv_ethtool.o\n"
        "obj-$(CONFIG_DRV) += drv.o\n"
        "drv-y := drv_main.o $(common-objs)\n",
    )
    facts = regen_driver_caps.driver_facts(tree, "drivers/net/ethernet/vendor/drv")
    _read_as_the_kernel_builds_it(facts)
    assert facts is not None
    assert "drivers/net/ethernet/vendor/drv_ethtool.c" in facts["sources"]


def test_row2_a_library_modules_bound_table_is_the_drivers(tmp_path: Path) -> None:
    """6.12's enetc Makefile: fsl-enetc-core holds the table and the function binding it."""
    tree = _tree(
        tmp_path,
        "obj-$(CONFIG_DRV_CORE) += drv-core.o\n"
        "drv-core-y := drv_ethtool.o\n"
        "obj-$(CONFIG_DRV) += drv.o\n"
        "drv-y := drv_main.o\n",
    )
    facts = regen_driver_caps.driver_facts(tree, "drivers/net/ethernet/vendor/drv")
    _read_as_the_kernel_builds_it(facts)
    assert facts is not None
    assert facts["ops_bound_in"] == {
        "drv_ethtool_ops": [
            {"file": "drivers/net/ethernet/vendor/drv_ethtool.c", "function": "drv_set_ethtool_ops"}
        ]
    }


@pytest.mark.parametrize("kernel", ["6.1.0-31-arm64", "6.12.38+deb13-arm64"])
@pytest.mark.parametrize("driver", ["fsl_enetc", "liquidio"])
def test_rows1_2_the_table_gives_enetc_and_liquidio_their_ops(driver: str, kernel: str) -> None:
    caps = driver_caps.caps(driver, kernel)
    assert caps is not None
    assert caps.has("set_coalesce") and caps.has("set_pauseparam") and caps.has("get_ringparam")
    assert "ETHTOOL_COALESCE_MAX_FRAMES" in caps.coalesce_params
    # fsl-enetc reads its rings but cannot set them (enetc_pf_ethtool_ops: no set_ringparam)
    assert caps.has("set_ringparam") is (driver == "liquidio")


def _step(key: str, stdout: str) -> StepResult:
    return StepResult(batch.Step(("true",), key), 0, stdout.encode(), b"")


def _coalescing(driver: str, kernel: str) -> PlannedTweak:
    """irq-coalescing planned for `driver`'s eth0 from ethtool's ioctl print of `-c`, the SSH
    session over wlan0."""
    found = Facts("eth0")
    found.steps["ethtool -c"] = _step("ethtool -c", IOCTL_PRINT.read_text(encoding="utf-8"))
    link = [{"ifname": "eth0", "flags": ["UP", "LOWER_UP"], "mtu": 1500}]
    found.steps["ip-link"] = _step("ip-link", json.dumps(link))
    found.steps["ssh-route"] = _step("ssh-route", json.dumps([{"dev": "wlan0"}]))
    tweak = catalog.tweak("irq-coalescing")
    nic = Nic("eth0", driver=driver)
    inventory = Inventory(board=Board(kernel=kernel), nics=[nic])
    return PLANNERS[tweak.kind](Context(tweak, found, inventory, nic, {}, {}, ("irq-coalescing",)))


@pytest.mark.parametrize("kernel", ["6.1.0-31-arm64", "6.12.38+deb13-arm64"])
def test_rows1_2_coalescing_on_enetc_is_not_called_unsupported(kernel: str) -> None:
    item = _coalescing("fsl_enetc", kernel)
    assert "has no set_coalesce" not in item.reason
    assert item.applicable, item.reason


@pytest.mark.parametrize("kernel", ["6.1.0-31-arm64", "6.12.38+deb13-arm64"])
def test_row3_hns3s_macro_flags_and_adaptive_rx(kernel: str) -> None:
    caps = driver_caps.caps("hns3", kernel)
    assert caps is not None
    assert {"ETHTOOL_COALESCE_USECS", "ETHTOOL_COALESCE_USE_ADAPTIVE"} <= caps.coalesce_params
    # the ioctl print shows "Adaptive RX: off" for every driver: hns3 has it, so it is planned
    item = _coalescing("hns3", kernel)
    assert item.applicable, item.reason
    assert ("eth0 -C adaptive-rx", "off", "on") in [
        (c.target, c.before, c.after) for c in item.changes
    ]


@pytest.mark.parametrize(
    ("driver", "why"),
    [
        ("mt76x0u", "wake_tx_queue"),
        ("rtw88_8822be", "wake_tx_queue"),
        ("ath9k", "wake_tx_queue"),
        ("zd1211rw", "hw->queues = 1"),
        ("at76c50x_usb", "ieee80211_alloc_hw_nm"),
    ],
)
def test_row4_mac80211_on_61_gives_these_drivers_one_transmit_queue(driver: str, why: str) -> None:
    entry = TABLE["drivers"][driver]["6.1"]["netdev"][0]
    assert entry["multiqueue"] is False and why in entry["txqs"]
    caps = driver_caps.caps(driver, "6.1.0-31-arm64")
    assert caps is not None and caps.single_tx_queue()
    assert single_queue(driver)  # the lab's xps_cpus: ENOENT, as the kernel's
    path = "/sys/class/net/wlan0/queues/tx-0/xps_cpus"
    found = Facts("wlan0")
    found.knobs = {"/sys/devices/system/cpu/online": Read(True, "0-3"), path: Read(True, "0")}
    nic = Nic("wlan0", driver=driver)
    tweak = catalog.tweak("xps")
    inventory = Inventory(board=Board(kernel="6.1.0-31-arm64"), nics=[nic])
    item = PLANNERS[tweak.kind](Context(tweak, found, inventory, nic, {}, {}, ("xps",)))
    assert not item.applicable
    assert "one transmit queue" in item.reason and why in item.reason, item.reason


@pytest.mark.parametrize("driver", ["rtl8xxxu", "ath9k_htc", "mt7601u", "rt2800usb"])
def test_row4_drivers_without_wake_tx_queue_keep_four_queues_on_61(driver: str) -> None:
    """rtl8xxxu, ath9k_htc, mt7601u set hw->queues = 4 and have no wake_tx_queue in 6.1;
    rt2x00 sets it from its ops (not read: the table does not claim one queue)."""
    assert TABLE["drivers"][driver]["6.1"]["netdev"][0]["multiqueue"] is True
    assert TABLE["drivers"][driver]["6.12"]["netdev"][0]["multiqueue"] is False


@pytest.mark.parametrize("series", ["6.1", "6.12"])
@pytest.mark.parametrize(
    ("driver", "function", "multiqueue"),
    [
        ("e100", "e100_probe", False),  # `if (!(netdev = alloc_etherdev(...)))`
        ("mwifiex_sdio", "mwifiex_add_virtual_intf", True),  # IEEE80211_NUM_ACS TX queues
        ("wilc1000_sdio", "wilc_netdev_ifc_init", False),
        ("libertas_sdio", "lbs_add_card", False),
        ("ath6kl_usb", "ath6kl_interface_add", False),
    ],
)
def test_rows5_6_the_net_device_allocation_is_read(
    driver: str, function: str, multiqueue: bool, series: str
) -> None:
    """Row 5: an allocation inside a condition was not read (the regex wanted `);` after it);
    row 6: a FullMAC bus module's netdev is allocated by its family's core."""
    allocs = TABLE["drivers"][driver][series]["netdev"]
    assert function in [a["function"] for a in allocs]
    assert any(a["multiqueue"] for a in allocs) is multiqueue
    caps = driver_caps.caps(driver, f"{series}.0-1-arm64")
    assert caps is not None and caps.single_tx_queue() is not multiqueue


@pytest.mark.parametrize("driver", ["tg3", "mlx5_core"])
def test_row5_a_name_in_a_comment_or_message_is_no_allocation(driver: str) -> None:
    """tg3.c's comment "via the alloc_etherdev() call" and mlx5's "alloc_etherdev_mqs() failed"
    were read as allocations with the text after them as arguments."""
    for facts in TABLE["drivers"][driver].values():
        assert all(a["args"].startswith("sizeof") for a in facts["netdev"]), facts["netdev"]


@pytest.mark.parametrize("kernel", ["6.1.0-31-arm64", "6.12.38+deb13-arm64"])
def test_row7_an_op_that_only_refuses_is_not_claimed(kernel: str) -> None:
    """igbvf_set_pauseparam (igbvf/ethtool.c) is `return -EOPNOTSUPP;` and nothing else: the
    kernel answers `ethtool -A` as for a table without the op."""
    caps = driver_caps.caps("igbvf", kernel)
    assert caps is not None
    assert caps.has("get_pauseparam") and not caps.has("set_pauseparam")
    assert not caps.has("set_link_ksettings")  # igbvf_set_link_ksettings: the same


@pytest.mark.parametrize("series", ["6.1", "6.12"])
def test_row8_a_tables_end_is_its_own_closing_line(series: str) -> None:
    """tehuti.c declares bdx_ethtool_ops inside bdx_set_ethtool_ops (indented `};`): read to
    the next column-0 `};`, the table took bdx_pci_driver's .name, .id_table, .probe and
    .remove."""
    ops = TABLE["drivers"]["tehuti"][series]["ops"]
    assert not {"name", "id_table", "probe", "remove"} & set(ops)
    assert ops["set_ringparam"] == "bdx_set_ringparam"  # the table's own fields still read


@pytest.mark.parametrize("kernel", ["6.1.0-31-arm64", "6.12.38+deb13-arm64"])
def test_row9_a_queue_count_set_by_chip_is_not_claimed(kernel: str) -> None:
    """atl1c_probe: `u32 queue_count = 1;`, 4 only for athr_mt, then alloc_etherdev_mq(...,
    queue_count): most atl1c chips get one TX queue, so "multi-queue" is not claimed (nor one
    queue: the planner reads the Pi's xps_cpus)."""
    caps = driver_caps.caps("atl1c", kernel)
    assert caps is not None
    assert caps.multiqueue is None and not caps.single_tx_queue()
    assert "queue_count starts at 1 in atl1c_probe" in caps.cite("netdev")
