"""What a running lab tells its callers: where to connect and how each NIC is wired."""

from __future__ import annotations

from dataclasses import asdict, dataclass, field
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from sbctune.lab.shared_reading import LimitReading


@dataclass(frozen=True)
class NicInfo:
    name: str
    """The interface name inside the lab (as the profile says: eth0, eth1 ...)."""
    pi_addr: str
    host_addr: str
    prefix: int
    host_veth: str
    """The host-side veth; run the PC side of a test on ``host_addr``."""
    test: bool = False
    """True for the NIC under test."""
    ifb: str = ""
    """The host-side IFB device that shapes the Pi->PC direction (unless a shared limit's
    IFB does: ``pi_to_pc_shaper``)."""
    pi_to_pc_shaper: str = ""
    """``"DEV CLASSID"`` of the HTB class that holds this NIC's Pi->PC rate when it is not
    the NIC's own (``ifb`` 1:10): a member's leaf in a shared limit's IFB."""
    pc_to_pi_shaper: str = ""
    """The same for PC->Pi (default: ``host_veth`` 1:10)."""

    def shaper(self, direction: str) -> tuple[str, str]:
        """(device, HTB class) that holds this NIC's rate in ``direction`` (pi_to_pc|pc_to_pi)."""
        given = self.pi_to_pc_shaper if direction == "pi_to_pc" else self.pc_to_pi_shaper
        if given:
            dev, _, classid = given.partition(" ")
            return dev, classid
        return (self.ifb if direction == "pi_to_pc" else self.host_veth), "1:10"


@dataclass(frozen=True)
class LabInfo:
    name: str
    host: str
    """The Pi address to SSH to (the NIC under test)."""
    port: int
    user: str
    password: str
    nics: tuple[NicInfo, ...]
    profile: str
    """The profile folder the lab was built from."""
    netns: str
    state_dir: str
    index: int = 0
    pids: dict[str, int] = field(default_factory=dict)
    board: str = ""
    """What `inspect` of the lab shows of the board and from which capture, or why it is
    unknown (sbctune.lab.board)."""
    interrupts: str = ""
    """Where the lab's /proc/interrupts comes from, or that it has none (sbctune.lab.board)."""

    @property
    def test_nic(self) -> NicInfo:
        return next((n for n in self.nics if n.test), self.nics[0])

    def nic(self, name: str) -> NicInfo:
        for nic in self.nics:
            if nic.name == name:
                return nic
        raise KeyError(name)

    def to_json(self) -> dict[str, Any]:
        data = asdict(self)
        data["nics"] = [asdict(n) for n in self.nics]
        return data

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> LabInfo:
        # A NIC's keys are filtered as the lab's are: another checkout's running lab may write
        # fields this one does not know (and `lab list` reads every lab on the machine).
        known = NicInfo.__dataclass_fields__
        nics = tuple(
            NicInfo(**{k: v for k, v in n.items() if k in known}) for n in data.get("nics", [])
        )
        fields = {k: v for k, v in data.items() if k in cls.__dataclass_fields__ and k != "nics"}
        return cls(nics=nics, **fields)


@dataclass(frozen=True)
class LabStatus:
    name: str
    state: str
    """``running``, ``broken`` (some part died; `down` cleans it) or ``leftover`` (no state)."""
    info: LabInfo | None
    problems: tuple[str, ...] = ()
    limits: tuple[LimitReading, ...] = ()
    """Its shared limits as the kernel holds them now (``status``, not ``list``)."""

    def to_json(self, *, with_password: bool = True) -> dict[str, Any]:
        info = self.info.to_json() if self.info else None
        if info is not None and not with_password:
            info.pop("password", None)
        return {
            "name": self.name,
            "state": self.state,
            "problems": list(self.problems),
            "lab": info,
            "shared_limits": [r.to_json() for r in self.limits],
        }
