"""catalog/wwan_ids.is_wwan_driver keeps each name's answer (issue 24, speed): a long log asks
it for every driver fact of every NIC (nic_log._wwan_registered: 3 831 calls for 140 names on
the 100 000-line bench log), each a driver look-up and a case-blind regex over the driver's
description. The kept answer is the one the plain function gives."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from sbctune.catalog import wwan_ids
from sbctune.catalog.kernel_drivers import load_kernel_drivers
from sbctune.catalog.wwan_ids import is_wwan_driver

_NAMES = sorted(load_kernel_drivers().names())


def _plain(name: object) -> bool:
    """is_wwan_driver as it was, every call from the tables."""
    if isinstance(name, str) and (name in wwan_ids._usbnet_wwan() or name in wwan_ids._rawip()):
        return True
    known = load_kernel_drivers().get(name) if isinstance(name, str) else None
    return known is not None and bool(
        wwan_ids._WWAN_DRIVER.search(known.about) or known.file.startswith("drivers/net/wwan/")
    )


def test_every_kernel_driver_answers_as_the_plain_function() -> None:
    for name in _NAMES:
        assert is_wwan_driver(name) == _plain(name), name
        assert is_wwan_driver(name) == _plain(name), name  # the kept answer
    assert any(map(is_wwan_driver, _NAMES)) and not all(map(is_wwan_driver, _NAMES))
    assert is_wwan_driver("qmi_wwan") and is_wwan_driver("huawei_cdc_ncm")
    assert not is_wwan_driver("r8152") and not is_wwan_driver("cdc_ether")


@given(st.sampled_from(_NAMES) | st.text(max_size=12) | st.none() | st.integers())
def test_any_value_answers_as_the_plain_function(name: object) -> None:
    assert is_wwan_driver(name) == _plain(name)


def test_a_name_asked_again_is_not_looked_up_again() -> None:
    wwan_ids._is_wwan_name.cache_clear()
    for _ in range(50):
        assert is_wwan_driver("qmi_wwan") and not is_wwan_driver("r8152")
    info = wwan_ids._is_wwan_name.cache_info()
    assert (info.misses, info.hits) == (2, 98)
