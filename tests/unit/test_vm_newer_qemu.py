"""The VM lab's newer QEMU (Debian trixie's, run with its own loader) and its igb NIC."""

from __future__ import annotations

import subprocess
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from sbctune.lab.errors import LabError
from sbctune.lab.vm import newer_qemu, plan, qemu

# Stands in for trixie's dynamic loader: says what it was started as and with.
_FAKE_LOADER = """#!/bin/sh
echo "comm=$(cat /proc/$$/comm)"
echo "modules=$QEMU_MODULE_DIR"
for a in "$@"; do echo "arg=$a"; done
"""


@pytest.mark.posix_only("runs a shell script as the loader")
def test_wrapper_runs_trixies_qemu_through_its_loader(tmp_path: Path) -> None:
    folder = tmp_path / "qemu cache's"  # a space and a quote: the wrapper quotes every path
    (folder / "ld").mkdir(parents=True)
    loader = folder / "ld" / newer_qemu.WRAPPER
    loader.write_text(_FAKE_LOADER, encoding="utf-8")
    loader.chmod(0o755)
    wrapper = folder / newer_qemu.WRAPPER
    wrapper.write_text(newer_qemu.wrapper_text(folder), encoding="utf-8")
    wrapper.chmod(0o755)
    done = subprocess.run(
        [str(wrapper), "-name", "a b", "-device", "igb,netdev=n4"],
        capture_output=True, text=True, timeout=30, check=True,
    )  # fmt: skip
    lines = done.stdout.splitlines()
    root = folder / "root"
    # The process keeps QEMU's name, which lab.py checks before it kills a pid from a pidfile.
    assert lines[0] == "comm=qemu-system-x86"
    assert lines[1] == f"modules={root}/usr/lib/x86_64-linux-gnu/qemu"
    assert [x.removeprefix("arg=") for x in lines[2:]] == [
        "--library-path", f"{root}/usr/lib/x86_64-linux-gnu",
        f"{root}/usr/bin/qemu-system-x86_64",
        "-L", f"{root}/usr/share/qemu", "-L", f"{root}/usr/share/seabios",
        "-name", "a b", "-device", "igb,netdev=n4",
    ]  # fmt: skip


@pytest.mark.posix_only("runs a shell script as QEMU")
@pytest.mark.parametrize(
    ("says", "rc", "found"),
    [
        ("QEMU emulator version 10.0.13 (Debian 1:10.0.13+ds-0+deb13u1)", 0, (10, 0)),
        ("QEMU emulator version 7.2.22 (Debian 1:7.2+dfsg-7+deb12u18+b3)", 0, (7, 2)),
        ("QEMU emulator version 10.0.13", 1, None),
        ("error while loading shared libraries", 0, None),
        ("QEMU emulator version x.y", 0, None),
        ("version", 0, None),
    ],
)
def test_version_from_qemu_version(
    tmp_path: Path, says: str, rc: int, found: tuple[int, int] | None
) -> None:
    fake = tmp_path / "qemu"
    fake.write_text(f"#!/bin/sh\necho '{says}'\nexit {rc}\n", encoding="utf-8")
    fake.chmod(0o755)
    assert newer_qemu.version(str(fake)) == found


@given(st.text(max_size=300))
def test_version_words_garbage_gives_a_version_or_none(text: str) -> None:
    found = newer_qemu.parse_version(text)
    assert found is None or (0 <= found[0] < 1000 and 0 <= found[1] < 1000)
    assert newer_qemu.parse_version("QEMU emulator version 8.2.2\n" + text) == (8, 2)


def test_version_of_a_missing_qemu_is_none(tmp_path: Path) -> None:
    assert newer_qemu.version(str(tmp_path / "absent")) is None


def test_igb_only_from_qemu_8() -> None:
    assert not newer_qemu.has_igb((7, 2))
    assert not newer_qemu.has_igb(None)
    assert newer_qemu.has_igb((8, 0)) and newer_qemu.has_igb((10, 0))


def test_host_qemu_when_asked(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv(newer_qemu.CHOICE_ENV, "host")

    def no_build(**_: object) -> newer_qemu.NewerQemu:
        raise AssertionError("built trixie's QEMU although the host's was asked for")

    monkeypatch.setattr(newer_qemu, "build", no_build)
    assert newer_qemu.choose("/usr/bin/qemu-system-x86_64") == (
        "/usr/bin/qemu-system-x86_64", f"the host's QEMU ({newer_qemu.CHOICE_ENV}=host)"
    )  # fmt: skip
    with pytest.raises(LabError, match="qemu-system-x86_64 is missing"):
        newer_qemu.choose(None)


def test_falls_back_to_the_host_qemu_with_the_reason(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    monkeypatch.delenv(newer_qemu.CHOICE_ENV, raising=False)

    def fails(**_: object) -> newer_qemu.NewerQemu:
        raise LabError("mmdebstrap trixie (QEMU) failed", "E: no mirror")

    monkeypatch.setattr(newer_qemu, "build", fails)
    path, why = newer_qemu.choose("/usr/bin/qemu-system-x86_64")
    assert path == "/usr/bin/qemu-system-x86_64"
    assert why.startswith("the host's QEMU (trixie's is unavailable: mmdebstrap trixie")

    monkeypatch.setattr(newer_qemu, "build", lambda **_: newer_qemu.NewerQemu(tmp_path))
    assert newer_qemu.choose(None) == (str(tmp_path / "qemu-system-x86_64"), "Debian trixie's QEMU")


def test_cache_folder_is_keyed_by_the_build_inputs(monkeypatch: pytest.MonkeyPatch) -> None:
    key = newer_qemu.build_key()
    assert newer_qemu._folder().name == f"qemu-trixie-{key}"
    monkeypatch.setattr(newer_qemu, "PACKAGES", (*newer_qemu.PACKAGES, "qemu-utils"))
    assert newer_qemu.build_key() != key


def test_igb_nic_only_on_a_qemu_that_has_it() -> None:
    igb = plan.nic("igb")
    with_igb = qemu.nic_args(igb=True)
    assert f"igb,netdev=n4,mac={igb.mac},bus=rp3" in with_igb
    assert any(a.startswith("tap,") and f"ifname={igb.tap}" in a for a in with_igb)
    without = qemu.nic_args()
    assert not any("igb" in a or igb.tap in a for a in without)
    # The four other NICs are the same either way.
    assert with_igb[: len(without)] == without
    # Every NIC has its own tap in the lab's namespace (an unused one for igb on QEMU 7.2).
    assert [t for t, _ in qemu.tap_names()] == [n.tap for n in plan.NICS]
    assert len({n.mac for n in plan.NICS}) == len(plan.NICS)


def test_every_nic_has_its_own_subnet_in_198_18_0_0_15() -> None:
    import ipaddress

    lab_range = ipaddress.ip_network("198.18.0.0/15")
    nets = [ipaddress.ip_network(f"{n.host_addr}/{n.prefix}", strict=False) for n in plan.NICS]
    assert len(set(nets)) == len(nets)
    for n, net in zip(plan.NICS, nets, strict=True):
        assert net.subnet_of(lab_range)  # type: ignore[arg-type]
        assert ipaddress.ip_address(n.vm_addr) in net and n.vm_addr != n.host_addr
    assert plan.nic("mgmt").host_addr == "198.19.252.1"  # customize.sh's repository address
