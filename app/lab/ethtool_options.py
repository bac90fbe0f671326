"""Every other option ethtool 6.1 knows, answered per driver from the driver table (issue 21,
audit 7a row 9): ``-m``, ``-t``, ``--phy-statistics``, ``-e``, ``-r``, ``-p``, ``-w``,
``--show-fec``, ``--cable-test`` ... One table (resources/lab/ethtool/options.json) says which
ethtool_ops callbacks each option needs and the kernel function that refuses without them;
resources/tuning/driver_caps.json (generated from Debian's 6.1 and 6.12 source) says which the
driver has. Per interface the lab holds one answer per option:

- the driver lacks the op in every kernel series the lab's kernel may be (and no PHY or SFP
  cage can answer instead): ethtool 6.1's own refusal, from the real binary
  (resources/lab/ethtool/veth_unsupported_ops.txt);
- the driver has it, or its PHY / an SFP cage may answer, or the series disagree: a plain lab
  message that no real capture of the answer exists (a profile's capture wins over both).

The standalone script reads these answers (fake_ethtool_options); this module builds them.
"""

from __future__ import annotations

import json
from functools import cache
from typing import Any

from sbctune.lab.fake_ethtool_base import attr_offset
from sbctune.resources import resource_root
from sbctune.tuning import driver_caps


@cache
def options_table() -> dict[str, Any]:
    path = resource_root().joinpath("lab").joinpath("ethtool").joinpath("options.json")
    data: dict[str, Any] = json.loads(path.read_text(encoding="utf-8"))
    return data


def _has(needs: list[list[str]], ops: set[str] | frozenset[str]) -> bool:
    return any(all(op in ops for op in group) for group in needs)


def _verdict(
    spec: dict[str, Any], driver: str, all_ops: frozenset[str], any_ops: list[set[str]]
) -> str:
    """ "absent", or the lab message's kind: "driver", "kernel", "phy", "sfp"."""
    needs = spec.get("needs", [])
    if _has(needs, all_ops):
        return "driver"
    if any(_has(needs, ops) for ops in any_ops):
        return "kernel"  # one series (or the Raspberry Pi tree) has it, another not
    data = options_table()
    if spec.get("phy") and driver in data["phy_drivers"]:
        return "phy"
    if spec.get("sfp") and driver in data["sfp_drivers"]:
        return "sfp"
    return "absent"


def _render(
    spec: dict[str, Any], owner: dict[str, Any], driver: str, ifname: str, verdict: str
) -> dict[str, Any]:
    if verdict != "absent":
        return {"lab": options_table()["lab_messages"][verdict].format(driver=driver)}
    absent = spec["absent"]
    fill = {"{ifname}": ifname, "{offset}": str(attr_offset(ifname, 0))}
    out = {key: absent[key] for key in ("stdout", "stderr")}
    for key, text in out.items():
        for name, value in fill.items():
            text = text.replace(name, value)
        out[key] = text
    return {**out, "code": int(absent["code"]), "cite": owner.get("kernel", "")}


def options_state(driver: str, chip: str = "", kernel: str = "", ifname: str = "eth0"
                  ) -> dict[str, Any] | None:  # fmt: skip
    """The interface's answer to each option of the table (None: the driver table does not
    know the driver; the capture answers, as before)."""
    caps = driver_caps.caps(driver, kernel or None, chip) if driver else None
    by_series = driver_caps.table()["drivers"].get(driver) if driver else None
    if caps is None or not by_series:
        return None
    any_ops = [set(by_series[s]["ops"]) | set(caps.unsure) for s in caps.series]
    data = options_table()
    names: dict[str, str] = {}
    answers: dict[str, Any] = {}
    for spec in data["options"]:
        canonical = spec["names"][0]
        names.update(dict.fromkeys(spec["names"], canonical))
        entry: dict[str, Any] = {"admin": bool(spec.get("admin"))}
        if spec.get("lab"):
            entry["default"] = {"lab": data["lab_messages"][spec["lab"]].format(driver=driver)}
        elif "forms" in spec:
            entry["forms"] = {
                form: _render(sub, spec, driver, ifname, _verdict({**spec, **sub}, driver,
                                                                  caps.ops, any_ops))
                for form, sub in spec["forms"].items()
            }  # fmt: skip
            message = data["lab_messages"]["form"].format(driver=driver)
            entry["default"] = {"lab": message}
            entry["bare_modelled"] = bool(spec.get("modelled_alone"))  # -n IFACE: ethtool_misc
        else:
            entry["default"] = _render(
                spec, spec, driver, ifname, _verdict(spec, driver, caps.ops, any_ops)
            )
        answers[canonical] = entry
    return {
        "names": names,
        "answers": answers,
        "modelled": list(data["modelled"]),
        "flags": list(data["flags"]),
        "json_options": list(data["json_options"]),
        "json": data["lab_messages"]["json"].format(driver=driver),
        "bad": dict(data["bad_arguments"]),
    }
