"""Runs as root inside the lab's network namespace and a fresh private mount namespace.

Started by ``manager`` as ``ip netns exec NS unshare --mount --propagation private --
python -m sbctune.lab.nsinit LAB_DIR``. It starts the knobs FUSE process, mounts the lab's
view of the hardware (knob trees, fake commands, captured files, the lab's shadow file) and
then exec's sshd, so every SSH session and everything it starts sees that view.
"""

from __future__ import annotations

import json
import os
import socket
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

NSINIT_CONFIG = "nsinit.json"


def _mount(*args: str) -> None:
    subprocess.run(["mount", *args], check=True, capture_output=True, text=True)


def _bind(source: str, target: str) -> None:
    _mount("--bind", source, target)


def _log(message: str) -> None:
    print(f"nsinit: {message}", file=sys.stderr, flush=True)


def _host_cpus() -> int:
    """CPUs this host has (read before the lab's own cpu tree covers /sys/devices/system/cpu)."""
    text = Path("/sys/devices/system/cpu/possible").read_text(encoding="utf-8").strip()
    last = text.replace(",", "-").split("-")[-1]
    return int(last) + 1 if (last.isascii() and last.isdigit()) else os.cpu_count() or 1


def queue_knobs(config: dict[str, Any]) -> list[dict[str, Any]]:
    """rps_cpus/xps_cpus of every queue of the lab's veths, to model over the real files."""
    queues = []
    for iface in config.get("interfaces", []):
        base = Path("/sys/class/net") / iface["name"] / "queues"
        if not base.is_dir():
            continue
        for queue in sorted(base.iterdir()):
            knob = "rps_cpus" if queue.name.startswith("rx-") else "xps_cpus"
            real = queue / knob
            if not real.exists():
                continue
            queues.append(
                {
                    "path": f"net/{iface['name']}/{queue.name}/{knob}",
                    "real": str(real),
                    "enoent": knob == "xps_cpus" and bool(iface.get("xps_enoent")),
                }
            )
    return queues


def threaded_knobs(config: dict[str, Any]) -> list[dict[str, Any]]:
    """/sys/class/net/IFACE/threaded of the NICs whose driver the table knows (knobs_napi)."""
    from sbctune.lab import knobs_napi

    wanted = knobs_napi.knobs(config.get("interfaces", []))
    return [k for k in wanted if Path(k["real"]).exists()]


def private_sysctls(lab_dir: Path, config: dict[str, Any]) -> dict[str, Any]:
    """Models of the sysctls this namespace does not make private; recorded in the state dir."""
    from sbctune.lab import sysctls

    candidates: dict[str, Any] = config.get("sysctls", {})
    private = sysctls.probe(sorted(candidates))
    namespaced = [n for n in candidates if n not in private]
    # the namespace's own copies start from the host's values: set the Pi kernel's
    sysctls.start_namespaced({n: candidates[n] for n in namespaced})
    sysctls.write_marker(lab_dir, private, namespaced)
    return {name: candidates[name] for name in private}


def start_knobs(lab_dir: Path, config: dict[str, Any]) -> None:
    knobs_config = json.loads((lab_dir / "knobs.json").read_text(encoding="utf-8"))
    knobs_config["host_cpus"] = _host_cpus()
    knobs_config["queues"] = config["queues"] = queue_knobs(config)
    knobs_config["threaded"] = config["threaded"] = threaded_knobs(config)
    knobs_config["sysctls"] = config["private_sysctls"] = private_sysctls(lab_dir, config)
    knobs_config["knob_state"] = str(lab_dir / "knobs_state.json")
    config["links"] = [f for link in knobs_config.get("links", []) for f in link["files"]]
    knobs_config["power_state"] = str(init_power(lab_dir, knobs_config.get("power")))
    (lab_dir / "knobs.json").write_text(json.dumps(knobs_config, indent=2), encoding="utf-8")
    mountpoint = lab_dir / "knobs"
    mountpoint.mkdir(mode=0o755, exist_ok=True)
    log = open(lab_dir / "knobs.log", "ab")  # noqa: SIM115 - handed to the child
    proc = subprocess.Popen(
        [
            sys.executable,
            "-m",
            "sbctune.lab.knobs_fs",
            str(lab_dir / "knobs.json"),
            str(mountpoint),
        ],
        stdin=subprocess.DEVNULL,
        stdout=log,
        stderr=log,
        start_new_session=True,
    )
    (lab_dir / "knobs.pid").write_text(f"{proc.pid}\n", encoding="utf-8")
    deadline = time.monotonic() + float(config.get("knobs_timeout", 15))
    while not (mountpoint / "irq").is_dir():
        if proc.poll() is not None:
            raise RuntimeError(f"the knobs file system exited with {proc.returncode}")
        if time.monotonic() > deadline:
            raise RuntimeError("the knobs file system did not come up")
        time.sleep(0.05)


def init_power(lab_dir: Path, initial: dict[str, Any] | None) -> Path:
    """The lab's power.json with the profile's [power] values (see sbctune.lab.power)."""
    from sbctune.lab.power import POWER_STATE, PowerState, write_state

    path = lab_dir / POWER_STATE
    write_state(path, PowerState.from_json(initial or {}))
    return path


def graft(lab_dir: Path, target: Path, name: str, source: Path | None) -> None:
    """Show `source` (a folder; None: an empty one) as `target/name` where sysfs makes no new
    entries: a tmpfs over `target` holding its real entries (bound back from a saved view,
    links re-made) plus `name`. An existing `name` (a real Pi's) is covered: the lab's wins."""
    saved = lab_dir / "sysfs-real" / str(target).strip("/").replace("/", ".")
    saved.mkdir(parents=True, exist_ok=True)
    _bind(str(target), str(saved))
    _mount("-t", "tmpfs", "-o", "mode=0755,size=64k", "sbctune-lab-sysfs", str(target))
    for entry in sorted(os.listdir(saved)):
        if entry == name:
            continue
        real, there = saved / entry, target / entry
        if real.is_symlink():
            there.symlink_to(os.readlink(real))
            continue
        if real.is_dir():
            there.mkdir()
        else:
            there.touch()
        _bind(str(real), str(there))
    (target / name).mkdir()
    if source is not None:
        _bind(str(source), str(target / name))


def mount_power(lab_dir: Path) -> None:
    """get_throttled and thermal_zone0 where a Raspberry Pi OS kernel has them."""
    power = lab_dir / "knobs" / "power"
    soc = Path("/sys/devices/platform/soc")
    if soc.is_dir():
        graft(lab_dir, soc, "soc:firmware", power / "firmware")
    else:  # not a Pi (the usual host): the new soc folder is ours already
        graft(lab_dir, soc.parent, soc.name, None)
        (soc / "soc:firmware").mkdir()
        _bind(str(power / "firmware"), str(soc / "soc:firmware"))
    graft(lab_dir, Path("/sys/class/thermal"), "thermal_zone0", power / "thermal_zone0")


def mount_sysctls(lab_dir: Path, private: dict[str, Any]) -> None:
    """Private sysctl files over /proc/sys in this mount namespace.

    A sysctl that is read-only here can take a bind mount directly; one that is missing cannot
    (procfs makes no new files), so its directory becomes a tmpfs holding the namespace's real
    entries (bind-mounted back from a saved view of the directory) plus the private ones.
    """
    knobs = lab_dir / "knobs" / "sysctl"
    folders: dict[str, list[str]] = {}
    for name in private:
        *parts, leaf = name.split(".")
        folders.setdefault("/".join(parts), []).append(leaf)
    for folder, leaves in sorted(folders.items()):
        target = Path("/proc/sys") / folder
        saved = lab_dir / "sysctl-real" / folder.replace("/", ".")
        saved.mkdir(parents=True, exist_ok=True)
        _bind(str(target), str(saved))
        _mount("-t", "tmpfs", "-o", "mode=0555,size=64k", "sbctune-lab-sysctl", str(target))
        for entry in sorted(os.listdir(saved)):
            if entry in leaves:
                continue
            real = saved / entry
            if real.is_dir():
                (target / entry).mkdir()
            else:
                (target / entry).touch()
            _bind(str(real), str(target / entry))
        for leaf in leaves:
            (target / leaf).touch()
            _bind(str(knobs / folder / leaf), str(target / leaf))


def mount_overlays(config: dict[str, Any]) -> None:
    """Lab-private /etc, /boot and /var/lib: writes go to the lab's upper dirs, not the host."""
    for overlay in config.get("overlays", []):
        target = overlay["target"]
        if not os.path.isdir(target):
            _log(f"not private: {target} (no such folder here to lay an overlay on)")
            continue
        options = f"lowerdir={target},upperdir={overlay['upper']},workdir={overlay['work']}"
        _mount("-t", "overlay", "sbctune-lab-" + target.strip("/"), "-o", options, target)
    # A fresh Pi has no sbctune state: hide what the host (or another lab's run) left there.
    sbctune_state = Path("/var/lib/sbctune")
    sbctune_state.mkdir(mode=0o755, exist_ok=True)  # in the overlay's upper dir, not the host's
    _mount("-t", "tmpfs", "-o", "mode=0755,size=16m", "sbctune-lab-state", str(sbctune_state))


def mount_view(lab_dir: Path, config: dict[str, Any]) -> None:
    knobs = lab_dir / "knobs"
    _bind(str(knobs / "cpu"), "/sys/devices/system/cpu")
    _bind(str(knobs / "irq"), "/proc/irq")
    for queue in [*config.get("queues", []), *config.get("threaded", [])]:
        _bind(str(knobs / queue["path"]), queue["real"])
    for link in config.get("links", []):  # speed, duplex as net-sysfs.c answers (sysfs_link)
        if os.path.isfile(link["real"]):
            _bind(str(knobs / link["path"]), link["real"])
    mount_sysctls(lab_dir, config.get("private_sysctls", {}))
    mount_power(lab_dir)
    mount_overlays(config)

    bin_dir = config["bin_dir"]
    for target in ("/usr/local/bin", "/usr/local/sbin"):
        if os.path.isdir(target):
            _mount("-t", "overlay", "sbctune-lab", "-o", f"lowerdir={bin_dir}:{target}", target)

    for source, target in config.get("file_binds", []):
        if os.path.isfile(target):
            _bind(source, target)
        else:
            _log(f"not shown: {target} (no such file here to mount over)")

    _mount("-t", "tmpfs", "-o", "mode=0755,size=1m", "sbctune-lab-firmware", "/sys/firmware")
    model = config.get("model")
    if model is not None:
        base = Path("/sys/firmware/devicetree/base")
        base.mkdir(parents=True)
        with open(base / "model", "w", encoding="utf-8", newline="") as fh:
            fh.write(model)

    _bind(config["shadow"], "/etc/shadow")
    hide_host_services()
    hide_host_buses()
    for address in config.get("pci_unbound", []):  # the Pi's own, with no driver bound
        os.mkdir(os.path.join("/sys/bus/pci/devices", address), 0o755)


def hide_host_buses() -> None:
    """This machine's PCI and USB devices are not the Pi's: empty folders over their sysfs
    lists, so nothing reading them in the lab (`lsusb`, a sysfs glob) finds the host's."""
    for folder in ("/sys/bus/pci/devices", "/sys/bus/usb/devices"):
        if os.path.isdir(folder):
            _mount("-t", "tmpfs", "-o", "mode=0755,size=64k", "sbctune-lab-bus", folder)


def hide_host_services() -> None:
    """The lab is a Pi without systemd: systemctl and systemd-run in it must not reach the
    host's systemd (through its private socket or D-Bus), or a tuning guard armed "on the Pi"
    would run on the host. Empty directories over their sockets make both report that the
    system was not booted with systemd, as on a Pi without it."""
    for folder in ("/run/systemd", "/run/dbus"):
        if os.path.isdir(folder):
            _mount("-t", "tmpfs", "-o", "mode=0755,size=64k", "sbctune-lab-hidden", folder)


def first_answers(bin_dir: str) -> str | None:
    """The lab's ethtool answers before any set, written by the installed model here, in the
    lab's namespaces with its view mounted: the one state file read by the one path every set
    takes (fake_ethtool.REFRESH), so a set and its revert read back what was there before.
    None when done (or the profile models no ethtool), else what went wrong: the front then
    runs the model for every read, which answers the same, only slower."""
    from sbctune.lab.fake_ethtool import MODEL_FILE, REFRESH

    model = Path(bin_dir) / MODEL_FILE
    if not model.is_file():
        return None
    try:
        done = subprocess.run([str(model), REFRESH], capture_output=True, text=True,
                              timeout=60, check=False)  # fmt: skip
    except (OSError, subprocess.TimeoutExpired) as exc:
        return str(exc)
    if done.returncode == 0:
        return None
    return f"code {done.returncode}: {done.stderr.strip()[-400:]}"


def set_hostname(name: str, host_uts: str) -> None:
    """The Pi's host name in the lab's own UTS namespace (manager's ``unshare --uts``); never
    in this machine's (`host_uts`, as the manager saw it): started in that one, the name is
    left alone and the log says so."""
    if not name:
        return
    if os.readlink("/proc/self/ns/uts") == host_uts:  # posix-only: the lab is Linux
        _log(f"not named {name}: no UTS namespace of the lab's own (this machine's name kept)")
        return
    socket.sethostname(name)  # posix-only: the lab is Linux


def main(argv: list[str] | None = None) -> int:
    args = sys.argv[1:] if argv is None else argv
    if len(args) != 1:
        print("usage: python -m sbctune.lab.nsinit LAB_DIR", file=sys.stderr)
        return 2
    lab_dir = Path(args[0])
    config = json.loads((lab_dir / NSINIT_CONFIG).read_text(encoding="utf-8"))
    try:
        set_hostname(str(config.get("hostname") or ""), str(config.get("host_uts") or ""))
        start_knobs(lab_dir, config)
        mount_view(lab_dir, config)
        failed = first_answers(config["bin_dir"])
        if failed:
            _log(f"ethtool's first answers not written ({failed}): the model answers each read")
    except (OSError, RuntimeError, subprocess.CalledProcessError) as exc:
        detail = getattr(exc, "stderr", "") or ""
        _log(f"setup failed: {exc} {detail}".strip())
        return 1
    sshd = config["sshd"]
    _log("view mounted; starting sshd")
    argv = [sshd, "-D", "-f", config["sshd_config"], "-E", str(lab_dir / "sshd.log")]
    os.execv(sshd, argv)  # noqa: S606 - sshd replaces this setup process


if __name__ == "__main__":
    sys.exit(main())
